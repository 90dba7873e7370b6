"""Run many bots against a room: ``pokerroom bots --url ... --count N --strategy ...``."""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import httpx

from pokerroom.bots.client import BotClient, BotStats
from pokerroom.bots.pool import PoolBot
from pokerroom.bots.strategies import STRATEGIES
from pokerroom.bots.tournament import TournamentBot

# a bot's name -> a session token for it, or None: that bot is not started (its name is a player's)
Issuer = Callable[[str], Awaitable[str | None]]

__all__ = ["plan_seats", "run_bots", "start_bots", "start_pool_bots", "start_tournament_bots"]

log = logging.getLogger("pokerroom.bots")


def plan_seats(tables: Sequence[dict[str, Any]], count: int, *, leave_free: int = 0) -> list[str]:
    """Spread ``count`` bots over the tables, filling each up to ``seats - players - leave_free``."""
    free = {t["table"]: max(0, t["seats"] - t["players"] - leave_free) for t in tables}
    out: list[str] = []
    for tid in itertools.cycle(list(free)):
        if len(out) >= count or not any(free.values()):
            break
        if free[tid] > 0:
            out.append(tid)
            free[tid] -= 1
    return out


async def start_bots(
    base_url: str,
    count: int,
    strategies: Sequence[str] = ("strength", "caller", "random"),
    *,
    tables: Sequence[str] | None = None,
    leave_free: int = 0,
    think: tuple[float, float] = (0.5, 2.0),
    prefix: str = "bot",
    seed: int | None = None,
    stats: BotStats | None = None,
    issue: Issuer | None = None,
) -> list[tuple[BotClient, asyncio.Task[None]]]:
    """Log ``count`` bots in and start them (each as its own task); returns (bot, task) pairs. ``issue``
    (the room's own bots, started by ``pokerroom serve``): a bot's session token from the room itself,
    instead of a login over HTTP (a password hash each, seconds for a room's worth of bots)."""
    rng = random.Random(seed)
    stats = stats or BotStats()
    async with httpx.AsyncClient(timeout=60) as http:
        lobby = (await http.get(f"{base_url.rstrip('/')}/api/lobby")).json()["tables"]
        if tables:
            lobby = [t for t in lobby if t["table"] in set(tables)]
        assignment = plan_seats(lobby, count, leave_free=leave_free)
        bots = []
        for i, tid in enumerate(assignment):
            strategy = STRATEGIES[strategies[i % len(strategies)]]()
            bot = BotClient(
                base_url,
                f"{prefix}{i + 1}",
                strategy,
                tid,
                think=think,
                rng=random.Random(rng.randrange(2**31)),
                stats=stats,
            )
            if await _log_in(bot, http, issue):
                bots.append(bot)
    return [(bot, asyncio.create_task(bot.run(), name=bot.name)) for bot in bots]


async def _log_in(bot: BotClient, http: httpx.AsyncClient, issue: Issuer | None) -> bool:
    """Log ``bot`` in; False when the room issues no session for it (the bot is then not started)."""
    if issue is None:
        await bot.login(http)
        return True
    token = await issue(bot.name)
    if token is None:
        return False
    bot.token = token
    return True


async def start_pool_bots(
    base_url: str,
    pool: str,
    count: int,
    strategies: Sequence[str] = ("strength", "caller", "random"),
    *,
    entries: int = 1,
    quick_fold: float = 0.3,
    think: tuple[float, float] = (0.5, 2.0),
    prefix: str = "rushbot",
    seed: int | None = None,
    stats: BotStats | None = None,
    issue: Issuer | None = None,
) -> list[tuple[PoolBot, asyncio.Task[None]]]:
    """Log ``count`` bots in, each joining Rush pool ``pool`` with ``entries`` entries."""
    rng = random.Random(seed)
    stats = stats or BotStats()
    async with httpx.AsyncClient(timeout=60) as http:
        pools = (await http.get(f"{base_url.rstrip('/')}/api/lobby")).json().get("pools", [])
        row = next((p for p in pools if p["pool"] == pool), None)
        if row is None:
            raise ValueError(f"no pool {pool!r} in the lobby")
        buy_in = row["buy_in"]["max"] or 2 * row["buy_in"]["min"]
        bots = []
        for i in range(count):
            bot = PoolBot(
                base_url,
                f"{prefix}{i + 1}",
                STRATEGIES[strategies[i % len(strategies)]](),
                pool,
                buy_in,
                entries=entries,
                quick_fold=quick_fold,
                think=think,
                rng=random.Random(rng.randrange(2**31)),
                stats=stats,
                variant=row["variant"],
                betting=row["betting"],
            )
            if await _log_in(bot, http, issue):
                bots.append(bot)
    return [(bot, asyncio.create_task(bot.run(), name=bot.name)) for bot in bots]


