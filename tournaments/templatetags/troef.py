from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django import template
from django.utils.formats import date_format

from tournaments import audit_text, engine_text, rulesets
from tournaments.game import Ruleset, display

register = template.Library()

NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


@register.filter
def get(mapping: Any, key: Any) -> Any:
    """``mapping|get:key``: a dictionary look-up by a variable key."""
    try:
        value = mapping.get(key)
        if value is None and not isinstance(key, str):
            value = mapping.get(str(key))  # JSON-stored mappings have string keys
        return value
    except AttributeError:
        return None


@register.filter
def role_in(user: Any, event: Any) -> str:
    """``user|role_in:event``: "director", "assistant" or "public", to show what the user may do."""
    from tournaments import roles

    known = getattr(event, "viewer_role", None)  # set by the views' role check, for this user
    if known is not None and known[0] == getattr(user, "pk", None):
        return str(known[1].label)
    return roles.role_of(event, user).label


@register.filter
def penalty_name(kind: str) -> str:
    """``kind|penalty_name``: a penalty kind in the active language."""
    return engine_text.penalty_name(kind)


@register.filter
def decimal(value: Any, places: Any = None) -> Any:
    """``value|decimal`` or ``value|decimal:2``: a number in the active language's notation.

    For the numbers Troef keeps as exact text (``"52.31"`` from the standings) and for
    ``Fraction``, ``Decimal``, ``int`` and ``float``: "52,31" in Dutch and French, "52.31" in
    English. Text keeps its own decimals unless ``places`` is given; anything that is not a
    number ("", "—", "1=") is shown as it is.
    """
    if isinstance(value, bool) or value is None:
        return value
    try:
        wanted = None if places in (None, "") else int(places)
    except (TypeError, ValueError):
        wanted = None
    if wanted is not None and wanted < 0:
        wanted = None
    if isinstance(value, str):
        text = value.strip()
        if not NUMBER.fullmatch(text):
            return value
        if wanted is not None:
            sign = "+" if text.startswith("+") else ""
            text = sign + display(Fraction(text), wanted)
        return audit_text.decimal_text(text)
    if isinstance(value, (int, Fraction, Decimal, float)):
        try:
            exact = Fraction(value)
        except (ValueError, OverflowError):  # NaN and infinity
            return value
        if wanted is None and isinstance(value, Decimal):
            exponent = value.as_tuple().exponent
            wanted = max(0, -exponent) if isinstance(exponent, int) else 0
        if wanted is None:
            wanted = 0 if exact.denominator == 1 else 2
        return audit_text.decimal_text(display(exact, wanted))
    return value


@register.filter
def ruleset_title(ruleset: Ruleset) -> str:
    """``ruleset|ruleset_title``: a ruleset's title in the active language."""
    return rulesets.title(ruleset)


@register.filter
def action_label(action: str) -> str:
    """``action|action_label``: a log action in the active language (its code if unknown)."""
    return audit_text.action_label(action)


@register.filter
def iso_date(value: Any) -> Any:
    """``"2025-03-14"|iso_date``: a date kept as ISO text (JSON data) in the language's short
    date format; anything else as it is."""
    if isinstance(value, dt.date):
        return date_format(value, "SHORT_DATE_FORMAT")
    try:
        return date_format(dt.date.fromisoformat(str(value)), "SHORT_DATE_FORMAT")
    except ValueError:
        return value
