"""``python -m engine play --ruleset NAME``: replay the cards of a board and count its tricks.

Input, one play per line (docs/play.md)::

    {"dealer": "W", "deal": "N:...", "contract": {"contract": "accept", "level": 8,
     "trump": "H", "declarers": ["N", "S"]}, "cards": ["SA", "S3", "S7", "SK", ...]}

``contract`` is the auction's outcome (a board result without tricks; an Israeli Whist contract
gives ``declarer``, ``level``, ``trump`` and ``bids``). ``cards`` are in the order played, from
the first lead; in small misère the first four are the discards, from the dealer's left.

Output, one line per input line:

- the play is over: ``{"tricks": {"N": 3, ...}, "result": {<the contract with its tricks>}}``,
  with ``"ended"`` when it stopped before the last trick and ``"revoke"`` listing revokes
  (``--lenient`` only);
- more cards are needed: ``{"next": "E", "phase": "play", "trick": 5, "legal": [...],
  "tricks": {...}}``;
- a card that may not be played: ``{"error": "<why>", "card": <0-based index>}``;
- a line that cannot be read: ``{"error": "<what to fix>"}``.

When a record goes on after the point where the play would stop early (a table that played every
trick), the whole record is checked and the tricks are counted as played.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from engine.cards import SEATS, Card, Seat
from engine.cli._io import fail, json_lines, write
from engine.errors import EngineError, IllegalCardError, InvalidResultError
from engine.hands import Deal
from engine.play import EndPolicy, PlayState, play_rules_for
from engine.results import AnyResult, BoardResult, IsraeliResult, RondePasResult, result_from_json
from engine.ruleset import Ruleset, load_builtin, load_ruleset
from engine.validation import validate

NAME = "play"
HELP = "Replay the cards of a board: check every card and count the tricks."


def configure(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--ruleset", metavar="NAME", help="a built-in ruleset, e.g. whisthub")
    source.add_argument("--ruleset-file", metavar="PATH", help="a ruleset TOML file")
    parser.add_argument(
        "--lenient",
        action="store_true",
        help="accept cards that do not follow suit and report them as revokes",
    )
    parser.add_argument(
        "--early-end",
        choices=[policy.value for policy in EndPolicy],
        default=EndPolicy.DECIDED.value,
        help="when the play may stop before the last trick (default: decided)",
    )
    parser.add_argument("--file", metavar="PATH", help="read plays from a file instead of stdin")


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    try:
        if args.ruleset_file:
            path = Path(args.ruleset_file)
            ruleset = load_ruleset(path.read_text(encoding="utf-8"), source=str(path))
        else:
            ruleset = load_builtin(args.ruleset)
    except (OSError, EngineError) as exc:
        return fail(stderr, str(exc))
    policy = EndPolicy(args.early_end)
    if args.file:
        try:
            with open(args.file, encoding="utf-8") as stream:
                _run_lines(stream, stdout, ruleset, args.lenient, policy)
        except OSError as exc:
            return fail(stderr, f"cannot read {args.file}: {exc.strerror}")
    else:
        _run_lines(stdin, stdout, ruleset, args.lenient, policy)
    return 0


def _run_lines(
    stream: TextIO, stdout: TextIO, ruleset: Ruleset, lenient: bool, policy: EndPolicy
) -> None:
    for obj, error in json_lines(stream):
        if error is not None:
            write(stdout, {"error": error})
            continue
        try:
            write(stdout, play_line(ruleset, obj, lenient=lenient, end=policy))
        except ValueError as exc:
            write(stdout, {"error": str(exc)})


def play_line(
    ruleset: Ruleset,
    obj: Any,
    *,
    lenient: bool = False,
    end: EndPolicy = EndPolicy.DECIDED,
) -> dict[str, Any]:
    """The output object for one input object (``ValueError`` for a line that cannot be read)."""
    if not isinstance(obj, Mapping):
        raise InvalidResultError("each line must be a JSON object", None)
    for key in obj:
        if key not in ("dealer", "deal", "contract", "cards"):
            raise InvalidResultError(
                f"unknown field {key!r}; the fields are dealer, deal, contract, cards", str(key)
            )
    contract = _contract(ruleset, obj.get("contract"))
    deal = _deal(obj.get("deal"))
    dealer = _dealer(obj.get("dealer"), contract)
    cards = obj.get("cards", [])
    if not isinstance(cards, list):
        raise InvalidResultError('cards must be a list such as ["SA", "S3"]', "cards")
    rules = play_rules_for(ruleset)
    state = PlayState(contract, deal, dealer, rules=rules, lenient=lenient, end=end)
    failure, used = _replay(state, cards)
    if failure is None and used < len(cards) and state.early_end is not None:
        # The table played on past the point where the play stops: check the whole record.
        state = PlayState(contract, deal, dealer, rules=rules, lenient=lenient, end=EndPolicy.NEVER)
        failure, used = _replay(state, cards)
    if failure is not None:
        return failure
    if used < len(cards):
        return {
            "error": f"the play is over after trick {state.total_tricks}; the cards from "
            f"number {used} on are too many",
            "card": used,
        }
    return _report(state)


def _replay(state: PlayState, cards: list[Any]) -> tuple[dict[str, Any] | None, int]:
    """Play the cards until the play is over; the first failure and how many cards were used."""
    for index, text in enumerate(cards):
        if state.is_finished:
            return None, index
        failure = _play(state, text, index)
        if failure is not None:
            return failure, index
    return None, len(cards)


def _play(state: PlayState, text: object, index: int) -> dict[str, Any] | None:
    if not isinstance(text, str):
        return {"error": f'cards[{index}] must be a card such as "SA"', "card": index}
    try:
        state.play(Card.parse(text))
    except IllegalCardError as exc:
        return {"error": str(exc), "card": index}
    except EngineError as exc:
        return {"error": f"cards[{index}]: {exc}", "card": index}
    return None


def _report(state: PlayState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    tricks = {seat.name: state.tricks_won(seat) for seat in SEATS}
    if state.is_finished:
        early = state.early_end
        if early is not None and early.winner is not None:
            tricks[early.winner.name] += early.remaining
        out["tricks"] = tricks
        out["result"] = state.result().to_json()
        if early is not None:
            out["ended"] = early.to_json()
    else:
        seat = state.next_seat
        assert seat is not None  # a play that is not over has a player to move
        out["next"] = seat.name
        out["phase"] = state.phase.value
        out["trick"] = state.trick_number
        out["legal"] = [str(card) for card in state.legal_cards()]
        out["tricks"] = tricks
    if state.revokes:
        out["revoke"] = [revoke.to_json() for revoke in state.revokes]
    return out


def _contract(ruleset: Ruleset, raw: object) -> BoardResult | IsraeliResult:
    if not isinstance(raw, Mapping):
        raise InvalidResultError(
            'contract must be an object such as {"contract": "solo", "level": 6, ...}', "contract"
        )
    try:
        contract = result_from_json(raw)
    except InvalidResultError as exc:
        raise InvalidResultError(f"contract: {exc}", _field(exc)) from None
    if "tricks" in raw:
        raise InvalidResultError(
            "contract: give the contract without tricks; the play counts them", "contract.tricks"
        )
    if isinstance(contract, RondePasResult):
        # The play state machine knows contracts with declarers; Ronde Pas has none yet.
        raise InvalidResultError("contract: there is no play in a ronde_pas contract", "contract")
    try:
        validate(ruleset, contract, played=False)
    except InvalidResultError as exc:
        raise InvalidResultError(f"contract: {exc}", _field(exc)) from None
    return contract


def _field(exc: InvalidResultError) -> str:
    return "contract" if exc.field is None else f"contract.{exc.field}"


def _deal(raw: object) -> Deal:
    if not isinstance(raw, str):
        raise InvalidResultError('deal must be a PBN deal string such as "N:AKQ..."', "deal")
    try:
        return Deal.from_pbn(raw)
    except EngineError as exc:
        raise InvalidResultError(f"deal: {exc}", "deal") from None


def _dealer(raw: object, contract: AnyResult) -> Seat | None:
    if raw is None:
        if isinstance(contract, IsraeliResult):
            return None
        raise InvalidResultError("the dealer is missing: give N, E, S or W", "dealer")
    if not isinstance(raw, str) or raw not in ("N", "E", "S", "W"):
        raise InvalidResultError(f"dealer must be N, E, S or W, not {raw!r}", "dealer")
    return Seat[raw]
