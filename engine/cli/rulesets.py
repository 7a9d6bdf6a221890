"""``python -m engine rulesets``: the built-in rulesets, one JSON line each.

Also the ruleset options shared by the commands that score or rank bids: ``--ruleset NAME``
for a built-in ruleset, or ``--ruleset-file PATH`` for a custom TOML ruleset.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from engine.cli._io import write
from engine.errors import RulesetError
from engine.ruleset import Ruleset, builtin_names, load_builtin, load_ruleset

NAME = "rulesets"
HELP = "List the built-in rulesets: name, game and title, one JSON line each."


def configure(parser: argparse.ArgumentParser) -> None:
    """No options."""


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    for name in builtin_names():
        ruleset = load_builtin(name)
        write(stdout, {"name": ruleset.name, "game": ruleset.game, "title": ruleset.title})
    return 0


def add_ruleset_arguments(parser: argparse.ArgumentParser) -> None:
    """``--ruleset NAME`` or ``--ruleset-file PATH``, exactly one of them."""
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument(
        "--ruleset", metavar="NAME", help=f"a built-in ruleset: {', '.join(builtin_names())}"
    )
    group.add_argument(
        "--ruleset-file", metavar="PATH", help="a custom ruleset: a TOML file (docs/rulesets.md)"
    )


def selected_ruleset(args: argparse.Namespace) -> Ruleset:
    """The ruleset the options name.

    Raises ``UnknownRulesetError`` for an unknown name and ``RulesetError`` for a file that
    cannot be read or is broken; the command reports either on stderr with exit status 2.
    """
    if args.ruleset_file is None:
        return load_builtin(args.ruleset)
    path = args.ruleset_file
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "it is not UTF-8 text"
        raise RulesetError(f"cannot read ruleset file {path}: {reason}") from None
    try:
        return load_ruleset(text, source=path)
    except RulesetError as exc:
        if exc.key is None:
            raise
        raise RulesetError(f"{path}: {exc}") from None
