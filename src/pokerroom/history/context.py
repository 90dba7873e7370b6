"""The context a hand history needs beyond the engine (:class:`HandContext`), a tournament's details
(:class:`TournamentInfo`) and a forced bet other than an ante (:class:`Post`).

Exported by ``pokerroom.history`` and :mod:`pokerroom.history.model`; a module of their own so that the
compiled :mod:`pokerroom.history.hand` can name them without importing the model, which imports it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from pokerroom.history.deckproof import DeckProof
from pokerroom.history.errors import HistoryError

__all__ = ["HandContext", "Post", "TournamentInfo"]


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """A tournament hand: its id and name, buy-in and fee (minor units of ``currency``), level, and the
    tournament's global number (the store's, for the PokerStars header ``Tournament #number``)."""

    tournament_id: str
    name: str = ""
    buy_in: int = 0
    fee: int = 0
    level: int | None = None
    number: int | None = None


def _is_power_of_ten(n: int) -> bool:
    while n > 1 and n % 10 == 0:
        n //= 10
    return n == 1


@dataclass(frozen=True, slots=True)
class HandContext:
    """What a hand history needs beyond the engine: names, time, table and money display.

    ``time`` is an aware datetime supplied by the caller (the history layer never reads a clock).
    ``players`` maps seat numbers to names. ``hand_number`` is the hand's global number (the store's;
    PokerStars-style text writes it, trackers need digits), ``hand_id`` the table's own id (kept in PHH).
    ``proof``: the hand's deck proof, the hand being over: the full opening (the audit copy writes it all;
    a player's copy only his openings: docs/fairness.md).
    ``currency`` is an ISO 4217 code ("USD"), empty for play
    money and tournament chips; ``minor_units`` is how many engine units make one currency unit (100
    when the engine counts cents); PHH amounts are written in currency units. ``stakes`` is an optional
    display text ("$0.05/$0.10"); ``time_zone_label`` the zone shown in the PokerStars header ("ET").
    ``mix``: the name of the mix a hand of a mixed table belongs to ("H.O.R.S.E.", RULES.md §11.1); the
    hand's own game is the hand's.
    """

    hand_id: str = ""
    table: str = ""
    time: dt.datetime | None = None
    players: Mapping[int, str] = field(default_factory=dict)
    currency: str = ""
    currency_symbol: str = ""
    minor_units: int = 1
    seat_count: int | None = None
    stakes: str = ""
    tournament: TournamentInfo | None = None
    event: str = ""
    venue: str = ""
    time_zone_label: str = ""
    hand_number: int | None = None
    proof: DeckProof | None = None
    mix: str = ""

    def __post_init__(self) -> None:
        for n in (self.hand_number, self.tournament.number if self.tournament else None):
            if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 0):
                raise HistoryError(
                    "hand and tournament numbers are non-negative integers", field="hand_number"
                )
        if self.time is not None and (self.time.tzinfo is None or self.time.utcoffset() is None):
            raise HistoryError("the hand time must be an aware datetime", field="time")
        if (
            not isinstance(self.minor_units, int)
            or self.minor_units < 1
            or not _is_power_of_ten(self.minor_units)
        ):
            raise HistoryError("minor_units must be a power of ten (1, 10, 100, ...)", field="minor_units")
        object.__setattr__(self, "players", MappingProxyType(dict(self.players)))

    def name_of(self, seat: int) -> str:
        return self.players.get(seat) or f"Seat {seat}"


@dataclass(frozen=True, slots=True)
class Post:
    """A forced bet other than an ante: ``kind`` small_blind, big_blind, straddle, live or dead."""

    player: int  # 1-based PHH player number
    kind: str
    amount: int
