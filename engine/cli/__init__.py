"""``python -m engine``: the engine's command line (the contract is docs/engine-cli.md).

Each sub-command lives in its own module in this package and exposes ``NAME``, ``HELP``,
``configure(parser)`` and ``run(args, stdin, stdout, stderr) -> int``. Modules are discovered, so
adding a command is adding a module.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TextIO


def _command_modules() -> list[ModuleType]:
    modules = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "NAME") and hasattr(module, "run"):
            modules.append(module)
    return sorted(modules, key=lambda m: str(m.NAME))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="Troef's rules engine: rulesets, scoring, deals, auctions, play and movements.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in _command_modules():
        sub = commands.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.configure(sub)
        sub.set_defaults(handler=module.run)
    return parser


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run one command; return the exit status (2 when the command itself is misused)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    try:
        status: int = args.handler(args, stdin, stdout, stderr)
    except BrokenPipeError:
        # The reader went away (``python -m engine deal ... | head``): stop quietly, as Unix tools do.
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return status
