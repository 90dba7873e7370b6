"""The outcome of checking a hand's deck proof (``pokerroom verify``, the browser's "Verify")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Verdict"]


@dataclass(slots=True)
class Verdict:
    """The outcome: ``ok`` when nothing differs; ``problems`` says exactly what does, ``notes`` what could
    not be checked. ``checked`` counts the dealt cards compared with the deck."""

    hand_id: str
    ok: bool
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    checked: int = 0
    commitment: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand_id": self.hand_id,
            "ok": self.ok,
            "problems": list(self.problems),
            "notes": list(self.notes),
            "checked": self.checked,
            "commitment": self.commitment,
        }
