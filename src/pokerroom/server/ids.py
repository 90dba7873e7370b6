"""Typed ids of the server, converted in one place.

The store numbers players (``int``); the pure ``rooms`` layer keys them by an opaque string. In the
server a player is a :data:`PlayerKey` (the decimal store id, which is also the id the protocol shows);
:func:`store_id` and :func:`player_key` are the only conversions between the two. Tables and entries are
named by the rooms that own them (a tournament table knows its number, a Rush entry its number): the
server never takes an id string apart to find what it names.
"""

from __future__ import annotations

from typing import NewType

__all__ = ["PlayerKey", "player_key", "store_id"]

PlayerKey = NewType("PlayerKey", str)


def player_key(player_id: int) -> PlayerKey:
    """The rooms' key of the store's player ``player_id``."""
    return PlayerKey(str(player_id))


def store_id(player: str) -> int:
    """The store's id of the player the rooms know as ``player``."""
    return int(player)
