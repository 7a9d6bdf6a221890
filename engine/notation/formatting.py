"""Writing a result line: the canonical English form, refusing a result no line can express."""

from __future__ import annotations

from engine.cards import SEATS
from engine.errors import InvalidResultError
from engine.notation.grammar import (
    CANONICAL_WORDS,
    ISRAELI_LEVELS,
    LEVELS,
    MAX_TRICKS,
    RONDE_PAS_CANONICAL,
    declarer_count_kind,
    declarer_counts,
)
from engine.notation_messages import message
from engine.results import (
    RONDE_PAS_FIELDS,
    AnyResult,
    BoardResult,
    Contract,
    IsraeliResult,
    RondePasResult,
)


def format_result_line(result: AnyResult) -> str:
    """The canonical English line of a result (``NE 9H 10``, ``N,S mis 0,1``, ``pass``).

    Raises ``InvalidResultError`` naming the field when the result has a shape no line can
    express (a level outside the contract's range, a missing trump, a wrong number of declarers).
    """
    if isinstance(result, IsraeliResult):
        return _format_israeli(result)
    if isinstance(result, RondePasResult):
        return _format_ronde_pas(result)
    _check_board_shape(result)
    contract = result.contract
    flags = [flag for flag, on in (("dbl", result.doubled), ("ap", result.after_all_pass)) if on]
    if contract is Contract.PASS:
        return " ".join(("pass", *flags))
    joiner = "," if contract.is_negative else ""
    seats = joiner.join(seat.name for seat in result.declarers)
    word = CANONICAL_WORDS[contract]
    trump = result.trump.letter if result.trump is not None else ""
    if contract is Contract.ACCEPT:
        part = f"{result.level}{trump}"
    elif contract in LEVELS:
        part = f"{word}{result.level}{trump}"
    elif contract.has_trump:
        part = f"{word} {trump}"
    else:
        part = word
    if contract.is_negative:
        tricks = ",".join(str(t) for t in result.declarer_tricks) or "?"
    else:
        tricks = "?" if result.tricks is None else str(result.tricks)
    return " ".join((seats, part, tricks, *flags))


def _format_israeli(result: IsraeliResult) -> str:
    if result.level not in ISRAELI_LEVELS:
        raise _invalid(
            "israeli_level_range", "level", low=ISRAELI_LEVELS.start, high=ISRAELI_LEVELS.stop - 1
        )
    for field, code, values in (
        ("bids", "bids_range", result.bids),
        ("tricks", "seat_tricks_range", result.tricks or ()),
    ):
        for seat, value in zip(SEATS, values, strict=False):
            if not 0 <= value <= MAX_TRICKS:
                raise _invalid(code, f"{field}.{seat.name}", seat=seat.name, high=MAX_TRICKS)
    trump = "NT" if result.trump is None else result.trump.letter
    bids = ",".join(str(b) for b in result.bids)
    tricks = "?" if result.tricks is None else ",".join(str(t) for t in result.tricks)
    return f"{result.declarer.name} {result.level}{trump} {bids} {tricks}"


def _format_ronde_pas(result: RondePasResult) -> str:
    game = result.game
    fields = {
        "last_trick": result.last_trick is not None,
        "queens": result.queens is not None,
        "tricks": result.tricks is not None,
    }
    decisive = RONDE_PAS_FIELDS[game]
    for field, present in fields.items():
        if present != (field == decisive):
            code = "ronde_pas_field_extra" if present else "ronde_pas_field_missing"
            raise _invalid(code, field, game=game.value, item=field)
    word = RONDE_PAS_CANONICAL[game]
    if result.last_trick is not None:
        return f"ronde {word} {result.last_trick.name}"
    counts = result.queens if result.queens is not None else result.tricks
    assert counts is not None, "checked above"
    high, code = (
        (4, "queens_range") if result.queens is not None else (MAX_TRICKS, "seat_tricks_range")
    )
    for seat in SEATS:
        if not 0 <= counts[seat.value] <= high:
            raise _invalid(code, f"{decisive}.{seat.name}", seat=seat.name, high=high)
    return f"ronde {word} " + " ".join(f"{seat.name}{counts[seat.value]}" for seat in SEATS)


def _check_board_shape(result: BoardResult) -> None:
    """A board result's fields must fit its contract: level, trump, declarers and tricks."""
    contract = result.contract
    if contract is Contract.ISRAELI:
        raise _invalid("israeli_not_board_result", "contract")
    if contract is Contract.RONDE_PAS:
        raise _invalid("ronde_pas_not_board_result", "contract")
    token = contract.value
    if contract in LEVELS:
        allowed = LEVELS[contract]
        if result.level not in allowed:
            raise _invalid(
                "contract_level_range",
                "level",
                a_contract=token,
                low=allowed.start,
                high=allowed.stop - 1,
                level=str(result.level),
            )
    elif result.level is not None:
        raise _invalid("contract_has_no_level", "level", a_contract=token)
    if contract.has_trump and result.trump is None:
        raise _invalid("contract_needs_trump", "trump", a_contract=token)
    if not contract.has_trump and result.trump is not None:
        raise _invalid("contract_has_no_trump", "trump", a_contract=token)
    counts = declarer_counts(contract)
    if len(result.declarers) not in counts or len(set(result.declarers)) != len(result.declarers):
        raise _invalid(
            f"result_declarers_{declarer_count_kind(counts)}",
            "declarers",
            a_contract=token,
            count=len(result.declarers),
        )
    _check_board_tricks(result, token)


def _check_board_tricks(result: BoardResult, token: str) -> None:
    """Trick counts: one per declarer for a negative contract, else one for the side, in range."""
    contract = result.contract
    if contract.is_negative:
        if result.tricks is not None:
            raise _invalid("misere_tricks_per_declarer", "tricks")
        if result.declarer_tricks and len(result.declarer_tricks) != len(result.declarers):
            raise _invalid("declarer_tricks_count", "tricks")
        counts_to_check: tuple[int, ...] = result.declarer_tricks
    else:
        if result.declarer_tricks:
            raise _invalid("one_trick_count_in_tricks", "tricks", a_contract=token)
        if contract is Contract.PASS and result.tricks is not None:
            raise _invalid("pass_has_no_tricks", "tricks")
        counts_to_check = () if result.tricks is None else (result.tricks,)
    for count in counts_to_check:
        if not 0 <= count <= MAX_TRICKS:
            raise _invalid("tricks_range", "tricks", high=MAX_TRICKS, count=count)


def _invalid(code: str, field: str, **params: str | int) -> InvalidResultError:
    return InvalidResultError(message(code, params), field, code=code, params=params)
