"""Data of the history layer: the context a writer needs, and a parsed PHH hand."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from pokerroom.cards import Card
from pokerroom.engine import Betting, RakeRule, VariantSpec
from pokerroom.history.action import PhhAction  # (compiled with the reader: history/action.py)
from pokerroom.history.deckproof import DeckProof
from pokerroom.history.errors import HistoryError

__all__ = [
    "HandContext",
    "LegacyProof",
    "PhhAction",
    "PhhHand",
    "Post",
    "TournamentInfo",
    "deck_commitment",
]


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


def deck_commitment(deck_text: str, salt: str) -> str:
    """The commitment of the first proof format (docs/fairness.md, "Histories of before issue 34"), kept
    for the hand journal's own record of a deck and for checking old histories.

    ``SHA-256(salt + ":" + deck_text)`` over UTF-8, as 64 lowercase hex digits. ``deck_text`` is the deck
    as the room committed to it (the canonical JSON of the engine's deck: its cards in dealing order and
    the order of a reshuffle); the salt stays secret until the hand is over, so nobody can search the
    orders of the deck for the hash during the hand, yet anybody can check it afterwards."""
    if not isinstance(deck_text, str) or not isinstance(salt, str):
        raise TypeError("deck_text and salt must be str")
    if not salt:
        raise ValueError("the salt must not be empty")
    return hashlib.sha256(f"{salt}:{deck_text}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class LegacyProof:
    """The whole-deck proof of histories written before issue 34 (PHH ``_deck_commitment``,
    ``_deck_salt``, ``_deck``): checked by ``pokerroom verify``, never written any more (it gave every
    player the folded hands: RULES.md R184)."""

    commitment: str
    salt: str = field(repr=False)
    deck: str = field(repr=False)

    def holds(self) -> bool:
        """Do the salt and the deck hash to the commitment?"""
        return deck_commitment(self.deck, self.salt) == self.commitment.lower()


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


@dataclass(frozen=True, slots=True)
class PhhHand:
    """A PHH hand, checked and converted to minor units (``scale`` units per PHH amount unit).

    Per-player tuples are in PHH order (p1 first). ``seats`` are the engine seats of the players,
    ``button`` the engine button (``None`` in stud). ``unknown_stacks`` lists the players whose starting
    stack was ``inf``. ``fields`` keeps the whole TOML table as read (decimals as :class:`Decimal`).
    """

    variant: VariantSpec
    betting: Betting
    variant_field: str
    scale: int
    chip_unit: int
    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    bring_in: int
    small_bet: int
    big_bet: int
    min_bet: int
    starting_stacks: tuple[int, ...]
    unknown_stacks: tuple[int, ...]
    actions: tuple[PhhAction, ...]
    seats: tuple[int, ...]
    button: int | None
    posts: tuple[Post, ...] | None
    dead: tuple[int, ...]
    rake_rule: RakeRule | None
    rake: int | None
    cap: int
    heads_up_uncapped: bool
    finishing_stacks: tuple[int, ...] | None
    winnings: tuple[int, ...] | None
    players: tuple[str, ...]
    context: HandContext
    fields: Mapping[str, Any]
    name: str | None = None
    # Run it twice (R-RIT): the table allowed it (``_run_it_twice``), and the players' answers in order
    # as (player, runout count 1 or 2) (``_runout_count_selections``).
    run_it_twice: bool = False
    runout_selections: tuple[tuple[int, int], ...] = ()
    # A bomb pot (RULES.md §11.2, ``_bomb_pot``): antes only, no betting before the flop.
    bomb_pot: bool = False

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    def seat_of(self, player: int) -> int:
        return self.seats[player - 1]

    def player_of(self, seat: int) -> int:
        return self.seats.index(seat) + 1


@dataclass(frozen=True)
class HistoryCards:
    """The cards a history names, by where they went (the deck proofs' walks compare them with the deck):
    each seat's hole cards in order (``None`` for a hidden one), the board in order, the cards each seat
    showed, and whether a discard was written hidden."""

    hole: dict[int, list[Card | None]]
    board: list[Card | None]
    shown: dict[int, set[Card]]
    hidden_discards: bool


def history_cards(hand: PhhHand) -> HistoryCards:
    """The cards ``hand``'s actions name (:class:`HistoryCards`)."""
    hole: dict[int, list[Card | None]] = {}
    board: list[Card | None] = []
    shown: dict[int, set[Card]] = {}
    hidden_discards = False
    for a in hand.actions:
        if a.verb == "dh" and a.actor is not None:
            hole.setdefault(hand.seat_of(a.actor), []).extend(a.cards)
        elif a.verb == "db":
            board.extend(a.cards)
        elif a.verb == "sm" and a.actor is not None and a.show:
            shown.setdefault(hand.seat_of(a.actor), set()).update(c for c in a.cards if c is not None)
        elif a.verb == "sd" and any(c is None for c in a.cards):
            hidden_discards = True
    return HistoryCards(hole, board, shown, hidden_discards)
