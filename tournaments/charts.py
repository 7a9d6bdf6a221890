"""Charts drawn on the server as SVG: a line over time, bars, and the movement's grid.

No script and no style attribute (the site's content security policy allows neither): shapes
carry classes that ``static/troef/charts.css`` colours. Each chart is an image with a title and a
description for screen readers (``role="img"``, ``aria-labelledby``); the pages that show one
also give its numbers as a table. Texts arrive translated; everything is escaped here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

# The line chart's own units; it is drawn to the page's width, down to a phone's 375 pixels, so the
# texts (14 units, charts.css) stay readable there.
WIDTH = 480
HEIGHT = 240
LEFT = 52
RIGHT = 40
TOP = 14
BOTTOM = 34
# At most this many labels along the bottom: a long history shows every n-th.
MOST_X_LABELS = 5


def _number(value: float) -> str:
    """A coordinate, short: SVG needs no more than a tenth of a unit."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _open(chart_id: str, title: str, description: str, width: int, height: int, kind: str) -> str:
    return (
        f'<svg class="chart chart-{kind}" id="{escape(chart_id)}" role="img" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'preserveAspectRatio="xMinYMin meet" xmlns="http://www.w3.org/2000/svg" '
        f'aria-labelledby="{escape(chart_id)}-title {escape(chart_id)}-desc">'
        f'<title id="{escape(chart_id)}-title">{escape(title)}</title>'
        f'<desc id="{escape(chart_id)}-desc">{escape(description)}</desc>'
    )


@dataclass(frozen=True)
class Point:
    """One point of a line: its label along the bottom, its value (``None``: no point there),
    the text its tooltip shows, and optionally a band around it (low, high)."""

    label: str
    value: float | None
    text: str = ""
    band: tuple[float, float] | None = None


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round figures between ``low`` and ``high`` for the grid lines."""
    span = high - low
    if span <= 0:
        return [low]
    raw = span / count
    magnitude = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1.0
    step = next((m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw), 10 * magnitude)
    first = int(low // step + (1 if low % step else 0)) * step
    out = []
    value = first
    while value <= high + 1e-9:
        out.append(value)
        value += step
    return out


def line_chart(
    chart_id: str,
    title: str,
    description: str,
    points: Sequence[Point],
    *,
    low: float | None = None,
    high: float | None = None,
    inverted: bool = False,
    whole: bool = True,
) -> SafeString:
    """A line through ``points`` from left to right; ``inverted`` puts the lowest value at the top
    (a place: the first at the top). ``low`` and ``high`` fix the scale, else the values set it."""
    values = [p.value for p in points if p.value is not None]
    values += [edge for p in points if p.band is not None for edge in p.band]
    low = min(values, default=0.0) if low is None else low
    high = max(values, default=1.0) if high is None else high
    if high <= low:
        low, high = low - 1, high + 1
    inner_width = WIDTH - LEFT - RIGHT
    inner_height = HEIGHT - TOP - BOTTOM
    # The first and last points stand clear of the axis's figures and the edge.
    pad = 16
    step = (inner_width - 2 * pad) / max(len(points) - 1, 1)

    def x_of(index: int) -> float:
        return LEFT + pad + (index * step if len(points) > 1 else inner_width / 2 - pad)

    def y_of(value: float) -> float:
        share = (value - low) / (high - low)
        return TOP + (share if inverted else 1 - share) * inner_height

    parts = [_open(chart_id, title, description, WIDTH, HEIGHT, "line")]
    ticks = _ticks(low, high)
    if inverted and whole:
        # Places: the first place always has its line.
        ticks = sorted({1.0, *(tick for tick in ticks if tick > 1)})
    for tick in ticks:
        y = _number(y_of(tick))
        label = str(round(tick)) if whole else f"{tick:g}"
        parts.append(
            f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y}" y2="{y}"/>'
            f'<text class="axis" x="{LEFT - 6}" y="{y}" text-anchor="end" '
            f'dominant-baseline="middle">{escape(label)}</text>'
        )
    every = max(1, -(-len(points) // MOST_X_LABELS))
    for index, point in enumerate(points):
        if index % every == 0 or index == len(points) - 1:
            parts.append(
                f'<text class="axis" x="{_number(x_of(index))}" y="{HEIGHT - BOTTOM + 22}" '
                f'text-anchor="middle">{escape(point.label)}</text>'
            )
    banded = [(index, p.band) for index, p in enumerate(points) if p.band is not None]
    if len(banded) > 1:
        upper = [f"{_number(x_of(i))},{_number(y_of(band[1]))}" for i, band in banded]
        lower = [f"{_number(x_of(i))},{_number(y_of(band[0]))}" for i, band in reversed(banded)]
        parts.append(f'<polygon class="band" points="{" ".join(upper + lower)}"/>')
    # A missing value breaks the line: a round without a place is not drawn through.
    run: list[str] = []
    for index, point in enumerate([*points, Point("", None)]):
        if point.value is None:
            if len(run) > 1:
                parts.append(f'<polyline class="line" points="{" ".join(run)}"/>')
            run = []
            continue
        run.append(f"{_number(x_of(index))},{_number(y_of(point.value))}")
    for index, point in enumerate(points):
        if point.value is None:
            continue
        parts.append(
            f'<circle class="dot" cx="{_number(x_of(index))}" cy="{_number(y_of(point.value))}" '
            f'r="4"><title>{escape(point.text or point.label)}</title></circle>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text above went through escape()


@dataclass(frozen=True)
class Bar:
    """One bar: its label, its share of the full width (0 to 100) and the text beside it."""

    label: str
    share: float
    text: str


BAR_HEIGHT = 22
BAR_GAP = 6
BAR_LABEL = 120
BAR_TEXT = 110


def bar_chart(chart_id: str, title: str, description: str, bars: Sequence[Bar]) -> SafeString:
    """Horizontal bars from 0 to 100, one per line, with a mark at 50 (an average board)."""
    width = 420
    height = TOP + len(bars) * (BAR_HEIGHT + BAR_GAP) + 8
    span = width - BAR_LABEL - BAR_TEXT
    parts = [_open(chart_id, title, description, width, height, "bars")]
    for index, bar in enumerate(bars):
        y = TOP + index * (BAR_HEIGHT + BAR_GAP)
        share = max(0.0, min(100.0, bar.share))
        parts.append(
            f'<text class="axis" x="{BAR_LABEL - 8}" y="{_number(y + BAR_HEIGHT / 2)}" '
            f'text-anchor="end" dominant-baseline="middle">{escape(bar.label)}</text>'
            f'<rect class="track" x="{BAR_LABEL}" y="{y}" width="{span}" height="{BAR_HEIGHT}"/>'
            f'<rect class="bar" x="{BAR_LABEL}" y="{y}" width="{_number(span * share / 100)}" '
            f'height="{BAR_HEIGHT}"><title>{escape(bar.label)}: {escape(bar.text)}</title></rect>'
            f'<text class="value" x="{BAR_LABEL + span + 6}" y="{_number(y + BAR_HEIGHT / 2)}" '
            f'dominant-baseline="middle">{escape(bar.text)}</text>'
        )
    middle = _number(BAR_LABEL + span / 2)
    parts.append(
        f'<line class="mark" x1="{middle}" x2="{middle}" y1="{TOP - 4}" y2="{height - 4}"/>'
    )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text above went through escape()


@dataclass(frozen=True)
class Cell:
    """One table in one round of the grid: the lines it shows and the tooltip's text."""

    lines: tuple[str, ...]
    text: str


