"""The ratings' tests: finished events of a club, played in full with the services."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client

from engine.cards import Seat, Suit
from engine.hands import Deal
from tests.tournaments.conftest import TEST_KEY, make_settings, register
from tournaments.errors import UserError
from tournaments.models import Board, Event, Table
from tournaments.services import deals, events, results, rounds, seating, standings

ORDER = "NESW"


@pytest.fixture
def client() -> Client:
    """A browser that asks for English, the source language: the site's default is Dutch."""
    return Client(headers={"accept-language": "en"})


def lines_for(board: Board, seats: dict[str, int], winner: int | None) -> list[str]:
    """Result lines to try, best first: the ``winner`` (a player number) and the next seat accept
    and take as many tricks as the cards allow when the winner is at the table; elsewhere N and E
    accept and make exactly eight."""
    deal = Deal.from_pbn(board.deal)
    declarers = "NE"
    tricks = [8]
    for seat, number in seats.items():
        if number == winner and seat in ORDER:
            partner = ORDER[(ORDER.index(seat) + 1) % 4]
            declarers = "".join(sorted(seat + partner, key=ORDER.index))
            tricks = list(range(13, 7, -1))
    first, second = (Seat[name] for name in declarers)
    suit = next(s for s in Suit if deal.hand(first).has_suit(s) and deal.hand(second).has_suit(s))
    return [f"{declarers} 8{suit.name} {count}" for count in tricks]


def record(td: User, table: Table, board: Board, lines: list[str]) -> None:
    """The first line of ``lines`` that the board's cards allow."""
    for line in lines[:-1]:
        try:
            results.record_result(td, table, board, line, confirmed=True)
        except UserError:
            continue
        return
    results.record_result(td, table, board, lines[-1], confirmed=True)


def play_event(
    td: User,
    slug: str,
    date: dt.date,
    *,
    players: int = 8,
    winner: int | None = 1,
    finish: bool = True,
    round_count: int = 2,
) -> Event:
    """An event of the td's club played in full (rounds of 2 boards) and finished; the same
    names each time, so the same players."""
    event = events.create_event(
        td, make_settings(slug=slug, date=date, rounds=round_count, boards_per_round=2)
    )
    register(td, event, players)
    seating.generate_movement(td, event)
    deals.generate_deals(td, event, key=TEST_KEY)
    for round_ in event.round_set.order_by("number"):
        rounds.open_round(td, round_)
        for table in round_.tables.order_by("number"):
            seats = {
                s.seat: s.entry.number for s in table.seatings.select_related("entry") if s.entry
            }
            for link in table.table_boards.select_related("board").order_by("position"):
                record(td, table, link.board, lines_for(link.board, seats, winner))
        rounds.close_round(td, round_)
    if finish:
        events.finish_event(td, event)
    standings.refresh(event.pk)  # as the standings job does after each save
    return Event.objects.get(pk=event.pk)
