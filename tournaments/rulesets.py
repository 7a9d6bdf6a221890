"""Adapter between events and the engine's rulesets.

An event names a built-in ruleset or carries a custom TOML document; when play starts the ruleset is
frozen into the event as a full copy, so editing a club's table later never changes old scores.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.engine_text import contract_name, error_message
from tournaments.errors import UserError
from tournaments.game import (
    SHAPES,
    Bid,
    InvalidResultError,
    Ruleset,
    RulesetError,
    UnknownRulesetError,
    builtin_names,
    load_builtin,
    load_ruleset,
    ruleset_to_toml,
)

CUSTOM = "custom"


# The built-in rulesets' titles in the reader's language; each is the ``title`` of its TOML file.
BUILTIN_TITLES: dict[str, Promise] = {
    "flemish": gettext_lazy("Flemish 2 + 1 scoring with doubles (zero-sum)"),
    "israeli": gettext_lazy("Israeli Whist"),
    "israeli-alt": gettext_lazy("Israeli Whist, alternative scoring"),
    "iwwa": gettext_lazy("IWWA per-side tournament table"),
    "iwwa-wiezen": gettext_lazy("IWWA Wiezen table (zero-sum)"),
    "pagat": gettext_lazy("pagat.com recommended table (zero-sum)"),
    "whisthub": gettext_lazy("Whisthub standard (zero-sum)"),
    "whisthub-piccolo": gettext_lazy("Whisthub with piccolo (zero-sum)"),
}


def builtin_title(name: str) -> str:
    """A built-in ruleset's title in the active language; "" for a name that is not built in."""
    if name in BUILTIN_TITLES:
        return str(BUILTIN_TITLES[name])
    try:
        return load_builtin(name).title
    except UnknownRulesetError:
        return ""


def is_builtin(ruleset: Ruleset) -> bool:
    """Whether a ruleset is titled as the built-in one of its name (or a frozen copy of it)."""
    try:
        return load_builtin(ruleset.name).title == ruleset.title
    except UnknownRulesetError:
        return False


def title(ruleset: Ruleset) -> str:
    """A ruleset's title in the active language: a built-in one (or a frozen copy of it)
    translated, a club's own as its document writes it."""
    return builtin_title(ruleset.name) if is_builtin(ruleset) else ruleset.title


def builtin_choices() -> list[tuple[str, str]]:
    """The built-in rulesets for a choice list, titled in the active language."""
    return [(name, f"{builtin_title(name)} ({name})") for name in builtin_names()]


@lru_cache(maxsize=256)
def _parse(document: str) -> Ruleset:
    return load_ruleset(document)


def parse_custom(document: str, field: str = "ruleset_toml") -> Ruleset:
    """A custom ruleset document, or a ``UserError`` naming the broken key."""
    try:
        return _parse(document)
    except RulesetError as exc:
        raise UserError(
            _("The ruleset document is broken: %(problem)s") % {"problem": error_message(exc)},
            code="bad_ruleset",
            field=field,
        ) from exc


def resolve(name: str, document: str = "") -> Ruleset:
    """The ruleset an event uses: its document when it has one, else the named built-in."""
    if document.strip():
        return parse_custom(document)
    try:
        return load_builtin(name)
    except UnknownRulesetError as exc:
        raise UserError(
            _("Unknown ruleset %(name)s.") % {"name": name},
            code="bad_ruleset",
            field="ruleset_name",
        ) from exc


def frozen_document(ruleset: Ruleset) -> str:
    return ruleset_to_toml(ruleset)


def digest(document: str) -> str:
    """A short fingerprint of a ruleset document, stored with each score."""
    return hashlib.sha256(document.encode()).hexdigest()[:16]


def _label(bid: Bid) -> str:
    name = contract_name(bid.contract)
    return f"{name} {bid.level}" if bid.level is not None else name


