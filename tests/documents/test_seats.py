"""Vacant seats and substitutes on the score sheets, guide cards and table cards."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from documents import loaders
from documents.freshness import CURRENT, OUT_OF_DATE
from documents.kinds import renderer_for
from tests.documents.conftest import freshness, pdf_pages, pdf_text, stored
from tournaments.models import Entry, Event, Player, Seating
from tournaments.services import players, substitutes

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@pytest.fixture
def seats(td: User, draft: Event) -> dict[str, Entry]:
    """In round 2 at table 1, N's seat is vacant and a substitute sits in E's."""
    substitute = players.register_player(td, draft, first_name="Invaller", last_name="Reserve")
    Entry.objects.filter(pk=substitute.pk).update(role=Entry.Role.SUBSTITUTE)
    Seating.objects.filter(round__event=draft, entry=substitute).delete()  # seated by us only
    north = Seating.objects.get(round__event=draft, round__number=2, table__number=1, seat="N")
    east = Seating.objects.get(round__event=draft, round__number=2, table__number=1, seat="E")
    absent, replaced = north.planned, east.planned
    Seating.objects.filter(pk=north.pk).update(entry=None, replaces=absent)
    Seating.objects.filter(pk=east.pk).update(entry=substitute, replaces=replaced)
    substitute.refresh_from_db()
    return {"absent": absent, "replaced": replaced, "substitute": substitute}


def render(event: Event, kind: str, round_number: int | None = None) -> str:
    return pdf_text(renderer_for(event, kind, round_number=round_number, language="en").render())


def test_it_prints_a_vacant_seat_as_an_empty_line_and_a_substitute_marked(
    draft: Event, seats: dict[str, Entry]
) -> None:
    rendered = renderer_for(draft, "score_sheets", round_number=2, language="en").render()
    sheet = pdf_pages(rendered)[0]  # table 1's front
    absent, substitute = seats["absent"], seats["substitute"]
    assert f"{substitute.number}. Invaller Reserve (substitute)" in sheet
    assert absent.player.full_name not in sheet
    assert f"N {absent.number}" not in sheet  # the vacant seat's running total has no number
    assert f"E {substitute.number}" in sheet
    table_card = render(draft, "table_cards", 2)
    assert "Invaller Reserve (substitute)" in table_card
    assert absent.player.full_name not in table_card.split("Table 2")[0]
    assert "Invaller Reserve (substitute)" in render(draft, "table_cards")
    assert "Invaller Reserve (substitute)" in render(draft, "round_pack", 2)


def test_it_tells_the_players_who_do_not_play_a_round_on_their_guide_cards(
    draft: Event, seats: dict[str, Entry]
) -> None:
    data = loaders.seating_cards(draft)
    cards = {card.person.number: card for card in data.guide_cards}
    for planned in (seats["absent"], seats["replaced"]):
        placements = {p.round: p for p in cards[planned.number].placements}
        assert sorted(placements) == [1, 2, 3]
        assert placements[2].seat == "ABSENT"
        assert placements[2].table is None
    substitute = cards[seats["substitute"].number]
    assert substitute.person.substitute
    assert [(p.round, p.table, p.seat) for p in substitute.placements] == [(2, 1, "E")]
    text = " ".join(render(draft, "guide_cards").split())
    assert "2 — — not playing" in text
    assert "substitute" in text


def test_it_keeps_a_file_with_a_vacant_seat_up_to_date_until_the_seat_is_filled(
    td: User, draft: Event, seats: dict[str, Entry]
) -> None:
    sheets_1 = stored(draft, "score_sheets", 1)
    files = [stored(draft, kind, 2) for kind in ("score_sheets", "table_cards", "round_pack")]
    files.append(stored(draft, "guide_cards", None))
    assert [freshness(draft, report).state for report in files] == [CURRENT] * 4
    late = Player.objects.create(first_name="Laat", last_name="Komer")
    substitutes.seat_substitute(td, draft.round_set.get(number=2), seats["absent"], late)
    assert [freshness(draft, report).state for report in files] == [OUT_OF_DATE] * 4
    assert freshness(draft, sheets_1).state == CURRENT  # the substitute plays round 2 only


def test_it_never_ranks_a_substitute_on_the_standings(
    draft: Event, seats: dict[str, Entry]
) -> None:
    # The standings may leave a substitute out or list them; either way without a place.
    number = seats["substitute"].number
    rows = loaders.standings_data(draft).rows
    assert [row.entry for row in rows if row.entry == number and row.ranked] == []
    for row in rows:
        if row.entry == number:
            assert row.substitute
            assert rows[-1] == row
    lines = [" ".join(line.split()) for line in render(draft, "standings").splitlines()]
    assert not [line for line in lines if "Invaller Reserve" in line and line[0].isdigit()]
