"""Typed errors of the history layer. Each has a stable ``code``; messages hold no hidden card."""

from __future__ import annotations

__all__ = ["HistoryError", "PhhActionError", "PhhFieldError", "PhhReplayError", "PhhSyntaxError"]


class HistoryError(ValueError):
    """Base class: a hand history that cannot be read, written or replayed.

    ``line`` is the 1-based line of the text where that is known, ``field`` the PHH field concerned,
    ``action`` the 0-based index in ``actions``; ``hand`` the table name of the hand in a ``.phhs`` file.
    """

    code = "history_error"

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        field: str | None = None,
        action: int | None = None,
        hand: str | None = None,
    ) -> None:
        self.reason = message
        self.line = line
        self.field = field
        self.action = action
        self.hand = hand
        super().__init__(message)

    def __str__(self) -> str:
        where = []
        if self.hand is not None:
            where.append(f"hand [{self.hand}]")
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.field is not None:
            where.append(f"field {self.field!r}")
        if self.action is not None:
            where.append(f"action {self.action}")
        prefix = ", ".join(where)
        return f"{prefix}: {self.reason}" if prefix else self.reason

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "message": str(self),
            "line": self.line,
            "field": self.field,
            "action": self.action,
            "hand": self.hand,
        }


class PhhSyntaxError(HistoryError):
    """The text is not valid TOML."""

    code = "phh_syntax"


class PhhFieldError(HistoryError):
    """A field is missing, has the wrong type, or contradicts another field."""

    code = "phh_field"


class PhhActionError(HistoryError):
    """An action string is malformed or refers to a player or card that cannot be."""

    code = "phh_action"


class PhhReplayError(HistoryError):
    """The engine refused an action of the history; ``engine_code`` is the engine error's code."""

    code = "phh_replay"

    def __init__(self, message: str, *, engine_code: str = "", **kw: object) -> None:
        super().__init__(message, **kw)  # type: ignore[arg-type]
        self.engine_code = engine_code

    def to_dict(self) -> dict[str, object]:
        data = super().to_dict()
        data["engine_code"] = self.engine_code
        return data
