"""A node of a cluster as ``pokerroom serve --cluster`` runs it: a gateway, a table host, or both in one
process (docs/cluster.md). The app starts and stops it with its lifespan (server/app.py).

Its id names its subjects and its user on the bus: on a closed bus (the configuration's ``[cluster]``
section) it connects over TLS with its own certificate (:mod:`.access`), and NATS lets it publish only
what its role publishes (docs/cluster.md, "A closed bus")."""

from __future__ import annotations

import re
import secrets
import socket
from collections.abc import Callable

from pokerroom.server.cluster.access import bus_access
from pokerroom.server.cluster.bus import Bus
from pokerroom.server.cluster.gateway import Gateway
from pokerroom.server.cluster.host import Host
from pokerroom.server.cluster.subjects import Subjects, check_cluster_name, check_node_id
from pokerroom.server.config.cluster import BusConfig
from pokerroom.server.front import Front, LocalFront
from pokerroom.server.room import Room, RoomSettings
from pokerroom.store import Store

__all__ = ["ROLES", "ClusterNode"]

ROLES = ("gateway", "host", "both")


class ClusterNode:
    def __init__(
        self,
        store: Store,
        settings: RoomSettings,
        *,
        bus_url: str,
        role: str = "both",
        cluster: str = "pokerroom",
        node_id: str | None = None,
        bus: BusConfig | None = None,
        reread: Callable[[], RoomSettings | None] | None = None,
    ) -> None:
        """``bus``: the configuration's ``[cluster]`` section (none: an open bus, allowed on a loopback
        address only); :class:`~.access.BusRefused` when this node must not start with it, ValueError
        for a bad role, id or cluster name. ``reread``: the configuration file read again (None when it
        has problems), for a reload (:meth:`reload`)."""
        if role not in ROLES:
            raise ValueError(f"a node's role is one of {', '.join(ROLES)}")
        self.store = store
        self.role = role
        default = f"{re.sub(r'[^A-Za-z0-9_-]', '-', socket.gethostname())[:50]}-{secrets.token_hex(3)}"
        self.id = check_node_id(node_id or default)
        self.subjects = Subjects(check_cluster_name(cluster))
        tls, self.warnings = bus_access(bus_url, bus or BusConfig(), self.id)
        self.bus = Bus(bus_url, f"pokerroom {role} {self.id}", tls=tls, inbox=self.subjects.inbox(self.id))
        self.reread = reread
        self.host = (
            Host(Room(store, settings), self.bus, self.subjects, self.id, reread=reread)
            if role in ("host", "both")
            else None
        )
        self.gateway = (
            Gateway(store, settings, self.bus, self.subjects, self.id)
            if role in ("gateway", "both")
            else None
        )
        self.room: Room | None = self.host.room if self.host is not None else None
        if self.gateway is not None:
            self.front: Front = self.gateway
        else:
            assert self.room is not None
            self.front = LocalFront(self.room)
        self.front.metrics.add_bus(self.bus.stats)

    async def start(self) -> None:
        await self.store.db.upgrade()
        await self.bus.connect()
        if self.host is not None:
            await self.host.start()
        if self.gateway is not None:
            await self.gateway.start()

    async def reload(self) -> bool:
        """SIGHUP (or ``pokerroom reload``): this node reads its configuration file again, and every host
        of the cluster does the same: added tables open on some host, removed ones close after their
        hand (docs/cluster.md). False when the file has problems (the room goes on as it was)."""
        fresh = self.reread() if self.reread is not None else None
        if fresh is None:
            return False
        if self.gateway is not None:
            self.gateway.settings = fresh
        if self.host is not None:
            await self.host.reload(fresh)
        elif self.gateway is not None:
            await self.gateway.reload(fresh)
        return True

    async def stop(self) -> None:
        if self.gateway is not None:
            await self.gateway.stop()
        if self.host is not None:
            await self.host.stop()
        await self.bus.close()
