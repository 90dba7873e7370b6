"""The integrity report (issue 30; docs/integrity.md): every detector over the stored hands of a period,
in one place for ``pokerroom integrity report`` (cli/integrity.py) and whoever else shows it (the
console). The store is read on the event loop; the histories are parsed and scored in a worker thread.

The JSON document (:meth:`Report.document`) only gains keys: ``bots_by_timing``, ``chip_dumping``,
``soft_play``, ``collusive_betting``, ``hands_read``, ``hands_unreadable``, ``flagged`` (the flagged
rows of every section), and since the sessions and Rush scores ``bots_by_sessions``, ``rush_together``,
``rush_hands_read`` and ``thresholds`` (the options the report ran with), and since the shared-cards score
``shared_cards`` and ``groups`` (the flagged pairs of every pair detector joined: groups.py), and since
collusive betting's threshold is shared over the report's tests, ``collusive_betting``'s ``threshold_z``
and ``thresholds``' ``whip_alpha`` and ``whip_min_z``. Two
sections' figures changed meaning in place when their scores did (2026-12-06): ``collusive_betting``'s
``expected`` and ``z`` are of re-raises over the partner's bets (``reraises``), no longer of whipsaws
(``whipsaws`` is still the count of re-raises a third player folded to); ``soft_play``'s ``spots``,
``aggressive`` and ``expected`` count its multiway spots too (``multiway_spots``, ``multiway_raises``).

A day of a big room (docs/integrity.md, "A day of a 1,000-table room"): the audit histories are read from
the store a page at a time (:meth:`pokerroom.store.integrity.AuditHands.pages`), each parsed once, without
its deck proof (three quarters of its text; the auditor's ``pokerroom verify`` reads it, no detector does),
and fed to the four detectors that read the hands, each in a thread of its own fed through a short queue
(:class:`HandScores`): the findings are those of the detectors run apart on the whole list, and no more
than a few pages of parsed hands are ever held. ``Report.texts`` holds the audit copies of the hands the
flagged findings name (``evidence=True``), no longer of every hand read."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any, Generic, TypeVar

from pokerroom.history import HistoryError, PhhHand, read_phh
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
    SessionFinding,
    TimingFinding,
    session_findings,
    timing_findings,
)
from pokerroom.server.integrity.whipsaw import ALPHA as WHIP_ALPHA
from pokerroom.server.integrity.whipsaw import MIN_Z as WHIP_MIN_Z
from pokerroom.server.integrity.whipsaw import WhipsawFinding, whipsaw_findings
from pokerroom.store import Store
from pokerroom.store.errors import UnknownHand

__all__ = [
    "HandScores",
    "Report",
    "ReportOptions",
    "brief_document",
    "read_audit",
    "run_report",
    "score_hands",
]

PAGE = 1000  # audit histories read from the store at a time (about 8 MB of text)
QUEUED = 2  # pages of parsed hands waiting for each detector, at most
_PROOF = "_deck_proof = "

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
    whip_alpha: float = WHIP_ALPHA  # collusive betting
    whip_min_z: float = WHIP_MIN_Z

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
            "whip_alpha": self.whip_alpha,
            "whip_min_z": self.whip_min_z,
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
    texts: dict[str, str] = field(default_factory=dict)  # the audit PHH of the flagged findings' hands

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

    def evidence(self) -> list[str]:
        """The hands the flagged findings of the pair detectors name, each once (``--evidence``)."""
        hands = [h for d in self.dumping if d.flagged for h in d.hands]
        hands += [h for x in self.soft if x.flagged for h in x.hands]
        hands += [h for x in self.whip if x.flagged for h in x.hands]
        hands += [h for x in self.rush if x.flagged for h in x.hands]
        hands += [h for x in self.share if x.flagged for h in x.hands]
        return list(dict.fromkeys(hands))

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


def read_audit(text: str) -> PhhHand:
    """An audit history parsed for the detectors: without its deck proof, which none of them reads (the
    proof is most of the text, and the most of the parsing; :class:`HistoryError` as :func:`read_phh`)."""
    at = text.find(_PROOF)
    while at > 0 and text[at - 1] != "\n":  # (only the key at the start of a line)
        at = text.find(_PROOF, at + 1)
    if at >= 0:
        end = text.find("\n", at)
        text = text[:at] + (text[end + 1 :] if end >= 0 else "")
    return read_phh(text)


T = TypeVar("T")
Hands = Iterable[tuple[str, PhhHand]]


class _Stream(Generic[T]):
    """One detector over a stream of hands: it runs in a thread of its own, reading the hands as they are
    put, so that several detectors read one parse of each hand without the hands all being held."""

    def __init__(self, name: str, score: Callable[[Hands], T]) -> None:
        self._queue: queue.Queue[list[tuple[str, PhhHand]] | None] = queue.Queue(maxsize=QUEUED)
        self._ended = False
        self._result: T | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(
            target=self._run, args=(score,), name=f"integrity-{name}", daemon=True
        )
        self._thread.start()

    def _hands(self) -> Iterator[tuple[str, PhhHand]]:
        while (batch := self._queue.get()) is not None:
            yield from batch
        self._ended = True

    def _run(self, score: Callable[[Hands], T]) -> None:
        try:
            self._result = score(self._hands())
        except BaseException as exc:  # given to the caller by result()
            self._error = exc
        while not self._ended and self._queue.get() is not None:  # (so that put never waits forever)
            pass
        self._ended = True

    def put(self, batch: list[tuple[str, PhhHand]]) -> None:
        self._queue.put(batch)

    def result(self) -> T:
        """The detector's findings, once every hand is put (re-raises its error)."""
        if not self._ended:
            self._queue.put(None)
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._result  # type: ignore[return-value]


