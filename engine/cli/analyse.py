"""``python -m engine analyse``: a board's double-dummy table, as one JSON object.

The board comes from an event key (``--key TEXT --board N``, with ``--owner``, ``--public`` and
``--game`` as for ``deal``) or from a PBN file (``--pbn FILE --board N``). The output is
``BoardTable.to_json()`` (engine.doubledummy.table) with the board's ``"deal"`` added, and
``"trump_card"`` for a Wiezen board.

Misuse (no source or two, a board that is not there, an unreadable file) exits with status 2 and
a message on stderr.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from engine.cli._io import fail, write
from engine.dealfiles import read_pbn
from engine.deals import BoardDeal, deal_for_board
from engine.doubledummy import table_for_board
from engine.errors import EngineError, ParseError

NAME = "analyse"
HELP = "A board's double-dummy table: tricks for pairs and lone players, misère and piccolo."

GAMES = ("kleurenwiezen", "wiezen")


def configure(parser: argparse.ArgumentParser) -> None:
    source = parser.add_argument_group("the board (one source)")
    source.add_argument("--key", metavar="TEXT", help="the event key the board was dealt from")
    source.add_argument("--pbn", metavar="FILE", help="a PBN file holding the board")
    parser.add_argument("--board", metavar="N", type=int, required=True, help="the board number")
    keyed = parser.add_argument_group("with --key")
    keyed.add_argument("--owner", default=None, help="owner string mixed into the dealing")
    keyed.add_argument("--public", default=None, help="public value mixed into the dealing")
    keyed.add_argument(
        "--game",
        choices=GAMES,
        default=None,
        help="wiezen also turns up the dealer's trump card (default kleurenwiezen)",
    )


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    if (args.key is None) == (args.pbn is None):
        return fail(stderr, "analyse: give exactly one of --key and --pbn")
    if args.pbn is not None:
        stray = [f"--{name}" for name in ("owner", "public", "game") if getattr(args, name)]
        if stray:
            return fail(stderr, f"analyse: {', '.join(stray)} can only be used with --key")
    board = _from_key(args, stderr) if args.key is not None else _from_file(args, stderr)
    if isinstance(board, int):
        return board
    data = table_for_board(board).to_json()
    data["deal"] = board.deal.to_pbn()
    write(stdout, data)
    return 0


def _from_key(args: argparse.Namespace, stderr: TextIO) -> BoardDeal | int:
    try:
        return deal_for_board(
            args.key,
            args.board,
            args.owner or "",
            public=args.public or "",
            trump_card=args.game == "wiezen",
        )
    except EngineError as exc:
        return fail(stderr, f"analyse: {exc}")


def _from_file(args: argparse.Namespace, stderr: TextIO) -> BoardDeal | int:
    try:
        with open(args.pbn, encoding="utf-8") as file:
            text = file.read()
    except OSError as exc:
        return fail(stderr, f"analyse: cannot read {args.pbn}: {exc.strerror}")
    except UnicodeDecodeError:
        return fail(stderr, f"analyse: {args.pbn} is not UTF-8 text")
    try:
        boards = read_pbn(text).boards
    except ParseError as exc:
        return fail(stderr, f"analyse: {args.pbn}: {exc}\n{exc.pointer()}")
    for board in boards:
        if board.board == args.board:
            return board
    return fail(stderr, f"analyse: {args.pbn} has no board {args.board}")
