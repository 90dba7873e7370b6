"""The console's Findings page (issue 30): the report of ``pokerroom integrity report`` (bots by timing,
chip dumping, soft play, collusive betting, and whatever score the report gains) for the last N days (1 to
:data:`MAX_DAYS`), run in a child process (``python -m pokerroom integrity report --json``: the server's
event loop and memory are not the report's; killed at its time limit and when the room stops), each
section's rows with the accounts named in them (their notes and linked accounts counted) and the hands
that support them; and any stored hand that is over in the replayer with every card (the audit copy; each
read audited ``hand.view``). Staff read (administrators and support). docs/integrity.md, "The findings in
the console"."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from pokerroom.history import HistoryError, read_phh, replay
from pokerroom.server.console.access import Staff, audited, fail, front, store
from pokerroom.server.integrity.report import BRIEF_FLAGGED, BRIEF_LEFT_OUT, BRIEF_OTHERS, NOT_FINDINGS
from pokerroom.server.stored_hands import StoredHand
from pokerroom.store import Store, UnknownHand, UnknownPlayer
from pokerroom.store.db import ENV_SCHEMA, ENV_URL

__all__ = ["FindingsDesk", "report_document", "router", "sections_of"]

log = logging.getLogger(__name__)
router = APIRouter(prefix="/api/console/integrity", tags=["console"])

MAX_DAYS = 31  # the console's longest period (the page offers 1, 7 and 30 days): longer is the command line's
TIME_LIMIT_S = 1800.0  # a run still going after this is killed (and failed)
WAIT_S = 15.0  # how long one request waits for a run before it answers 202 (the page asks again)
KEPT_RUNS = 5  # the finished runs kept (in this process's memory) for whoever asks for them by id
SHOWN_UNFLAGGED = BRIEF_OTHERS  # per section: the flagged rows (up to SHOWN_FLAGGED), this many others
SHOWN_FLAGGED = BRIEF_FLAGGED
NOT_SHOWN = BRIEF_LEFT_OUT  # keys of a row the page does not get (as long as the player's play)
# The keys of a finding that name its players (an account name, or for bots by timing an account id).
WHO_KEYS = ("name", "names", "player", "players", "giver", "taker", "a", "b")
NOT_SECTIONS = NOT_FINDINGS  # the report's lists that are not findings (an empty one looks alike)
COUNTS = "section_counts"  # the console's form of the document: each list's counts before the cut


# ------------------------------------------------------------------------------------------ the report


class ReportFailed(Exception):
    """The child process of a run failed (its exit status, or its time limit): the detail is logged."""


def report_command(since: datetime) -> list[str]:
    """The child process of a run: ``pokerroom integrity report --json`` over the hands since ``since``
    (UTC, to the second), with the report's default options. No database URL: that goes in its
    environment, where ``ps`` does not show it."""
    at = since.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S")
    return [sys.executable, "-m", "pokerroom", "integrity", "report", "--json", "--console", "--since", at]


async def report_document(s: Store, since: datetime, *, limit_s: float | None = None) -> dict[str, Any]:
    """The document of ``pokerroom integrity report --json --console`` (the console's form: each list of
    findings cut, its counts in ``section_counts``) for the hands started since ``since``, made
    by that command in a child process on the room's database (its URL and schema in the child's
    environment). The child is killed when this is cancelled (the room stops) or after ``limit_s``
    (:data:`TIME_LIMIT_S`): :class:`ReportFailed`, as for an exit status other than 0 or 1 (1: something
    flagged) or an answer that is not a JSON object; its standard error is logged, not shown."""
    limit = TIME_LIMIT_S if limit_s is None else limit_s
    url = s.db.url
    if s.db.dialect == "sqlite" and (":memory:" in url or url.rstrip("/").endswith("sqlite:")):
        raise ReportFailed("a room on an in-memory database cannot be read by another process")
    env = {k: v for k, v in os.environ.items() if k not in (ENV_URL, ENV_SCHEMA)}
    env[ENV_URL] = url
    if s.db.schema is not None:
        env[ENV_SCHEMA] = s.db.schema
    proc = await asyncio.create_subprocess_exec(
        *report_command(since),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate(), limit)
    except TimeoutError:
        raise ReportFailed(f"the report ran longer than {limit:g} s: stopped") from None
    finally:
        if proc.returncode is None:  # (cancelled or out of time: the child goes with the run)
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await asyncio.shield(proc.wait())
    if proc.returncode not in (0, 1):
        tail = err.decode("utf-8", "replace")[-4000:]
        log.error("the integrity report's process exited with %s: %s", proc.returncode, tail)
        raise ReportFailed(f"the report's process exited with status {proc.returncode}")
    try:
        document = json.loads(out)
    except ValueError:
        raise ReportFailed("the report's process did not answer a JSON document") from None
    if not isinstance(document, dict):
        raise ReportFailed("the report's process did not answer a JSON object")
    return document


def _who(row: dict[str, Any]) -> tuple[list[str], list[int]]:
    """The names and account ids a finding's row names its players by (:data:`WHO_KEYS`)."""
    names: list[str] = []
    ids: list[int] = []
    for key in WHO_KEYS:
        value = row.get(key)
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, bool):
                continue
            if isinstance(v, str) and v not in names:
                names.append(v)
            elif isinstance(v, int) and v not in ids:
                ids.append(v)
    return names, ids


