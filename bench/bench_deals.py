"""Dealing speed: deals per second from an event key, and numbering in both directions.

- from a key: SHA-256 with rejection, unranking the number into a deal, and the board record
  (which checks that its index is the deal's number);
- deal to number: ranking deals that have never been numbered (built from their holders);
- number to deal: unranking random numbers.

Run: ``.venv/bin/python -m bench.bench_deals``.
"""

from __future__ import annotations

import random

from bench.common import median_seconds, report
from engine.deals import DEAL_COUNT, deal_from_number, deal_number, deals_from_key
from engine.hands import Deal

TARGET_PER_SECOND = 20_000
BOARDS = 20_000


def main() -> None:
    boards = range(1, BOARDS + 1)
    seconds = median_seconds(lambda: deals_from_key("benchmark key", boards), runs=5)
    report(
        f"deals from a key: {BOARDS:,} boards, numbered",
        BOARDS / seconds,
        "deals/s",
        target=TARGET_PER_SECOND,
    )

    seconds = median_seconds(
        lambda: deals_from_key("benchmark key", boards, trump_card=True), runs=3
    )
    report(
        f"Wiezen deals from a key: {BOARDS:,} boards, with the turned-up card",
        BOARDS / seconds,
        "deals/s",
        target=TARGET_PER_SECOND,
    )

    # Fresh Deal objects each run, so that no number is remembered from an earlier one.
    holders = [board.deal.holders for board in deals_from_key("another key", boards)]

    def number_all() -> None:
        for seats in holders:
            deal_number(Deal.from_holders(seats))

    seconds = median_seconds(number_all, runs=5)
    report(
        f"deal to number: {BOARDS:,} deals (building each deal included)",
        BOARDS / seconds,
        "deals/s",
        target=TARGET_PER_SECOND,
    )

    rng = random.Random(20250314)
    numbers = [rng.randrange(DEAL_COUNT) for _ in range(BOARDS)]
    seconds = median_seconds(lambda: [deal_from_number(n) for n in numbers], runs=5)
    report(
        f"number to deal: {BOARDS:,} random numbers",
        BOARDS / seconds,
        "deals/s",
        target=TARGET_PER_SECOND,
    )


if __name__ == "__main__":
    main()
