"""Auction speed: random legal auctions per second, for each game, with and without the cards.

An auction runs from its first call to its contract; every call is drawn at random from
``legal_calls()`` and made with ``call()`` (so each call is listed, checked and recorded).
Two ways of drawing:

- uniform: every legal call equally likely. High bids (abondance, slims) make up most of the
  list, so these auctions are short;
- low first: the first calls of the list (pass, proposals, acceptances, solos) far more likely,
  so auctions go through partnerships, raises and passes parôle, as real ones do.

With the cards, troel is found and the card rules are checked. Deals come from an event key
(Wiezen boards with their turned-up card); building them is not timed.

Run: ``.venv/bin/python -m bench.bench_auction``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bench.common import median_seconds, report
from engine.auction import Call, new_auction
from engine.deals import BoardDeal, deals_from_key
from engine.ruleset import load_builtin

TARGET_PER_SECOND = 20_000
AUCTIONS = 5_000
RUNS = 5


def uniform(rng: random.Random, legal: list[Call]) -> Call:
    return legal[int(rng.random() * len(legal))]


def low_first(rng: random.Random, legal: list[Call]) -> Call:
    return legal[min(int(rng.expovariate(0.45)), len(legal) - 1)]


def auctions(
    name: str,
    boards: list[BoardDeal],
    with_cards: bool,
    draw: Callable[[random.Random, list[Call]], Call],
) -> Callable[[], int]:
    ruleset = load_builtin(name)
    wiezen = ruleset.game == "wiezen"

    def work() -> int:
        rng = random.Random(20250314)
        calls = 0
        for index in range(AUCTIONS):
            board = boards[index % len(boards)]
            turned = board.trump_card.suit if wiezen and board.trump_card is not None else None
            auction = new_auction(
                ruleset, board.dealer, board.deal if with_cards else None, turned=turned
            )
            while not auction.is_finished:
                auction.call(draw(rng, auction.legal_calls()))
                calls += 1
        return calls

    return work


def main() -> None:
    boards = deals_from_key("auction benchmark", range(1, 401), trump_card=True)
    for name in ("whisthub", "iwwa-wiezen", "israeli"):
        for with_cards in (False, True):
            for label, draw in (("uniform", uniform), ("low first", low_first)):
                work = auctions(name, boards, with_cards, draw)
                calls = work()
                seconds = median_seconds(work, runs=RUNS)
                cards = "with the cards" if with_cards else "without cards"
                report(
                    f"{name} auctions, {label}, {cards} ({calls / AUCTIONS:.1f} calls each)",
                    AUCTIONS / seconds,
                    "auctions/s",
                    target=TARGET_PER_SECOND,
                )


if __name__ == "__main__":
    main()
