"""Double-dummy tables: the time of one board's whole table, of 32 boards, and the search's speed.

Run as ``.venv/bin/python -m bench.bench_doubledummy [BOARDS]`` from the repository root (32
boards unless told; the total's target is for 32). A board's table
is 15 pair, 35 lone, 4 misère and 4 piccolo searches (engine.doubledummy.table). The boards are
dealt from a fixed key, so every run measures the same deals. Also printed: positions searched
per second, and how much faster the compiled search is than the pure-Python one on an ending
both can do (7 cards a hand). Each board is worked out as the analysis job does, its searches on
as many threads as the process has processors (the targets' figures), then on one thread, whose
processor time and positions searched are printed beside: on a machine shared with other work
the wall time also counts the time spent waiting for a core; the positions searched for each
board are the measure that does not depend on the machine.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from bench.common import median_seconds, report
from engine.cards import SEATS, Seat
from engine.deals import BoardDeal, deals_from_key
from engine.doubledummy import COMPILED, Position, board_table, nodes_searched, tricks
from engine.doubledummy.table import STRAINS, processors

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


def _timed(board: BoardDeal, threads: int) -> tuple[float, float, int]:
    """One board's table on ``threads`` threads: wall seconds, processor seconds, positions."""
    start = time.perf_counter()
    cpu_start = time.process_time()
    nodes = nodes_searched()
    board_table(board.deal, board.dealer, board=board.board, threads=threads)
    return time.perf_counter() - start, time.process_time() - cpu_start, nodes_searched() - nodes


def main(boards_wanted: int = BOARDS) -> None:
    print(f"search: {'compiled' if COMPILED else 'pure Python (no compiled search built)'}")
    _compiled_against_pure()
    if not COMPILED:
        print("whole boards: skipped, the pure search takes minutes a board")
        return
    threads = processors()
    boards = deals_from_key(KEY, range(1, boards_wanted + 1))
    times: list[float] = []
    alone_times: list[float] = []
    cpu_times: list[float] = []
    nodes = 0
    print(f"each board on {threads} threads (as the analysis job runs), then on one:")
    for board in boards:
        wall = _timed(board, threads)[0]
        one_wall, one_cpu, one_nodes = _timed(board, 1)
        times.append(wall)
        alone_times.append(one_wall)
        cpu_times.append(one_cpu)
        nodes += one_nodes
        print(
            f"  board {board.board:2}: {wall:6.2f} s on {threads}; {one_wall:6.2f} s on one "
            f"({one_cpu:.2f} s CPU, {one_nodes / 1e6:.1f} M positions)",
            flush=True,
        )
    report("positions searched on one thread", nodes / sum(alone_times), "nodes/s")
    report(
        f"one board's table on {threads} threads (median)",
        statistics.median(times),
        "s",
        TARGET_BOARD_SECONDS,
        higher_is_better=False,
    )
    report("one board's table on one thread (median)", statistics.median(alone_times), "s")
    report("one board's table, processor time (median)", statistics.median(cpu_times), "s")
    total = sum(times)
    if boards_wanted == BOARDS:
        report(
            f"{BOARDS} boards' tables by one worker on {threads} threads",
            total,
            "s",
            TARGET_TOTAL_SECONDS,
            higher_is_better=False,
        )
    else:
        report(
            f"{boards_wanted} boards' tables on {threads} threads (target for {BOARDS})", total, "s"
        )
    report(f"{len(boards)} boards' tables on one thread", sum(alone_times), "s")
    report(f"{threads} threads against one", sum(alone_times) / total, "x")
    seats = ", ".join(seat.name for seat in SEATS)
    print(f"(each table: pairs NS NE NW, {seats} alone with two leads, misère and piccolo)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else BOARDS)
