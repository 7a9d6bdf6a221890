"""Score schedules: what a contract is worth, written as data a TD can edit.

A ruleset gives every contract a *payout* for when it is made and one for when it fails.

- In a balancing (zero-sum) ruleset a payout is one formula giving one *unit*: what each member
  of a declaring pair receives from the other side, or what each opponent pays a lone declarer
  (who therefore receives three units). A negative amount is paid the other way.
- In a per-side ruleset a payout is two formulas, ``bidders`` (what each declarer receives) and
  ``opponents`` (what each other player receives); the two need not balance.

The formula vocabulary (the ``formula`` key of a formula table):

``flat``
    ``value``: a fixed amount.
``by_level``
    ``values``: a table by the contract's level, e.g. ``{ 9 = 10, 10 = 15 }``.
``by_tricks``
    ``values``: a table by the tricks won, counted up to ``max_tricks`` when given.
``level_plus_tricks``
    ``base`` (a number, or a table by level) plus ``per_trick`` for every over- or undertrick
    beyond the first ``included`` ones (default 0); tricks above ``max_tricks`` do not count.

Every formula also accepts ``all_tricks`` (the amount when the side wins all 13 tricks, in place
of the formula), ``double_at_all_tricks`` (winning all 13 tricks counts as one double) and
``overrides`` (exceptions: a list of ``{ level = 12, tricks = 12, value = 22 }``; leave ``level``
out to match any level). Amounts are whole numbers; the sign is the receiver's point of view.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import RulesetError
from engine.tomldoc import Inline, format_value

ALL_TRICKS = 13
FORMULAS = ("flat", "by_level", "by_tricks", "level_plus_tricks")
MULTIPLIERS = ("additive", "power")
_INLINE_WIDTH = 84

_FORMULA_KEYS = {
    "flat": {"value"},
    "by_level": {"values"},
    "by_tricks": {"values", "max_tricks"},
    "level_plus_tricks": {"base", "per_trick", "included", "max_tricks"},
}
_COMMON_KEYS = {"formula", "all_tricks", "double_at_all_tricks", "overrides"}


@dataclass(frozen=True, slots=True)
class Override:
    """An exception to a formula: at this level (any level when ``None``) and tricks, this value."""

    tricks: int
    value: int
    level: int | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.tricks <= ALL_TRICKS:
            raise RulesetError(f"tricks {self.tricks} is outside 0-13", "tricks")


@dataclass(frozen=True, slots=True)
class Formula:
    """One amount rule (see the module docstring for the vocabulary).

    ``value`` is the flat amount or the constant base; ``values`` the table of ``by_level``,
    ``by_tricks`` or a base by level, as ``(key, amount)`` pairs in increasing key order.
    """

    kind: str
    value: int | None = None
    values: tuple[tuple[int, int], ...] = ()
    per_trick: int = 0
    included: int = 0
    max_tricks: int | None = None
    all_tricks: int | None = None
    double_at_all_tricks: bool = False
    overrides: tuple[Override, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in FORMULAS:
            raise RulesetError(
                f"unknown formula {self.kind!r}; formulas are {', '.join(FORMULAS)}", "formula"
            )
        keys = [key for key, _ in self.values]
        if keys != sorted(set(keys)):
            raise RulesetError("table keys must be distinct and in increasing order", "values")
        for key in keys:
            if not 0 <= key <= ALL_TRICKS:
                raise RulesetError(f"key {key} is outside 0-13", "values")
        if self.max_tricks is not None and not 0 <= self.max_tricks <= ALL_TRICKS:
            raise RulesetError(f"max_tricks {self.max_tricks} is outside 0-13", "max_tricks")
        if self.included < 0:
            raise RulesetError("included cannot be negative", "included")
        if self.kind == "flat":
            if self.value is None:
                raise RulesetError("a flat formula needs a value", "value")
            self._refuse(values=bool(self.values), max_tricks=self.max_tricks is not None)
        elif self.kind in ("by_level", "by_tricks"):
            if not self.values:
                raise RulesetError(f"a {self.kind} formula needs a table of values", "values")
            self._refuse(
                value=self.value is not None,
                max_tricks=self.kind == "by_level" and self.max_tricks is not None,
            )
        elif (self.value is None) == (not self.values):
            raise RulesetError(
                "a level_plus_tricks formula needs a base: a number or a table by level", "base"
            )
        if self.kind != "level_plus_tricks":
            self._refuse(per_trick=self.per_trick != 0, included=self.included != 0)

    def _refuse(self, **present: bool) -> None:
        for key, is_present in present.items():
            if is_present:
                raise RulesetError(f"{key} does not apply to a {self.kind} formula", key)

    def amount(self, level: int | None, tricks: int) -> tuple[int, int]:
        """The amount for a contract of ``level`` with ``tricks`` won, and the doubles it earns.

        A missing table entry raises ``RulesetError`` naming the key, so that loading a ruleset
        (which evaluates every formula for every possible outcome) reports it.
        """
        doubles = 1 if self.double_at_all_tricks and tricks == ALL_TRICKS else 0
        for override in self.overrides:
            if override.tricks == tricks and override.level in (None, level):
                return override.value, doubles
        if self.all_tricks is not None and tricks == ALL_TRICKS:
            return self.all_tricks, doubles
        if self.kind == "flat":
            assert self.value is not None  # checked in __post_init__
            return self.value, doubles
        counted = tricks if self.max_tricks is None else min(tricks, self.max_tricks)
        if self.kind == "by_tricks":
            return self._lookup(counted, f"{counted} tricks", "values"), doubles
        if level is None:
            raise RulesetError(
                f"a {self.kind} formula needs a contract with levels; use flat or by_tricks",
                "formula",
            )
        if self.kind == "by_level":
            return self._lookup(level, f"level {level}", "values"), doubles
        base = (
            self.value if self.value is not None else self._lookup(level, f"level {level}", "base")
        )
        steps = max(0, abs(counted - level) - self.included)
        return base + self.per_trick * steps, doubles

    def _lookup(self, key: int, what: str, name: str) -> int:
        for entry, amount in self.values:
            if entry == key:
                return amount
        raise RulesetError(f"no value for {what}", name)


@dataclass(frozen=True, slots=True)
class Payout:
    """The amounts of one outcome: one unit formula (balancing) or one formula per side."""

    bidders: Formula
    opponents: Formula | None = None


def multiplier(mode: str, doubles: int) -> int:
    """The factor for a number of doubles: ``additive`` x2, x3, x4 ...; ``power`` x2, x4, x8 ..."""
    return 1 + doubles if mode == "additive" else 2**doubles


def settle(
    payout: Payout, level: int | None, tricks: int, *, lone: bool, doubles: int, mode: str
) -> tuple[int, int]:
    """``(each declarer, each other player)`` for one declarer or pair, with ``doubles`` applied.

    Balancing: a pair member gets one unit, a lone declarer three, each opponent pays one.
    Per-side: the bidders' and the opponents' formulas as they stand.
    """
    amount, own_doubles = payout.bidders.amount(level, tricks)
    declarer = amount * multiplier(mode, doubles + own_doubles)
    if payout.opponents is None:
        return (3 * declarer if lone else declarer), -declarer
    other, other_doubles = payout.opponents.amount(level, tricks)
    return declarer, other * multiplier(mode, doubles + other_doubles)


@dataclass(frozen=True, slots=True)
class IsraeliSchedule:
    """Israeli Whist scores, per player, from the player's trick bid and tricks.

    A bid of n >= 1 made exactly scores ``exact_base + exact_square * n * n``; otherwise
    ``missed_per_trick`` for each trick of difference. A zero bid made scores ``zero_made_over``
    or ``zero_made_under`` by the game's total of bids; failed, ``zero_failed_first`` for the
    first trick and ``zero_failed_further`` for each further one. With
    ``all_failed_scores_nothing``, a board on which every player missed scores 0 for all.
    """

    exact_base: int
    exact_square: int
    missed_per_trick: int
    zero_made_over: int
    zero_made_under: int
    zero_failed_first: int
    zero_failed_further: int
    all_failed_scores_nothing: bool = False

    def player_score(self, bid: int, tricks: int, over: bool) -> int:
        if bid == 0:
            if tricks == 0:
                return self.zero_made_over if over else self.zero_made_under
            return self.zero_failed_first + self.zero_failed_further * (tricks - 1)
        if tricks == bid:
            return self.exact_base + self.exact_square * bid * bid
        return self.missed_per_trick * abs(tricks - bid)


ISRAELI_KEYS = tuple(IsraeliSchedule.__dataclass_fields__)


# --- reading and writing the TOML form -------------------------------------------------------


def read_int(raw: Mapping[str, Any], key: str, path: str, default: int | None = None) -> int:
    value = raw.get(key, default)
    if value is None:
        raise RulesetError(f"{key} is missing", join(path, key))
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesetError(f"must be a whole number, not {value!r}", join(path, key))
    return value


def read_bool(raw: Mapping[str, Any], key: str, path: str, default: bool) -> bool:
    value = raw.get(key, default)
    if not isinstance(value, bool):
        raise RulesetError(f"must be true or false, not {value!r}", join(path, key))
    return value


def read_table(raw: object, path: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise RulesetError(f"must be a table, not {raw!r}", path)
    return raw


def check_keys(raw: Mapping[str, Any], allowed: set[str] | tuple[str, ...], path: str) -> None:
    for key in raw:
        if key not in allowed:
            known = ", ".join(sorted(allowed))
            raise RulesetError(f"unknown key; the keys here are {known}", join(path, key))


def join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _int_table(raw: object, path: str) -> tuple[tuple[int, int], ...]:
    table = read_table(raw, path)
    pairs = []
    for key in table:
        try:
            number = int(key)
        except ValueError:
            raise RulesetError("table keys must be numbers of tricks", join(path, key)) from None
        pairs.append((number, read_int(table, key, path)))
    return tuple(sorted(pairs))


def formula_from_mapping(raw: object, path: str) -> Formula:
    """Read one formula table; errors name the dotted key under ``path``."""
    table = read_table(raw, path)
    kind = table.get("formula")
    if not isinstance(kind, str):
        raise RulesetError(
            f"the formula is missing; give one of {', '.join(FORMULAS)}", join(path, "formula")
        )
    if kind not in FORMULAS:
        raise RulesetError(
            f"unknown formula {kind!r}; formulas are {', '.join(FORMULAS)}", join(path, "formula")
        )
    check_keys(table, _COMMON_KEYS | _FORMULA_KEYS[kind], path)
    value: int | None = None
    values: tuple[tuple[int, int], ...] = ()
    if kind == "flat":
        value = read_int(table, "value", path)
    elif kind == "level_plus_tricks":
        if isinstance(table.get("base"), Mapping):
            values = _int_table(table["base"], join(path, "base"))
        else:
            value = read_int(table, "base", path)
    else:
        values = _int_table(table.get("values"), join(path, "values"))
    overrides = []
    raw_overrides = table.get("overrides", [])
    if not isinstance(raw_overrides, list):
        raise RulesetError(
            "must be a list of { level, tricks, value } tables", join(path, "overrides")
        )
    for index, item in enumerate(raw_overrides):
        where = f"{join(path, 'overrides')}[{index}]"
        entry = read_table(item, where)
        check_keys(entry, {"level", "tricks", "value"}, where)
        level = read_int(entry, "level", where) if "level" in entry else None
        tricks, amount = read_int(entry, "tricks", where), read_int(entry, "value", where)
        try:
            # The reads above name the whole key already; Override's own checks name its field.
            overrides.append(Override(tricks, amount, level))
        except RulesetError as exc:
            raise RulesetError(exc.problem, join(where, exc.key or "")) from None
    max_tricks = read_int(table, "max_tricks", path) if "max_tricks" in table else None
    all_tricks = read_int(table, "all_tricks", path) if "all_tricks" in table else None
    per_trick = read_int(table, "per_trick", path, 0)
    included = read_int(table, "included", path, 0)
    double_at_all_tricks = read_bool(table, "double_at_all_tricks", path, False)
    try:
        # The reads above name the whole key already; Formula's own checks name its field.
        return Formula(
            kind=kind,
            value=value,
            values=values,
            per_trick=per_trick,
            included=included,
            max_tricks=max_tricks,
            all_tricks=all_tricks,
            double_at_all_tricks=double_at_all_tricks,
            overrides=tuple(overrides),
        )
    except RulesetError as exc:
        key = "base" if exc.key in ("values", "value") and kind == "level_plus_tricks" else exc.key
        raise RulesetError(exc.problem, join(path, key or "")) from None


def formula_to_mapping(formula: Formula) -> dict[str, Any]:
    out: dict[str, Any] = {"formula": formula.kind}
    table = Inline({str(key): amount for key, amount in formula.values})
    if formula.kind == "flat":
        out["value"] = formula.value
    elif formula.kind == "level_plus_tricks":
        out["base"] = formula.value if formula.value is not None else table
        out["per_trick"] = formula.per_trick
        if formula.included:
            out["included"] = formula.included
    else:
        out["values"] = table
    if formula.max_tricks is not None:
        out["max_tricks"] = formula.max_tricks
    if formula.all_tricks is not None:
        out["all_tricks"] = formula.all_tricks
    if formula.double_at_all_tricks:
        out["double_at_all_tricks"] = True
    if formula.overrides:
        out["overrides"] = [_override_to_mapping(override) for override in formula.overrides]
    return _inline_if_short(out)


def _inline_if_short(table: dict[str, Any]) -> dict[str, Any]:
    """Short tables read best on one line: ``made = { formula = "flat", value = 6 }``."""
    return Inline(table) if len(format_value(table)) <= _INLINE_WIDTH else table


def _override_to_mapping(override: Override) -> Inline:
    out = Inline()
    if override.level is not None:
        out["level"] = override.level
    out["tricks"] = override.tricks
    out["value"] = override.value
    return out


def payout_from_mapping(raw: object, path: str, balancing: bool) -> Payout:
    table = read_table(raw, path)
    if balancing:
        if "bidders" in table or "opponents" in table:
            raise RulesetError(
                "a balancing ruleset gives one formula per outcome, not bidders and opponents "
                "(set balancing = false for a per-side table)",
                path,
            )
        return Payout(formula_from_mapping(table, path))
    check_keys(table, {"bidders", "opponents"}, path)
    for side in ("bidders", "opponents"):
        if side not in table:
            raise RulesetError(
                f"{side} is missing: a per-side ruleset gives bidders and opponents formulas",
                join(path, side),
            )
    return Payout(
        formula_from_mapping(table["bidders"], join(path, "bidders")),
        formula_from_mapping(table["opponents"], join(path, "opponents")),
    )


def payout_to_mapping(payout: Payout) -> dict[str, Any]:
    if payout.opponents is None:
        return formula_to_mapping(payout.bidders)
    return _inline_if_short(
        {
            "bidders": formula_to_mapping(payout.bidders),
            "opponents": formula_to_mapping(payout.opponents),
        }
    )


def israeli_from_mapping(raw: object, path: str) -> IsraeliSchedule:
    table = read_table(raw, path)
    check_keys(table, ISRAELI_KEYS, path)
    numbers = {key: read_int(table, key, path) for key in ISRAELI_KEYS[:-1]}
    return IsraeliSchedule(
        **numbers,
        all_failed_scores_nothing=read_bool(table, "all_failed_scores_nothing", path, False),
    )


def israeli_to_mapping(schedule: IsraeliSchedule) -> dict[str, Any]:
    return {key: getattr(schedule, key) for key in ISRAELI_KEYS}
