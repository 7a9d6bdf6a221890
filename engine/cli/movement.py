"""``python -m engine movement``: print a seating schedule as one JSON document."""

from __future__ import annotations

import argparse
from typing import TextIO

from engine.cli._io import fail, write
from engine.errors import MovementError
from engine.movements import max_rounds_without_repeat, plan_movement, quality

NAME = "movement"
HELP = "Plan an individual movement: tables and seats for every round, as one JSON document."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, required=True, help="number of players (4 or more)")
    parser.add_argument("--rounds", type=int, required=True, help="number of rounds (1 or more)")
    parser.add_argument(
        "--tables-of-five",
        action="store_true",
        help="seat players beyond a multiple of four as fifth players instead of giving byes",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="another seed gives another movement (default 0)"
    )


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    del stdin  # the command reads no input
    try:
        movement = plan_movement(
            args.players, args.rounds, tables_of_five=args.tables_of_five, seed=args.seed
        )
    except MovementError as exc:
        return fail(stderr, str(exc))
    figures = quality(movement)
    if figures.repeats:
        best = max_rounds_without_repeat(args.players, tables_of_five=args.tables_of_five)
        stderr.write(
            f"python -m engine: warning: {args.rounds} rounds for {args.players} players repeat "
            f"{figures.repeats} meeting(s) ({len(figures.repeated_pairs)} pair(s) meet more than "
            f"once); the first {figures.rounds_without_repeat} round(s) have no repeat "
            f"(at most {best} can have none)\n"
        )
    write(stdout, movement.to_json())
    return 0
