"""Shared plumbing of the JSON-lines commands."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any, TextIO


def json_lines(stream: TextIO) -> Iterator[tuple[Any, str | None]]:
    """Yield ``(object, None)`` for each non-blank input line, or ``(None, error)`` when it is not JSON."""
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        try:
            yield json.loads(line), None
        except json.JSONDecodeError as exc:
            yield None, f"line {number} is not valid JSON: {exc.msg} at column {exc.colno}"


def write(stdout: TextIO, obj: object) -> None:
    stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def process(stdin: TextIO, stdout: TextIO, handle: Callable[[Any], object]) -> None:
    """Apply ``handle`` to each input object; a ``ValueError`` becomes an ``{"error": ...}`` line."""
    for obj, error in json_lines(stdin):
        if error is not None:
            write(stdout, {"error": error})
            continue
        try:
            write(stdout, handle(obj))
        except ValueError as exc:
            write(stdout, {"error": str(exc)})


def fail(stderr: TextIO, message: str) -> int:
    """Report misuse of the command itself: message on stderr, exit status 2."""
    stderr.write(f"python -m engine: error: {message}\n")
    return 2
