"""``python -m engine deal``: deal numbers, and the reproducible deals of an event key.

Modes (exactly one):

- ``--index N``: the PBN deal string of BigDeal deal number N (digits; commas, spaces and
  underscores between them are ignored, so a number copied from BigDeal's output works);
- ``--pbn "N:..."``: the number of a deal;
- ``--key TEXT --boards 1-32 [--format json|pbn] [--game wiezen]``: the deals of an event key,
  as JSON lines ``{"board", "dealer", "deal", "index"}`` (with ``"trump_card"`` for Wiezen) or as
  a PBN file; ``--owner`` and ``--public`` give the owner string and the public value the deals
  were made with, ``--event``, ``--site`` and ``--date`` fill the PBN file's tags;
- ``--key TEXT --commitment``: ``{"commitment": ...}``, the SHA-256 of the key, to compare with the
  one published before the event;
- ``--new-key``: ``{"key": ..., "commitment": ...}``, a fresh secret key for an event.

Misuse (no mode, two modes, a bad number, deal, board list or option) exits with status 2 and a
message on stderr.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from engine.cli._io import fail, write
from engine.dealfiles import DealFile, write_pbn
from engine.deals import (
    DEAL_COUNT,
    commitment,
    deal_from_number,
    deal_number,
    deals_from_key,
    new_key,
    parse_boards,
)
from engine.errors import EngineError, ParseError
from engine.hands import Deal

NAME = "deal"
HELP = "Deal numbers (BigDeal numbering) and the reproducible deals of an event key."

GAMES = ("kleurenwiezen", "wiezen", "israeli")


def configure(parser: argparse.ArgumentParser) -> None:
    mode = parser.add_argument_group("mode (exactly one)")
    mode.add_argument("--index", metavar="N", help="print the PBN deal string of deal number N")
    mode.add_argument("--pbn", metavar="DEAL", help='print the number of a deal, e.g. "N:AKQ..."')
    mode.add_argument("--key", metavar="TEXT", help="the event key to deal from")
    mode.add_argument(
        "--new-key", action="store_true", help="print a fresh secret key and its commitment"
    )
    keyed = parser.add_argument_group("with --key")
    keyed.add_argument("--boards", metavar="LIST", help="boards to deal, e.g. 1-32 or 1,3,5-8")
    keyed.add_argument(
        "--commitment", action="store_true", help="print the key's commitment (SHA-256)"
    )
    keyed.add_argument("--format", choices=("json", "pbn"), default=None, help="default json")
    keyed.add_argument("--owner", default=None, help="owner string mixed into the dealing")
    keyed.add_argument("--public", default=None, help="public value mixed into the dealing")
    keyed.add_argument(
        "--game",
        choices=GAMES,
        default=None,
        help="wiezen adds the turned-up trump card (default kleurenwiezen)",
    )
    keyed.add_argument("--event", default=None, help="PBN Event tag")
    keyed.add_argument("--site", default=None, help="PBN Site tag")
    keyed.add_argument("--date", default=None, help="PBN Date tag, e.g. 2025.03.14")


_KEYED_OPTIONS = (
    "boards",
    "commitment",
    "format",
    "owner",
    "public",
    "game",
    "event",
    "site",
    "date",
)


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    modes = [
        name
        for name in ("index", "pbn", "key", "new_key")
        if getattr(args, name) not in (None, False)
    ]
    if len(modes) != 1:
        given = " and ".join(_option(m) for m in modes) if modes else "none"
        return fail(stderr, f"deal: give exactly one of --index, --pbn, --key, --new-key ({given})")
    mode = modes[0]
    if mode != "key":
        stray = [
            _option(name) for name in _KEYED_OPTIONS if getattr(args, name) not in (None, False)
        ]
        if stray:
            return fail(stderr, f"deal: {', '.join(stray)} can only be used with --key")
    if mode == "index":
        return _print_deal(args.index, stdout, stderr)
    if mode == "pbn":
        return _print_number(args.pbn, stdout, stderr)
    if mode == "new_key":
        key = new_key()
        write(stdout, {"key": key, "commitment": commitment(key)})
        return 0
    return _deal_from_key(args, stdout, stderr)


def _print_deal(text: str, stdout: TextIO, stderr: TextIO) -> int:
    digits = "".join(text.replace(",", "").replace("_", "").split())
    if not digits.isdigit():
        return fail(
            stderr,
            f"deal: --index {text!r} is not a deal number (a whole number from 0 to "
            f"{DEAL_COUNT - 1})",
        )
    number = int(digits)
    if number >= DEAL_COUNT:
        return fail(stderr, f"deal: --index {number} is beyond the last deal, {DEAL_COUNT - 1}")
    stdout.write(deal_from_number(number).to_pbn() + "\n")
    return 0


def _print_number(text: str, stdout: TextIO, stderr: TextIO) -> int:
    try:
        deal = Deal.from_pbn(text)
    except ParseError as exc:
        return fail(stderr, f"deal: --pbn: {exc}\n{exc.pointer()}")
    stdout.write(f"{deal_number(deal)}\n")
    return 0


def _deal_from_key(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    if args.commitment:
        if args.boards is not None:
            return fail(stderr, "deal: give --boards or --commitment with --key, not both")
        try:
            write(stdout, {"commitment": commitment(args.key)})
        except EngineError as exc:
            return fail(stderr, f"deal: --key: {exc}")
        return 0
    if args.boards is None:
        return fail(stderr, "deal: --key needs --boards (e.g. --boards 1-32) or --commitment")
    try:
        boards = parse_boards(args.boards)
    except ParseError as exc:
        return fail(stderr, f"deal: --boards: {exc}\n{exc.pointer()}")
    try:
        deals = deals_from_key(
            args.key,
            boards,
            args.owner or "",
            public=args.public or "",
            trump_card=args.game == "wiezen",
        )
    except EngineError as exc:
        return fail(stderr, f"deal: --key: {exc}")
    if args.format == "pbn":
        stdout.write(
            write_pbn(DealFile(tuple(deals), args.event or "", args.site or "", args.date or ""))
        )
    else:
        for board in deals:
            write(stdout, board.to_json())
    return 0