def _brief(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k not in NOT_SHOWN}


def sections_of(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Every list of findings of the report as a section the page draws the same way, whatever the score:
    its key and title, how many rows and how many flagged, the flagged rows (the first
    :data:`SHOWN_FLAGGED`) and the first :data:`SHOWN_UNFLAGGED` others (the detectors list the highest
    scores first), each without its :data:`NOT_SHOWN` keys, and how many rows were left out. The counts
    are the document's ``section_counts`` where it has them (the console's form, already cut)."""
    out = []
    counts = document.get(COUNTS)
    counts = counts if isinstance(counts, dict) else {}
    for key, rows in document.items():
        if key in NOT_SECTIONS or not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            continue
        flagged = [r for r in rows if r.get("flagged")]
        others = [r for r in rows if not r.get("flagged")]
        shown = [_brief(r) for r in flagged[:SHOWN_FLAGGED] + others[:SHOWN_UNFLAGGED]]
        counted = counts.get(key)
        total, up = len(rows), len(flagged)
        if isinstance(counted, dict):
            total, up = int(counted.get("rows", total)), int(counted.get("flagged", up))
        out.append(
            {
                "key": key,
                "title": key.replace("_", " ").capitalize(),
                "rows": total,
                "flagged": up,
                "shown": shown,
                "left_out": total - len(shown),
            }
        )
    return out


async def _accounts(s: Store, sections: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The accounts the shown rows name, by name: id, notes written on it and accounts linked to it (an
    address or a device shared). A name no account has (renamed since) is left out."""
    names: set[str] = set()
    ids: set[int] = set()
    for section in sections:
        for row in section["shown"]:
            n, i = _who(row)
            names.update(n)
            ids.update(i)
    found: dict[str, tuple[int, str]] = {}  # as a row names him -> (id, the account's name)
    for name in sorted(names):
        try:
            p = await s.accounts.find(name)
        except UnknownPlayer:
            continue
        found[name] = (p.id, p.name)
    for pid in sorted(ids - {i for i, _ in found.values()}):
        try:
            p = await s.accounts.get(pid)
        except UnknownPlayer:
            continue
        found[p.name] = (p.id, p.name)
    every = {i for i, _ in found.values()}
    links = await s.logins.links_of(every) if every else {}
    notes = {pid: len(await s.notes.of(pid)) for pid in sorted(every)}
    return {
        key: {"id": pid, "name": name, "notes": notes[pid], "linked": len(links.get(pid, []))}
        for key, (pid, name) in found.items()
    }


# ------------------------------------------------------------------------------------------- the runs


