"""TOML documents: a read-only table type and a writer (the standard library only reads TOML).

``FrozenTable`` keeps a free-form TOML table (a ruleset's ``[auction]`` or ``[penalties]``)
read-only and hashable: nested tables become ``FrozenTable`` and arrays become tuples.
``dumps`` writes a mapping back as a TOML document that ``tomllib.loads`` reads to the same data.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Iterator, Mapping
from typing import Any

_LINE = 90  # longer arrays are written one item a line
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


class FrozenTable(Mapping[str, Any]):
    """A read-only, hashable TOML table; equal to any mapping with the same items."""

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        self._data: dict[str, Any] = {str(k): freeze(v) for k, v in (data or {}).items()}
        self._hash: int | None = None

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenTable):
            return self._data == other._data
        if isinstance(other, Mapping):
            return self._data == {k: freeze(v) for k, v in other.items()}
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))
        return self._hash

    def __repr__(self) -> str:
        return f"FrozenTable({self._data!r})"

    def to_dict(self) -> dict[str, Any]:
        """A plain, mutable copy (tables as dicts, arrays as lists)."""
        return {key: thaw(value) for key, value in self._data.items()}


def freeze(value: Any) -> Any:
    """Tables become ``FrozenTable``, arrays tuples; other TOML values are already immutable."""
    if isinstance(value, FrozenTable):
        return value
    if isinstance(value, Mapping):
        return FrozenTable(value)
    if isinstance(value, list | tuple):
        return tuple(freeze(item) for item in value)
    return value


def thaw(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [thaw(item) for item in value]
    return value


class Inline(dict[str, Any]):
    """A table that ``dumps`` writes on one line (``{ 8 = 8, 9 = 11 }``) instead of as a section."""


def dumps(document: Mapping[str, Any]) -> str:
    """Write ``document`` as TOML: plain values first, then each sub-table as a ``[section]``."""
    lines: list[str] = []
    _write_table(document, (), lines)
    return "\n".join(lines).strip("\n") + "\n"


def _write_table(table: Mapping[str, Any], path: tuple[str, ...], lines: list[str]) -> None:
    sections = []
    body = []
    for key, value in table.items():
        if isinstance(value, Mapping) and not isinstance(value, Inline):
            sections.append((key, value))
        else:
            text = format_value(value)
            if isinstance(value, list | tuple) and len(text) > _LINE:
                text = "[\n" + "".join(f"    {format_value(item)},\n" for item in value) + "]"
            body.append(f"{format_key(key)} = {text}")
    if path and (body or not sections):
        lines.append("")
        lines.append("[" + ".".join(format_key(part) for part in path) + "]")
    lines.extend(body)
    for key, value in sections:
        _write_table(value, (*path, key), lines)


def format_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _string(key)


def format_value(value: Any) -> str:
    """One TOML value on one line (tables inside values become inline tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        text = repr(value)
        return text if any(c in text for c in ".en") else text + ".0"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Mapping):
        inner = ", ".join(f"{format_key(str(k))} = {format_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(format_value(item) for item in value) + "]"
    raise TypeError(f"cannot write a {type(value).__name__} as TOML")


def _string(text: str) -> str:
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'
