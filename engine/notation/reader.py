"""The reader of a result line: a cursor over the folded line, its scanning steps and errors."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

from engine.cards import Seat, Suit
from engine.errors import ParseError
from engine.notation.grammar import (
    FLAG_BY_KEY,
    FLAG_RE,
    MAX_TRICKS,
    NUMBER_RE,
    SEAT_LETTERS,
    SEPARATOR,
    SUIT_BY_KEY,
    SUIT_RE,
    alias_key,
)
from engine.notation_messages import message


def _fold(char: str) -> str:
    """Lower case without accents; ``œ`` is ``oe`` and emoji variation selectors disappear."""
    if char in "œŒ":
        return "oe"
    decomposed = unicodedata.normalize("NFD", char.casefold())
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn")


class Reader:
    """A cursor over the folded line that remembers where each folded character came from."""

    def __init__(self, text: str) -> None:
        self.text = text
        folded: list[str] = []
        self.origin: list[int] = []
        for index, char in enumerate(text):
            for out in _fold(char):
                folded.append(out)
                self.origin.append(index)
        self.origin.append(len(text))
        self.line = "".join(folded)
        self.pos = 0

    # -- errors -------------------------------------------------------------------------------

    def error(self, code: str, at: int | None = None, **params: str | int) -> ParseError:
        """The error ``code`` of ``engine.notation_messages`` at ``at`` (the cursor by default)."""
        return self.error_with(code, params, at)

    def error_with(
        self, code: str, params: Mapping[str, str | int], at: int | None = None
    ) -> ParseError:
        """``error`` with the parameters in a mapping; ``column`` is added to them."""
        index = self.origin[self.pos if at is None else at]
        params = {"column": index + 1, **params}
        return ParseError(message(code, params), self.text, index, code=code, params=params)

    def expected(
        self, code: str, at: int | None = None, params: Mapping[str, str | int] | None = None
    ) -> ParseError:
        """An error whose message ends with what was found instead (``found``)."""
        return self.error_with(code, {"found": self.found(at), **(params or {})}, at)

    def found(self, at: int | None = None) -> str:
        """The word at ``at``, quoted; ``""`` at the end of the line."""
        index = self.origin[self.pos if at is None else at]
        if index >= len(self.text):
            return ""
        end = index
        while end < len(self.text) and not self.text[end].isspace():
            end += 1
        return repr(self.text[index:end])

    # -- scanning -----------------------------------------------------------------------------

    def peek(self) -> str:
        return self.line[self.pos] if self.pos < len(self.line) else ""

    def at_end(self) -> bool:
        return self.pos >= len(self.line)

    def skip_spaces(self) -> None:
        while self.pos < len(self.line) and self.line[self.pos].isspace():
            self.pos += 1

    def space_before(self, part: str) -> None:
        """Require at least one space (the next part is ``part``) and skip the spaces.

        The errors are ``space_before_<part>`` and ``missing_<part>``.
        """
        if not self.at_end() and not self.peek().isspace():
            raise self.expected(f"space_before_{part}")
        self.skip_spaces()
        if self.at_end():
            raise self.error(f"missing_{part}")

    def number(self, item: str, allowed: range, **params: str | int) -> int:
        """A number in ``allowed``; the errors are ``expected_<item>``, ``<item>_out_of_range``."""
        match = NUMBER_RE.match(self.line, self.pos)
        if match is None:
            raise self.expected(f"expected_{item}", params=params)
        digits = match.group()
        # Four digits are already out of every range; int() of a huge run of digits is slow.
        value = int(digits) if len(digits) <= 4 else allowed.stop
        if value not in allowed:
            limits: dict[str, str | int] = {
                "number": digits,
                "low": allowed.start,
                "high": allowed.stop - 1,
            }
            raise self.error_with(f"{item}_out_of_range", {**limits, **params})
        self.pos = match.end()
        return value

    def numbers(
        self, item: str, items: str, seats: Sequence[Seat], example: str
    ) -> tuple[int, ...]:
        """One number from 0 to 13 for each seat, separated by commas (spaces around are fine).

        Each number is read as ``item``; too many or too few are ``too_many_<items>`` and
        ``too_few_<items>``.
        """
        count = len(seats)
        listed: dict[str, str | int] = {
            "count": count,
            "seats": ", ".join(seat.name for seat in seats),
            "example": example,
        }
        values: list[int] = []
        while True:
            seat = seats[len(values)]
            values.append(self.number(item, range(0, MAX_TRICKS + 1), seat=seat.name))
            mark = self.pos
            self.skip_spaces()
            if self.peek() != ",":
                self.pos = mark
                break
            if len(values) == count:
                raise self.error_with(f"too_many_{items}", listed)
            self.pos += 1
            self.skip_spaces()
        if len(values) < count:
            raise self.error_with(f"too_few_{items}", {**listed, "given": len(values)})
        return tuple(values)

    def seats(self) -> tuple[Seat, ...]:
        """Seats written together (``NE``) or with commas (``N,E``), each at most once."""
        seats: list[Seat] = []
        while True:
            seat = SEAT_LETTERS.get(self.peek())
            if seat is None:
                raise self.expected("expected_seat")
            if seat in seats:
                raise self.error("seat_twice", seat=seat.name)
            seats.append(seat)
            self.pos += 1
            mark = self.pos
            self.skip_spaces()
            if self.peek() == ",":
                self.pos += 1
                self.skip_spaces()
                continue
            self.pos = mark
            if self.peek() not in SEAT_LETTERS:
                break
        if not self.at_end() and not self.peek().isspace():
            if self.peek().isalpha():
                raise self.expected("expected_seat")
            raise self.expected("space_after_seats")
        return tuple(seats)

    def suit(self, game: str, missing: str, **params: str | int) -> Suit | None:
        """A trump suit; ``None`` is no trump, which only Israeli Whist has.

        ``missing`` is the error when there is none: ``expected_trump`` (of a contract),
        ``expected_trump_after_level`` or, for Israeli Whist, ``expected_israeli_trump``.
        """
        match = SUIT_RE.match(self.line, self.pos)
        if match is None:
            raise self.expected(missing, params=params)
        suit = SUIT_BY_KEY[alias_key(re.sub(SEPARATOR, "", match.group()))]
        if suit is None and game != "israeli":
            raise self.error("no_trump_not_israeli")
        self.pos = match.end()
        return suit

    def flags(self) -> tuple[bool, bool]:
        """Optional ``dbl`` and ``ap``, in any order, each once, up to the end of the line."""
        doubled = after_all_pass = False
        while True:
            self.skip_spaces()
            if self.at_end():
                return doubled, after_all_pass
            match = FLAG_RE.match(self.line, self.pos)
            if match is None:
                raise self.expected("expected_flag")
            flag = FLAG_BY_KEY[alias_key(re.sub(SEPARATOR, "", match.group()))]
            if flag == "ambiguous":
                raise self.expected("ambiguous_flag")
            if (flag == "dbl" and doubled) or (flag == "ap" and after_all_pass):
                raise self.error("flag_twice", flag=flag)
            doubled = doubled or flag == "dbl"
            after_all_pass = after_all_pass or flag == "ap"
            self.pos = match.end()
            if not self.at_end() and not self.peek().isspace():
                raise self.expected("space_after_flag")
