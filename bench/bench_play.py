"""Random complete legal plays per second: every card of 13 tricks, chosen among the legal ones.

Run as ``.venv/bin/python -m bench.bench_play`` from the repository root. The deals and contracts
are made before timing; each timed play builds its ``PlayState``, asks ``legal_cards`` before
every card and plays all 52 cards (no early end), as a replay or a simulation would.
"""

from __future__ import annotations

import random

from bench.common import median_seconds, report
from engine.cards import SEATS, Seat, Suit
from engine.hands import Deal
from engine.play import EndPolicy, PlayState
from engine.results import BoardResult, Contract

PLAYS = 2_000
TARGET = 5_000


def _boards(rng: random.Random, count: int) -> list[tuple[BoardResult, Deal, Seat]]:
    contracts = [
        BoardResult(Contract.ACCEPT, 8, Suit.H, (Seat.N, Seat.S)),
        BoardResult(Contract.SOLO, 6, Suit.S, (Seat.E,)),
        BoardResult(Contract.ABONDANCE, 9, Suit.D, (Seat.W,)),
        BoardResult(Contract.MISERE, None, None, (Seat.N, Seat.E)),
    ]
    boards = []
    for number in range(count):
        holders = [seat for seat in SEATS for _ in range(13)]
        rng.shuffle(holders)
        boards.append(
            (contracts[number % len(contracts)], Deal.from_holders(holders), SEATS[number % 4])
        )
    return boards


def main() -> None:
    boards = _boards(random.Random(2024), PLAYS)
    rng = random.Random(7)

    def play_all() -> None:
        for contract, deal, dealer in boards:
            state = PlayState(contract, deal, dealer, end=EndPolicy.NEVER)
            while not state.is_finished:
                state.play(rng.choice(state.legal_cards()))

    seconds = median_seconds(play_all, runs=5)
    report("random complete legal plays", PLAYS / seconds, "plays/s", TARGET)


if __name__ == "__main__":
    main()
