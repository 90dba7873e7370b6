"""Nodes of a cluster that start together on a fresh PostgreSQL schema all start: the schema is created
and migrated under one advisory lock (a lone CREATE SCHEMA IF NOT EXISTS can collide in PostgreSQL's
catalogue, and one node exited with a unique violation at start-up)."""

from __future__ import annotations

import asyncio
import uuid

from pokerroom.store import Database

from .storehelpers import PG_URL, drop_pg_schema, require_pg


def test_nodes_starting_together_create_and_migrate_one_schema() -> None:
    require_pg()
    schemas = [f"t_race_{uuid.uuid4().hex[:10]}" for _ in range(4)]

    async def start_all(schema: str) -> list[str | None]:
        dbs = [Database(PG_URL, schema=schema) for _ in range(4)]
        try:
            await asyncio.gather(*(db.upgrade() for db in dbs))
            return [await db.current_revision() for db in dbs]
        finally:
            for db in dbs:
                await db.dispose()

    try:
        for schema in schemas:
            assert asyncio.run(start_all(schema)) == [Database.head_revision()] * 4
    finally:
        for schema in schemas:
            drop_pg_schema(schema)
