"""What a gateway knows of the hosts: who runs which table, pool and tournament (and under which fence),
and the lobby rows each host publishes (server/cluster/host.py, ``directory``). A host that has not been
heard for ``HOST_SILENCE`` seconds no longer runs anything as far as the gateway knows; its tables are
"moving" until another host's directory names them (docs/cluster.md, "Failover")."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pokerroom.server.cluster.messages import DirectoryNews

__all__ = ["HOST_SILENCE", "Directory", "Owner"]

HOST_SILENCE = 4.0


@dataclass(frozen=True)
class Owner:
    host: str
    fence: int


@dataclass
class _Heard:
    at: float
    news: DirectoryNews


class Directory:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.hosts: dict[str, _Heard] = {}
        self.owners: dict[str, Owner] = {}
        self.tables: dict[str, str] = {}  # table id -> resource
        self.pools: dict[str, str] = {}
        self.tournaments: dict[str, str] = {}

    def heard(self, news: DirectoryNews) -> tuple[set[str], set[str]]:
        """A host's directory message; returns (resources whose owner changed or that appeared, resources
        this host no longer runs)."""
        host = news.host
        before = {r for r, o in self.owners.items() if o.host == host}
        self.hosts[host] = _Heard(self.clock(), news)
        return self._rebuild(before, host)

    def expire(self) -> set[str]:
        """Forget silent hosts; the resources they ran."""
        now = self.clock()
        silent = [h for h, heard in self.hosts.items() if now - heard.at > HOST_SILENCE]
        lost: set[str] = set()
        for host in silent:
            lost |= {r for r, o in self.owners.items() if o.host == host}
            del self.hosts[host]
        if silent:
            self._rebuild(set(), None)
        return lost

    def _rebuild(self, before: set[str], host: str | None) -> tuple[set[str], set[str]]:
        old = dict(self.owners)
        self.owners, self.tables, self.pools, self.tournaments = {}, {}, {}, {}
        for h, heard in sorted(self.hosts.items(), key=lambda kv: kv[1].at):
            news = heard.news
            for resource, fence in news.fences.items():
                current = self.owners.get(resource)
                if current is None or fence >= current.fence:  # the newest fence wins
                    self.owners[resource] = Owner(h, fence)
            self.tables.update(news.tables)
            self.pools.update(news.pools)
            self.tournaments.update(news.tournaments)
        changed = {r for r, o in self.owners.items() if old.get(r) != o}
        gone = {r for r in before if r not in self.owners or self.owners[r].host != host}
        return changed, gone

    # ------------------------------------------------------------------------------ queries

    def alive(self) -> list[str]:
        return sorted(self.hosts)

    def resource_of_table(self, table: str) -> str | None:
        if table in self.tables:
            return self.tables[table]
        for pool, resource in self.pools.items():  # a Rush table (observers are refused by its host)
            prefix = f"{pool}-t"
            if table.startswith(prefix) and table[len(prefix) :].isdigit():
                return resource
        return None

    def lobby_rows(self, part: str) -> list[dict[str, Any]]:
        """The lobby rows of ``part`` (``tables`` or ``pools``), each from the host that holds it now (a
        host that lost a table to another may still list it until it is heard again or goes silent)."""
        rows: list[dict[str, Any]] = []
        for host, heard in self.hosts.items():
            news = heard.news
            key, mine, lobby = (
                ("table", news.tables, news.lobby_tables)
                if part == "tables"
                else ("pool", news.pools, news.lobby_pools)
            )
            for row in lobby:
                owner = self.owners.get(mine.get(row[key], ""))
                if owner is not None and owner.host == host:
                    rows.append(row)
        return rows

    def tournament_groups(self) -> dict[str, list[dict[str, Any]]]:
        groups: dict[str, list[dict[str, Any]]] = {"upcoming": [], "running": [], "finished": []}
        seen: set[str] = set()
        for heard in self.hosts.values():
            for group, listed in heard.news.lobby_tournaments.items():
                for row in listed:
                    if row["tournament"] not in seen:
                        seen.add(row["tournament"])
                        groups.setdefault(group, []).append(row)
        for rows in groups.values():
            rows.sort(key=lambda r: (r["start_time"] or "", r["name"]))
        groups["finished"] = groups["finished"][-50:]
        return groups

    def paused(self) -> list[str]:
        out: list[str] = []
        for heard in self.hosts.values():
            out += heard.news.paused
        return sorted(out)

    def stopped(self) -> list[str]:
        """The hosts' actors suspended by repeated errors (or halted), each with its reason."""
        out: list[str] = []
        for heard in self.hosts.values():
            out += heard.news.stopped
        return sorted(out)

    def online(self) -> int:
        return max((heard.news.online for heard in self.hosts.values()), default=0)
