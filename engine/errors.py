"""The engine's exceptions.

Every error a caller can cause is a ``ValueError`` subclass with a message that says what to fix,
so code that only wants "bad input" can catch ``ValueError``.

Errors a person at a keyboard meets (a result line, a result the ruleset refuses, a movement that
cannot be planned) also carry a stable ``code`` and the ``params`` their message is built from:
the raising module keeps every code's English format string in its ``MESSAGES``, so an
application can show the same error in another language. ``code`` is ``None`` for the others.
"""

from __future__ import annotations

from collections.abc import Mapping

Params = Mapping[str, str | int]
"""The values an error message is built from, by the names of its format string."""


class EngineError(ValueError):
    """Base class of every error the engine raises for bad input.

    ``code`` names the message in the raising module's ``MESSAGES`` and ``params`` holds its
    values, when the error has one; ``str(error)`` is always the English message.
    """

    def __init__(
        self, message: str, *, code: str | None = None, params: Params | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params: Params = dict(params or {})


class ParseError(EngineError):
    """A notation (card, hand, deal, PBN, result line) could not be read.

    ``position`` is the 0-based index of the offending character in ``text``, when known.
    """

    def __init__(
        self,
        message: str,
        text: str = "",
        position: int | None = None,
        *,
        code: str | None = None,
        params: Params | None = None,
    ) -> None:
        super().__init__(message, code=code, params=params)
        self.text = text
        self.position = position

    def pointer(self) -> str:
        """The text with a caret line under the offending character, for terminal output."""
        if self.position is None:
            return self.text
        return f"{self.text}\n{' ' * self.position}^"


class InvalidResultError(EngineError):
    """A board result that the ruleset does not allow or that cannot happen.

    ``field`` names the offending field of the result (``"level"``, ``"declarers"``, ``"tricks.N"``).
    """

    def __init__(
        self,
        message: str,
        field: str | None = None,
        *,
        code: str | None = None,
        params: Params | None = None,
    ) -> None:
        super().__init__(message, code=code, params=params)
        self.field = field


class RulesetError(EngineError):
    """A ruleset document is broken; ``key`` is the dotted path of the offending key."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(f"{key}: {message}" if key else message)
        self.key = key
        self.problem = message


class UnknownRulesetError(EngineError):
    """No built-in ruleset has that name."""


class DealError(EngineError):
    """A deal, deal number or dealing key is invalid."""


class IllegalCallError(EngineError):
    """A call that is not allowed at this point of the auction."""


class IllegalCardError(EngineError):
    """A card that may not be played at this point."""


class AdjudicationError(EngineError):
    """A result that the board's deal makes impossible."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class MovementError(EngineError):
    """A movement that cannot be built for the given players, rounds or tables."""
