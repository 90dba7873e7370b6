"""A node of a cluster as ``pokerroom serve --cluster`` runs it: a gateway, a table host, or both in one
process (docs/cluster.md). The app starts and stops it with its lifespan (server/app.py)."""

from __future__ import annotations

import secrets
import socket

from pokerroom.server.cluster.bus import Bus
from pokerroom.server.cluster.gateway import Gateway
from pokerroom.server.cluster.host import Host
from pokerroom.server.cluster.subjects import Subjects
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
    ) -> None:
        if role not in ROLES:
            raise ValueError(f"a node's role is one of {', '.join(ROLES)}")
        self.store = store
        self.role = role
        self.id = node_id or f"{socket.gethostname()}-{secrets.token_hex(3)}"
        self.bus = Bus(bus_url, f"pokerroom {role} {self.id}")
        self.subjects = Subjects(cluster)
        self.host = (
            Host(Room(store, settings), self.bus, self.subjects, self.id)
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

    async def stop(self) -> None:
        if self.gateway is not None:
            await self.gateway.stop()
        if self.host is not None:
            await self.host.stop()
        await self.bus.close()
