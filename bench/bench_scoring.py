"""Scoring speed: board results scored per second, over random valid results of every built-in
Kleurenwiezen and Wiezen ruleset (validation included, as ``score`` always validates).

Run: ``.venv/bin/python -m bench.bench_scoring``.
"""

from __future__ import annotations

import random

from bench.common import median_seconds, report
from engine.cards import SEATS, SUITS
from engine.results import BoardResult, Contract
from engine.ruleset import SHAPES, Ruleset, builtin_names, load_builtin
from engine.scoring import score

TARGET_PER_SECOND = 200_000
RESULTS = 60_000


def random_result(ruleset: Ruleset, rng: random.Random) -> BoardResult:
    """A random result that ``ruleset`` accepts (about one in twenty is an all-pass)."""
    doubled = ruleset.options.announced_double and rng.random() < 0.2
    after_all_pass = rng.random() < 0.1
    if rng.random() < 0.05:
        return BoardResult(Contract.PASS, after_all_pass=after_all_pass)
    bid = rng.choice(ruleset.ladder)
    contract = bid.contract
    shape = SHAPES[contract]
    levels = ruleset.levels(contract)
    level = bid.level if bid.level is not None or not levels else rng.choice(levels)
    declarers = tuple(rng.sample(SEATS, rng.randint(*shape.declarers)))
    if shape.negative:
        own = [rng.choice((0, 0, 1, 2)) for _ in declarers]
        return BoardResult(
            contract,
            declarers=declarers,
            declarer_tricks=tuple(own),
            doubled=doubled,
            after_all_pass=after_all_pass,
        )
    return BoardResult(
        contract,
        level=level,
        trump=rng.choice(SUITS),
        declarers=declarers,
        tricks=rng.randint(0, 13),
        doubled=doubled,
        after_all_pass=after_all_pass,
    )


def main() -> None:
    rng = random.Random(20240601)
    rulesets = [load_builtin(name) for name in builtin_names()]
    boards = [ruleset for ruleset in rulesets if ruleset.game != "israeli"]
    work = [
        (ruleset, random_result(ruleset, rng))
        for ruleset in boards
        for _ in range(RESULTS // len(boards))
    ]
    rng.shuffle(work)

    def run() -> None:
        for ruleset, result in work:
            score(ruleset, result)

    seconds = median_seconds(run, runs=5)
    report(
        f"score: {len(work):,} random valid results over {len(boards)} rulesets",
        len(work) / seconds,
        "results/s",
        target=TARGET_PER_SECOND,
    )


if __name__ == "__main__":
    main()