async def start_tournament_bots(
    base_url: str,
    tournament: str,
    count: int,
    strategies: Sequence[str] = ("strength", "caller", "random"),
    *,
    think: tuple[float, float] = (0.5, 2.0),
    prefix: str = "tbot",
    seed: int | None = None,
    stats: BotStats | None = None,
    issue: Issuer | None = None,
    clock: Callable[[], float] = time.monotonic,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> list[tuple[TournamentBot, asyncio.Task[None]]]:
    """Start ``count`` bots for ``tournament``, each registered as soon as it is logged in and connected
    (a busy machine that logs them all in first may miss the start: issue 35). When the tournament's
    start is nearer than the time the bots still to come are expected to take (the mean time of those
    done so far), a warning says so, once."""
    rng = random.Random(seed)
    stats = stats or BotStats()
    started = []
    async with httpx.AsyncClient(timeout=60) as http:
        start = await _start_time(http, base_url, tournament)
        began = clock()
        warned = False
        for i in range(count):
            bot = TournamentBot(
                base_url,
                f"{prefix}{i + 1}",
                STRATEGIES[strategies[i % len(strategies)]](),
                tournament,
                think=think,
                rng=random.Random(rng.randrange(2**31)),
                stats=stats,
            )
            if await _log_in(bot, http, issue):
                task = asyncio.create_task(bot.run(), name=bot.name)
                started.append((bot, task))
                for _ in range(500):
                    if bot._ws is not None:
                        break
                    await asyncio.sleep(0.01)
                await bot.register(http)
            left = count - i - 1
            if start is not None and left and not warned:
                expected = (clock() - began) / (i + 1) * left
                before_start = (start - now()).total_seconds()
                if before_start < expected:
                    warned = True
                    log.warning(
                        "tournament %s starts in %.0f s, but registering the %d bot(s) still to come is "
                        "expected to take %.0f s: some may miss the start",
                        tournament,
                        max(0.0, before_start),
                        left,
                        expected,
                    )
    return started


async def _start_time(http: httpx.AsyncClient, base_url: str, tournament: str) -> datetime | None:
    """The tournament's scheduled start (None for a sit-and-go, or when the room does not say)."""
    try:
        r = await http.get(f"{base_url}/api/tournaments/{tournament}")
        at = r.json().get("summary", {}).get("start_time") if r.status_code == 200 else None
        return datetime.fromisoformat(at) if isinstance(at, str) else None
    except (httpx.HTTPError, ValueError, AttributeError):
        return None


async def until_over(
    base_url: str,
    tournament: str,
    started: Sequence[tuple[Any, asyncio.Task[Any]]],
    *,
    poll: float = 5.0,
) -> None:
    """Wait until the tournament is over for every bot: each has stopped, busted or seen it end. A bot
    whose task died (its error is logged) is not waited for, and the room is asked every ``poll`` seconds
    whether the tournament has ended, so that a bot that missed the last ``tournament_status`` frame (its
    connection was down at that moment) does not keep the run going for ever."""
    loop = asyncio.get_running_loop()
    asked = loop.time()
    told: set[str] = set()
    async with httpx.AsyncClient(timeout=30) as http:
        while True:
            for bot, task in started:
                if (
                    task.done()
                    and not task.cancelled()
                    and task.exception() is not None
                    and bot.name not in told
                ):
                    told.add(bot.name)
                    log.error("tournament bot %s stopped: %r", bot.name, task.exception())
            if not any(bot.running() and not task.done() for bot, task in started):
                return
            if loop.time() - asked >= poll:
                asked = loop.time()
                if await _tournament_over(http, base_url, tournament):
                    return
            await asyncio.sleep(0.5)


async def _tournament_over(http: httpx.AsyncClient, base_url: str, tournament: str) -> bool:
    """Whether the room says the tournament has finished or was cancelled (False when it cannot say)."""
    try:
        r = await http.get(f"{base_url}/api/tournaments/{tournament}")
        body = r.json() if r.status_code == 200 else {}
        # (a running or archived one names its status in its summary; a cluster gateway's answer for a
        # finished one is its lobby row, status at the top)
        status = (body.get("summary") or body).get("status")
    except (httpx.HTTPError, ValueError, AttributeError):
        return False
    return status in ("finished", "cancelled")


async def run_bots(
    base_url: str,
    count: int,
    strategies: Sequence[str],
    *,
    duration: float | None = None,
    think: tuple[float, float] = (0.5, 2.0),
    prefix: str = "bot",
    tournament: str | None = None,
) -> BotStats:
    """Run ``count`` bots at the room's cash tables, or registered for ``tournament`` (they play it to
    their end: busted, or the winner), for ``duration`` seconds or until they all stop."""
    stats = BotStats()
    started: list[Any]
    if tournament is not None:
        started = await start_tournament_bots(
            base_url, tournament, count, strategies, think=think, prefix=prefix, stats=stats
        )
    else:
        started = await start_bots(base_url, count, strategies, think=think, prefix=prefix, stats=stats)
    try:
        if duration is None and tournament is not None:
            await until_over(base_url, tournament, started)
        elif duration is None:
            await asyncio.gather(*(t for _, t in started))
        else:
            await asyncio.sleep(duration)
    finally:
        for bot, task in started:
            await bot.stop()
            task.cancel()
    return stats
