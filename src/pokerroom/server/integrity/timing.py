"""Bots spotted by their timing (issue 30, item 3; the one detector built so far: docs/integrity.md).

A person's decision times spread widely: quick folds, long thoughts, a glance away. A program that waits a
fixed time before each action (or acts at once) does not. For each player with enough decisions this
scores the spread of his decision times by their coefficient of variation (standard deviation / mean) and
flags a player whose times hardly vary (below ``max_cv``) or who nearly always acts within ``instant``
seconds. Pure: it takes the decision times (read from the hand journal by
:meth:`pokerroom.store.integrity.HandTimes.decisions`) and returns findings."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Decision", "TimingFinding", "timing_findings"]

MIN_DECISIONS = 50  # fewer: no opinion (a short session says little)
MAX_CV = 0.12  # a spread below this is machine-like (humans and the room's honest bots: well above 0.3)
INSTANT = 0.2  # seconds: "at once"
INSTANT_SHARE = 0.9  # ... nearly always


@dataclass(frozen=True)
class Decision:
    hand_id: str
    seconds: float  # from the moment the hand came to him (the previous action, or the hand's start)


@dataclass(frozen=True)
class TimingFinding:
    player_id: int
    decisions: int
    median: float
    cv: float
    flagged: bool
    reason: str  # why flagged ("" if not)
    hands: tuple[str, ...]  # some hands that support it (the first ten)

    def to_dict(self) -> dict[str, object]:
        return {
            "player": self.player_id,
            "decisions": self.decisions,
            "median_seconds": round(self.median, 3),
            "cv": round(self.cv, 4),
            "flagged": self.flagged,
            "reason": self.reason,
            "hands": list(self.hands),
        }


def timing_findings(
    decisions: Mapping[int, Sequence[Decision]],
    *,
    min_decisions: int = MIN_DECISIONS,
    max_cv: float = MAX_CV,
) -> list[TimingFinding]:
    """One finding per player with at least ``min_decisions`` decisions, the flagged first (then by
    spread, the narrowest first)."""
    out = []
    for player, made in decisions.items():
        if len(made) < min_decisions:
            continue
        times = [d.seconds for d in made]
        mean = statistics.fmean(times)
        cv = statistics.pstdev(times) / mean if mean > 0 else 0.0
        instant = sum(1 for t in times if t <= INSTANT) / len(times)
        reason = ""
        if instant >= INSTANT_SHARE:
            reason = f"{instant:.0%} of decisions within {INSTANT} s"
        elif cv < max_cv:
            reason = f"decision times hardly vary (cv {cv:.3f} < {max_cv})"
        hands = tuple(dict.fromkeys(d.hand_id for d in made))[:10]
        out.append(
            TimingFinding(player, len(made), statistics.median(times), cv, bool(reason), reason, hands)
        )
    out.sort(key=lambda f: (not f.flagged, f.cv, f.player_id))
    return out
