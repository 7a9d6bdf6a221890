"""``python -m engine auction --ruleset NAME``: run auctions, one JSON line in, one JSON line out.

Input, one auction per line (docs/engine-cli.md)::

    {"dealer": "W", "deal": "N:...", "calls": ["propose H", "pass", "accept H", ...]}

``deal`` is optional (without it, the rules that depend on the cards do not apply and there is no
troel). A Wiezen auction also needs ``"trump_card"``: the turned-up card, as the ``deal`` command
writes it (``"HQ"``), or just its suit (``"H"``). ``calls`` are the calls of the players whose turn it was, from the first speaker.

Output, one line per input line:

- the auction is over: ``{"contract": {<the board result, without tricks>}}``;
- it goes on: ``{"next": "<seat>", "legal": ["pass", "propose H", "accept D 9", ...]}``;
- a call that is not allowed: ``{"error": "<why>", "call": <0-based index>}``;
- a line that cannot be read: ``{"error": "<the field and the problem>"}``.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any, TextIO

from engine.auction import Call, new_auction, options_of
from engine.cards import Card, Seat, Suit
from engine.cli._io import fail, process
from engine.cli.rulesets import add_ruleset_arguments, selected_ruleset
from engine.errors import EngineError, IllegalCallError, ParseError
from engine.hands import Deal
from engine.ruleset import Ruleset

NAME = "auction"
HELP = "Run auctions (JSON lines): the contract, or who speaks next and the legal calls."

_FIELDS = ("dealer", "deal", "trump_card", "calls")
_SEAT_NAMES = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}


def configure(parser: argparse.ArgumentParser) -> None:
    add_ruleset_arguments(parser)


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    try:
        ruleset = selected_ruleset(args)
        options_of(ruleset)  # a broken [auction] table is the command's misuse, not a line's
    except EngineError as exc:
        return fail(stderr, str(exc))
    process(stdin, stdout, lambda obj: run_auction(ruleset, obj))
    return 0


def run_auction(ruleset: Ruleset, obj: Any) -> dict[str, Any]:
    """One input line's answer (a ``ValueError`` for a line that cannot be read)."""
    if not isinstance(obj, Mapping):
        raise EngineError('an auction must be a JSON object: {"dealer": "N", "calls": [...]}')
    for key in obj:
        if key not in _FIELDS:
            raise EngineError(f"unknown field {key!r}; the fields are {', '.join(_FIELDS)}")
    dealer = _dealer(obj.get("dealer"))
    deal = _deal(obj.get("deal"))
    turned = _turned(obj.get("trump_card"), ruleset, deal, dealer)
    calls = obj.get("calls")
    if not isinstance(calls, list):
        raise EngineError('calls: must be a list of calls, e.g. ["pass", "propose H"]')
    try:
        auction = new_auction(ruleset, dealer, deal, turned=turned)
    except EngineError as exc:
        field = "trump_card" if ruleset.game == "wiezen" else "game"
        raise EngineError(f"{field}: {exc}") from None
    for index, text in enumerate(calls):
        if not isinstance(text, str):
            return {
                "error": f"call {index} must be text such as 'pass', not {text!r}",
                "call": index,
            }
        try:
            auction.call(Call.parse(text))
        except (ParseError, IllegalCallError) as exc:
            return {"error": str(exc), "call": index}
    contract = auction.contract
    if contract is not None:
        return {"contract": contract.to_json()}
    seat = auction.next_seat
    assert seat is not None  # an auction that is not over has a player to speak
    return {"next": seat.name, "legal": [str(call) for call in auction.legal_calls()]}


def _dealer(value: object) -> Seat:
    if value is None:
        raise EngineError("dealer: missing; give the dealer's seat, N, E, S or W")
    if not isinstance(value, str) or value not in ("N", "E", "S", "W"):
        raise EngineError(f"dealer: must be N, E, S or W, not {value!r}")
    return Seat[value]


def _deal(value: object) -> Deal | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise EngineError(
            'deal: must be a PBN deal string, "N:<spades>.<hearts>.<diamonds>.<clubs> ..."'
        )
    try:
        return Deal.from_pbn(value)
    except EngineError as exc:
        raise EngineError(f"deal: {exc}") from None


def _turned(value: object, ruleset: Ruleset, deal: Deal | None, dealer: Seat) -> Suit | None:
    if ruleset.game != "wiezen":
        if value is not None:
            raise EngineError(
                f"trump_card: only Wiezen turns up a trump card; {ruleset.name} is {ruleset.game}"
            )
        return None
    if value is None:
        raise EngineError(
            'trump_card: a Wiezen auction needs the turned-up card, e.g. "trump_card": "HQ"'
        )
    if isinstance(value, str) and len(value.strip()) == 1:
        try:
            return Suit.parse(value)
        except ParseError:
            pass
    elif isinstance(value, str):
        try:
            card = Card.parse(value)
        except ParseError:
            pass
        else:
            if deal is not None and card not in deal.hand(dealer):
                raise EngineError(
                    f"trump_card: the turned-up card is the dealer's, and {_SEAT_NAMES[dealer]} "
                    f"does not hold {card}"
                )
            return card.suit
    raise EngineError(
        f"trump_card: must be a card such as HQ (or a suit H, D, C, S), not {value!r}"
    )
