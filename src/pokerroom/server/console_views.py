"""What the console reads of the games a room runs, the same in one process and on a cluster.

One process answers from its :class:`~pokerroom.server.room.Room`; on a cluster each host answers for the
tables, pools and tournaments it holds (server/cluster/host.py, a ``ConsoleQuestion``) and the gateway adds
the hosts' answers up (:func:`merge_live`), so that the console's pages (server/console/) read a
:class:`~pokerroom.server.front.Front` and never a room.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pokerroom.rooms import PointsPolicy
from pokerroom.server.operator import game_row, game_state, policy_fields
from pokerroom.server.room import Room

__all__ = ["games", "live", "merge_live", "promotions_view", "stakes_labels"]


def games(r: Room) -> list[dict[str, Any]]:
    """Every cash table and Rush pool of the room with its state, reason and summary."""
    tables = [game_row(r, t, "table") for t in sorted(r.tables)]
    return tables + [game_row(r, p, "pool") for p in sorted(r.pools)]


def live(r: Room) -> dict[str, Any]:
    """The dashboard's live figures: players online and seated, tables by kind, game and state, and the
    tournaments' statuses."""
    counts: dict[str, int] = {}
    for tid, actor in r.tables.items():
        key = f"cash|{actor.table.config.variant}|{game_state(r, tid)}"
        counts[key] = counts.get(key, 0) + 1
    for pid, pool in r.pools.items():
        key = f"rush|{pool.pool.config.variant}|{game_state(r, pid)}"
        counts[key] = counts.get(key, 0) + 1
    return {
        "players_online": r.players.count(),
        "seated": {
            "cash": sum(len(t.table.seats) for t in r.tables.values()),
            "rush": sum(len(p.pool.entries) for p in r.pools.values()),
            "tournament": sum(
                len(t.director.remaining) for t in r.tournaments.values() if t.director.status == "running"
            ),
        },
        "tables": counts,
        "tournaments": [t.director.status for t in r.tournaments.values()],
    }


def merge_live(parts: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Several hosts' :func:`live` figures as one room's."""
    out: dict[str, Any] = {
        "players_online": 0,
        "seated": {"cash": 0, "rush": 0, "tournament": 0},
        "tables": {},
        "tournaments": [],
    }
    for part in parts:
        out["players_online"] += part["players_online"]
        for k in out["seated"]:
            out["seated"][k] += part["seated"].get(k, 0)
        for key, n in part["tables"].items():
            out["tables"][key] = out["tables"].get(key, 0) + n
        out["tournaments"] += part["tournaments"]
    return out


def table_rows(counts: dict[str, int]) -> list[dict[str, Any]]:
    """:func:`live`'s table counts as the dashboard lists them."""
    rows = []
    for key, n in sorted(counts.items()):
        kind, game, state = key.split("|")
        rows.append({"kind": kind, "game": game, "state": state, "count": n})
    return rows


def promotions_view(policy: PointsPolicy | None, from_console: bool, now: Any) -> dict[str, Any]:
    """The promotions in force, whether they are the console's, and this week's Game of the Week."""
    featured = policy.featured(now) if policy is not None else None
    return {
        "promotions": policy_fields(policy),
        "from_console": from_console,
        "game_of_the_week_now": None
        if featured is None
        else {"game": featured.variant, "betting": featured.betting.value, "mode": featured.mode},
    }


def stakes_labels(rows: Iterable[dict[str, Any]]) -> dict[str, str]:
    """Each cash table's stakes as the lobby shows them, from its lobby rows."""
    return {row["table"]: row.get("stakes_label", "") for row in rows if "table" in row}
