"""The standings and the summary laid out: headings that fit their columns in every language,
and players without a place listed after the ranking."""

from __future__ import annotations

import datetime as dt
import io
import re
from typing import Any

import pytest
from django.utils import translation
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from documents.data import (
    EventInfo,
    EventSummary,
    RoundFacts,
    StandingRow,
    StandingsData,
)
from documents.loaders import _printed_order
from documents.renderers.base import BOLD, register_fonts
from documents.renderers.standings import PADDING, HeaderCell, StandingsRenderer, SummaryRenderer
from tests.documents.conftest import pdf_text

EVENT = EventInfo("lang", "Kampioenschap van de Vlaamse Ardennen", dt.date(2026, 10, 3), "Zaal")
NAMES = ("Geneviève Vandenbroucke-Delacroix", "Zoë Van den Eynde", "Agnès Simon", "Émilie Cools")
CLUBS = ("Koninklijke Whistclub De Verenigde Vrienden", "WC Ronse", "", "Wiezers Gent")


def standings(rounds: int, players: int = 24, figure: str = "100.00") -> StandingsData:
    """``players`` players, the last three without a place; every round's figure ``figure``."""
    rows = tuple(
        StandingRow(
            place=str(n) if n <= players - 3 else "",
            entry=n,
            name=NAMES[n % len(NAMES)],
            club=CLUBS[n % len(CLUBS)],
            total="100.00" if n == 1 else f"{60 - n / 3:.2f}" if n <= players - 3 else "",
            rounds={str(r): figure for r in range(1, rounds + 1)} if n <= players - 3 else {},
            boards=rounds * 4 if n <= players - 3 else 0,
            withdrawn=n == 5,
        )
        for n in range(1, players + 1)
    )
    return StandingsData(EVENT, "matchpoints", tuple(range(1, rounds + 1)), rows)


def summary(rounds: int) -> EventSummary:
    facts = tuple(RoundFacts(r, "closed", 12, 1, 48, 48) for r in range(1, rounds + 1))
    return EventSummary(
        EVENT, "running", 49, 2, rounds, 4, rounds * 4, rounds * 48, "ab" * 32, "", facts,
        standings(rounds), substitutes=1,
    )  # fmt: skip


def check_fits(cells: list[HeaderCell]) -> None:
    """Every line of every heading, measured anew, within its column's width less the padding."""
    assert cells
    for cell in cells:
        assert 1 <= len(cell.lines) <= 2, cell
        assert " ".join(cell.lines) == cell.text, f"{cell.text!r} was cut short"
        for line in cell.lines:
            width = stringWidth(line, BOLD, cell.size)
            assert width <= cell.width - 2 * PADDING, f"{line!r} is {width:.1f} wide in {cell}"


def bold_runs(content: bytes) -> list[tuple[float, float, str]]:
    """(x, width, text) of every run of small bold text (the tables' headings and totals)."""
    runs: list[tuple[float, float, str]] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, size: float) -> None:
        name = str(font.get("/BaseFont", "")) if font else ""
        scale = float(tm[0]) * float(cm[0])
        if not text.strip() or "Bold" not in name or size * scale > 9:
            return
        x = float(tm[4]) * float(cm[0]) + float(cm[4])
        runs.append((x, stringWidth(text.strip(), BOLD, size * scale), text.strip()))

    for page in PdfReader(io.BytesIO(content)).pages:
        page.extract_text(visitor_text=visit)
    return runs


