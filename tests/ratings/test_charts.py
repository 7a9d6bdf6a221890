"""The SVG charts: accessible, escaped, and drawn where the numbers say."""

from __future__ import annotations

import re

from tournaments import charts


def test_a_line_chart_is_an_image_with_a_title_and_a_description() -> None:
    svg = charts.line_chart(
        "c", "Title <b>", "Desc & more", [charts.Point("1", 3.0), charts.Point("2", 5.0)]
    )
    assert svg.startswith('<svg class="chart chart-line" id="c" role="img"')
    assert 'aria-labelledby="c-title c-desc"' in svg
    assert '<title id="c-title">Title &lt;b&gt;</title>' in svg
    assert '<desc id="c-desc">Desc &amp; more</desc>' in svg
    assert "style=" not in svg


def test_an_inverted_line_puts_the_first_place_at_the_top() -> None:
    svg = charts.line_chart(
        "p",
        "t",
        "d",
        [charts.Point("R1", 4), charts.Point("R2", 1)],
        low=1,
        high=4,
        inverted=True,
    )
    ys = [float(y) for y in re.findall(r'<circle class="dot" cx="[\d.]+" cy="([\d.]+)"', svg)]
    assert ys[1] < ys[0]
    assert ys[1] == charts.TOP


def test_a_missing_value_breaks_the_line() -> None:
    points = [charts.Point(str(n), v) for n, v in enumerate([1.0, 2.0, None, 3.0, 4.0])]
    svg = charts.line_chart("g", "t", "d", points)
    assert svg.count("<polyline") == 2
    assert svg.count("<circle") == 4


def test_a_point_says_its_text_in_its_tooltip() -> None:
    svg = charts.line_chart("g", "t", "d", [charts.Point("a", 1.0, "Evening <1>: 1012")])
    assert "<title>Evening &lt;1&gt;: 1012</title>" in svg


def test_bars_stay_within_the_track() -> None:
    svg = charts.bar_chart(
        "b", "t", "d", [charts.Bar("T1", 150.0, "x"), charts.Bar("T2", -3.0, "y")]
    )
    widths = re.findall(r'<rect class="bar" x="\d+" y="\d+" width="([\d.]+)"', svg)
    track = re.search(r'<rect class="track" x="\d+" y="\d+" width="(\d+)"', svg)
    assert track is not None
    assert widths == [track.group(1), "0"]


def test_the_movement_grid_has_a_cell_per_table_and_round() -> None:
    plan = {
        "rounds": [
            {"round": 1, "tables": [{"table": 1, "N": 1, "E": 2, "S": 3, "W": 4}], "byes": []},
            {"round": 2, "tables": [{"table": 2, "N": 4, "E": 3, "S": 2, "W": 1}], "byes": []},
        ]
    }
    svg = charts.movement_grid(plan, {1: "An <Peeters>"})
    assert svg is not None
    assert svg.count('<g class="cell">') == 2
    assert ">N1 E2<" in svg
    assert ">S3 W4<" in svg
    assert "Round 1, table 1: N 1. An &lt;Peeters&gt;, E 2., S 3., W 4." in svg
    assert charts.movement_grid({"rounds": []}, {}) is None
