"""The hand records print each board's double-dummy table under its hands, once it is stored.

The solver takes well over a minute on a board today: these tests store a table built from
known JSON (tests/tournaments/test_analysis.py's ``known_table``) through the real job, with the
solver stood in for, and read the PDF's text back.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from documents import freshness
from documents.freshness import CURRENT, OUT_OF_DATE, Freshness
from documents.kinds import renderer_for
from engine.deals import BoardDeal
from engine.doubledummy import BoardTable
from tests.documents.conftest import freshness as freshness_of
from tests.documents.conftest import pdf_pages, pdf_text
from tests.documents.test_freshness import made
from tests.tournaments.test_analysis import known_table
from tournaments.models import AuditEntry, Event
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


def test_hand_records_made_before_a_table_arrived_are_out_of_date(
    td: User, draft: Event, solver: None, media: Path
) -> None:
    whole = made(td, draft, "hand_records")
    round_one = made(td, draft, "hand_records", round_number=1)
    slips = made(td, draft, "dealing_slips")
    assert freshness_of(draft, whole).state == CURRENT

    round_two_boards = sorted(
        draft.round_set.get(number=2).tables.values_list("table_boards__board__number", flat=True)
    )
    analyse(draft, [round_two_boards[0]])

    assert freshness_of(draft, whole).state == OUT_OF_DATE
    assert freshness_of(draft, whole).changes == (
        "Double-dummy tables were worked out after this file was made: make it again to print them.",
    )
    assert freshness_of(draft, round_one).state == CURRENT  # another round's board
    assert freshness_of(draft, slips).state == CURRENT  # the slips print no table
    assert freshness_of(draft, made(td, draft, "hand_records")).state == CURRENT


def test_a_table_stored_before_the_board_is_in_a_round_flags_every_rounds_hand_records(
    td: User, draft: Event, media: Path
) -> None:
    # Dealt before the movement, a board is in no round: its entry names none.
    whole = made(td, draft, "hand_records")
    round_one = made(td, draft, "hand_records", round_number=1)
    AuditEntry.objects.create(
        event=draft,
        action=freshness.ANALYSIS_DONE,
        summary="double-dummy table of board 5 stored",
        data={"board": 5},
    )
    assert freshness_of(draft, whole).state == OUT_OF_DATE
    assert freshness_of(draft, round_one).state == OUT_OF_DATE


def test_a_stored_table_flags_the_hand_records_of_the_rounds_its_entry_names(
    td: User, draft: Event, media: Path
) -> None:
    # What the documents read of the entry written when a table is stored (analysis.done).
    whole = made(td, draft, "hand_records")
    round_one = made(td, draft, "hand_records", round_number=1)
    round_two = made(td, draft, "hand_records", round_number=2)
    slips = made(td, draft, "dealing_slips")
    AuditEntry.objects.create(
        event=draft,
        action=freshness.ANALYSIS_DONE,
        summary="double-dummy table of board 5 stored",
        data={"board": 5, "rounds": [2]},
    )
    worked_out = (
        "Double-dummy tables were worked out after this file was made: make it again to print them.",
    )
    assert freshness_of(draft, whole) == Freshness(OUT_OF_DATE, worked_out)
    assert freshness_of(draft, round_two) == Freshness(OUT_OF_DATE, worked_out)
    assert freshness_of(draft, round_one).state == CURRENT
    assert freshness_of(draft, slips).state == CURRENT  # the slips print no table
