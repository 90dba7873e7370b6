"""The logged-in player's lifetime statistics over HTTP (issue 31): ``GET /api/my/stats`` and the session
summary ``GET /api/my/stats/sessions.csv``, from his stored hands (cash, Rush and tournament hands of every
game). docs/protocol.md, "Lifetime statistics", describes the answer; docs/client.md defines the figures
(server/lifetime_figures.py computes them).

A hand's figures are read from his history once and kept (store/mystats.py): each request first reads at
most :data:`FILL_BATCH` hands that have none yet (oldest first; about 0.7 ms a hand, off the event loop)
and says how many are still ``pending``; the page asks again until none is. The sums by game and stakes
are the database's; the sessions and the graph are made from one ordered pass over the hands' times and
results: a fixed number of queries whatever the number of hands.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response

from pokerroom.history import HistoryError
from pokerroom.server.console.csvout import csv_response
from pokerroom.server.front import Front
from pokerroom.server.http import Me
from pokerroom.server.lifetime_figures import hand_figures
from pokerroom.store.errors import InvalidStatsFilter
from pokerroom.store.mystats import (
    FIGURES,
    MyStats,
    StatsFilter,
    Unfigured,
    epoch,
    graph_of,
    sessions_of,
)
from pokerroom.variants import VARIANTS

__all__ = ["FILL_BATCH", "GRAPH_POINTS", "SESSIONS_SHOWN", "router"]

router = APIRouter(prefix="/api/my", tags=["histories"])

FILL_BATCH = 500  # hands given figures per request (0.7 ms to 3 ms each: 0.35 s to 1.5 s of a core)
GRAPH_POINTS = 400  # the most points of the profit graph
SESSIONS_SHOWN = 100  # the latest sessions in the JSON answer (the CSV has them all)
DEFAULT_GAP_MIN = 30


def _front(request: Request) -> Front:
    f: Front = request.app.state.front
    return f


def _day(text: str | None, name: str) -> date | None:
    if text is None or text == "":
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidStatsFilter(name, "a date written YYYY-MM-DD") from None


def _figures_row(u: Unfigured) -> dict[str, Any]:
    """The row kept for one hand (``readable`` 0 when its history cannot be read: no figures)."""
    base: dict[str, Any] = {"hand_id": u.hand_id, "kind": u.kind, "ended_s": epoch(u.ended_at)}
    try:
        if u.text is None:
            raise HistoryError("no history stored", field="")
        f = hand_figures(u.text, u.seat)
    except HistoryError:
        return {
            **base,
            **dict.fromkeys(("game", "betting", "currency", "stakes"), ""),
            "readable": 0,
            "net": 0,
            **dict.fromkeys(FIGURES, 0),
        }
    return {
        **base,
        "game": f.game,
        "betting": f.betting,
        "currency": f.currency,
        "stakes": f.stakes,
        "readable": 1,
        "net": f.net,
        **{name: getattr(f, name) for name in FIGURES},
    }


_filling: set[int] = set()  # players whose hands a request of this process is reading now


async def fill(stats: MyStats, player_id: int, batch: int) -> int:
    """Give figures to up to ``batch`` of the player's hands that have none; how many are left. While
    another request of his reads hands, this one reads none (two tabs do not read the same hands)."""
    if player_id in _filling:
        return await stats.pending(player_id)
    _filling.add(player_id)
    try:
        todo, count = await stats.unfigured(player_id, batch)
        if todo:
            rows = await asyncio.to_thread(lambda: [_figures_row(u) for u in todo])
            await stats.save(player_id, rows)
        return count - len(todo)
    finally:
        _filling.discard(player_id)


def _rate(n: int, d: int) -> float | None:
    return round(100 * n / d, 1) if d else None


def _with_rates(row: dict[str, Any]) -> dict[str, Any]:
    """A row of sums with the percentages (None where the denominator is 0): VPIP and PFR of the hands,
    3-bet of the chances, WTSD of the hands that saw the second street, W$SD of the showdowns."""
    return {
        **row,
        "rates": {
            "vpip": _rate(row["vpip"], row["hands"]),
            "pfr": _rate(row["pfr"], row["hands"]),
            "three_bet": _rate(row["three_bet"], row["three_bet_chance"]),
            "wtsd": _rate(row["showdown"], row["saw_second"]),
            "wsd": _rate(row["won_showdown"], row["showdown"]),
        },
    }


def _total(rows: list[dict[str, Any]]) -> dict[str, Any]:
    names = ("hands", "net", *FIGURES)
    return _with_rates({n: sum(r[n] for r in rows) for n in names})


def _iso(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat()


async def _collect(
    request: Request, me_id: int, f: StatsFilter, gap: int
) -> tuple[dict[str, Any], list[dict[str, int]]]:
    stats = MyStats(_front(request).store.db)
    pending = await fill(stats, me_id, FILL_BATCH)
    counts = await stats.currencies(me_id, f)
    unreadable = counts.pop("", 0)
    currency = f.currency or next(iter(counts), None)
    answer: dict[str, Any] = {
        "pending": pending,
        "unreadable": unreadable,
        "currencies": counts,
        "currency": currency,
        "gap_minutes": gap,
    }
    sessions: list[dict[str, int]] = []
    rows: list[dict[str, Any]] = []
    points: list[tuple[int, int, int]] = []
    if currency is not None:
        f = StatsFilter(f.game, f.stakes, f.kind, currency, f.since, f.until)
        rows = await stats.breakdown(me_id, f)
        series = await stats.series(me_id, f)
        points = graph_of(series, GRAPH_POINTS)
        sessions = sessions_of(series, gap * 60)
    answer["totals"] = _total(rows)
    answer["rows"] = [{**_with_rates(r), "first": _iso(r["first"]), "last": _iso(r["last"])} for r in rows]
    answer["graph"] = [{"n": n, "t": _iso(t), "net": cum} for n, t, cum in points]
    answer["session_count"] = len(sessions)
    answer["sessions"] = [_session_out(s) for s in sessions[-SESSIONS_SHOWN:]]
    return answer, sessions


def _session_out(s: dict[str, int]) -> dict[str, Any]:
    return {
        "start": _iso(s["start"]),
        "end": _iso(s["end"]),
        "minutes": (s["end"] - s["start"]) // 60,
        "hands": s["hands"],
        "net": s["net"],
    }


Game = Annotated[str | None, Query(description="a game (variant code), e.g. holdem", max_length=64)]
Stakes = Annotated[str | None, Query(description="stakes as the lobby writes them, e.g. 1/2", max_length=64)]
Kind = Annotated[str | None, Query(description="cash (Rush too) or tournament", max_length=16)]
Currency = Annotated[
    str | None,
    Query(description="ISO code, PLAY or CHIPS (tournament chips); default: the most played", max_length=16),
]
From = Annotated[str | None, Query(alias="from", description="first day, YYYY-MM-DD (UTC)", max_length=32)]
To = Annotated[
    str | None, Query(alias="to", description="last day, YYYY-MM-DD (UTC), included", max_length=32)
]
Gap = Annotated[int, Query(ge=5, le=1440, description="minutes without a hand that end a session")]


@dataclass(frozen=True, slots=True)
class _Query:
    """The query of both endpoints: the filters, checked, and the minutes that end a session."""

    filter: StatsFilter
    since: str | None  # the days as written (echoed in the answer's ``filters``)
    until: str | None
    gap: int


async def _query(
    game: Game = None,
    stakes: Stakes = None,
    kind: Kind = None,
    currency: Currency = None,
    since: From = None,
    until: To = None,
    gap: Gap = DEFAULT_GAP_MIN,
) -> _Query:
    """The seven query parameters of ``/stats`` and ``/stats/sessions.csv`` (a dependency of both, so the
    OpenAPI document lists them for each), checked: ``to`` is a whole day, the hands up to its end, UTC."""
    first, last = _day(since, "from"), _day(until, "to")
    start = epoch(datetime(first.year, first.month, first.day, tzinfo=UTC)) if first else None
    end = epoch(datetime(last.year, last.month, last.day, tzinfo=UTC) + timedelta(days=1)) if last else None
    f = StatsFilter(game or None, stakes or None, kind or None, currency or None, start, end).checked(
        tuple(VARIANTS)
    )
    return _Query(f, since or None, until or None, gap)


StatsQuery = Annotated[_Query, Depends(_query)]


@router.get("/stats")
async def my_stats(me: Me, request: Request, q: StatsQuery) -> dict[str, Any]:
    """The player's lifetime statistics from his stored hands, in one currency (``currency``, else the
    one he has most hands in): totals and one row per game, betting and stakes (hands, net, VPIP, PFR,
    3-bet, WTSD, W$SD), the profit graph (at most 400 points), his sessions (the latest 100; all in the
    CSV) and how many hands are still ``pending`` (ask again). ``400 invalid_filter`` names a bad filter."""
    answer, _ = await _collect(request, me.id, q.filter, q.gap)
    answer["filters"] = {
        "game": q.filter.game,
        "stakes": q.filter.stakes,
        "kind": q.filter.kind,
        "from": q.since,
        "to": q.until,
    }
    return answer


@router.get("/stats/sessions.csv", response_class=Response)
async def my_sessions_csv(me: Me, request: Request, q: StatsQuery) -> Response:
    """The session summary as CSV, oldest first: start and end (the first and last hand's end, UTC),
    minutes, hands, profit (currency units: cents become 12.50) and currency, under the same filters."""
    answer, sessions = await _collect(request, me.id, q.filter, q.gap)
    cur = answer["currency"] or ""
    rows = [
        (
            _iso(s["start"]),
            _iso(s["end"]),
            (s["end"] - s["start"]) // 60,
            s["hands"],
            s["net"] if cur in ("PLAY", "CHIPS") else (Decimal(s["net"]) / 100).quantize(Decimal("0.01")),
            cur,
        )
        for s in sessions
    ]
    return csv_response("sessions.csv", ("start", "end", "minutes", "hands", "profit", "currency"), rows)
