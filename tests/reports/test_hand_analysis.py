"""The hand records print each board's double-dummy table under its hands, once it is stored.

The solver takes well over a minute on a board today: these tests store a table built from
known JSON (tests/tournaments/test_analysis.py's ``known_table``) through the real job, with the
solver stood in for, and read the PDF's text back.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from engine.deals import BoardDeal
from engine.doubledummy import BoardTable
from tests.reports.conftest import pdf_pages, pdf_text
from tests.tournaments.test_analysis import known_table
from tournaments.models import Event
from tournaments.reports.documents import renderer_for
from tournaments.services import analysis


@pytest.fixture
def solver(monkeypatch: pytest.MonkeyPatch) -> None:
    def compute(deal: BoardDeal) -> BoardTable:
        return known_table(deal)

    monkeypatch.setattr(analysis, "compute_table", compute)


def analyse(event: Event, numbers: list[int]) -> None:
    for pk in event.boards.filter(number__in=numbers).values_list("pk", flat=True):
        analysis.analyse_board(pk)


def compact(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_it_prints_the_table_under_each_analysed_boards_hands(
    td: User, draft: Event, solver: None
) -> None:
    analyse(draft, [1, 2])
    pages = pdf_pages(renderer_for(draft, "hand_records", language="en").render())
    first = compact(pages[0])
    assert first.count("Double dummy, ") == 2  # boards 1 and 2 of the six on the page
    assert "pairs ♠ ♥ ♦ ♣ NT alone ♠ ♥ ♦ ♣ NT" in first
    # Each pair's row beside a seat's alone, as the two grids stand side by side.
    assert "NS 7 6 8 5 9 N 5 4 3 2 1" in first
    assert "NW 4 5 3 8 2 S 6 5 4 3 2" in first
    assert "Misère: N · piccolo: NE W 2 2 2 2 2" in first
    assert "Double dummy" not in compact(pages[1])


def test_it_names_the_seat_that_leads_the_tables_contracts(
    td: User, draft: Event, solver: None
) -> None:
    analyse(draft, [1])
    leader = draft.boards.get(number=1).dealer
    seats = "NESW"
    expected = seats[(seats.index(leader) + 1) % 4]
    text = compact(pdf_text(renderer_for(draft, "hand_records", language="en").render()))
    assert f"Double dummy, {expected} leading" in text


def test_it_prints_no_table_before_the_analysis_is_stored(
    td: User, draft: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(analysis, "compute_table", lambda deal: 1 / 0)
    analyse(draft, [1])  # stored as failed: nothing to print
    text = compact(pdf_text(renderer_for(draft, "hand_records", language="en").render()))
    assert "Board 1" in text
    assert "Double dummy" not in text
