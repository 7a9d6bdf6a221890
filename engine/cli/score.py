"""``python -m engine score``: score board results, one JSON line in, one JSON line out.

Each input line is a board result (docs/engine-cli.md); each output line is
``{"scores": {"N": int, "E": int, "S": int, "W": int}}`` or ``{"error": "..."}`` naming the
field and the problem. A bad line never stops the run.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from engine.cli._io import fail, process
from engine.cli.rulesets import add_ruleset_arguments, selected_ruleset
from engine.errors import EngineError
from engine.results import result_from_json
from engine.scoring import score, scores_by_seat

NAME = "score"
HELP = "Score board results (JSON lines) under a ruleset."


def configure(parser: argparse.ArgumentParser) -> None:
    add_ruleset_arguments(parser)
    parser.add_argument(
        "--file", metavar="PATH", help="read the results from PATH instead of standard input"
    )


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    try:
        ruleset = selected_ruleset(args)
    except EngineError as exc:
        return fail(stderr, str(exc))

    def handle(obj: Any) -> dict[str, Any]:
        return {"scores": scores_by_seat(score(ruleset, result_from_json(obj)))}

    if args.file is None:
        process(stdin, stdout, handle)
        return 0
    try:
        with open(args.file, encoding="utf-8") as results:
            process(results, stdout, handle)
    except OSError as exc:
        return fail(stderr, f"cannot read {args.file}: {exc.strerror}")
    return 0
