"""Board results in words, for players reading their own results on the public pages.

Players do not read the result notation the scorers key (``NE 8H 9``): they read "N and E: accept
8♥, 9 tricks". Contract names come from ``engine_text`` so that every page names a contract alike;
suits are shown as their symbols, which read the same in every language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.engine_text import contract_name
from tournaments.game import (
    SEATS,
    AnyResult,
    Award,
    BoardResult,
    Contract,
    EngineError,
    IsraeliResult,
    RondePasGame,
    RondePasResult,
    Seat,
    display,
    parse_result_line,
    result_from_json,
)


def seats_in_words(seats: Sequence[Seat]) -> str:
    """``N``, ``N and E``, ``N, E and S``."""
    names = [seat.name for seat in seats]
    if len(names) < 2:
        return "".join(names)
    return _("%(seats)s and %(last)s") % {"seats": ", ".join(names[:-1]), "last": names[-1]}


def tricks_in_words(count: int) -> str:
    return ngettext("%(count)s trick", "%(count)s tricks", count) % {"count": count}


def percentage_in_words(value: Fraction) -> str:
    """A percentage as a number in the page's language: ``30 %``, ``33,3 %``."""
    shown = Decimal(display(value, 0 if value.denominator == 1 else 1))
    return _("%(value)s %%") % {"value": formats.localize(shown)}


def award_in_words(award: str) -> str:
    """An artificial score: average-plus, average, average-minus or a percentage."""
    names = {
        Award.AVERAGE_PLUS.value: _("average-plus"),
        Award.AVERAGE.value: _("average"),
        Award.AVERAGE_MINUS.value: _("average-minus"),
    }
    if award in names:
        return names[award]
    try:
        return percentage_in_words(Fraction(award))
    except (ValueError, ZeroDivisionError):
        return award


def _contract(result: BoardResult) -> str:
    words = contract_name(result.contract)
    if result.level is not None:
        words += f" {result.level}"
    if result.trump is not None:
        words += result.trump.symbol if result.level is not None else f" {result.trump.symbol}"
    return words


def _israeli(result: IsraeliResult) -> str:
    trump = _("no trump") if result.trump is None else result.trump.symbol
    contract = f"{result.level}{trump}" if result.trump is not None else f"{result.level} {trump}"
    bids = ", ".join(f"{seat.name} {result.bids[seat.value]}" for seat in SEATS)
    words = _("%(declarer)s: %(contract)s; bids %(bids)s") % {
        "declarer": result.declarer.name,
        "contract": contract,
        "bids": bids,
    }
    if result.tricks is not None:
        tricks = ", ".join(f"{seat.name} {result.tricks[seat.value]}" for seat in SEATS)
        words += "; " + _("tricks %(tricks)s") % {"tricks": tricks}
    return words


def _ronde_pas(result: RondePasResult) -> str:
    if result.game is RondePasGame.LAST_TRICK and result.last_trick is not None:
        return _("Ronde Pas, last trick: won by %(seat)s") % {"seat": result.last_trick.name}
    if result.game is RondePasGame.QUEENS and result.queens is not None:
        queens = ", ".join(f"{seat.name} {result.queens[seat.value]}" for seat in SEATS)
        return _("Ronde Pas, no queens: queens taken %(queens)s") % {"queens": queens}
    if result.tricks is not None:
        tricks = ", ".join(f"{seat.name} {result.tricks[seat.value]}" for seat in SEATS)
        return _("Ronde Pas, fewest tricks: tricks taken %(tricks)s") % {"tricks": tricks}
    return contract_name(Contract.RONDE_PAS)


def result_in_words(result: AnyResult) -> str:
    """A board result as a sentence: who declared what, and the tricks won."""
    if isinstance(result, IsraeliResult):
        return _israeli(result)
    if isinstance(result, RondePasResult):
        return _ronde_pas(result)
    if result.contract is Contract.PASS:
        words = _("all passed")
    elif result.contract.is_negative and len(result.declarers) > 1 and result.declarer_tricks:
        each = ", ".join(
            f"{seat.name} {tricks_in_words(result.tricks_of(seat))}" for seat in result.declarers
        )
        words = _("%(declarers)s: %(contract)s; %(tricks)s") % {
            "declarers": seats_in_words(result.declarers),
            "contract": _contract(result),
            "tricks": each,
        }
    else:
        tricks = result.declarer_tricks[0] if result.declarer_tricks else result.tricks
        words = _("%(declarers)s: %(contract)s") % {
            "declarers": seats_in_words(result.declarers),
            "contract": _contract(result),
        }
        if tricks is not None:
            words += ", " + tricks_in_words(tricks)
    if result.doubled:
        words += ", " + _("doubled")
    if result.after_all_pass:
        words += ", " + _("after an all-pass deal")
    return words


def stored_result_in_words(kind: str, data: Mapping[str, Any], seat: str, game: str) -> str:
    """A stored result version in words, as ``seat`` sees it (an artificial score is per seat).

    ``kind`` is ``Result.Kind``'s value. A version whose data cannot be read (it should not
    happen) is described as recorded rather than breaking the page.
    """
    try:
        if kind == "artificial":
            award = data.get("awards", {}).get(seat, Award.AVERAGE.value)
            if award is None:
                return _("no score: absent")
            return _("artificial score: %(award)s") % {"award": award_in_words(str(award))}
        if kind == "weighted":
            parts = [
                _("%(weight)s %(result)s")
                % {
                    "weight": percentage_in_words(Fraction(str(item["weight"])) * 100),
                    "result": result_in_words(parse_result_line(str(item["notation"]), game)),
                }
                for item in data.get("weighted", [])
            ]
            return _("weighted score: %(parts)s") % {"parts": " + ".join(parts)}
        return result_in_words(result_from_json(data))
    except (EngineError, ValueError, KeyError, TypeError, ZeroDivisionError, AttributeError):
        return _("result recorded")
