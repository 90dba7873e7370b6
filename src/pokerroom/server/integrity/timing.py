"""Bots spotted by their timing (issue 30, item 3; the one detector built so far: docs/integrity.md).

A person's decision times spread widely: quick folds, long thoughts, a glance away. A program that waits a
fixed time before each action (or acts at once) does not. For each player with enough decisions this
scores the spread of his decision times by their coefficient of variation (standard deviation / mean) and
flags a player whose times hardly vary (below ``max_cv``) or who nearly always acts within ``instant``
seconds. Pure: it takes the decision times (read from the hand journal by
:meth:`pokerroom.store.integrity.HandTimes.decisions`) and returns findings.

And sessions and hours (:func:`session_findings`): a person stops, a program plays on. A player's hands
(:meth:`pokerroom.store.integrity.HandTimes.played`: cash and Rush, all tables together; not tournament
hands, whose hours are the tournament's schedule: an honest deep run plays ten hours and more) are
cut into **sessions** wherever no hand of his was running for at least ``session_break`` (30 minutes);
a player is flagged when a session lasted longer than ``max_session`` (10 hours) or his sessions
covered more than ``max_day`` (16 hours) of one day (UTC). Each finding gives the sessions, the longest,
the hours played each day and the hands started in each hour of the day (UTC)."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NamedTuple

__all__ = [
    "MAX_DAY",
    "MAX_SESSION",
    "SESSION_BREAK",
    "Decision",
    "Played",
    "Session",
    "SessionFinding",
    "TimingFinding",
    "session_findings",
    "sessions_of",
    "timing_findings",
]

MIN_DECISIONS = 50  # fewer: no opinion (a short session says little)
MAX_CV = 0.12  # a spread below this is machine-like (humans and the room's honest bots: well above 0.3)
INSTANT = 0.2  # seconds: "at once"
INSTANT_SHARE = 0.9  # ... nearly always
SESSION_BREAK = timedelta(minutes=30)  # no hand running for this long ends a session
MAX_SESSION = timedelta(hours=10)  # a longer session without such a break is flagged
MAX_DAY = timedelta(hours=16)  # more play in one day (UTC) is flagged


class Decision(NamedTuple):
    """(A named tuple: a day's report reads millions, and takes the store's ``(hand id, seconds)`` rows as
    they are: docs/integrity.md, "A day of a 1,000-table room".)"""

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
    decisions: Mapping[int, Sequence[tuple[str, float]]],
    *,
    min_decisions: int = MIN_DECISIONS,
    max_cv: float = MAX_CV,
) -> list[TimingFinding]:
    """One finding per player with at least ``min_decisions`` decisions (:class:`Decision`, or the store's
    ``(hand id, seconds)`` rows), the flagged first (then by spread, the narrowest first)."""
    out = []
    for player, made in decisions.items():
        if len(made) < min_decisions:
            continue
        times = [d[1] for d in made]
        mean = statistics.fmean(times)
        cv = statistics.pstdev(times) / mean if mean > 0 else 0.0
        instant = sum(1 for t in times if t <= INSTANT) / len(times)
        reason = ""
        if instant >= INSTANT_SHARE:
            reason = f"{instant:.0%} of decisions within {INSTANT} s"
        elif cv < max_cv:
            reason = f"decision times hardly vary (cv {cv:.3f} < {max_cv})"
        hands = tuple(dict.fromkeys(d[0] for d in made))[:10]
        out.append(
            TimingFinding(player, len(made), statistics.median(times), cv, bool(reason), reason, hands)
        )
    out.sort(key=lambda f: (not f.flagged, f.cv, f.player_id))
    return out


class Played(NamedTuple):
    """A hand a player was dealt in: from its start to its end (a tournament hand: a moment). (A named
    tuple, as :class:`Decision`: the store's ``(hand id, start, end)`` rows are taken as they are.)"""

    hand_id: str
    start: datetime
    end: datetime


@dataclass(frozen=True)
class Session:
    start: datetime  # the first hand's start
    end: datetime  # the last hand's end
    hands: int
    first_hand: str
    last_hand: str

    @property
    def length(self) -> timedelta:
        return self.end - self.start

    def to_dict(self) -> dict[str, object]:
        return {
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "hours": round(self.length.total_seconds() / 3600, 3),
            "hands": self.hands,
            "first_hand": self.first_hand,
            "last_hand": self.last_hand,
        }


@dataclass(frozen=True)
class SessionFinding:
    player_id: int
    hands: int
    sessions: tuple[Session, ...]  # in time order
    hours_by_day: tuple[tuple[str, float], ...]  # (UTC date, hours of session time), in date order
    hours_of_day: tuple[int, ...]  # 24: the hands he started in each hour of the day (UTC)
    flagged: bool
    reason: str  # why flagged ("" if not)

    @property
    def longest(self) -> Session:
        return max(self.sessions, key=lambda x: (x.length, -x.start.timestamp()))

    def to_dict(self) -> dict[str, object]:
        return {
            "player": self.player_id,
            "hands": self.hands,
            "sessions": len(self.sessions),
            "longest_hours": round(self.longest.length.total_seconds() / 3600, 3),
            "longest": self.longest.to_dict(),
            "hours_by_day": {day: round(h, 3) for day, h in self.hours_by_day},
            "hours_of_day": list(self.hours_of_day),
            "flagged": self.flagged,
            "reason": self.reason,
            "session_list": [x.to_dict() for x in self.sessions],
        }


def sessions_of(
    played: Sequence[tuple[str, datetime, datetime]], session_break: timedelta = SESSION_BREAK
) -> list[Session]:
    """The player's hands (:class:`Played`, or the store's rows) cut into sessions: a new one begins when no
    hand of his ran for at least ``session_break`` (hands at several tables overlap: the gap is from the
    latest end so far)."""
    out: list[Session] = []
    ordered = sorted(played, key=lambda h: (h[1], h[0]))
    i = 0
    while i < len(ordered):
        first_id, first_start, first_end = ordered[i]
        end, last, n = max(first_end, first_start), first_id, 1
        i += 1
        while i < len(ordered) and ordered[i][1] - end < session_break:
            hand_id, _, hand_end = ordered[i]
            if hand_end >= end:
                end, last = hand_end, hand_id
            n += 1
            i += 1
        out.append(Session(first_start, end, n, first_id, last))
    return out


def _by_day(sessions: Sequence[Session]) -> dict[str, timedelta]:
    """Each session's time cut at midnight (UTC), summed by date."""
    days: dict[str, timedelta] = {}
    for x in sessions:
        at = x.start
        while at < x.end:
            midnight = datetime.combine(at.date() + timedelta(days=1), datetime.min.time(), tzinfo=at.tzinfo)
            upto = min(x.end, midnight)
            key = at.date().isoformat()
            days[key] = days.get(key, timedelta(0)) + (upto - at)
            at = upto
    return days


def session_findings(
    played: Mapping[int, Sequence[tuple[str, datetime, datetime]]],
    *,
    session_break: timedelta = SESSION_BREAK,
    max_session: timedelta = MAX_SESSION,
    max_day: timedelta = MAX_DAY,
) -> list[SessionFinding]:
    """One finding per player with a hand, the flagged first, then by the longest session (the longest
    first)."""
    if session_break <= timedelta(0):
        raise ValueError("a session break is a positive time")
    out = []
    for player, hands in played.items():
        if not hands:
            continue
        sessions = sessions_of(hands, session_break)
        days = _by_day(sessions)
        hours = [0] * 24
        for h in hands:
            hours[h[1].hour] += 1
        longest = max(sessions, key=lambda x: x.length)
        busiest = max(sorted(days), key=lambda d: days[d], default=None)
        breaks = int(session_break.total_seconds() // 60)
        reason = ""
        if longest.length > max_session:
            reason = (
                f"a session of {longest.length.total_seconds() / 3600:.1f} h without a {breaks}-minute break"
                f" ({longest.hands} hands, {longest.first_hand} to {longest.last_hand})"
            )
        elif busiest is not None and days[busiest] > max_day:
            reason = f"{days[busiest].total_seconds() / 3600:.1f} h of play on {busiest}"
        by_day = tuple((d, days[d].total_seconds() / 3600) for d in sorted(days))
        out.append(
            SessionFinding(player, len(hands), tuple(sessions), by_day, tuple(hours), bool(reason), reason)
        )
    out.sort(key=lambda f: (not f.flagged, -f.longest.length.total_seconds(), f.player_id))
    return out
