"""What a client's message reaches: a table endpoint or a pool endpoint, found in one index.

Every table a client can watch and play presents :class:`TableEndpoint` (a cash table is one; a tournament
hands out one per table it runs), and every Rush pool presents :class:`PoolEndpoint` (a cash pool is one;
a Rush tournament hands one out for its pool phase). Each endpoint names the actor whose inbox runs its
calls (``owner``): a caller does ``await ep.owner.call(lambda: ep.act(...))``, so everything still happens
inside the owning actor (docs/server.md). :class:`Endpoints` is the room's index: the room adds its cash
tables and pools as it opens them, a tournament adds and removes its tables and its pool phase as they
come and go, and :mod:`pokerroom.server.routes` finds the endpoint a message names here, never asking what
kind of actor is behind it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from pokerroom.server.connection import Connection
from pokerroom.server.core import Action
from pokerroom.server.errors import Refused

__all__ = ["Endpoints", "Owner", "PoolEndpoint", "TableEndpoint"]


class Owner(Protocol):
    """The actor whose inbox runs an endpoint's calls (server/mailbox.py)."""

    async def call(self, job: Callable[[], Awaitable[Any]]) -> Any: ...


class TableEndpoint(Protocol):
    """A table: watch it, play at it, chat, and the table's requests (leave, top up, sit out, ...)."""

    @property
    def owner(self) -> Owner: ...

    async def subscribe(self, conn: Connection) -> dict[str, Any]:
        """Watch the table: the snapshot the connection may see (then every change)."""
        ...

    async def unsubscribe(self, conn: Connection) -> None: ...

    async def sit(self, conn: Connection, seat: int, buy_in: int, post_now: bool) -> None: ...

    async def act(self, conn: Connection, hand_id: str, action_no: int, action: Action) -> bool:
        """A decision; True when it was a retry of one already applied (acknowledged, not applied)."""
        ...

    async def chat(self, conn: Connection, text: str) -> None: ...

    async def request(self, conn: Connection, name: str, data: dict[str, Any]) -> None:
        """``leave``, ``top_up``, ``sit_out``, ``sit_in``, ``settings``, ``waiting_list``, ``answer_post``,
        ``choose_game`` with the message's fields (``data``)."""
        ...


class PoolEndpoint(Protocol):
    """A Rush pool: entries join and leave it, quick-fold and act (each entry by its number)."""

    @property
    def owner(self) -> Owner: ...

    def owns_table(self, table: str) -> bool:
        """Is ``table`` one of the pool's short-lived tables (which nobody may observe, R212)?"""
        ...

    async def join(self, conn: Connection, entries: int, buy_in: int) -> list[int]: ...

    async def leave(self, conn: Connection, entry: int | None) -> None: ...

    async def quick_fold(self, conn: Connection, entry: int) -> None: ...

    async def act(
        self, conn: Connection, entry: int, hand_id: str, action_no: int, action: Action
    ) -> bool: ...


class Endpoints:
    """The room's index of endpoints by table id and pool id."""

    def __init__(self) -> None:
        self.tables: dict[str, TableEndpoint] = {}
        self.pools: dict[str, PoolEndpoint] = {}

    def add_table(self, table_id: str, endpoint: TableEndpoint) -> None:
        self.tables[table_id] = endpoint

    def remove_table(self, table_id: str, endpoint: TableEndpoint | None = None) -> None:
        """Forget a table (only if it is still ``endpoint``'s, when given: a reopened table keeps its new
        endpoint)."""
        if endpoint is None or self.tables.get(table_id) is endpoint:
            self.tables.pop(table_id, None)

    def add_pool(self, pool_id: str, endpoint: PoolEndpoint) -> None:
        self.pools[pool_id] = endpoint

    def remove_pool(self, pool_id: str, endpoint: PoolEndpoint | None = None) -> None:
        if endpoint is None or self.pools.get(pool_id) is endpoint:
            self.pools.pop(pool_id, None)

    def remove_owner(self, owner: Owner) -> None:
        """Forget every endpoint of ``owner`` (an actor closed, dropped or cancelled)."""
        for tid in [t for t, ep in self.tables.items() if ep.owner is owner]:
            del self.tables[tid]
        for pid in [p for p, ep in self.pools.items() if ep.owner is owner]:
            del self.pools[pid]

    def table(self, table_id: str) -> TableEndpoint:
        """The table ``table_id``; a Rush table is refused (``no_observers``, R212), anything else
        ``unknown_table``."""
        found = self.tables.get(table_id)
        if found is not None:
            return found
        if table_id in self.pools or any(p.owns_table(table_id) for p in self.pools.values()):
            raise Refused("no_observers", "Rush tables cannot be observed", table=table_id)
        raise Refused("unknown_table", "no such table", table=table_id)

    def pool(self, pool_id: str) -> PoolEndpoint:
        found = self.pools.get(pool_id)
        if found is None:
            raise Refused("unknown_pool", "no such pool", pool=pool_id)
        return found
