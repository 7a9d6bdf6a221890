"""Double-dummy tables: the time of one board's whole table, of 32 boards, and the search's speed.

Run as ``.venv/bin/python -m bench.bench_doubledummy [BOARDS]`` from the repository root (32
boards unless told; the total's target is for 32). A board's table
is 15 pair, 35 lone, 4 misère and 4 piccolo searches (engine.doubledummy.table). The boards are
dealt from a fixed key, so every run measures the same deals. Also printed: positions searched
per second, and how much faster the compiled search is than the pure-Python one on an ending
both can do (7 cards a hand). Each board's processor time is printed beside its wall time: on a
machine shared with other work the wall time also counts the time spent waiting for a core; the
positions searched for each board are the measure that does not depend on the machine.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from bench.common import median_seconds, report
from engine.cards import SEATS, Seat
from engine.deals import deals_from_key
from engine.doubledummy import COMPILED, Position, board_table, nodes_searched, tricks
from engine.doubledummy.table import STRAINS

KEY = "bench-doubledummy"
BOARDS = 32
TARGET_BOARD_SECONDS = 1.0
TARGET_TOTAL_SECONDS = 30.0
ENDING_CARDS = 7


def _ending(rng: random.Random) -> Position:
    masks = [0, 0, 0, 0]
    for number, index in enumerate(rng.sample(range(52), 4 * ENDING_CARDS)):
        masks[number % 4] |= 1 << index
    return Position((masks[0], masks[1], masks[2], masks[3]), rng.choice(STRAINS), Seat.N)


def _compiled_against_pure() -> None:
    rng = random.Random(3)
    endings = [_ending(rng) for _ in range(3)]
    sides = [(Seat.N, Seat.S), (Seat.E,), (Seat.N, Seat.E)]

    def solve(pure: bool) -> None:
        for ending in endings:
            for side in sides:
                tricks(ending, side, pure=pure)

    pure = median_seconds(lambda: solve(True), runs=3, warmup=0)
    compiled = median_seconds(lambda: solve(False), runs=3, warmup=0)
    report(f"compiled/pure speed ratio ({ENDING_CARDS}-card endings)", pure / compiled, "x")


def main(boards_wanted: int = BOARDS) -> None:
    print(f"search: {'compiled' if COMPILED else 'pure Python (no compiled search built)'}")
    _compiled_against_pure()
    if not COMPILED:
        print("whole boards: skipped, the pure search takes minutes a board")
        return
    boards = deals_from_key(KEY, range(1, boards_wanted + 1))
    times = []
    cpu_times = []
    nodes_before = nodes_searched()
    for board in boards:
        start = time.perf_counter()
        cpu_start = time.process_time()
        board_nodes = nodes_searched()
        board_table(board.deal, board.dealer, board=board.board)
        cpu_times.append(time.process_time() - cpu_start)
        times.append(time.perf_counter() - start)
        millions = (nodes_searched() - board_nodes) / 1e6
        print(
            f"  board {board.board:2}: {times[-1]:7.2f} s ({cpu_times[-1]:.2f} s CPU, "
            f"{millions:.1f} M positions)",
            flush=True,
        )
    total = sum(times)
    report("positions searched", (nodes_searched() - nodes_before) / total, "nodes/s")
    report(
        "one board's table (median)",
        statistics.median(times),
        "s",
        TARGET_BOARD_SECONDS,
        higher_is_better=False,
    )
    report("one board's table, processor time (median)", statistics.median(cpu_times), "s")
    if boards_wanted == BOARDS:
        report(f"{BOARDS} boards' tables", total, "s", TARGET_TOTAL_SECONDS, higher_is_better=False)
    else:
        report(f"{boards_wanted} boards' tables (the target is for {BOARDS})", total, "s")
    seats = ", ".join(seat.name for seat in SEATS)
    print(f"(each table: pairs NS NE NW, {seats} alone with two leads, misère and piccolo)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else BOARDS)