class HandScores:
    """The detectors that read the hands (soft play, collusive betting, chip dumping, shared cards) over one
    stream of audit histories: :meth:`add` a page of ``(hand id, text)`` at a time, then :meth:`finish`.
    Each history is parsed once (:func:`read_audit`) and given to every detector (:class:`_Stream`); the
    findings are those of each detector run on the whole list of parsed hands, in the same order."""

    def __init__(self, options: ReportOptions | None = None) -> None:
        o = options or ReportOptions()
        self.read = 0
        self.unread: list[str] = []
        self._soft = _Stream("soft", softplay_findings)
        self._whip = _Stream("whipsaw", partial(whipsaw_findings, alpha=o.whip_alpha, min_z=o.whip_min_z))
        self._dumping = _Stream("dumping", partial(dumping_findings, min_z=o.min_z))
        self._share = _Stream(
            "cardshare", partial(cardshare_findings, alpha=o.share_alpha, min_z=o.share_min_z)
        )
        self._streams: Sequence[_Stream[Any]] = (self._soft, self._whip, self._dumping, self._share)

    def add(self, rows: Iterable[tuple[str, str]]) -> None:
        batch = []
        for hand_id, text in rows:
            try:
                batch.append((hand_id, read_audit(text)))
            except HistoryError:
                self.unread.append(hand_id)
        self.read += len(batch)
        if batch:
            for stream in self._streams:
                stream.put(batch)

    def abandon(self) -> None:
        """End every detector's thread, their findings unwanted (the read of the hands failed)."""
        for stream in self._streams:
            with contextlib.suppress(BaseException):  # (the read's error is the one the caller raises)
                stream.result()

    def finish(self, report: Report) -> Report:
        """The findings, into ``report`` (every detector's error re-raised: the first)."""
        results = []
        error: BaseException | None = None
        for stream in self._streams:  # (every thread ended, whatever failed)
            try:
                results.append(stream.result())
            except BaseException as exc:
                error = error or exc
        if error is not None:
            raise error
        report.soft, report.whip, report.dumping, report.share = results
        report.hands_read = self.read
        report.unread = list(self.unread)
        return report


def score_hands(rows: Iterable[tuple[str, str]], options: ReportOptions | None = None) -> Report:
    """The detectors that read the hands over ``(hand id, audit PHH)`` rows, as :func:`run_report` runs them
    (the rest of the report empty)."""
    o = options or ReportOptions()
    scores = HandScores(o)
    page: list[tuple[str, str]] = []
    for row in rows:
        page.append(row)
        if len(page) >= PAGE:
            scores.add(page)
            page = []
    scores.add(page)
    return scores.finish(Report(o))


def _score_times(
    o: ReportOptions,
    times: Mapping[int, Sequence[tuple[str, float]]],
    played: Mapping[int, Sequence[tuple[str, datetime, datetime]]],
    pools: Sequence[tuple[str, str, datetime, tuple[int, ...]]],
) -> Report:
    """The detectors that read the journal's times and the pools' seats."""
    r = Report(o)
    r.timing = timing_findings(times, min_decisions=o.min_decisions, max_cv=o.max_cv)  # (the rows as read)
    r.sessions = session_findings(
        played,
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
    return r


async def run_report(
    store: Store,
    since: datetime,
    *,
    until: datetime | None = None,
    options: ReportOptions | None = None,
    evidence: bool = False,
    page: int = PAGE,
) -> Report:
    """Every detector over the hands started in [since, until) (tournament hands: ended in it); with
    ``evidence``, ``texts`` holds the audit copies of the hands the flagged findings name."""
    o = options or ReportOptions()
    times = await store.hand_times.decisions(since=since, until=until)
    played = await store.hand_times.played(since=since, until=until)
    pools = await store.hand_times.pool_hands(since=since, until=until)
    report = await asyncio.to_thread(_score_times, o, times, played, pools)
    del times, played, pools  # (not held while the hands are read)
    scores = HandScores(o)
    try:
        async for rows in store.audit_hands.pages(since, until=until, size=page):
            await asyncio.to_thread(scores.add, rows)
    except BaseException:
        await asyncio.to_thread(scores.abandon)  # every detector's thread ends
        raise
    await asyncio.to_thread(scores.finish, report)
    wanted = {f.player_id for f in report.timing} | {f.player_id for f in report.sessions}
    wanted |= {p for x in report.rush for p in (x.a, x.b)}
    report.names = await store.hand_times.names(wanted)
    report.groups = groups_of(report.links())
    if evidence:
        for hand_id in report.evidence():
            with contextlib.suppress(UnknownHand):  # (a hand with no audit copy of its own)
                report.texts[hand_id] = await store.histories.audit_phh(hand_id)
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
