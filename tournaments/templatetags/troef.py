from __future__ import annotations

from typing import Any

from django import template

from tournaments import engine_text

register = template.Library()


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
def penalty_name(kind: str) -> str:
    """``kind|penalty_name``: a penalty kind in the active language."""
    return engine_text.penalty_name(kind)
