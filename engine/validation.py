"""Whether a board result can be scored under a ruleset.

``validate`` raises ``InvalidResultError`` naming the offending field (``"level"``,
``"declarers"``, ``"tricks.N"``, ``"bids"`` ...) with a sentence that says what to fix. It checks
what the ruleset and the count of tricks allow; whether the board's cards make the result
possible is for ``engine.adjudication``.
"""

from __future__ import annotations

from engine.cards import SEATS, Seat
from engine.errors import InvalidResultError
from engine.results import AnyResult, BoardResult, Contract, IsraeliResult
from engine.ruleset import NO_TRUMP, SHAPES, Ruleset
from engine.schedule import ALL_TRICKS


def validate(ruleset: Ruleset, result: AnyResult, *, played: bool = True) -> None:
    """Raise ``InvalidResultError`` unless ``result`` is a possible result under ``ruleset``.

    With ``played=False`` the trick counts may be absent (a contract just out of the auction);
    when present they are still checked.
    """
    if isinstance(result, IsraeliResult):
        _validate_israeli(ruleset, result, played)
    else:
        _validate_board(ruleset, result, played)


def _validate_board(ruleset: Ruleset, result: BoardResult, played: bool) -> None:
    contract = result.contract
    if contract is Contract.ISRAELI:
        raise InvalidResultError(
            "an Israeli Whist result gives the declarer, every player's bid and tricks",
            "contract",
        )
    if contract is Contract.PASS:
        _validate_pass(result)
        return
    ruleset.rules(contract)  # raises InvalidResultError("... does not allow ...", "contract")
    token = contract.value
    _validate_level(ruleset, contract, result.level)
    if contract.has_trump and result.trump is None:
        raise InvalidResultError(
            f"the trump is missing: {token} is played with a trump suit (H, D, C or S)", "trump"
        )
    if not contract.has_trump and result.trump is not None:
        raise InvalidResultError(f"{token} is played without trumps: leave trump out", "trump")
    _validate_declarers(contract, result.declarers)
    if result.doubled and not ruleset.options.announced_double:
        raise InvalidResultError(
            f"the {ruleset.name} ruleset has no announced double: leave doubled out", "doubled"
        )
    if contract.is_negative:
        _validate_negative_tricks(contract, result, played)
    else:
        if result.declarer_tricks:
            raise InvalidResultError(
                f"for {token}, tricks is one number: the declaring side's tricks", "tricks"
            )
        if result.tricks is None:
            if played:
                raise InvalidResultError(
                    "tricks is missing: give the declaring side's tricks (0-13)", "tricks"
                )
        elif not 0 <= result.tricks <= ALL_TRICKS:
            raise InvalidResultError(
                f"tricks {result.tricks} is out of range: a side wins 0-13 tricks", "tricks"
            )


def _validate_pass(result: BoardResult) -> None:
    present = (
        ("level", result.level is not None),
        ("trump", result.trump is not None),
        ("declarers", bool(result.declarers)),
        ("tricks", result.tricks is not None or bool(result.declarer_tricks)),
        ("doubled", result.doubled),
    )
    for field, is_present in present:
        if is_present:
            raise InvalidResultError(
                f"an all-pass result has no {field}: nothing was played", field
            )


def _validate_level(ruleset: Ruleset, contract: Contract, level: int | None) -> None:
    levels = ruleset.levels(contract)
    token = contract.value
    if not levels:
        if level is not None:
            raise InvalidResultError(f"{token} has no level: leave level out", "level")
        return
    allowed = f"{levels[0]}-{levels[-1]}" if len(levels) > 1 else str(levels[0])
    if level is None:
        raise InvalidResultError(
            f"the level is missing: {token} is bid at a level ({allowed})", "level"
        )
    if level not in levels:
        raise InvalidResultError(
            f"level {level} is out of range for {token}: the {ruleset.name} ruleset allows "
            f"{', '.join(map(str, levels))}",
            "level",
        )


def _validate_declarers(contract: Contract, declarers: tuple[Seat, ...]) -> None:
    low, high = SHAPES[contract].declarers
    count = len(declarers)
    if not low <= count <= high:
        wanted = str(low) if low == high else f"{low} to {high}"
        raise InvalidResultError(
            f"{contract.value} has {wanted} declarer{'s' if high > 1 else ''}, not {count}",
            "declarers",
        )
    seen: set[Seat] = set()
    for seat in declarers:
        if seat in seen:
            raise InvalidResultError(f"declarers names {seat.name} twice", "declarers")
        seen.add(seat)


def _validate_negative_tricks(contract: Contract, result: BoardResult, played: bool) -> None:
    token = contract.value
    if result.tricks is not None:
        raise InvalidResultError(
            f"for {token}, tricks gives each declarer's own tricks, e.g. "
            '{"N": 0, "S": 1}, not one number',
            "tricks",
        )
    if not result.declarer_tricks:
        if played:
            raise InvalidResultError("tricks is missing: give each declarer's own tricks", "tricks")
        return
    if len(result.declarer_tricks) != len(result.declarers):
        raise InvalidResultError(
            "tricks must give the tricks of every declarer and of no one else", "tricks"
        )
    in_play = SHAPES[contract].tricks_in_play
    for seat, count in zip(result.declarers, result.declarer_tricks, strict=True):
        if not 0 <= count <= in_play:
            raise InvalidResultError(
                f"{seat.name}'s tricks {count} are out of range 0-{in_play}", f"tricks.{seat.name}"
            )
    total = sum(result.declarer_tricks)
    if total > in_play:
        raise InvalidResultError(
            f"the declarers' tricks add up to {total}, more than the {in_play} tricks of {token}",
            "tricks",
        )


def _validate_israeli(ruleset: Ruleset, result: IsraeliResult, played: bool) -> None:
    if ruleset.game != "israeli":
        raise InvalidResultError(
            f"the {ruleset.name} ruleset is not Israeli Whist; an israeli result needs an "
            "Israeli ruleset",
            "contract",
        )
    _validate_level(ruleset, Contract.ISRAELI, result.level)
    if result.trump not in ruleset.options.trump_order:
        name = NO_TRUMP if result.trump is None else result.trump.name
        raise InvalidResultError(f"the {ruleset.name} ruleset has no {name} contract", "trump")
    for seat in SEATS:
        bid = result.bids[seat.value]
        if not 0 <= bid <= ALL_TRICKS:
            raise InvalidResultError(
                f"{seat.name}'s bid {bid} is out of range 0-13", f"bids.{seat.name}"
            )
    declarer = result.declarer
    if result.bids[declarer.value] != result.level:
        raise InvalidResultError(
            f"the declarer {declarer.name} bids its contract's level {result.level}, "
            f"not {result.bids[declarer.value]}",
            f"bids.{declarer.name}",
        )
    if sum(result.bids) == ALL_TRICKS:
        raise InvalidResultError(
            "the bids add up to 13; the last bid must make the game over or under", "bids"
        )
    if result.tricks is None:
        if played:
            raise InvalidResultError("tricks is missing: give every player's tricks", "tricks")
        return
    for seat in SEATS:
        count = result.tricks[seat.value]
        if not 0 <= count <= ALL_TRICKS:
            raise InvalidResultError(
                f"{seat.name}'s tricks {count} are out of range 0-13", f"tricks.{seat.name}"
            )
    total = sum(result.tricks)
    if total != ALL_TRICKS:
        raise InvalidResultError(f"the tricks add up to {total}, not 13", "tricks")
