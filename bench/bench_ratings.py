"""Ratings that mean something: a simulated season of players of known strength, rated, compared.

A club of ``PLAYERS`` players, each with a true strength drawn once. Every event draws its field
from the club, seats it at random tables of four each round (a random movement) and plays the
same boards at every table in a round. A seat's score on a board is the player's strength, less
half the mean strength of the three others at the table, plus a large dose of luck (the cards
and the play); each board and seat is then matchpointed among the tables, as the standings do.

The fields differ from event to event, as they do in a real season: a championship evening
draws the stronger players more than an ordinary club night, so a 55 % among the strong is worth
more than a 55 % among everyone. The ratings (``ratings.skill``: OpenSkill, board by board) see
whom each board was won against; the baseline, each player's plain average percentage over the
boards they played, does not.

Printed: the Spearman rank correlation between the true strengths and the ratings' order (the
shown figure), and the baseline's, after 5, 10 and 40 events; ok when the ratings beat the
baseline at every stage, MISSED otherwise. Also the same season with fields drawn without any
bias, where the baseline has no field strength to miss (printed for comparison, not judged).

Run: ``.venv/bin/python -m bench.bench_ratings``.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections import defaultdict
from collections.abc import Sequence

from ratings.skill import Contest, EventContests, Season, new_model, rate_event

PLAYERS = 120
FIELD = (32, 64)
ROUNDS = 7
BOARDS_PER_ROUND = 4
LUCK = 2.0  # the spread of a board's luck, against a spread of strengths of 1
OPPONENTS = 0.5  # how much the table's other players' strength takes off a seat's score
CHECKPOINTS = (5, 10, 40)
SEED = 20261124


def ranks(values: Sequence[float]) -> list[float]:
    """Each value's rank from 1, ties sharing the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda index: values[index])
    out = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        shared = (start + end) / 2 + 1
        for index in order[start : end + 1]:
            out[index] = shared
        start = end + 1
    return out


def spearman(first: Sequence[float], second: Sequence[float]) -> float:
    """Spearman's rank correlation: Pearson's correlation of the ranks (ties averaged)."""
    a, b = ranks(first), ranks(second)
    count = len(a)
    mean_a, mean_b = sum(a) / count, sum(b) / count
    cov = sum((x - mean_a) * (y - mean_b) for x, y in zip(a, b, strict=True))
    var_a = sum((x - mean_a) ** 2 for x in a)
    var_b = sum((y - mean_b) ** 2 for y in b)
    if var_a == 0 or var_b == 0:
        return 0.0
    return float(cov / (var_a * var_b) ** 0.5)


def draw_field(rng: random.Random, strengths: list[float], biased: bool) -> list[int]:
    """An event's players: a random size; a biased event prefers one end of the club."""
    size = rng.randint(*FIELD) // 4 * 4
    if not biased:
        return rng.sample(range(len(strengths)), size)
    # An event leans towards the strong or the weak; each player's chance of coming follows.
    lean = rng.choice((-1.5, -0.75, 0.0, 0.75, 1.5))
    keys = [rng.random() ** (2.0 ** (lean * strength)) for strength in strengths]
    return sorted(range(len(strengths)), key=lambda player: keys[player])[:size]


def play_event(
    rng: random.Random, strengths: list[float], field: list[int], number: int
) -> EventContests:
    """One event's boards as contests: random tables each round, every board matchpointed."""
    contests = []
    for round_number in range(ROUNDS):
        seated = field[:]
        rng.shuffle(seated)
        tables = [seated[index : index + 4] for index in range(0, len(seated), 4)]
        for board in range(BOARDS_PER_ROUND):
            del board
            by_seat: list[list[tuple[int, float]]] = [[] for _ in range(4)]
            for table in tables:
                total = sum(strengths[player] for player in table)
                for seat, player in enumerate(table):
                    others = (total - strengths[player]) / 3
                    score = strengths[player] - OPPONENTS * others + rng.gauss(0, LUCK)
                    by_seat[seat].append((player, score))
            for group in by_seat:
                contests.append(_matchpointed(group))
        del round_number
    return EventContests(
        number, dt.date(2026, 1, 1) + dt.timedelta(days=7 * number), tuple(contests)
    )


def _matchpointed(group: list[tuple[int, float]]) -> Contest:
    """The group on the 2/1 scale: 2 for each score beaten, 1 for each tie."""
    scores = [score for _player, score in group]
    points = [
        float(sum(2 if score > other else 1 if score == other else 0 for other in scores) - 1)
        for score in scores
    ]
    return Contest(tuple(player for player, _score in group), tuple(points))


def season(biased: bool) -> list[tuple[int, float, float, float]]:
    """Rate a season of ``max(CHECKPOINTS)`` events; (events, ratings rho, baseline rho, seconds)."""
    rng = random.Random(SEED)
    strengths = [rng.gauss(0, 1) for _ in range(PLAYERS)]
    model = new_model()
    rated = Season()
    percentages: dict[int, list[float]] = defaultdict(list)
    elapsed = 0.0
    out = []
    for number in range(1, max(CHECKPOINTS) + 1):
        event = play_event(rng, strengths, draw_field(rng, strengths, biased), number)
        for contest in event.contests:
            top = 2 * (len(contest.players) - 1)
            for player, points in zip(contest.players, contest.scores, strict=True):
                percentages[player].append(100 * points / top)
        started = time.perf_counter()
        rate_event(model, rated.skills, event)
        elapsed += time.perf_counter() - started
        if number in CHECKPOINTS:
            seen = sorted(percentages)
            truth = [strengths[player] for player in seen]
            shown = [rated.skills[player].ordinal for player in seen]
            average = [sum(percentages[player]) / len(percentages[player]) for player in seen]
            out.append((number, spearman(truth, shown), spearman(truth, average), elapsed))
    return out


def main() -> None:
    print(
        f"Ratings against true strength: {PLAYERS} players, fields of {FIELD[0]}-{FIELD[1]}, "
        f"{ROUNDS} rounds of {BOARDS_PER_ROUND} boards, luck {LUCK} (strengths spread 1)"
    )
    print("fields of different strength (judged):")
    missed = False
    for events, rating, baseline, seconds in season(biased=True):
        verdict = "ok" if rating > baseline else "MISSED"
        missed = missed or rating <= baseline
        print(
            f"  after {events:2d} events: ratings rho {rating:.3f}, average percentage rho "
            f"{baseline:.3f}  {verdict}  (rating time {seconds:.2f} s)"
        )
    print("fields drawn without bias (for comparison):")
    for events, rating, baseline, seconds in season(biased=False):
        print(
            f"  after {events:2d} events: ratings rho {rating:.3f}, average percentage rho "
            f"{baseline:.3f}  (rating time {seconds:.2f} s)"
        )
    print("ratings beat the baseline" + (": MISSED" if missed else ": ok"))


if __name__ == "__main__":
    main()