CELL_WIDTH = 96
CELL_HEIGHT = 44
HEADER = 26


def grid_chart(
    chart_id: str,
    title: str,
    description: str,
    rows: Sequence[tuple[str, Sequence[Cell | None]]],
    columns: Sequence[str],
) -> SafeString:
    """A grid of labelled rows by labelled columns, each cell a few short lines (a table's seats
    in a round); ``None`` is an empty cell."""
    width = LEFT + len(columns) * CELL_WIDTH + 4
    height = HEADER + len(rows) * CELL_HEIGHT + 4
    parts = [_open(chart_id, title, description, width, height, "grid")]
    for column, label in enumerate(columns):
        centre = _number(LEFT + column * CELL_WIDTH + CELL_WIDTH / 2)
        parts.append(
            f'<text class="axis" x="{centre}" y="{HEADER - 8}" text-anchor="middle">'
            f"{escape(label)}</text>"
        )
    for row, (label, cells) in enumerate(rows):
        y = HEADER + row * CELL_HEIGHT
        parts.append(
            f'<text class="axis" x="{LEFT - 8}" y="{_number(y + CELL_HEIGHT / 2)}" '
            f'text-anchor="end" dominant-baseline="middle">{escape(label)}</text>'
        )
        for column, cell in enumerate(cells):
            if cell is None:
                continue
            x = LEFT + column * CELL_WIDTH
            parts.append(
                f'<g class="cell"><title>{escape(cell.text)}</title>'
                f'<rect x="{x + 1}" y="{y + 1}" width="{CELL_WIDTH - 2}" '
                f'height="{CELL_HEIGHT - 2}" rx="3"/>'
            )
            for index, line in enumerate(cell.lines[:2]):
                parts.append(
                    f'<text x="{_number(x + CELL_WIDTH / 2)}" y="{y + 17 + index * 16}" '
                    f'text-anchor="middle">{escape(line)}</text>'
                )
            parts.append("</g>")
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text above went through escape()


def movement_grid(plan: Mapping[str, Any], names: Mapping[int, str]) -> SafeString | None:
    """The movement as a grid of rounds by tables: each cell the player numbers at each seat,
    the players' names in its tooltip. ``plan`` is ``seating.export_json``'s document."""
    rounds = plan.get("rounds") or []
    if not rounds:
        return None
    count = max((table["table"] for item in rounds for table in item["tables"]), default=0)
    rows = []
    for item in rounds:
        cells: list[Cell | None] = [None] * count
        for table in item["tables"]:
            seats = [(seat, table.get(seat)) for seat in ("N", "E", "S", "W", "X")]
            held = [(seat, number) for seat, number in seats if number is not None]
            first = " ".join(f"{seat}{number}" for seat, number in held[:2])
            second = " ".join(f"{seat}{number}" for seat, number in held[2:])
            text = _("Round %(round)s, table %(table)s: %(players)s") % {
                "round": item["round"],
                "table": table["table"],
                "players": ", ".join(
                    f"{seat} {number}. {names.get(number, '')}".rstrip() for seat, number in held
                ),
            }
            cells[table["table"] - 1] = Cell((first, second), text)
        rows.append((_("R%(round)s") % {"round": item["round"]}, cells))
    return grid_chart(
        "movement-grid",
        _("The movement: who sits where, round by round"),
        _(
            "%(rounds)s rounds by %(tables)s tables; each cell lists the player numbers at "
            "seats N, E, S and W. The tables below give the same seating with the names."
        )
        % {"rounds": len(rounds), "tables": count},
        rows,
        [_("T%(table)s") % {"table": number} for number in range(1, count + 1)],
    )
