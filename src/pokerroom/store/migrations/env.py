"""Alembic environment. ``Database.upgrade`` hands over its connection in ``config.attributes``; run from
the ``alembic`` command line instead, it connects to ``$POKERROOM_DATABASE_URL`` (or the default)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from pokerroom.store.models import Base

target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_standalone() -> None:
    from pokerroom.store.db import Database

    db = Database()
    async with db.write() as conn:
        await conn.run_sync(_run)
    await db.dispose()


connection = context.config.attributes.get("connection")
if context.is_offline_mode():
    raise RuntimeError("offline (--sql) migrations are not supported")
elif connection is not None:
    _run(connection)
else:
    asyncio.run(_run_standalone())
