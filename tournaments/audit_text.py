"""The log's words in the reader's language: action labels and the parameters of its messages.

An audit entry keeps its action as a stable code (``round.close``); pages show the label its
``AuditAction`` member gives it in the active language. A stored code that is no member (an entry
restored from another version's backup) is shown as the code itself, so no entry is ever hidden.

An entry's message is translated when it is shown, and so are the parameters that are codes:
a parameter named in ``PARAM_WORDS`` (``penalty``, ``award``, ``document``, ``fields``,
``ruleset``, ``language``) is turned into words, a decimal number gets the language's decimal
separator, and a result notation with an artificial score (``art N:average_plus ...``) is spelt
out. Services choose these parameter names for these codes only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.formats import get_format
from django.utils.translation import gettext

# How an artificial score is written in a result's notation: ``art N:average_plus E:55 ...``.
ARTIFICIAL = re.compile(r"\bart((?: [NESW]:[0-9a-z_./]+)+)")


def action_label(action: str) -> str:
    """The action in the active language, or its code when it has no label."""
    from tournaments.models import AuditAction

    try:
        return str(AuditAction(action).label)
    except ValueError:
        return action


def award_name(award: str) -> str:
    """``average_plus`` as "average-plus", a percentage kept as text as "55,5 %" (as the public
    pages write them)."""
    from tournaments.result_words import award_in_words

    return award_in_words(award)


def _artificial(match: re.Match[str]) -> str:
    seats = [part.split(":", 1) for part in match.group(1).split()]
    return gettext("artificial score %(awards)s") % {
        "awards": ", ".join(f"{seat} {award_name(award)}" for seat, award in seats)
    }


DECIMAL = re.compile(r"[+-]?[0-9]+\.[0-9]+")


def decimal_text(text: str) -> str:
    """A decimal number written with a point (``"52.31"``) in the active language's notation."""
    return text.replace(".", str(get_format("DECIMAL_SEPARATOR")))


def readable(text: str) -> str:
    """A text with any artificial-score notation in it spelt out in the active language."""
    return ARTIFICIAL.sub(_artificial, text) if "art " in text else text


def _penalty(kind: str) -> str:
    from tournaments.engine_text import penalty_name

    return penalty_name(kind)


def _document(kind: str) -> str:
    from documents.models import ReportFile

    try:
        return str(ReportFile.Kind(kind).label)
    except ValueError:
        return kind


def _ruleset(name: str) -> str:
    from tournaments.rulesets import builtin_title

    return builtin_title(name) or name


def _fields(names: Any) -> str:
    """Event settings by their field names (``["rounds", "tie_break"]``), as the form labels them."""
    from django.core.exceptions import FieldDoesNotExist

    from tournaments.models import Event

    if isinstance(names, str):
        names = [names]
    labels = []
    for name in names:
        try:
            field = Event._meta.get_field(str(name))
        except FieldDoesNotExist:
            field = None
        label = getattr(field, "verbose_name", None)
        labels.append(str(label) if label is not None else str(name))
    return ", ".join(labels)


def _language(code: str) -> str:
    from django.conf import settings

    return str(dict(settings.LANGUAGES).get(code, code))


PARAM_WORDS: dict[str, Callable[[Any], str]] = {
    "language": _language,
    "penalty": _penalty,
    "award": award_name,
    "document": _document,
    "ruleset": _ruleset,
    "fields": _fields,
}


def readable_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """An entry's parameters as a page shows them: codes in words, numbers in the language's
    notation, notations spelt out, anything else as given."""
    shown: dict[str, Any] = {}
    for key, value in params.items():
        words = PARAM_WORDS.get(key)
        if words is not None:
            shown[key] = words(value)
        elif isinstance(value, str):
            shown[key] = decimal_text(value) if DECIMAL.fullmatch(value) else readable(value)
        elif isinstance(value, float):
            shown[key] = decimal_text(str(value))
        else:
            shown[key] = value
    return shown
