"""A tournament's lobby chat (issue 35, "Tournament chat"; docs/tournaments.md, "Lobby chat"), through
the protocol: its entrants and whoever follows its page (``tournament_follow``) read it; who may write is
the operator's ``lobby_chat`` (``off``: ``chat_off``; ``players``: its entrants, ``not_playing`` for a
follower; ``everyone``: any logged-in follower). The room's moderation applies as at a table
(server/integrity/chat.py): the word filter, the chat log (channel ``<id>-lobby``), the staff's mute
(``chat_muted``), a player's own mute (the line without its text), reports by line number.

On the server's harness (tests/server/harness.py): a two-seat sit-and-go of bots, a follower, a stranger."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerroom.engine import ConfigError
from pokerroom.rooms import Timing
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.room import RoomSettings
from pokerroom.server.schedule import ScheduleError, tournament_from_dict
from pokerroom.server.tournament.lobby import lobby_channel

from .harness import Client, Harness

CLOCK = Timing(action=30.0, time_bank=5.0, between_hands=5.0, disconnect_grace=30)


async def lobby(tmp_path: Path, setting: str) -> tuple[Harness, str, list[Client], Client, Client]:
    cfg = TournamentConfig(
        "hu", "Heads-up", kind="sng", max_players=2, buy_in=100, level_minutes=10, timing=CLOCK,
        lobby_chat=setting,
    )  # fmt: skip
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(cfg,)), seed=3)
    actor = next(a for a in h.room.tournaments.values() if a.series == "hu")
    bots = [await h.tournament_bot(f"tbot{i + 1}", actor.tid, "caller", seed=i) for i in range(2)]
    await h.run(lambda: bool(actor.director.tables), seconds=60)
    follower = await h.login("follower")
    stranger = await h.login("stranger")  # logged in, never opens the page
    await h.send(follower, {"type": "tournament_follow", "tournament": actor.tid, "ref": "f1"})
    await h.run(lambda: follower.reply("f1") is not None, seconds=10)
    assert (follower.reply("f1") or {}).get("type") == "ack"
    return h, actor.tid, bots, follower, stranger


def lines(c: Client, name: str) -> list[dict[str, object]]:
    return [f for f in c.frames if f["type"] == "tournament_chat" and f.get("from") == name]


async def say(h: Harness, c: Client, tid: str, text: str, listener: Client) -> dict[str, object] | None:
    """Say ``text`` in the lobby chat: the error that refused it, or None once it was acknowledged and
    ``listener`` has the line."""
    ref = f"say-{len(c.frames)}"
    await h.send(c, {"type": "tournament_chat", "tournament": tid, "text": text, "ref": ref})
    await h.run(lambda: c.reply(ref) is not None, seconds=10)
    reply = c.reply(ref)
    assert reply is not None
    if reply["type"] == "error":
        return reply
    await h.run(lambda: bool(lines(listener, c.name)), seconds=10)
    return None


@pytest.mark.asyncio
@pytest.mark.parametrize("setting", ["off", "players", "everyone"])
async def test_the_operators_lobby_chat_setting_decides_who_writes(tmp_path: Path, setting: str) -> None:
    h, tid, bots, follower, stranger = await lobby(tmp_path, setting)
    try:
        await h.store.chat.set_words(["darn"])
        entrant = await say(h, bots[0], tid, "darn, good luck", follower)
        watching = await say(h, follower, tid, "darn, have fun", bots[1])
        channel = lobby_channel(tid)
        if setting == "off":
            assert entrant is not None and watching is not None
            assert entrant["code"] == watching["code"] == "chat_off"
            assert await h.store.chat.search(table=channel) == []
            return
        assert entrant is None
        for reader in (bots[1], follower, bots[0]):  # every entrant and every follower, masked
            [line] = lines(reader, bots[0].name)
            assert line["text"] == "****, good luck" and line["tournament"] == tid and line["line"]
        assert lines(stranger, bots[0].name) == []  # not following: nothing
        if setting == "players":
            assert watching is not None and watching["code"] == "not_playing"
            assert [x.name for x in await h.store.chat.search(table=channel)] == [bots[0].name]
        else:
            assert watching is None and [x["text"] for x in lines(bots[1], "follower")] == ["****, have fun"]
            logged = {x.name: x.text for x in await h.store.chat.search(table=channel)}
            assert logged == {bots[0].name: "darn, good luck", "follower": "darn, have fun"}, "the chat log"
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_the_lobby_chat_is_moderated_as_a_tables(tmp_path: Path) -> None:
    """The staff's mute refuses a line (``chat_muted``), nothing logged; a player who muted the speaker
    gets the line without its text; a follower who left the page gets no more lines; a line is reported
    by its number as a table's."""
    h, tid, bots, follower, stranger = await lobby(tmp_path, "everyone")
    try:
        assert follower.player is not None and bots[0].player is not None and stranger.player is not None
        await h.store.chat.mute(follower.player.id, bots[0].player.id, by_name="follower")
        assert await say(h, bots[0], tid, "hello all", bots[1]) is None
        await h.run(lambda: bool(lines(follower, bots[0].name)), seconds=10)
        assert lines(follower, bots[0].name) == [
            {"type": "tournament_chat", "tournament": tid, "from": bots[0].name, "text": "", "muted": True}
        ]
        [line] = lines(bots[1], bots[0].name)
        assert line["text"] == "hello all"
        reported = await h.store.chat.line(int(str(line["line"])))
        assert reported is not None and reported.table_id == lobby_channel(tid)
        await h.store.chat.mute(None, stranger.player.id, by_name="staff")  # the room's mute
        refused = await say(h, stranger, tid, "spam", bots[1])
        assert refused is not None and refused["code"] == "chat_muted"
        assert [x.name for x in await h.store.chat.search(table=lobby_channel(tid))] == [bots[0].name]
        await h.send(follower, {"type": "tournament_follow", "tournament": tid, "follow": False, "ref": "f2"})
        await h.run(lambda: follower.reply("f2") is not None, seconds=10)
        assert await say(h, bots[1], tid, "gg", bots[0]) is None
        assert lines(follower, bots[1].name) == []  # left the page: no more lines
        empty = await say(h, bots[1], tid, "\u0007", bots[0])
        assert empty is not None and empty["code"] == "empty_chat"
        await h.send(bots[0], {"type": "tournament_chat", "tournament": "nope", "text": "hi", "ref": "u1"})
        await h.run(lambda: bots[0].reply("u1") is not None, seconds=10)
        assert (bots[0].reply("u1") or {}).get("code") == "unknown_tournament"
    finally:
        await h.close()


def test_lobby_chat_is_configured_next_to_table_chat_and_checked() -> None:
    """``lobby_chat`` in a ``[[tournament]]`` (or the console's fields): one of off, players, everyone."""
    base = {"id": "x", "name": "X", "kind": "sng", "max_players": 2, "buy_in": 100}
    assert tournament_from_dict({**base, "lobby_chat": "everyone"}).lobby_chat == "everyone"
    assert tournament_from_dict(base).lobby_chat == "players"
    with pytest.raises((ScheduleError, ConfigError), match="lobby_chat"):
        tournament_from_dict({**base, "lobby_chat": "loud"})
