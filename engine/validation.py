"""Whether a board result can be scored under a ruleset.

``validate`` raises ``InvalidResultError`` naming the offending field (``"level"``,
``"declarers"``, ``"tricks.N"``, ``"bids"`` ...) with a sentence that says what to fix. It checks
what the ruleset and the count of tricks allow; whether the board's cards make the result
possible is for ``engine.adjudication``.

Each error's ``code`` is a key of ``MESSAGES`` (or, for a contract the ruleset does not have,
of ``engine.ruleset.MESSAGES``) and its ``params`` are the values that message names: contracts
as tokens (``solo_slim``), seats as letters, the ruleset by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from engine.cards import SEATS, Seat
from engine.errors import InvalidResultError
from engine.results import (
    RONDE_PAS_FIELDS,
    AnyResult,
    BoardResult,
    Contract,
    IsraeliResult,
    RondePasGame,
    RondePasResult,
)
from engine.ruleset import NO_TRUMP, SHAPES, Ruleset
from engine.schedule import ALL_TRICKS

MESSAGES: Final[Mapping[str, str]] = {
    "israeli_as_board_result": (
        "an Israeli Whist result gives the declarer, every player's bid and tricks"
    ),
    "pass_with_level": "an all-pass result has no level: nothing was played",
    "pass_with_trump": "an all-pass result has no trump: nothing was played",
    "pass_with_declarers": "an all-pass result has no declarers: nothing was played",
    "pass_with_tricks": "an all-pass result has no tricks: nothing was played",
    "pass_with_doubled": "an all-pass result has no doubled: nothing was played",
    "trump_missing": "the trump is missing: {contract} is played with a trump suit (H, D, C or S)",
    "trump_not_played": "{contract} is played without trumps: leave trump out",
    "no_announced_double": "the {ruleset} ruleset has no announced double: leave doubled out",
    "level_not_bid": "{contract} has no level: leave level out",
    "level_missing": "the level is missing: {contract} is bid at a level ({levels})",
    "level_not_allowed": (
        "level {level} is out of range for {contract}: the {ruleset} ruleset allows {levels}"
    ),
    "declarer_count": "{contract} has {declarers} declarer, not {count}",
    "declarers_count": "{contract} has {declarers} declarers, not {count}",
    "declarers_count_range": "{contract} has {low} to {high} declarers, not {count}",
    "declarer_twice": "declarers names {seat} twice",
    "side_tricks_per_declarer": "for {contract}, tricks is one number: the declaring side's tricks",
    "side_tricks_missing": "tricks is missing: give the declaring side's tricks (0-13)",
    "side_tricks_range": "tricks {tricks} is out of range: a side wins 0-13 tricks",
    "negative_tricks_one_number": (
        'for {contract}, tricks gives each declarer\'s own tricks, e.g. {{"N": 0, "S": 1}}, '
        "not one number"
    ),
    "negative_tricks_missing": "tricks is missing: give each declarer's own tricks",
    "negative_tricks_declarers": "tricks must give the tricks of every declarer and of no one else",
    "seat_tricks_out_of_range": "{seat}'s tricks {count} are out of range 0-{most}",
    "declarer_tricks_total": (
        "the declarers' tricks add up to {total}, more than the {most} tricks of {contract}"
    ),
    "not_israeli_ruleset": (
        "the {ruleset} ruleset is not Israeli Whist; an israeli result needs an Israeli ruleset"
    ),
    "no_such_trump": "the {ruleset} ruleset has no {trump} contract",
    "seat_bid_out_of_range": "{seat}'s bid {bid} is out of range 0-13",
    "declarer_bid": "the declarer {seat} bids its contract's level {level}, not {bid}",
    "bids_total": "the bids add up to 13; the last bid must make the game over or under",
    "player_tricks_missing": "tricks is missing: give every player's tricks",
    "tricks_total": "the tricks add up to {total}, not 13",
    "ronde_pas_as_board_result": (
        "a Ronde Pas result gives the game played and the last trick's winner, the queens or "
        "the tricks"
    ),
    "ronde_pas_not_wiezen": "Ronde Pas is a Wiezen game; the {ruleset} ruleset is {game}",
    "ronde_pas_not_played": (
        "the {ruleset} ruleset deals an all-passed deal again: it plays no Ronde Pas"
    ),
    "ronde_pas_last_trick_missing": (
        "the last trick's winner is missing: give the seat that won it (N, E, S or W)"
    ),
    "ronde_pas_queens_missing": "the queens are missing: give the queens each player took",
    "ronde_pas_tricks_missing": "the tricks are missing: give the tricks each player took",
    "ronde_pas_other_field": "the {game} game of Ronde Pas has no {item}: leave it out",
    "seat_queens_out_of_range": "{seat}'s queens {count} are out of range 0-{most}",
    "queens_total": "the queens add up to {total}, not 4",
}
"""Every code ``validate`` raises (besides ``contract_not_allowed``) and its English message."""


def _invalid(code: str, field: str, **params: str | int) -> InvalidResultError:
    return InvalidResultError(MESSAGES[code].format(**params), field, code=code, params=params)


def validate(ruleset: Ruleset, result: AnyResult, *, played: bool = True) -> None:
    """Raise ``InvalidResultError`` unless ``result`` is a possible result under ``ruleset``.

    With ``played=False`` the trick counts may be absent (a contract just out of the auction);
    when present they are still checked.
    """
    if isinstance(result, IsraeliResult):
        _validate_israeli(ruleset, result, played)
    elif isinstance(result, RondePasResult):
        _validate_ronde_pas(ruleset, result, played)
    else:
        _validate_board(ruleset, result, played)


def _validate_board(ruleset: Ruleset, result: BoardResult, played: bool) -> None:
    contract = result.contract
    if contract is Contract.ISRAELI:
        raise _invalid("israeli_as_board_result", "contract")
    if contract is Contract.RONDE_PAS:
        raise _invalid("ronde_pas_as_board_result", "contract")
    if contract is Contract.PASS:
        _validate_pass(result)
        return
    ruleset.rules(contract)  # raises InvalidResultError("... does not allow ...", "contract")
    token = contract.value
    _validate_level(ruleset, contract, result.level)
    if contract.has_trump and result.trump is None:
        raise _invalid("trump_missing", "trump", contract=token)
    if not contract.has_trump and result.trump is not None:
        raise _invalid("trump_not_played", "trump", contract=token)
    _validate_declarers(contract, result.declarers)
    if result.doubled and not ruleset.options.announced_double:
        raise _invalid("no_announced_double", "doubled", ruleset=ruleset.name)
    if contract.is_negative:
        _validate_negative_tricks(contract, result, played)
    else:
        if result.declarer_tricks:
            raise _invalid("side_tricks_per_declarer", "tricks", contract=token)
        if result.tricks is None:
            if played:
                raise _invalid("side_tricks_missing", "tricks")
        elif not 0 <= result.tricks <= ALL_TRICKS:
            raise _invalid("side_tricks_range", "tricks", tricks=result.tricks)


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
            raise _invalid(f"pass_with_{field}", field)


def _validate_level(ruleset: Ruleset, contract: Contract, level: int | None) -> None:
    levels = ruleset.levels(contract)
    token = contract.value
    if not levels:
        if level is not None:
            raise _invalid("level_not_bid", "level", contract=token)
        return
    allowed = f"{levels[0]}-{levels[-1]}" if len(levels) > 1 else str(levels[0])
    if level is None:
        raise _invalid("level_missing", "level", contract=token, levels=allowed)
    if level not in levels:
        raise _invalid(
            "level_not_allowed",
            "level",
            level=level,
            contract=token,
            ruleset=ruleset.name,
            levels=", ".join(map(str, levels)),
        )


def _validate_declarers(contract: Contract, declarers: tuple[Seat, ...]) -> None:
    low, high = SHAPES[contract].declarers
    count = len(declarers)
    if not low <= count <= high:
        token = contract.value
        if low != high:  # the ranges of SHAPES are all "1 to 4"
            raise _invalid(
                "declarers_count_range",
                "declarers",
                contract=token,
                low=low,
                high=high,
                count=count,
            )
        code = "declarers_count" if high > 1 else "declarer_count"
        raise _invalid(code, "declarers", contract=token, declarers=low, count=count)
    seen: set[Seat] = set()
    for seat in declarers:
        if seat in seen:
            raise _invalid("declarer_twice", "declarers", seat=seat.name)
        seen.add(seat)


def _validate_negative_tricks(contract: Contract, result: BoardResult, played: bool) -> None:
    token = contract.value
    if result.tricks is not None:
        raise _invalid("negative_tricks_one_number", "tricks", contract=token)
    if not result.declarer_tricks:
        if played:
            raise _invalid("negative_tricks_missing", "tricks")
        return
    if len(result.declarer_tricks) != len(result.declarers):
        raise _invalid("negative_tricks_declarers", "tricks")
    in_play = SHAPES[contract].tricks_in_play
    for seat, count in zip(result.declarers, result.declarer_tricks, strict=True):
        if not 0 <= count <= in_play:
            raise _invalid(
                "seat_tricks_out_of_range",
                f"tricks.{seat.name}",
                seat=seat.name,
                count=count,
                most=in_play,
            )
    total = sum(result.declarer_tricks)
    if total > in_play:
        raise _invalid("declarer_tricks_total", "tricks", total=total, most=in_play, contract=token)


def _validate_israeli(ruleset: Ruleset, result: IsraeliResult, played: bool) -> None:
    if ruleset.game != "israeli":
        raise _invalid("not_israeli_ruleset", "contract", ruleset=ruleset.name)
    _validate_level(ruleset, Contract.ISRAELI, result.level)
    if result.trump not in ruleset.options.trump_order:
        name = NO_TRUMP if result.trump is None else result.trump.name
        raise _invalid("no_such_trump", "trump", ruleset=ruleset.name, trump=name)
    for seat in SEATS:
        bid = result.bids[seat.value]
        if not 0 <= bid <= ALL_TRICKS:
            raise _invalid("seat_bid_out_of_range", f"bids.{seat.name}", seat=seat.name, bid=bid)
    declarer = result.declarer
    if result.bids[declarer.value] != result.level:
        raise _invalid(
            "declarer_bid",
            f"bids.{declarer.name}",
            seat=declarer.name,
            level=result.level,
            bid=result.bids[declarer.value],
        )
    if sum(result.bids) == ALL_TRICKS:
        raise _invalid("bids_total", "bids")
    if result.tricks is None:
        if played:
            raise _invalid("player_tricks_missing", "tricks")
        return
    for seat in SEATS:
        count = result.tricks[seat.value]
        if not 0 <= count <= ALL_TRICKS:
            raise _invalid(
                "seat_tricks_out_of_range",
                f"tricks.{seat.name}",
                seat=seat.name,
                count=count,
                most=ALL_TRICKS,
            )
    total = sum(result.tricks)
    if total != ALL_TRICKS:
        raise _invalid("tricks_total", "tricks", total=total)


QUEENS = 4
"""The queens in the pack, won in tricks in Ronde Pas's queens game."""