@pytest.mark.parametrize("language", ["nl", "fr", "en"])
@pytest.mark.parametrize("rounds", [8, 12])
@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_it_fits_every_heading_of_the_standings_in_its_column(
    language: str, rounds: int, paper: str
) -> None:
    register_fonts()
    renderer = StandingsRenderer(standings(rounds), language=language, paper=paper)
    with translation.override(language):
        for band, last in renderer.bands():
            widths = renderer.widths(band, last)
            assert sum(widths) <= renderer.usable_width + 0.01, "the table is wider than the page"
            check_fits(renderer.header_cells(band, last))
        columns = []  # (left, right) of every column of every table
        for band, last in renderer.bands():
            x = renderer.left
            for width in renderer.widths(band, last):
                columns.append((x, x + width))
                x += width
    # Read back from the PDF: each heading (and each bold total) lies inside one column.
    runs = bold_runs(renderer.render().content)
    assert runs
    for x, width, text in runs:
        assert any(a - 0.5 <= x and x + width <= b + 0.5 for a, b in columns), (
            f"{text!r} at {x:.1f}–{x + width:.1f} crosses a column's edge"
        )


@pytest.mark.parametrize("language", ["nl", "fr", "en"])
@pytest.mark.parametrize("rounds", [8, 12])
def test_it_fits_every_heading_of_the_summary_in_its_column(language: str, rounds: int) -> None:
    register_fonts()
    renderer = SummaryRenderer(summary(rounds), language=language)
    with translation.override(language):
        check_fits(renderer.header_cells())
    assert renderer.render().content.startswith(b"%PDF")


def test_it_turns_the_paper_only_when_the_rounds_leave_too_little_room_for_the_names() -> None:
    upright = StandingsRenderer(standings(6, figure="54.17")).page_size
    assert upright[0] < upright[1]
    wide = StandingsRenderer(standings(8, figure="54.17")).page_size
    assert wide[0] > wide[1]


def test_it_lists_players_without_a_place_after_the_ranking_with_a_dash() -> None:
    data = standings(3, players=8)
    text = pdf_text(StandingsRenderer(data, language="en").render())
    lines = [" ".join(line.split()) for line in text.splitlines()]
    ranking = [line for line in lines if re.match(r"\d+=? \d+ ", line)]
    assert len(ranking) == 5
    heading = next(i for i, line in enumerate(lines) if line == "No result yet: not ranked")
    unplaced = [line for line in lines[heading + 1 :] if line.startswith("— ")]
    assert [line.split()[1] for line in unplaced] == ["6", "7", "8"]
    assert all(line.endswith("— 0") for line in unplaced)  # no total, no boards
    assert lines.index(ranking[-1]) < heading
    assert "“—”: not ranked." in " ".join(lines)


def test_it_lists_a_player_who_withdrew_before_playing_among_the_unplaced() -> None:
    rows = (
        StandingRow("1", 1, "Agnès Simon", "", "55.00", {"1": "55.00"}, 4),
        StandingRow("", 2, "Zoë Cools", "", "", {}, 0, withdrawn=True),
    )
    text = pdf_text(
        StandingsRenderer(StandingsData(EVENT, "matchpoints", (1,), rows), language="en").render()
    )
    lines = [" ".join(line.split()) for line in text.splitlines()]
    assert "— 2 Zoë Cools (withdrawn) — 0" in lines


def test_it_never_ranks_a_substitute_and_closes_up_the_places_after_one() -> None:
    def row(place: str, number: int, substitute: bool = False) -> StandingRow:
        return StandingRow(place, number, f"P{number}", "", "50", {}, 4, substitute=substitute)

    rows = [row("1", 1), row("2", 9, True), row("3=", 2), row("3=", 3), row("5", 4), row("", 5)]
    printed = _printed_order(rows)
    assert [(r.place, r.entry) for r in printed] == [
        ("1", 1), ("2=", 2), ("2=", 3), ("4", 4), ("", 5), ("", 9),
    ]  # fmt: skip
    assert printed[-1].substitute
    text = pdf_text(
        StandingsRenderer(StandingsData(EVENT, "raw", (1,), tuple(printed)), language="en").render()
    )
    lines = [" ".join(line.split()) for line in text.splitlines()]
    heading = lines.index("Substitutes: not ranked")
    assert any(line.startswith("— 9 P9") for line in lines[heading + 1 :])
