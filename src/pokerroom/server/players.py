"""The connected players: each player's connections, and frames for one player wherever he watches."""

from __future__ import annotations

from collections.abc import Iterable

import orjson

from pokerroom.server.connection import Connection, Head
from pokerroom.server.ids import PlayerKey, store_id
from pokerroom.store import Ledger

__all__ = ["Players"]


class Players:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self._by_player: dict[PlayerKey, set[Connection]] = {}

    def add(self, conn: Connection) -> bool:
        """Register a logged-in connection; True if it is the player's first."""
        assert conn.player is not None
        conns = self._by_player.setdefault(conn.player, set())
        first = not conns
        conns.add(conn)
        return first

    def remove(self, conn: Connection) -> bool:
        """Forget a connection; True if it was the player's last."""
        if conn.player is None:
            return False
        conns = self._by_player.get(conn.player)
        if conns is None or conn not in conns:
            return False
        conns.discard(conn)
        if conns:
            return False
        del self._by_player[conn.player]
        return True

    def connected(self, player: str) -> bool:
        return player in self._by_player

    def connections(self, player: str) -> set[Connection]:
        return set(self._by_player.get(PlayerKey(player), ()))

    def count(self) -> int:
        return len(self._by_player)

    def notify(
        self, player: str, text: str, exclude: Iterable[Connection] = (), head: Head | None = None
    ) -> None:
        """Send ``text`` (with its ``head``, if it is a table frame) to every connection of ``player``
        (but those in ``exclude``)."""
        conns = self._by_player.get(PlayerKey(player))
        if not conns:
            return
        skip = set(exclude)
        for conn in list(conns):
            if conn not in skip:
                conn.send(text, head)

    async def send_balance(self, player: str, currency: str) -> None:
        """Tell a connected player his wallet balance in ``currency`` (after a buy-in, cash-out, prize)."""
        if PlayerKey(player) not in self._by_player:
            return
        amount = await self.ledger.balance(store_id(player), currency)
        text = orjson.dumps({"type": "balance", "currency": currency, "amount": amount}).decode()
        self.notify(player, text)