@dataclass
class Run:
    """One run of the report: for the last ``days`` days, asked for by ``by``."""

    id: str
    days: int
    since: datetime
    by: str
    started_at: datetime
    task: asyncio.Task[dict[str, Any]] | None = None
    finished_at: datetime | None = None
    error: str | None = None
    result: dict[str, Any] | None = None

    cancelled: bool = False

    @property
    def state(self) -> str:
        if self.finished_at is None:
            return "running"
        if self.cancelled:
            return "cancelled"
        return "failed" if self.error is not None else "done"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "days": self.days,
            "since": self.since.isoformat(),
            "by": self.by,
            "started_at": self.started_at.isoformat(),
            "finished_at": None if self.finished_at is None else self.finished_at.isoformat(),
            "state": self.state,
            "error": self.error,
            "report": self.result,
        }


Builder = Callable[[Store, datetime], Awaitable[dict[str, Any]]]


@dataclass
class FindingsDesk:
    """The runs of one process: one at a time (a second for another period is refused, one for the same
    period joins it), the last :data:`KEPT_RUNS` kept. ``build`` makes the report (by default
    :func:`report_document`, looked up when a run starts)."""

    build: Builder | None = None
    runs: dict[str, Run] = field(default_factory=dict)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def running(self) -> Run | None:
        return next((r for r in self.runs.values() if r.finished_at is None), None)

    def start(self, s: Store, clock: Callable[[], datetime], days: int, by: str) -> Run:
        now = clock()
        since = (now - timedelta(days=days)).replace(microsecond=0)  # (the command line's --since: seconds)
        run = Run(f"r{next(self._ids)}", days, since, by, now)
        run.task = asyncio.get_running_loop().create_task(self._run(s, run, clock))
        self.runs[run.id] = run
        for old in [r for r in self.runs.values() if r.finished_at is not None][:-KEPT_RUNS]:
            del self.runs[old.id]
        return run

    async def _run(self, s: Store, run: Run, clock: Callable[[], datetime]) -> dict[str, Any]:
        try:
            document = await (self.build or report_document)(s, run.since)
            sections = sections_of(document)
            listed = {x["key"] for x in sections}
            run.result = {
                "hands_read": document.get("hands_read", 0),
                "hands_unreadable": document.get("hands_unreadable", []),
                "flagged": document.get("flagged", 0),
                # the report's other figures (hands read, the thresholds it ran with, ...), as they come
                "figures": {
                    k: v for k, v in document.items() if k not in listed and k not in (*NOT_SECTIONS, COUNTS)
                },
                "sections": sections,
                "accounts": await _accounts(s, sections),
            }
        except asyncio.CancelledError:  # (the room stops: the child process is killed)
            run.cancelled, run.error, run.finished_at = True, "stopped with the room", clock()
            raise
        except ReportFailed as exc:  # (its own words: no SQL or parameters in them)
            log.error("the integrity report failed: %s", exc)
            run.error = str(exc)
        except Exception as exc:  # (a bug or the store: logged in full; the page gets its type only)
            log.exception("the integrity report failed")
            run.error = f"the report failed ({type(exc).__name__}): the server's log has the detail"
        run.finished_at = clock()
        return run.result or {}

    async def stop(self) -> None:
        """Cancel the run in progress (its child process killed); it is left ``cancelled``."""
        tasks = [r.task for r in self.runs.values() if r.task is not None and not r.task.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)


def _desk(request: Request) -> FindingsDesk:
    desk = getattr(request.app.state, "findings", None)
    if not isinstance(desk, FindingsDesk):
        desk = request.app.state.findings = FindingsDesk()
    return desk


async def _answer(run: Run) -> JSONResponse:
    """The run when it has finished (200), or as it is after :data:`WAIT_S` (202: ask again by its id)."""
    if run.task is not None and run.finished_at is None:
        await asyncio.wait({run.task}, timeout=WAIT_S)
    return JSONResponse({"run": run.to_dict()}, status_code=200 if run.finished_at is not None else 202)


