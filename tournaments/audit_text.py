"""The log's words in the reader's language: action labels and the parameters of its messages.

An audit entry keeps its action as a stable code (``round.close``); pages show a label for it in
the active language. An action without a label here is shown as its code, so a new action is
never hidden, only untranslated until it is added.

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
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

ACTION_LABELS: dict[str, Promise] = {
    "event.create": _("event created"),
    "event.update": _("settings changed"),
    "event.start": _("play started"),
    "event.finish": _("event finished"),
    "event.add_director": _("director added"),
    "event.import": _("event restored from a backup"),
    "entry.register": _("player registered"),
    "entry.import": _("players imported"),
    "entry.late": _("late entry"),
    "entry.withdraw": _("player withdrawn"),
    "entry.reinstate": _("withdrawal taken back"),
    "entry.edit": _("player details changed"),
    "entry.remove": _("player removed"),
    "seat.absent": _("player absent"),
    "seat.substitute": _("substitute"),
    "table.sit_out": _("table sits out"),
    "table.artificial": _("artificial scores for a table"),
    "movement.generate": _("movement generated"),
    "movement.replan": _("movement re-planned"),
    "deals.generate": _("deals generated"),
    "deals.import": _("deals loaded from a file"),
    "round.open": _("round started"),
    "round.close": _("round closed"),
    "round.close_anyway": _("round closed with results missing"),
    "round.reopen": _("round reopened"),
    "round.device_keys": _("table device links made"),
    "round.device_pins": _("new table device PINs"),
    "result.record": _("result entered"),
    "result.correct": _("result corrected"),
    "result.confirm": _("result confirmed"),
    "result.confirm_at_table": _("result confirmed at the table"),
    "result.keying_differs": _("second keying differs"),
    "result.keep_keying": _("keying kept over the other"),
    "token.create": _("API token made"),
    "token.revoke": _("API token revoked"),
    "access.assistant_add": _("assistant added"),
    "access.assistant_remove": _("assistant removed"),
    "access.account_create": _("account created"),
    "access.director_add": _("director added"),
    "access.director_remove": _("director removed"),
    "access.member_add": _("member of a club or federation account"),
    "ratings.compute": _("ratings computed"),
    "analysis.queue": _("double-dummy analysis queued"),
    "result.sheet": _("sheet differs"),
    "result.sheet_accept": _("score accepted over the sheet"),
    "result.artificial_table": _("artificial scores for a table"),
    "penalty.record": _("penalty"),
    "penalty.fine": _("fine"),
    "penalty.cancel": _("penalty cancelled"),
    "bye.score": _("score for a bye"),
    "report.request": _("document requested"),
    "report.regenerate": _("document made again"),
    "scoring_table.create": _("scoring table created"),
    "scoring_table.save_version": _("scoring table version saved"),
    "scoring_table.rename": _("scoring table renamed"),
}

# How an artificial score is written in a result's notation: ``art N:average_plus E:55 ...``.
ARTIFICIAL = re.compile(r"\bart((?: [NESW]:[0-9a-z_./]+)+)")


def action_label(action: str) -> str:
    """The action in the active language, or its code when it has no label."""
    label = ACTION_LABELS.get(action)
    return str(label) if label is not None else action


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
    from tournaments.models import ReportFile

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
