"""A tournament's lobby chat (issue 35; docs/tournaments.md, "Lobby chat"): the chat of its page, read by
its entrants and by whoever follows the page (``tournament_follow``), written as the operator's
``lobby_chat`` allows: ``off`` (none: ``chat_off``), ``players`` (its entrants, a player still in or out:
others get ``not_playing``) or ``everyone`` (any logged-in follower). Every line goes through the room's
moderation as a table's does (server/integrity/chat.py: the staff's mutes, the word filter, the chat
log under the channel ``lobby_channel(tid)``, reports of a line by its number, a player's own mutes)."""

from __future__ import annotations

from collections.abc import Callable, Collection

import orjson

from pokerroom.server.cash import chat_text, login_of
from pokerroom.server.connection import Connection
from pokerroom.server.errors import Refused
from pokerroom.server.ids import PlayerKey
from pokerroom.server.services import Services

__all__ = ["LobbyChat", "lobby_channel"]

MAX_FOLLOWERS = 10_000  # connections following one tournament's page (a bound on memory)


def lobby_channel(tid: str) -> str:
    """The chat log's channel of a tournament's lobby chat (at most 64 characters, as a table's id)."""
    return f"{tid[:58]}-lobby"


class LobbyChat:
    """The lobby chat of one tournament (held by its actor; called in its task)."""

    def __init__(
        self,
        tid: str,
        services: Services,
        setting: Callable[[], str],
        entrants: Callable[[], Collection[str]],
    ) -> None:
        self.tid = tid
        self.services = services
        self._setting = setting  # the tournament's lobby_chat, read at each line
        self._entrants = entrants  # its entrants' player keys
        self.followers: set[Connection] = set()

    def follow(self, conn: Connection, on: bool) -> None:
        """``conn`` opened (``on``) or left the tournament's page."""
        self.followers = {c for c in self.followers if not c.closed}
        if not on:
            self.followers.discard(conn)
        elif len(self.followers) < MAX_FOLLOWERS:
            self.followers.add(conn)

    async def say(self, conn: Connection, text: str) -> None:
        """A line from ``conn``: checked against the setting, moderated, sent to every reader."""
        player = login_of(conn)
        clean = chat_text(text)
        setting = self._setting()
        entrants = set(self._entrants())
        if setting == "off":
            raise Refused("chat_off", "the lobby chat of this tournament is off")
        if setting == "players" and player not in entrants:
            raise Refused("not_playing", "only the tournament's players may write in its lobby chat")
        head: dict[str, object] = {"type": "tournament_chat", "tournament": self.tid, "from": conn.name}
        desk = self.services.chat
        if desk is None:  # (a test's bare services: no moderation)
            line, muters = {**head, "text": clean}, set[PlayerKey]()
        else:
            shown, number, muters = await desk.line(conn, lobby_channel(self.tid), clean)
            line = {**head, "text": shown, "line": number}
        full = orjson.dumps(line).decode()
        stub = orjson.dumps({**head, "text": "", "muted": True}).decode()
        for p in entrants:
            self.services.players.notify(p, stub if p in muters else full)
        for c in list(self.followers):
            if c.closed:
                self.followers.discard(c)
            elif c.player is None or c.player not in entrants:  # (an entrant has it already)
                c.send(stub if c.player in muters else full)
