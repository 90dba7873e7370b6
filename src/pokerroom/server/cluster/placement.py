"""Which tables a host runs: leases taken, renewed, lost and handed over (docs/cluster.md, "Placement").

Every second a host looks for work nobody holds (a table or pool of the configuration, a tournament the
store holds as registering or running, a sit-and-go series) and takes leases up to its share (the work
divided by the hosts it hears on the bus), adopting each resource it takes (server/cluster/adopt.py).
Every ``RENEW`` seconds it renews its leases, as long as it has had the bus within ``BUS_GRACE``: a host
cut off from the bus stops renewing, so that a host that can still reach the players takes its tables
over. A lease found lost (another host took it: this one was frozen, or cut off) is dropped at once, its
actor stopped with nothing written; the new holder recovered the table from the store.

The work is the room's settings: the configuration file's, under what the console changed (read again
from the store at every look at the store's tournaments, and at once when a node says so: a console
command or a reload). A table or pool this host holds that the settings no longer have, or have with other
settings, closes after its hand (its players cashed out) and its lease is let go; a closed one is never
taken again, and a changed one is taken again with its new settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from pokerroom.server.cluster.adopt import adopt_pool, adopt_table, adopt_tournament
from pokerroom.server.mailbox import ActorStopped
from pokerroom.server.room import Room
from pokerroom.store import Fence, unavailable

__all__ = ["BUS_GRACE", "RENEW", "TTL", "Held", "Placement"]

log = logging.getLogger("pokerroom.cluster")

TTL = timedelta(seconds=8)  # a lease not renewed for this long may be taken over
RENEW = 2.0  # seconds between renewals
BUS_GRACE = 3.0  # seconds without the bus after which a host stops renewing
REJOIN = 6.0  # seconds back on the bus before a host takes another's expired lease (it hears who is back)
SPARE = timedelta(seconds=30)  # how long an expired lease of a host heard on the bus is left to it
SCAN = 1.0  # seconds between looks for work nobody holds
STORE_SCAN = 5.0  # seconds between reads of the store's live tournaments


@dataclass
class Held:
    fence: Fence
    actor: Any
    subscription: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


class Placement:
    def __init__(
        self,
        room: Room,
        host: str,
        *,
        bus_down_for: Callable[[], float],
        hosts_alive: Callable[[], int],
        bus_up_for: Callable[[], float] = lambda: REJOIN,
        hosts_heard: Callable[[], set[str]] = set,
        on_held: Callable[[str, Held], Awaitable[None]],
        on_dropped: Callable[[str, Held], Awaitable[None]],
    ) -> None:
        self.room = room
        self.host = host
        self.bus_down_for = bus_down_for
        self.hosts_alive = hosts_alive
        self.bus_up_for = bus_up_for
        self.hosts_heard = hosts_heard
        self.on_held = on_held
        self.on_dropped = on_dropped
        self.held: dict[str, Held] = {}
        self._live: set[str] = set()
        self._live_series: set[str] = set()
        self._live_read = 0.0
        self._busy: set[str] = set()
        self._look = asyncio.Event()  # (set: look for work now, not at the next second)

    # ------------------------------------------------------------------------------- the work

    def look_soon(self) -> None:
        self._look.set()

    async def pause(self, seconds: float) -> None:
        """Wait until the next look: ``seconds``, or less when :meth:`look_soon` is called."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._look.wait(), seconds)
        self._look.clear()

    async def wanted(self) -> list[str]:
        if time.monotonic() - self._live_read > STORE_SCAN:
            await self.room.refresh_console()  # (what another node's console command changed)
        s = self.room.settings
        out = [f"table:{c.table_id}" for c in s.tables] + [f"pool:{c.pool_id}" for c in s.pools]
        if time.monotonic() - self._live_read > STORE_SCAN:
            live = await self.room.store.tournaments.live()
            self._live = {r.id for r in live}
            self._live_series = {r.series for r in live if r.series and r.status == "registering"}
            fixed = [c.tournament_id for c in (*s.tournaments, *s.rush_tournaments) if c.kind != "sng"]
            over = await self.room.store.tournaments.statuses(fixed)
            self._live |= {t for t in fixed if t not in over}
            self._live_read = time.monotonic()
        out += sorted(f"tournament:{t}" for t in self._live)
        out += sorted(
            f"series:{c.tournament_id}" for c in (*s.tournaments, *s.rush_tournaments) if c.kind == "sng"
        )
        return out

    async def scan(self) -> None:
        """Take free work up to this host's share."""
        if self.bus_down_for() > BUS_GRACE:
            return
        wanted = await self.wanted()
        wanted_set = set(wanted)
        share = math.ceil(len(wanted) / max(1, self.hosts_alive()))
        # (only the wanted work counts: a tournament copy this host just opened is not wanted yet)
        mine = sum(1 for r in self.held if r in wanted_set)
        handed = await self.room.store.leases.handed_to(self.host)  # (an operator's move: whatever the share)
        for resource in [*(r for r in wanted if r in handed), *wanted]:
            if resource in self.held or resource in self._busy:
                continue
            if mine >= share and resource not in handed:
                break
            try:
                fence_no = await self.room.store.leases.acquire(resource, self.host, TTL, spare=self.spare)
            except TimeoutError:
                # (A row locked by its holder's write in flight is passed by: store/leases.py. A store too
                # slow to answer within its statement limit must not hold up the rest of the work either.)
                log.warning("could not look at the lease of %s now (its holder writes)", resource)
                continue
            if fence_no is None:
                continue
            fence = Fence(resource, self.host, fence_no)
            self._busy.add(resource)
            try:
                actor = await self._adopt(resource, fence)
            except Exception as exc:
                if not unavailable(exc) and not isinstance(exc, ActorStopped):  # (closed while restored)
                    log.exception("could not take %s over", resource)
                else:
                    log.warning("could not take %s over now: %s", resource, type(exc).__name__)
                with contextlib.suppress(Exception):
                    await self.room.store.leases.release(fence)
                continue
            finally:
                self._busy.discard(resource)
            if actor is None and not resource.startswith("series:"):  # settled, over, or closed meanwhile
                await self.room.store.leases.release(fence)
                continue
            await self.hold(resource, fence, actor)
            mine += 1
        await self._let_go_of_ended(wanted_set)
        await self._close_unwanted()

    async def _close_unwanted(self) -> None:
        """Close after their hand the tables and pools the settings no longer have, or have with other
        settings (their lease is let go when they have closed: the host's ``on_closed``)."""
        s = self.room.settings
        configs: dict[str, Any] = {f"table:{c.table_id}": c for c in s.tables}
        configs |= {f"pool:{c.pool_id}": c for c in s.pools}
        for resource, held in list(self.held.items()):
            actor = held.actor
            if actor is None or not resource.startswith(("table:", "pool:")) or actor.closing:
                continue
            config = actor.table.config if resource.startswith("table:") else actor.pool.config
            if configs.get(resource) != config:
                log.warning("closing %s after its hand: the room's settings %s", resource,
                            "changed it" if resource in configs else "no longer have it")  # fmt: skip
                with contextlib.suppress(ActorStopped):  # (dropped meanwhile: nothing left to close)
                    await actor.call(actor.close)

    async def _let_go_of_ended(self, wanted: set[str]) -> None:
        """Release the leases of this host's tournaments that are over."""
        for resource, held in list(self.held.items()):
            if not resource.startswith("tournament:") or resource in wanted:
                continue
            status = getattr(getattr(held.actor, "director", None), "status", None)
            if status in (None, "finished", "cancelled"):
                await self.release(resource)

    async def _adopt(self, resource: str, fence: Fence) -> Any:
        kind, _, ident = resource.partition(":")
        if kind in ("table", "pool") and await self._closed_by_console(ident):
            return None
        s = self.room.settings
        if kind == "table":
            return await adopt_table(self.room, next(c for c in s.tables if c.table_id == ident), fence)
        if kind == "pool":
            return await adopt_pool(self.room, next(c for c in s.pools if c.pool_id == ident), fence)
        if kind == "tournament":
            actor = await adopt_tournament(self.room, ident, fence)
            if actor is None and ident not in self.room.tournaments:
                fixed = {c.tournament_id: (c, False) for c in s.tournaments} | {
                    c.tournament_id: (c, True) for c in s.rush_tournaments
                }
                if ident in fixed and ident not in await self.room.store.tournaments.statuses([ident]):
                    cfg, rush = fixed[ident]
                    actor = self.room.add_tournament(cfg, rush=rush)
                    actor.fence = fence  # (before its task first runs)
            return actor
        if kind == "series":  # keep one copy registering
            if ident in self._live_series or any(
                t.series == ident and t.director.status in ("announced", "registering")
                for t in self.room.tournaments.values()
            ):
                return None
            cfg, rush = next(
                (c, r)
                for r, group in ((False, s.tournaments), (True, s.rush_tournaments))
                for c in group
                if c.tournament_id == ident
            )
            self.room.add_tournament(cfg, rush=rush)  # the copy leases itself (Host.opened)
            return None
        raise ValueError(f"unknown resource {resource!r}")

    async def _closed_by_console(self, gid: str) -> bool:
        """Did the console close ``gid`` since this host last read its changes? (Then it reads them.)"""
        game = await self.room.store.games.get(gid)
        if game is None or game.state != "closed":
            return False
        await self.room.refresh_console()
        return True

    def spare(self, holder: str, expired_for: timedelta) -> bool:
        """Whether to leave ``holder``'s expired lease to it. A bus outage that cut every host off stops
        every renewal, and the leases expire; when the bus is back, the first host to return must not take
        the others' work (voiding a hand at each table) before they could renew it themselves. So a host
        takes another's expired lease only once it has been back on the bus for ``REJOIN`` seconds (long
        enough to hear every host that is back) and only from a host it does not hear, or one that has not
        renewed for ``SPARE`` (alive on the bus but cut off from the database). A host killed, frozen or cut
        off alone is not heard: its tables are taken over as soon as its leases expire."""
        if self.bus_up_for() < REJOIN:
            return True
        return holder in self.hosts_heard() and expired_for < SPARE

    async def hold(self, resource: str, fence: Fence, actor: Any) -> None:
        held = Held(fence, actor)
        self.held[resource] = held
        if actor is not None:
            actor.on_lost = lambda _a, r=resource: asyncio.get_running_loop().create_task(self.drop(r))
        await self.on_held(resource, held)

    # ------------------------------------------------------------------------- keeping them

    async def renew(self) -> None:
        if self.bus_down_for() > BUS_GRACE or not self.held:
            return
        fences = [h.fence for h in self.held.values()]
        try:
            lost = await self.room.store.leases.renew(fences, TTL)
        except Exception as exc:
            if not unavailable(exc):
                log.exception("renewing the leases failed")
            return
        for resource, held in list(self.held.items()):
            if held.fence in lost:
                log.warning("lost the lease of %s to another host: dropping it", resource)
                await self.drop(resource)

    async def drop(self, resource: str) -> None:
        """Stop running ``resource`` at once, writing nothing (its lease is another host's)."""
        held = self.held.pop(resource, None)
        if held is None:
            return
        actor = held.actor
        if actor is not None:
            actor.broken = True
            # Out of the room first: a request must not find it while its task is being stopped, and queue a
            # job there that no task will ever run. (A host resumed after a stop drops a table it lost while
            # a gateway subscribes its watchers on the host's other tables; the subscribing of such a watcher
            # once reached the dropped table this way, the request waited for ever, and every later request
            # for that other table waited behind it on the bus: a table dealing no hand, nothing logged;
            # issue 37, tests/cluster/test_stop_resume.py.)
            self.room.forget(actor)
            # (Its stop refuses the job in hand and the queued ones: server/mailbox.py.)
            await actor.stop(f"{resource} moved to another host; try again")
        await self.on_dropped(resource, held)

    async def release(self, resource: str, *, hand_to: str | None = None) -> None:
        """Let a lease go (the table closed, or moved to ``hand_to`` after its hand)."""
        held = self.held.pop(resource, None)
        if held is None:
            return
        grace = timedelta(seconds=15) if hand_to else timedelta(0)
        await self.room.store.leases.release(held.fence, hand_to=hand_to, grace=grace)
        await self.on_dropped(resource, held)

    async def handovers(self) -> None:
        """Hand over the cash tables an operator asked to move (between hands)."""
        try:
            asked = await self.room.store.leases.handovers(self.host)
        except Exception as exc:
            if not unavailable(exc):
                log.exception("reading the handovers failed")
            return
        for resource, to in asked.items():
            held = self.held.get(resource)
            if held is None or not resource.startswith("table:") or held.extra.get("handing"):
                continue
            held.extra["handing"] = to
            with contextlib.suppress(ActorStopped):  # (dropped meanwhile: nothing left to hand over)
                await held.actor.call(held.actor.hand_over)
