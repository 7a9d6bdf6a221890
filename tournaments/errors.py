"""Errors of the tournaments app.

``UserError`` is something the person at the keyboard can fix: it is shown, translated, and names the
field. Anything else that goes wrong is a defect: it is logged, never shown as a user's fault.
"""

from __future__ import annotations


class UserError(Exception):
    """A request the user can correct. ``message`` is already translated for display."""

    def __init__(
        self,
        message: str,
        *,
        code: str = "invalid",
        field: str | None = None,
        params: dict[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.field = field
        # What a program needs to act on the error without reading the message (the figures in
        # it, or what is there now after a conflict).
        self.params = params or {}

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, "field": self.field}


class NotAllowedError(UserError):
    def __init__(self, message: str) -> None:
        super().__init__(message, code="permission_denied")


class ConflictError(UserError):
    """Someone else changed the same thing first; nothing of theirs or ours was lost.

    ``current`` describes what is there now (e.g. the version and result), so the writer can
    look at it and try again against it.
    """

    def __init__(
        self, message: str, *, field: str | None = None, current: dict[str, object] | None = None
    ) -> None:
        super().__init__(message, code="conflict", field=field, params=current)
        self.current = current or {}

    def as_dict(self) -> dict[str, object]:  # adds "current"
        return {**super().as_dict(), "current": self.current}
