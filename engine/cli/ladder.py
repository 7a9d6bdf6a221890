"""``python -m engine ladder``: a ruleset's bids from lowest to highest, one JSON line each.

``{"contract": "accept", "level": 8}``; contracts without a level give only the contract
(``{"contract": "misere"}``). A bid of the same rank as the previous line (a Flemish solo and
the acceptance for three more tricks) carries ``"equal_to_previous": true``: between the two
the trump suit decides. In Israeli Whist every denomination of a level is a bid of its own, so
each level is listed once per denomination, lowest first:
``{"contract": "israeli", "level": 5, "trump": "C"}`` ... ``{"contract": "israeli", "level": 5,
"trump": "NT"}``.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from engine.cli._io import fail, write
from engine.cli.rulesets import add_ruleset_arguments, selected_ruleset
from engine.errors import EngineError
from engine.ruleset import NO_TRUMP, Ruleset

NAME = "ladder"
HELP = "List a ruleset's bids from lowest to highest, one JSON line each."


def configure(parser: argparse.ArgumentParser) -> None:
    add_ruleset_arguments(parser)


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    try:
        ruleset = selected_ruleset(args)
    except EngineError as exc:
        return fail(stderr, str(exc))
    for line in ladder_lines(ruleset):
        write(stdout, line)
    return 0


def ladder_lines(ruleset: Ruleset) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    for step in ruleset.steps:
        for index, bid in enumerate(step):
            line: dict[str, Any] = {"contract": bid.contract.value}
            if bid.level is not None:
                line["level"] = bid.level
            if ruleset.game == "israeli":
                for trump in ruleset.options.trump_order:
                    lines.append(line | {"trump": NO_TRUMP if trump is None else trump.letter})
                continue
            if index > 0:
                line["equal_to_previous"] = True
            lines.append(line)
    return lines
