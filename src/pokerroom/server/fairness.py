"""Every hand's deck proof (docs/fairness.md): sealed when the hand starts, opened per viewer when it is over.

A :class:`DeckSeal` is made for each hand (cash, Rush, sit-and-go, tournament) before its first frame
goes out: each position of the deck the engine deals from is committed with its own secret salt
(``secrets``), under one root (:class:`pokerroom.history.DeckProof`). The root is public from the start
(the ``hand_started`` event's ``commitment``, the snapshot's hand); the openings stay in this process
until the hand is over, then each player dealt in gets those of the cards he may see (his own, the board,
the hands shown or mucked at the showdown: never a hand folded before it, R184), in the
``deck_revealed`` frame and his hand histories. Observers get the root only. The full opening (every
position) goes only into the audit history, which stays on the server.

:class:`Seals` keeps the seals of the hands in play in this process, by hand id: whoever needs a hand's
seal (the journal's book, the table core, the snapshot, the histories) finds the same one.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import orjson

from pokerroom.engine import HandState
from pokerroom.engine.events import Event
from pokerroom.history import DeckProof, deck_commitment
from pokerroom.server.fairdeal import Dealt, FairDealer

__all__ = ["DeckSeal", "Seals"]


class DeckSeal:
    """One hand's root, and its secret (the openings) until the hand is over.

    ``salt``, ``deck_text`` and ``journal_commitment`` are the hand journal's own record of the deck
    (``SHA-256(salt:deck)``, docs/store.md), which stays on the server: a crashed hand is replayed from
    it. ``commitment`` is the root the players see."""

    __slots__ = (
        "commitment", "deck_text", "hand_id", "journal_commitment", "next_seed", "opening", "salt", "seed_at"
    )  # fmt: skip

    def __init__(
        self,
        hand: HandState,
        salt: str | None = None,
        *,
        draw: Callable[[], str] | None = None,
        seeds: Dealt | None = None,
        stub: bool = False,
    ) -> None:
        self.hand_id = hand.hand_id
        data = hand.deck_data()
        self.salt = salt if salt is not None else secrets.token_hex(16)
        self.deck_text = orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode()
        self.journal_commitment = deck_commitment(self.deck_text, self.salt)
        # (the deck's data holds its cards as ``format_cards`` writes them: the canonical texts a proof
        # commits to, space-separated)
        cards = data["cards"].split()
        again = data["reshuffle"].split() if hand.variant.is_draw else None
        # (``seeds``: the hand's seeds and the next seed at its place, when it was dealt from seeds:
        # server/fairdeal.py; a deck the room shuffled itself has none)
        fresh = draw or _fresh_salts(len(cards) + len(again or ()))
        self.opening = DeckProof.seal(cards, again, seed=seeds.part if seeds else None, salt=fresh, stub=stub)
        self.commitment = self.opening.root
        self.next_seed: str | None = seeds.next_seed if seeds else None
        self.seed_at: str | None = seeds.key if seeds else None  # (where to contribute to it)

    def proof(self) -> DeckProof:
        """The full opening: only for the hand's audit history (server side), once the hand is over."""
        return self.opening

    def revealed(self, table_id: str, events: list[Event] | tuple[Event, ...], seat: int) -> dict[str, Any]:
        """The ``deck_revealed`` frame (docs/protocol.md) of the player at ``seat``, after the hand."""
        return self.revealed_to(table_id, events, (seat,))[seat]

    def revealed_to(
        self, table_id: str, events: list[Event] | tuple[Event, ...], seats: Iterable[int]
    ) -> dict[int, dict[str, Any]]:
        """The ``deck_revealed`` frame of each of ``seats``, from one walk over the hand's events."""
        return {
            seat: {
                "type": "deck_revealed",
                "table": table_id,
                "hand_id": self.hand_id,
                "commitment": self.commitment,
                "proof": proof.to_text(),
            }
            for seat, proof in self.opening.for_viewers(events, seats).items()
        }

    def __repr__(self) -> str:  # never a salt or the deck
        return f"DeckSeal({self.hand_id!r}, {self.commitment})"


def _fresh_salts(count: int) -> Callable[[], str]:
    """``count`` fresh salts of 32 hex digits from the system's CSPRNG (``secrets``), drawn in one call
    rather than one per position (each a system call), handed out in turn."""
    text = secrets.token_hex(16 * count)
    return iter([text[i : i + 32] for i in range(0, 32 * count, 32)]).__next__


class Seals:
    """The seals of the hands in play, by hand id (bounded: a hand voided by a store fault and never
    finished does not stay forever)."""

    LIMIT = 10_000

    def __init__(self, dealer: FairDealer | None = None, open_stub: Callable[[], bool] | None = None) -> None:
        self._by_hand: dict[str, DeckSeal] = {}
        self.dealer = dealer  # (the room's: the seeds of the hands it deals)
        self.open_stub = open_stub or (lambda: False)  # ([fairness] open_stub: the room's setting now)

    def of(self, hand: HandState) -> DeckSeal:
        """The seal of ``hand``, made now if it has none (before its first frame goes out)."""
        seal = self._by_hand.get(hand.hand_id)
        if seal is None:
            seeds = self.dealer.seeds_of(hand.hand_id) if self.dealer is not None else None
            seal = self._by_hand[hand.hand_id] = DeckSeal(hand, seeds=seeds, stub=self.open_stub())
            if len(self._by_hand) > self.LIMIT:
                del self._by_hand[next(iter(self._by_hand))]
        return seal

    def get(self, hand_id: str) -> DeckSeal | None:
        return self._by_hand.get(hand_id)

    def done(self, hand_id: str) -> DeckSeal | None:
        """The hand is over (its proof is out): forget its seal."""
        return self._by_hand.pop(hand_id, None)

    def stamp(self, state: dict[str, Any] | None) -> dict[str, Any] | None:
        """A snapshot's state with its hand's commitment (``state.hand.commitment``)."""
        hand = state.get("hand") if state is not None else None
        if isinstance(hand, dict):
            seal = self._by_hand.get(hand.get("hand_id", ""))
            hand["commitment"] = seal.commitment if seal is not None else None
            hand["next_seed"] = seal.next_seed if seal is not None else None
            hand["seed_at"] = seal.seed_at if seal is not None else None
        return state

    def reveal(
        self,
        hand_id: str,
        table_id: str,
        players: Mapping[int, tuple[str, str]],
        events: list[Event] | tuple[Event, ...],
        notify: Any,
    ) -> DeckProof | None:
        """The hand is over: send each player dealt in (``players``: seat -> (player id, name)) his
        ``deck_revealed`` frame (``notify(player, text)``) and forget the seal; the full opening for the
        records, or None if the hand had no seal."""
        seal = self.done(hand_id)
        if seal is None:
            return None
        for seat, frame in seal.revealed_to(table_id, events, players).items():
            notify(players[seat][0], orjson.dumps(frame).decode())
        return seal.proof()
