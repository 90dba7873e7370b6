"""Issue 34, defect 3: registering a house bot's name took over that bot's seat. The room's bots log in
through ``Accounts.service_account(name)``, which returned any account of that name, and bot names are
predictable (``bot-t0-1``, ...): a player who registered ``bot-t0-1`` before the room made that bot got the
bot's seat on his account (a buy-in from his wallet, the seat's hole cards and turns on his session).

Now the room's bots are service accounts, marked as such in the store (``players.kind``): registration
refuses the names kept for them (``bot-...``), and ``service_account`` never hands out a player's account
(an account of that name made before the names were kept stays his, and that bot is not started)."""

from __future__ import annotations

import logging
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select, update

from pokerroom.cli.serve import RoomBots
from pokerroom.rooms import Timing
from pokerroom.server.config import BotPlan
from pokerroom.server.demo import demo_tables
from pokerroom.server.room import RoomSettings
from pokerroom.store import PLAY, ReservedName, ServiceNameTaken, Store
from pokerroom.store.accounts import name_key
from pokerroom.store.models import AuthSessionRow, PlayerRow
from tests.waiting import until

from .conftest import serve_room
from .wire import PASSWORD

pytestmark = pytest.mark.asyncio
CLOCK = Timing(action=3.0, time_bank=0.0, between_hands=0.05, disconnect_grace=600, sit_out_limit=3600)


async def _sessions_of(store: Store, player_id: int) -> int:
    async with store.db.read() as conn:
        q = select(func.count()).select_from(AuthSessionRow).where(AuthSessionRow.player_id == player_id)
        return int((await conn.execute(q)).scalar_one())


async def _an_old_account_named(store: Store, name: str) -> int:
    """A player's account called ``name``, as one registered before bot names were kept could be."""
    player = await store.accounts.register("oldtimer", PASSWORD)
    async with store.db.write() as conn:
        await conn.execute(
            update(PlayerRow).where(PlayerRow.id == player.id).values(name=name, name_key=name_key(name))
        )
    await store.ledger.play_money_top_up(player.id, idempotency_key=f"welcome:{player.id}")
    return player.id


async def test_a_bots_name_cannot_be_registered(tmp_path: Path) -> None:
    tables = demo_tables(CLOCK, games=("holdem",))[:1]
    settings = RoomSettings(tables=tuple(tables))
    async with serve_room(tmp_path, settings) as s, httpx.AsyncClient(base_url=s.url, timeout=30) as http:
        for name in ("bot-t0-1", "BOT-t0-1", "bot-p3-2", "bot-anything"):
            r = await http.post("/api/register", json={"name": name, "password": PASSWORD})
            assert r.status_code == 409, r.text
            assert r.json()["code"] == "reserved_name"
        assert await s.room.store.accounts.count() == 0  # nothing was made
        # a name that only looks a little like one is fine
        r = await http.post("/api/register", json={"name": "bot1", "password": PASSWORD})
        assert r.status_code == 200, r.text


async def test_the_room_never_seats_its_bot_on_a_players_account(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    tables = demo_tables(CLOCK, games=("holdem",))[:1]
    table = tables[0].table_id
    async with serve_room(tmp_path, RoomSettings(tables=tuple(tables))) as s:
        store = s.room.store
        mine = await _an_old_account_named(store, "bot-t0-1")
        wallet = await store.ledger.balance(mine, PLAY)
        bots = RoomBots(s.url, store, s.room)
        plan = BotPlan(tables={table: 2}, think=(0.0, 0.05), strategies=("caller",))
        try:
            with caplog.at_level(logging.WARNING, logger="pokerroom.bots"):
                await bots.seat(plan)
            actor = s.room.tables[table]
            await until(
                lambda: len(actor.table.free_seats()) <= actor.table.config.seats - len(bots.started),
                timeout=60,
                what="the bots seated",
            )
            # the player's account got no seat, no buy-in from his wallet and no session (so no cards)
            assert await store.ledger.sessions(player_id=mine) == []
            assert await store.ledger.balance(mine, PLAY) == wallet
            assert await _sessions_of(store, mine) == 0
            assert [bot.name for bot, _ in bots.started] == ["bot-t0-2"]
            assert len(actor.table.free_seats()) == actor.table.config.seats - 1
            assert any("bot-t0-1" in r.getMessage() for r in caplog.records)
            with pytest.raises(ServiceNameTaken) as refused:
                await store.accounts.service_account("bot-t0-1")
            assert refused.value.code == "service_name_taken"
            assert (await store.accounts.get(mine)).name == "bot-t0-1"  # still his
            # the bot that did start has a service account of its own
            bot = await store.accounts.find("bot-t0-2")
            assert bot.id != mine and await store.accounts.is_service(bot.id)
            assert not await store.accounts.is_service(mine)
            assert await store.accounts.service_account("bot-t0-2") == bot  # a restart finds it again
        finally:
            bots.stop()


async def test_service_accounts_keep_their_names_from_registration(tmp_path: Path) -> None:
    tables = demo_tables(CLOCK, games=("holdem",))[:1]
    async with serve_room(tmp_path, RoomSettings(tables=tuple(tables))) as s:
        accounts = s.room.store.accounts
        with pytest.raises(ReservedName):
            await accounts.register("bot-t1-1", PASSWORD)
        with pytest.raises(ReservedName):  # a service account outside the kept names is refused too
            await accounts.service_account("robot1")
        bot = await accounts.service_account("bot-t1-1")
        assert await accounts.service_account("BOT-T1-1") == bot
