"""Chat at a tournament's tables as the operator sets it (issue 35; ``table_chat``): ``off`` refuses every
line (``chat_off``), ``players`` only those seated there (a watcher gets ``not_seated``), ``everyone`` any
logged-in watcher too; every line goes through the room's moderation (word filter, chat log).

On the server's harness (tests/server/harness.py): a two-seat sit-and-go of bots, a watcher."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerroom.rooms import Timing
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.room import RoomSettings

from .harness import Client, Harness

CLOCK = Timing(action=30.0, time_bank=5.0, between_hands=5.0, disconnect_grace=30)


async def watched(tmp_path: Path, table_chat: str) -> tuple[Harness, str, list[Client], Client]:
    cfg = TournamentConfig(
        "hu", "Heads-up", kind="sng", max_players=2, buy_in=100, level_minutes=10, timing=CLOCK,
        table_chat=table_chat,
    )  # fmt: skip
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(cfg,)), seed=3)
    actor = next(a for a in h.room.tournaments.values() if a.series == "hu")
    bots = [await h.tournament_bot(f"tbot{i + 1}", actor.tid, "caller", seed=i) for i in range(2)]
    await h.run(lambda: bool(actor.director.tables), seconds=60)
    table = next(iter(actor.director.tables.values())).tid
    watcher = await h.login("watcher")
    assert (await h.subscribe(watcher, table))["type"] == "snapshot"
    return h, table, bots, watcher


def said(c: Client, name: str) -> list[str]:
    return [f["text"] for f in c.frames if f["type"] == "chat" and f.get("from") == name]


async def speak(h: Harness, c: Client, table: str, text: str, listener: Client) -> dict[str, object] | None:
    """Say ``text``: the error that refused it, or None once ``listener`` has the line."""
    ref = f"say-{len(c.frames)}"
    await h.send(c, {"type": "chat", "table": table, "text": text, "ref": ref})
    await h.run(lambda: c.reply(ref) is not None or bool(said(listener, c.name)), seconds=10)
    return c.reply(ref)


@pytest.mark.asyncio
@pytest.mark.parametrize("setting", ["off", "players", "everyone"])
async def test_the_operators_table_chat_setting_decides_who_speaks(tmp_path: Path, setting: str) -> None:
    h, table, bots, watcher = await watched(tmp_path, setting)
    try:
        await h.store.chat.set_words(["darn"])
        seated = await speak(h, bots[0], table, "darn, good luck", watcher)
        watching = await speak(h, watcher, table, "darn, nice hand", bots[1])
        if setting == "off":
            assert seated is not None and watching is not None
            assert seated["code"] == watching["code"] == "chat_off"
            assert await h.store.chat.search(table=table) == []
            return
        assert seated is None and said(watcher, bots[0].name) == ["****, good luck"], (
            "the word filter applies"
        )
        if setting == "players":
            assert watching is not None and watching["code"] == "not_seated"
            assert [x.name for x in await h.store.chat.search(table=table)] == [bots[0].name]
        else:
            assert watching is None and said(bots[1], "watcher") == ["****, nice hand"]
            logged = {x.name: x.text for x in await h.store.chat.search(table=table)}
            assert logged == {bots[0].name: "darn, good luck", "watcher": "darn, nice hand"}, (
                "in the chat log"
            )
    finally:
        await h.close()
