"""Ronde Pas at the scoring table: an all-passed Wiezen board plays the game the event assigns it.

wiezen-pagat.txt: "This first time everyone passes the first game is played. The next time everyone
passes, the second game on the list is played, then the third, then back to the first." In a
duplicate event the TD chooses: the same game at every table (board n plays the n-th game), or in
turn at each table, as at a home table.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from engine.results import RondePasGame
from engine.ruleset import load_builtin, load_ruleset, ruleset_to_mapping, ruleset_to_toml
from tests.tournaments.conftest import TEST_KEY, make_settings, register
from tournaments import rulesets
from tournaments.errors import UserError
from tournaments.models import Event, Table, TableBoard
from tournaments.services import deals, events, results, rounds, seating

pytestmark = pytest.mark.django_db

LINES = {
    RondePasGame.LAST_TRICK: "ronde last E",
    RondePasGame.QUEENS: "ronde queens N1 E2 S1 W0",
    RondePasGame.FEWEST_TRICKS: "ronde tricks N3 E4 S2 W4",
}


def wiezen_with_ronde_pas() -> str:
    document = ruleset_to_mapping(load_builtin("iwwa-wiezen"))
    document["name"] = "club-wiezen"
    document["auction"]["ronde_pas"] = True
    return ruleset_to_toml(load_ruleset(document))


def ronde_pas_event(td: User, games: str) -> Event:
    settings = make_settings(
        slug=f"wiezen-{games}",
        game="wiezen",
        ruleset_name=rulesets.CUSTOM,
        ruleset_toml=wiezen_with_ronde_pas(),
        ronde_pas_games=games,
    )
    event = events.create_event(td, settings)
    register(td, event, 8)
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    return Event.objects.get(pk=event.pk)


def boards_of(table: Table) -> list[TableBoard]:
    return list(table.table_boards.select_related("board").order_by("position"))


def test_the_same_game_at_every_table_follows_the_board_number(td: User) -> None:
    event = ronde_pas_event(td, Event.RondePasGames.BY_BOARD)
    table = Table.objects.filter(round__event=event, round__number=1).first()
    assert table is not None
    for table_board in boards_of(table)[:3]:
        board = table_board.board
        expected = [RondePasGame.LAST_TRICK, RondePasGame.QUEENS, RondePasGame.FEWEST_TRICKS][
            (board.number - 1) % 3
        ]
        assert results.expected_ronde_pas_game(event, table, board) is expected
        wrong = next(game for game in LINES if game is not expected)
        with pytest.raises(UserError) as refused:
            results.record_result(td, table, board, LINES[wrong])
        assert refused.value.code == "ronde_pas_game"
        assert f"Board {board.number} at table {table.number}" in refused.value.message
        result = results.record_result(td, table, board, LINES[expected])
        assert sum(result.scores) == 0


def test_in_turn_at_a_table_the_games_follow_the_all_passed_boards(td: User) -> None:
    event = ronde_pas_event(td, Event.RondePasGames.BY_TABLE)
    table = Table.objects.filter(round__event=event, round__number=1).first()
    assert table is not None
    first, second, third, fourth = (tb.board for tb in boards_of(table)[:4])
    # The first board played at the table was all-passed: the first game.
    assert results.expected_ronde_pas_game(event, table, first) is RondePasGame.LAST_TRICK
    results.record_result(td, table, first, LINES[RondePasGame.LAST_TRICK])
    # An ordinary game in between does not move the rotation on.
    accept = "NE 8" + second.trump_card[0] + " 8"
    results.record_result(td, table, second, accept, confirmed=True)
    assert results.expected_ronde_pas_game(event, table, third) is RondePasGame.QUEENS
    with pytest.raises(
        UserError, match="plays the Ronde Pas game “no queens”, not “lose the last trick”"
    ):
        results.record_result(td, table, third, LINES[RondePasGame.LAST_TRICK])
    results.record_result(td, table, third, LINES[RondePasGame.QUEENS])
    assert results.expected_ronde_pas_game(event, table, fourth) is RondePasGame.FEWEST_TRICKS


def test_in_turn_the_game_is_not_checked_while_an_earlier_board_has_no_result(td: User) -> None:
    event = ronde_pas_event(td, Event.RondePasGames.BY_TABLE)
    table = Table.objects.filter(round__event=event, round__number=1).first()
    assert table is not None
    _first, second = (tb.board for tb in boards_of(table)[:2])
    assert results.expected_ronde_pas_game(event, table, second) is None
    results.record_result(td, table, second, LINES[RondePasGame.QUEENS])  # not refused


def test_a_ruleset_without_ronde_pas_refuses_the_result(td: User) -> None:
    settings = make_settings(slug="plain-wiezen", game="wiezen", ruleset_name="iwwa-wiezen")
    event = events.create_event(td, settings)
    register(td, event, 8)
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    rounds.open_round(td, event.round_set.get(number=1))
    table = Table.objects.filter(round__event=event, round__number=1).first()
    assert table is not None
    board = boards_of(table)[0].board
    with pytest.raises(UserError, match="plays no Ronde Pas"):
        results.record_result(td, table, board, LINES[RondePasGame.LAST_TRICK])
