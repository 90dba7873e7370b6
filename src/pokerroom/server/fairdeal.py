"""The deal no one chooses (docs/fairness.md "The seeds", RULES.md §11.4, R262).

For each dealing place (a cash or tournament table, a Rush pool: its ``key``) the :class:`FairDealer`
holds the server seed of the next hand there, drawn from the room's randomness before anybody may
contribute, and publishes its commitment (``SHA-256(server seed)``: the ``next_seed`` of the previous
hand's ``hand_started`` and of a snapshot). A player's client answers with a ``contribute`` message (32
random bytes bound to that commitment); the hand uses whatever arrived before its deal (the deal never
waits), a server-fixed default for a player who sent nothing, and ``deal_order(combined seed)`` for its
deck (:mod:`pokerroom.history.seeds`). Then the key draws its next seed.

:class:`DealingRandom` is the room's injected randomness with this dealer behind it: the rooms ask it for
a hand's deck through :func:`pokerroom.rooms.deal_deck`, as they ask it for any other draw.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from pokerroom.cards import DeckSpec, RandomSource
from pokerroom.engine import ListDeck
from pokerroom.history import SeedPart
from pokerroom.history.seeds import combined_seed, dealt_orders, seed_commitment, seed_part
from pokerroom.server.errors import Refused

__all__ = ["DealingRandom", "Dealt", "FairDealer"]

_HEX64 = re.compile(r"[0-9a-f]{64}\Z")
SEED_BYTES = 32


class Dealt(NamedTuple):
    """What a hand was dealt from: its seeds, and the next seed's commitment at its place ``key``."""

    part: SeedPart
    next_seed: str
    key: str


class FairDealer:
    """Pending server seeds and the contributions sent for them, by dealing place (bounded)."""

    LIMIT = 10_000  # places remembered; contributions per place

    def __init__(self, entropy: Callable[[int], bytes]) -> None:
        self._entropy = entropy
        self._seeds: dict[str, bytes] = {}
        self._sent: dict[str, dict[str, bytes]] = {}  # key -> player -> contribution for its seed
        self._dealt: dict[str, Dealt] = {}  # hand id -> its seeds, the next seed at its place

    def commitment(self, key: str) -> str:
        """The commitment of the next hand's server seed at ``key`` (drawn now if there is none)."""
        seed = self._seeds.get(key)
        if seed is None:
            seed = self._seeds[key] = self._entropy(SEED_BYTES)
            if len(self._seeds) > self.LIMIT:
                gone = next(iter(self._seeds))
                del self._seeds[gone]
                self._sent.pop(gone, None)
        return seed_commitment(seed)

    def contribute(self, key: str, player: str, seed: str, value: str) -> None:
        """A player's contribution for the seed ``seed`` of ``key``; :class:`Refused` (``stale_seed``)
        when that is not the seed of the next hand there (it was dealt, or never published)."""
        if not _HEX64.match(value) or not _HEX64.match(seed):
            raise Refused("invalid_field", "seed and value must be 64 lowercase hex digits")
        pending = self._seeds.get(key)
        if pending is None or seed_commitment(pending) != seed:
            raise Refused(
                "stale_seed", "that seed is not the next hand's here any more: send one for the new seed"
            )
        sent = self._sent.setdefault(key, {})
        if player in sent or len(sent) < self.LIMIT:
            sent[player] = bytes.fromhex(value)

    def deck(
        self, key: str, hand_id: str, spec: DeckSpec, reshuffle: bool, players: Mapping[int, str]
    ) -> ListDeck:
        """The deck of the hand ``hand_id`` dealt now at ``key`` to ``players`` (seat -> player id); the
        key's seed is then spent, and the next one drawn."""
        self.commitment(key)
        server = self._seeds.pop(key)
        sent = self._sent.pop(key, {})
        mine = {seat: sent[p] for seat, p in players.items() if p in sent}
        part = seed_part(server, hand_id, list(players), mine)
        cards, again = dealt_orders(combined_seed(server, hand_id, part.contributions), spec, reshuffle)
        self._dealt[hand_id] = Dealt(part, self.commitment(key), key)
        if len(self._dealt) > self.LIMIT:
            del self._dealt[next(iter(self._dealt))]
        return ListDeck(cards, spec, again)

    def seeds_of(self, hand_id: str) -> Dealt | None:
        """The seeds a hand was dealt from and the next seed at its place (for its seal), once."""
        return self._dealt.pop(hand_id, None)


class DealingRandom:
    """The room's randomness (``base``: ``secrets.SystemRandom`` in production, a seeded generator in
    tests) with the dealer behind its decks. Every other draw goes to ``base``."""

    def __init__(self, base: RandomSource, dealer: FairDealer | None = None) -> None:
        self.base = base
        self.dealer = dealer if dealer is not None else FairDealer(_bytes_of(base))

    def deal(
        self, key: str, hand_id: str, spec: DeckSpec, reshuffle: bool, players: Mapping[int, str]
    ) -> ListDeck:
        return self.dealer.deck(key, hand_id, spec, reshuffle, players)

    def randrange(self, stop: int, /) -> int:
        return self.base.randrange(stop)

    def __getattr__(self, name: str) -> Any:
        if name in ("base", "dealer"):  # (not set yet: a copy being made)
            raise AttributeError(name)
        return getattr(self.base, name)


def _bytes_of(rng: RandomSource) -> Callable[[int], bytes]:
    """``n`` random bytes from ``rng`` (``getrandbits``: the OS's CSPRNG for ``secrets.SystemRandom``)."""
    bits = getattr(rng, "getrandbits", None)
    if bits is not None:
        return lambda n: int(bits(8 * n)).to_bytes(n, "big")
    return lambda n: bytes(rng.randrange(256) for _ in range(n))
