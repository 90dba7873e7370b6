"""The integrity report (issue 30; docs/integrity.md): every detector over the stored hands of a period,
in one place for ``pokerroom integrity report`` (cli/integrity.py) and whoever else shows it (the
console). The store is read on the event loop; the histories are parsed and scored in a worker thread.

The JSON document (:meth:`Report.document`) only gains keys: ``bots_by_timing``, ``chip_dumping``,
``soft_play``, ``collusive_betting``, ``hands_read``, ``hands_unreadable``, ``flagged`` (the flagged
rows of every section), and since the sessions and Rush scores ``bots_by_sessions``, ``rush_together``,
``rush_hands_read`` and ``thresholds`` (the options the report ran with), and since the shared-cards score
``shared_cards`` and ``groups`` (the flagged pairs of every pair detector joined: groups.py). Two
sections' figures changed meaning in place when their scores did (2026-12-06): ``collusive_betting``'s
``expected`` and ``z`` are of re-raises over the partner's bets (``reraises``), no longer of whipsaws
(``whipsaws`` is still the count of re-raises a third player folded to); ``soft_play``'s ``spots``,
``aggressive`` and ``expected`` count its multiway spots too (``multiway_spots``, ``multiway_raises``)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from pokerroom.history import HistoryError, read_phh
from pokerroom.server.integrity.cardshare import ALPHA as SHARE_ALPHA
from pokerroom.server.integrity.cardshare import MIN_Z as SHARE_MIN_Z
from pokerroom.server.integrity.cardshare import CardShareFinding, cardshare_findings
from pokerroom.server.integrity.dumping import MIN_Z, DumpingFinding, dumping_findings
from pokerroom.server.integrity.groups import Group, Link, groups_of
from pokerroom.server.integrity.rush import ALPHA, MIN_RATIO, WINDOW, PoolHand, RushPairFinding, rush_findings
from pokerroom.server.integrity.softplay import SoftPlayFinding, softplay_findings
from pokerroom.server.integrity.timing import (
    MAX_CV,
    MAX_DAY,
    MAX_SESSION,
    MIN_DECISIONS,
    SESSION_BREAK,
    Decision,
    Played,
    SessionFinding,
    TimingFinding,
    session_findings,
    timing_findings,
)
from pokerroom.server.integrity.whipsaw import WhipsawFinding, whipsaw_findings
from pokerroom.store import Store

__all__ = ["Report", "ReportOptions", "brief_document", "run_report"]

BRIEF_FLAGGED = 200  # the console's form of the document: the flagged rows kept of each list of findings
BRIEF_OTHERS = 10  # ... and the others (the highest first, as the detectors order them)
BRIEF_LEFT_OUT = ("session_list",)  # keys of a row left out of it (as long as the player's play)
NOT_FINDINGS = ("hands_unreadable",)  # the document's lists that are not findings


@dataclass(frozen=True)
class ReportOptions:
    min_decisions: int = MIN_DECISIONS  # bots by timing
    max_cv: float = MAX_CV
    min_z: float = MIN_Z  # chip dumping
    session_break: timedelta = SESSION_BREAK  # bots by sessions
    max_session: timedelta = MAX_SESSION
    max_day: timedelta = MAX_DAY
    rush_window: timedelta = WINDOW  # Rush pairs
    rush_alpha: float = ALPHA
    rush_min_ratio: float = MIN_RATIO
    share_alpha: float = SHARE_ALPHA  # shared cards
    share_min_z: float = SHARE_MIN_Z

    def to_dict(self) -> dict[str, float]:
        return {
            "min_decisions": self.min_decisions,
            "max_cv": self.max_cv,
            "min_z": self.min_z,
            "session_break_minutes": self.session_break.total_seconds() / 60,
            "max_session_hours": self.max_session.total_seconds() / 3600,
            "max_day_hours": self.max_day.total_seconds() / 3600,
            "rush_window_minutes": self.rush_window.total_seconds() / 60,
            "rush_alpha": self.rush_alpha,
            "rush_min_ratio": self.rush_min_ratio,
            "share_alpha": self.share_alpha,
            "share_min_z": self.share_min_z,
        }


@dataclass
class Report:
    options: ReportOptions
    timing: list[TimingFinding] = field(default_factory=list)
    dumping: list[DumpingFinding] = field(default_factory=list)
    soft: list[SoftPlayFinding] = field(default_factory=list)
    whip: list[WhipsawFinding] = field(default_factory=list)
    sessions: list[SessionFinding] = field(default_factory=list)
    rush: list[RushPairFinding] = field(default_factory=list)
    share: list[CardShareFinding] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    hands_read: int = 0
    unread: list[str] = field(default_factory=list)
    rush_hands: int = 0
    names: dict[int, str] = field(default_factory=dict)  # the accounts the id-keyed findings name
    texts: dict[str, str] = field(default_factory=dict)  # the audit PHH of each hand read

    @property
    def flagged(self) -> int:
        flags = [x.flagged for x in self.timing] + [x.flagged for x in self.dumping]
        flags += [x.flagged for x in self.soft] + [x.flagged for x in self.whip]
        flags += [x.flagged for x in self.sessions] + [x.flagged for x in self.rush]
        flags += [x.flagged for x in self.share] + [x.flagged for x in self.groups]
        return sum(flags)

    def links(self) -> list[Link]:
        """The flagged pairs of every pair detector (Rush pairs by their accounts' names)."""
        out = [Link(d.giver, d.taker, "chip_dumping", d.hands) for d in self.dumping if d.flagged]
        out += [Link(x.a, x.b, "soft_play", x.hands) for x in self.soft if x.flagged]
        out += [Link(x.a, x.b, "collusive_betting", x.hands) for x in self.whip if x.flagged]
        out += [
            Link(self.names.get(x.a, str(x.a)), self.names.get(x.b, str(x.b)), "rush_together", x.hands)
            for x in self.rush
            if x.flagged
        ]
        out += [Link(x.a, x.b, "shared_cards", x.hands) for x in self.share if x.flagged]
        return out

    def document(self) -> dict[str, Any]:
        """The report as ``pokerroom integrity report --json`` prints it."""
        names = self.names
        return {
            "bots_by_timing": [{**f.to_dict(), "name": names[f.player_id]} for f in self.timing],
            "chip_dumping": [d.to_dict() for d in self.dumping],
            "soft_play": [f.to_dict() for f in self.soft],
            "collusive_betting": [f.to_dict() for f in self.whip],
            "hands_read": self.hands_read,
            "hands_unreadable": self.unread,
            "flagged": self.flagged,
            "bots_by_sessions": [{**f.to_dict(), "name": names[f.player_id]} for f in self.sessions],
            "rush_together": [{**r.to_dict(), "names": [names[r.a], names[r.b]]} for r in self.rush],
            "rush_hands_read": self.rush_hands,
            "thresholds": self.options.to_dict(),
            "shared_cards": [f.to_dict() for f in self.share],
            "groups": [g.to_dict() for g in self.groups],
        }


async def run_report(
    store: Store, since: datetime, *, until: datetime | None = None, options: ReportOptions | None = None
) -> Report:
    """Every detector over the hands started in [since, until) (tournament hands: ended in it)."""
    o = options or ReportOptions()
    times = await store.hand_times.decisions(since=since, until=until)
    played = await store.hand_times.played(since=since, until=until)
    pools = await store.hand_times.pool_hands(since=since, until=until)
    audits = await store.audit_hands.since(since, until=until)

    def score() -> Report:
        r = Report(o)
        made = {p: [Decision(h, s) for h, s in rows] for p, rows in times.items()}
        r.timing = timing_findings(made, min_decisions=o.min_decisions, max_cv=o.max_cv)
        r.sessions = session_findings(
            {p: [Played(*row) for row in rows] for p, rows in played.items()},
            session_break=o.session_break,
            max_session=o.max_session,
            max_day=o.max_day,
        )
        r.rush_hands = len(pools)
        r.rush = rush_findings(
            (PoolHand(*row) for row in pools),
            window=o.rush_window,
            alpha=o.rush_alpha,
            min_ratio=o.rush_min_ratio,
        )
        parsed = []
        for hand_id, text in audits:
            try:
                parsed.append((hand_id, read_phh(text)))
                r.texts[hand_id] = text
            except HistoryError:
                r.unread.append(hand_id)
        r.hands_read = len(parsed)
        r.soft = softplay_findings(parsed)
        r.whip = whipsaw_findings(parsed)
        r.dumping = dumping_findings(parsed, min_z=o.min_z)
        r.share = cardshare_findings(parsed, alpha=o.share_alpha, min_z=o.share_min_z)
        return r

    report = await asyncio.to_thread(score)
    wanted = {f.player_id for f in report.timing} | {f.player_id for f in report.sessions}
    wanted |= {p for x in report.rush for p in (x.a, x.b)}
    report.names = await store.hand_times.names(wanted)
    report.groups = groups_of(report.links())
    return report


def brief_document(
    document: dict[str, Any], *, flagged: int = BRIEF_FLAGGED, others: int = BRIEF_OTHERS
) -> dict[str, Any]:
    """The console's form of the ``--json`` document (``pokerroom integrity report --json --console``):
    each list of findings cut to its first ``flagged`` flagged rows and ``others`` other rows, each
    without its :data:`BRIEF_LEFT_OUT` keys, and a ``section_counts`` key giving each list's ``rows`` and
    ``flagged`` before the cut; the unreadable hands cut to the first ``flagged``. So the console's server
    reads a small answer, whatever the period."""
    out: dict[str, Any] = {}
    counts: dict[str, dict[str, int]] = {}
    for key, rows in document.items():
        if key in NOT_FINDINGS and isinstance(rows, list):
            out[key] = rows[:flagged]
            continue
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            out[key] = rows
            continue
        up = [r for r in rows if r.get("flagged")]
        down = [r for r in rows if not r.get("flagged")]
        out[key] = [
            {k: v for k, v in r.items() if k not in BRIEF_LEFT_OUT} for r in up[:flagged] + down[:others]
        ]
        counts[key] = {"rows": len(rows), "flagged": len(up)}
    out["section_counts"] = counts
    return out