def summary(ruleset: Ruleset) -> list[dict[str, str]]:
    """The score table in a few rows a TD can read on the event form and the printed sheet.

    Every figure comes from the engine's scorer, so the summary cannot disagree with the scores:
    for each bid, the first declarer's score when made exactly and when one trick short.
    """
    from tournaments.game import PAIR_CONTRACTS, BoardResult, Seat, Suit, score

    if ruleset.israeli is not None:
        schedule = ruleset.israeli
        rows = [
            {
                "contract": _("bid %(n)s") % {"n": n},
                "made": str(schedule.player_score(n, n, over=True)),
                "failed": str(schedule.player_score(n, n + 1, over=True)),
            }
            for n in range(1, 8)
        ]
        rows.insert(
            0,
            {
                "contract": _("bid 0 (over / under)"),
                "made": f"{schedule.zero_made_over} / {schedule.zero_made_under}",
                "failed": str(schedule.zero_failed_first),
            },
        )
        return rows
    rows = []
    for bid in _bids(ruleset):
        contract = bid.contract
        declarers: tuple[Seat, ...] = (Seat.N, Seat.E) if contract in PAIR_CONTRACTS else (Seat.N,)
        trump = Suit.H if contract.has_trump else None
        shape = SHAPES[contract]
        if contract.is_negative:
            target = shape.target
            made = BoardResult(contract, None, None, declarers, declarer_tricks=(target,))
            failed = BoardResult(contract, None, None, declarers, declarer_tricks=(target + 1,))
        else:
            need = bid.level if bid.level is not None else shape.target
            made = BoardResult(contract, bid.level, trump, declarers, tricks=need)
            failed = BoardResult(contract, bid.level, trump, declarers, tricks=need - 1)
        try:
            rows.append(
                {
                    "contract": _label(bid),
                    "made": f"{score(ruleset, made)[0]:+d}",
                    "failed": f"{score(ruleset, failed)[0]:+d}",
                }
            )
        except InvalidResultError:
            continue  # a bid this ruleset's rules do not allow at this level
    return rows


TRICK_COUNTS = tuple(range(14))


def _bids(ruleset: Ruleset) -> list[Bid]:
    """The ladder's bids, a bid whose level the play decides (troel: 8 tricks, or 9 after a trump
    switch) once per level the ruleset allows."""
    bids: list[Bid] = []
    for step in ruleset.ladder:
        levels = (step.level,) if step.level is not None else ruleset.levels(step.contract)
        bids += [Bid(step.contract, level) for level in levels] or [step]
    return bids


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _payout_row(ruleset: Ruleset, bid: Bid) -> dict[str, object]:
    from tournaments.game import PAIR_CONTRACTS, BoardResult, Seat, Suit, score

    contract = bid.contract
    shape = SHAPES[contract]
    declarers: tuple[Seat, ...] = (Seat.N, Seat.E) if contract in PAIR_CONTRACTS else (Seat.N,)
    opponent = Seat.S if len(declarers) == 2 else Seat.E
    trump = Suit.H if contract.has_trump else None
    cells: list[dict[str, object] | None] = []
    for tricks in TRICK_COUNTS:
        if contract.is_negative:
            result = BoardResult(contract, None, None, declarers, declarer_tricks=(tricks,))
        else:
            result = BoardResult(contract, bid.level, trump, declarers, tricks=tricks)
        try:
            scores = score(ruleset, result)
        except InvalidResultError:
            cells.append(None)  # more tricks than a negative contract has in play
            continue
        cells.append(
            {
                # No-break spaces: a cell stays on one line in a narrow table.
                "text": f"{_signed(scores[Seat.N.value])}\u00a0/\u00a0"
                f"{_signed(scores[opponent.value])}",
                "made": shape.made(bid.level, tricks),
            }
        )
    return {"label": _label(bid), "cells": cells}


def payout_table(ruleset: Ruleset) -> dict[str, object]:
    """Every bid's payout for 0 to 13 tricks, undoubled, as the engine's scorer gives it.

    Kleurenwiezen and Wiezen: a row per bid of the ladder, each cell ``"each declarer / each
    opponent"`` for the declaring side's tricks (a negative contract: one declarer's own tricks;
    tricks that cannot happen are empty cells). Israeli Whist: a row per trick bid, each cell the
    player's score. ``made`` marks the cells where the contract or the bid is made.
    """
    rows: list[dict[str, object]] = []
    if ruleset.israeli is not None:
        schedule = ruleset.israeli
        bids: list[tuple[str, int, bool]] = [
            (_("bid 0 (the bids add up to more than 13)"), 0, True),
            (_("bid 0 (the bids add up to less than 13)"), 0, False),
            *((_("bid %(n)s") % {"n": n}, n, True) for n in range(1, 14)),
        ]
        for label, trick_bid, over in bids:
            rows.append(
                {
                    "label": label,
                    "cells": [
                        {
                            "text": _signed(schedule.player_score(trick_bid, tricks, over)),
                            "made": tricks == trick_bid,
                        }
                        for tricks in TRICK_COUNTS
                    ],
                }
            )
        return {"per_player": True, "columns": list(TRICK_COUNTS), "rows": rows}
    rows += [_payout_row(ruleset, bid) for bid in _bids(ruleset)]
    return {"per_player": False, "columns": list(TRICK_COUNTS), "rows": rows}
