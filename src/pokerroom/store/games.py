"""Cash tables and Rush pools changed from the console (opened, paused, closed): kept so that a restart
or a reload of the configuration file keeps them (the console's word wins over the file for the ids it
has touched: docs/console.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update

from pokerroom.store.db import Database
from pokerroom.store.models import ConsoleGameRow
from pokerroom.store.util import Clock, canonical_json, utc_now

__all__ = ["ConsoleGame", "ConsoleGames"]

KINDS = ("table", "pool", "tournament", "promotions", "recurring")
STATES = ("open", "paused", "closed")


@dataclass(frozen=True)
class ConsoleGame:
    id: str
    kind: str  # table | pool | tournament | promotions (under the id 'promotions') | recurring (a series)
    spec: dict[str, Any]  # the fields of a [[table]] or [[pool]] of the configuration file
    state: str  # open | paused | closed
    updated_at: datetime


class ConsoleGames:
    def __init__(self, db: Database, *, clock: Clock = utc_now) -> None:
        self.db = db
        self.clock = clock

    async def save(self, game_id: str, kind: str, spec: dict[str, Any], state: str) -> ConsoleGame:
        if kind not in KINDS or state not in STATES:
            raise ValueError(f"kind {kind!r} / state {state!r}")
        now = self.clock()
        values = {"kind": kind, "spec": canonical_json(spec), "state": state, "updated_at": now}
        async with self.db.write() as conn:
            found = (
                await conn.execute(select(ConsoleGameRow.id).where(ConsoleGameRow.id == game_id))
            ).scalar_one_or_none()
            if found is None:
                await conn.execute(insert(ConsoleGameRow).values(id=game_id, **values))
            else:
                await conn.execute(
                    update(ConsoleGameRow).where(ConsoleGameRow.id == game_id).values(**values)
                )
        return ConsoleGame(game_id, kind, spec, state, now)

    async def all(self) -> list[ConsoleGame]:
        async with self.db.read() as conn:
            rows = (await conn.execute(select(ConsoleGameRow).order_by(ConsoleGameRow.id))).all()
        return [ConsoleGame(r.id, r.kind, json.loads(r.spec), r.state, r.updated_at) for r in rows]

    async def get(self, game_id: str) -> ConsoleGame | None:
        return next((g for g in await self.all() if g.id == game_id), None)