def _validate_ronde_pas(ruleset: Ruleset, result: RondePasResult, played: bool) -> None:
    if ruleset.game != "wiezen":
        raise _invalid("ronde_pas_not_wiezen", "contract", ruleset=ruleset.name, game=ruleset.game)
    if not ruleset.plays_ronde_pas:
        raise _invalid("ronde_pas_not_played", "contract", ruleset=ruleset.name)
    game = result.game
    decisive = RONDE_PAS_FIELDS[game]
    present = {
        "last_trick": result.last_trick is not None,
        "queens": result.queens is not None,
        "tricks": result.tricks is not None,
    }
    for field, is_present in present.items():
        if is_present and field != decisive:
            raise _invalid("ronde_pas_other_field", field, game=game.value, item=field)
    if not present[decisive]:
        if played:
            raise _invalid(f"ronde_pas_{decisive}_missing", decisive)
        return
    if game is RondePasGame.QUEENS:
        assert result.queens is not None
        _validate_counts(
            result.queens, "queens", QUEENS, "seat_queens_out_of_range", "queens_total"
        )
    elif game is RondePasGame.FEWEST_TRICKS:
        assert result.tricks is not None
        _validate_counts(
            result.tricks, "tricks", ALL_TRICKS, "seat_tricks_out_of_range", "tricks_total"
        )


def _validate_counts(
    counts: tuple[int, int, int, int], field: str, total: int, range_code: str, total_code: str
) -> None:
    """Each seat's count in 0..``total`` (params seat, count, most), and their sum ``total``."""
    for seat in SEATS:
        count = counts[seat.value]
        if not 0 <= count <= total:
            raise _invalid(
                range_code, f"{field}.{seat.name}", seat=seat.name, count=count, most=total
            )
    if sum(counts) != total:
        raise _invalid(total_code, field, total=sum(counts))
