"""Input as a director or a table device typed it, read as it can be stored.

One line of text, or a number as a TD writes it. The pages and the API read their input through
it; bad input is a ``UserError`` naming its field, raised before anything is written.
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction

from django.utils.translation import gettext as _

from tournaments.errors import UserError

# A number as a TD types it: digits with a decimal point or comma, perhaps a percent sign.
_NUMBER = re.compile(r"-?[0-9]{1,6}(?:[.,][0-9]{1,6})?%?")


def unstorable(text: str) -> bool:
    """Whether ``text`` holds a control character or a lone surrogate.

    PostgreSQL refuses a NUL byte and cannot encode a lone surrogate; the other control characters
    (escape, backspace...) are typing accidents in a one-line field, never what was meant.
    """
    return any(unicodedata.category(c) in ("Cc", "Cs") for c in text)


def clean_text(value: object, field: str, *, max_length: int) -> str:
    """One line of text from a request (a JSON value or a posted field), as it can be stored.

    Anything else than text (a number, a list, ``null`` counts as empty), a control character or
    more than ``max_length`` characters is a user error naming the field, raised before any write.
    """
    if value is None:
        return ""
    if not isinstance(value, str):
        raise UserError(_("This must be text."), code="bad_request", field=field)
    if unstorable(value):
        raise UserError(
            _("The text holds a control character (such as a NUL byte): remove it."),
            code="invalid",
            field=field,
        )
    if len(value.strip()) > max_length:
        raise UserError(
            _("Keep this under %(n)s characters.") % {"n": max_length},
            code="too_long",
            field=field,
        )
    return value


def number_from_text(text: str, field: str) -> Fraction:
    """A number as a TD types it (``12,5``, ``30%``), exactly; else a user error naming ``field``."""
    text = text.strip()
    if not _NUMBER.fullmatch(text):
        raise UserError(
            _("%(value)s is not a number.") % {"value": text}, code="invalid", field=field
        )
    return Fraction(text.replace(",", ".").rstrip("%"))
