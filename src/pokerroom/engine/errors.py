"""Typed engine errors. Each has a stable ``code`` for the wire and holds public information only.

An error never names a hidden card: a card a player does not hold is reported without saying which cards
he does hold, and nothing about the deck is ever put in a message.
"""

from __future__ import annotations

__all__ = [
    "AmountOutOfRange",
    "BadCommand",
    "ConfigError",
    "EngineError",
    "HandOver",
    "IllegalAction",
    "InvalidCards",
    "NotAChipMultiple",
    "NotYourTurn",
    "QuickFoldRefused",
    "RestoreError",
    "UnknownVariant",
]


class EngineError(ValueError):
    """Base class of every engine error."""

    code = "engine_error"

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"code": self.code, "message": str(self)}
        for key, value in vars(self).items():
            if not key.startswith("_") and isinstance(value, int | str | bool | tuple | type(None)):
                data[key] = list(value) if isinstance(value, tuple) else value
        return data


class ConfigError(EngineError):
    """The hand cannot start with these settings (stakes, seats, variant, structure, deck)."""

    code = "config_error"


class UnknownVariant(ConfigError):
    code = "unknown_variant"

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown variant {name!r}")
        self.name = name


class BadCommand(EngineError):
    """A command that is not understood or is malformed."""

    code = "bad_command"


class HandOver(EngineError):
    code = "hand_over"

    def __init__(self) -> None:
        super().__init__("the hand is over")


class NotYourTurn(EngineError):
    code = "not_your_turn"

    def __init__(self, seat: int, to_act: tuple[int, ...]) -> None:
        waiting = ", ".join(map(str, to_act)) or "nobody"
        super().__init__(f"seat {seat} may not act now; waiting for seat {waiting}")
        self.seat = seat
        self.to_act = to_act


class IllegalAction(EngineError):
    code = "illegal_action"

    def __init__(self, seat: int, action: str, reason: str) -> None:
        super().__init__(f"seat {seat} may not {action}: {reason}")
        self.seat = seat
        self.action = action
        self.reason = reason


class QuickFoldRefused(EngineError):
    """A Quick Fold (Rush, RULES.md §8.5) that the hand (or the pool, R202) does not allow now; ``seat``
    is None when the entry is not in a hand."""

    code = "quick_fold_refused"

    def __init__(self, seat: int | None, reason: str) -> None:
        super().__init__(f"Quick Fold is not possible now: {reason}")
        self.seat = seat
        self.reason = reason


class AmountOutOfRange(IllegalAction):
    code = "amount_out_of_range"

    def __init__(self, seat: int, amount: int, minimum: int, maximum: int) -> None:
        reason = f"raise-to {amount} is outside {minimum}..{maximum}"
        super().__init__(seat, "raise", reason)
        self.amount = amount
        self.minimum = minimum
        self.maximum = maximum


class NotAChipMultiple(IllegalAction):
    code = "not_a_chip_multiple"

    def __init__(self, seat: int, amount: int, chip_unit: int) -> None:
        super().__init__(seat, "raise", f"{amount} is not a multiple of the chip unit {chip_unit}")
        self.amount = amount
        self.chip_unit = chip_unit


class InvalidCards(IllegalAction):
    """A draw or discard naming cards that are not in the player's hand, repeated, or too many/few."""

    code = "invalid_cards"


class RestoreError(EngineError):
    code = "bad_snapshot"