@router.get("/report", status_code=200, responses={202: {"description": "still running: ask by its id"}})
async def findings(me: Staff, request: Request, days: str = "1") -> JSONResponse:
    """Run the integrity report (``pokerroom integrity report``) over the hands started in the last
    ``days`` days (1-31: a longer period is the command line's), or join the run for the same period in
    progress. 200 with the run when it has finished, else 202 with its id (``GET /report/{run}``). A run
    for another period in progress is ``409 report_running``; a bad ``days`` is ``422 bad_period``."""
    if not (days.isascii() and days.isdecimal()) or not 1 <= int(days) <= MAX_DAYS:
        raise fail(422, "bad_period", f"days is a whole number of days from 1 to {MAX_DAYS}", days=days)
    desk = _desk(request)
    run = desk.running()
    if run is not None and run.days != int(days):
        raise fail(
            409, "report_running", "a report for another period is running: wait for it",
            run=run.id, days=run.days, started_at=run.started_at.isoformat(),
        )  # fmt: skip
    if run is None:
        run = desk.start(store(request), front(request).now, int(days), me.name)
    return await _answer(run)


@router.get("/report/{run}", status_code=200, responses={202: {"description": "still running"}})
async def findings_run(run: str, me: Staff, request: Request) -> JSONResponse:
    """A run of the report by its id: 200 when it has finished (``state`` done or failed, the report),
    202 while it runs (after waiting a while for it). ``404 unknown_run`` for one not kept (the last few
    are, until the room restarts)."""
    found = _desk(request).runs.get(run)
    if found is None:
        raise fail(404, "unknown_run", "no such run of the report is kept", run=run)
    return await _answer(found)


# ------------------------------------------------------------------------------------- the replayer


def audit_replay(full_phh: str) -> dict[str, Any]:
    """A stored hand for the console's replayer: its audit copy replayed with every card in it (hole cards,
    mucked hands, discards), the seats and names, and what each player won or lost."""
    hand = read_phh(full_phh)
    state = replay(hand).state
    summary = StoredHand(hand, 1).summary()
    for own in ("net", "seat"):  # (of one viewer: the operator sees every seat)
        summary.pop(own)
    nets: dict[str, int] = {}
    if hand.finishing_stacks is not None:
        for i, name in enumerate(hand.players):
            if name and i + 1 not in hand.unknown_stacks:
                nets[name] = hand.finishing_stacks[i] - hand.starting_stacks[i]
    return {
        **summary,
        "seats": hand.context.seat_count or max(hand.seats),
        "players": {str(seat): name for seat, name in zip(hand.seats, hand.players, strict=False) if name},
        "nets": nets,
        "events": [e.to_dict() for e in state.events],
    }


@router.get("/hands/{hand_id}/replay")
async def hand_replay(hand_id: str, me: Staff, request: Request) -> dict[str, Any]:
    """A stored hand that is over (a cash or Rush hand that ended; a hand of a tournament that finished
    or was cancelled) for the console's replayer, with every card: the audit copy. Each read is audited
    (``hand.view``: who read which hand). ``404 unknown_hand``; ``409 hand_in_play`` for a cash hand not
    ended or a hand of a tournament still registering or running (its cards could still matter to a
    table); ``409 unreadable_hand`` for a history that cannot be replayed."""
    s = store(request)
    state = await s.audit_hands.state(hand_id)
    if state is None:
        raise fail(404, "unknown_hand", "no stored hand has this id", hand=hand_id)
    if not state.over:
        raise fail(
            409, "hand_in_play", "the hand is not over: a cash hand still played, or its tournament still on",
            hand=hand_id, tournament=state.tournament_id,
        )  # fmt: skip
    try:
        text = await s.histories.audit_phh(hand_id)
    except UnknownHand:
        raise fail(404, "unknown_hand", "no stored hand has this id", hand=hand_id) from None
    await audited(request, me, "hand.view", hand_id)
    try:
        view = await asyncio.to_thread(audit_replay, text)
    except HistoryError as exc:
        raise fail(409, "unreadable_hand", f"the history cannot be replayed: {exc}", hand=hand_id) from None
    return {"hand_id": hand_id, **view}
