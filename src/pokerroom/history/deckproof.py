"""A hand's deck proof by positions (docs/fairness.md, RULES.md §11.4): each card of the deck is committed
at its own position with its own salt, under one root published when the hand starts; at the end each
player is given the openings of the positions he may see, and nothing else.

Terms (docs/fairness.md gives the byte-exact definitions):

- **leaf** of position ``i`` of an order (``deck``: the dealing order; ``reshuffle``: a draw game's order
  for a reshuffle of the discards) = ``SHA-256("pokerroom/deck-leaf/v2:" label ":" i ":" card ":" salt)``,
  ``salt`` 32 lowercase hex digits, fresh for each position;
- **seed part**: the server seed's commitment and the players' contributions (the deal no one chooses);
- **root** = ``SHA-256("pokerroom/deck-root/v2:" spec ":" seed part ":" deck leaves ":" reshuffle leaves)``,
  leaves joined by ``,``;
- an **opening** ``[i, card, salt]`` shows the card at position ``i``; a player's proof has every leaf
  (which tell nothing without their salts) and only the openings of his positions; the auditor's full
  opening has them all, and the server seed.

The proof travels as canonical JSON (sorted keys, no spaces, openings by position, lowercase hex): a text
that is not exactly its own canonical encoding is refused (:func:`parse_proof`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import orjson

from pokerroom.cards import Card, DeckSpec, parse_card
from pokerroom.engine.events import (
    BoardDealt,
    Burned,
    CardsDealt,
    CardsShown,
    Discarded,
    Drew,
    Event,
    Mucked,
)
from pokerroom.history.errors import HistoryError

__all__ = [
    "DeckProof",
    "Opening",
    "SeedPart",
    "leaf_hash",
    "parse_proof",
    "root_hash",
]

LEAF_TAG = "pokerroom/deck-leaf/v2"
ROOT_TAG = "pokerroom/deck-root/v2"
VERSION = 2
_HEX64 = re.compile(r"[0-9a-f]{64}\Z")
_SALT = re.compile(r"[0-9a-f]{32}\Z")
_ORIGINS = ("player", "server")
_KEYS = {"v", "spec", "root", "deck", "reshuffle", "seed", "stub"}

Opening = tuple[int, str, str]  # (position, card text, salt)


def leaf_hash(label: str, position: int, card: str, salt: str) -> str:
    """The commitment to one card at one position of the order ``label`` (``deck`` or ``reshuffle``)."""
    return hashlib.sha256(f"{LEAF_TAG}:{label}:{position}:{card}:{salt}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class SeedPart:
    """The seeds of a deal no one chooses: ``commitment`` = SHA-256 of the server seed (published before
    the players contribute); ``contributions`` = (seat, 64 hex digits, ``player`` or ``server``) in seat
    order; ``server_seed`` (64 hex digits) only in the auditor's full opening."""

    commitment: str
    contributions: tuple[tuple[int, str, str], ...]
    server_seed: str | None = field(default=None, repr=False)

    def text(self) -> str:
        """Its part of the root: ``commitment/seat.hex.origin,...``."""
        return self.commitment + "/" + ",".join(f"{s}.{h}.{o}" for s, h, o in self.contributions)

    def to_data(self) -> dict[str, Any]:
        return self.data(_rows)

    def data(self, rows: Callable[[tuple[tuple[Any, ...], ...]], Any]) -> dict[str, Any]:
        """:meth:`to_data`, its contributions made by ``rows`` (``DeckProof._data``)."""
        data: dict[str, Any] = {"commitment": self.commitment, "contributions": rows(self.contributions)}
        if self.server_seed is not None:
            data["server_seed"] = self.server_seed
        return data


def _rows(items: tuple[tuple[Any, ...], ...]) -> list[list[Any]]:
    return [list(item) for item in items]


def _same(items: Any) -> Any:
    return items


def root_hash(spec: int, seed: SeedPart | None, leaves: Sequence[str], reshuffle: Sequence[str]) -> str:
    """The root published when the hand starts (docs/fairness.md)."""
    seed_text = seed.text() if seed is not None else ""
    text = f"{ROOT_TAG}:{spec}:{seed_text}:{','.join(leaves)}:{','.join(reshuffle)}"
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class DeckProof:
    """A hand's deck proof: the ``root``, every leaf, and the openings a viewer may have (all of them in
    the auditor's full opening). ``commitment`` is the root (the value published at the start)."""

    root: str
    spec: int
    leaves: tuple[str, ...] = field(repr=False)
    reshuffle_leaves: tuple[str, ...] = field(repr=False)
    openings: tuple[Opening, ...] = field(repr=False)
    reshuffle_openings: tuple[Opening, ...] = field(repr=False)
    seed: SeedPart | None = field(default=None, repr=False)
    # The operator opens the undealt stub to the players dealt in (``[fairness] open_stub``)
    stub: bool = False

    @property
    def commitment(self) -> str:
        return self.root

    @property
    def full(self) -> bool:
        """Does it open every position (the auditor's copy)?"""
        return len(self.openings) == len(self.leaves) and len(self.reshuffle_openings) == len(
            self.reshuffle_leaves
        )

    @classmethod
    def seal(
        cls,
        cards: Sequence[Card] | Sequence[str],
        reshuffle: Sequence[Card] | Sequence[str] | None,
        *,
        salt: Callable[[], str],
        seed: SeedPart | None = None,
        stub: bool = False,
    ) -> DeckProof:
        """Commit to a deck (``cards`` in dealing order, as cards or their canonical texts;
        ``reshuffle``: a draw game's reshuffle order, or None): a fresh salt from ``salt()`` for each
        position (the server's ``secrets``), every leaf, the root; all opened."""
        draw = salt
        deck = tuple((i, str(c), draw()) for i, c in enumerate(cards))
        again = tuple((i, str(c), draw()) for i, c in enumerate(reshuffle or ()))
        leaves = tuple(leaf_hash("deck", *o) for o in deck)
        rleaves = tuple(leaf_hash("reshuffle", *o) for o in again)
        root = root_hash(len(cards), seed, leaves, rleaves)
        return cls(root, len(cards), leaves, rleaves, deck, again, seed, stub)

    def _opening(self, keep: set[int], rkeep: set[int], seed: SeedPart | None) -> DeckProof:
        """This proof with only the openings of the given positions, and ``seed`` (without the server's)."""
        return DeckProof(
            self.root,
            self.spec,
            self.leaves,
            self.reshuffle_leaves,
            tuple(o for o in self.openings if o[0] in keep),
            tuple(o for o in self.reshuffle_openings if o[0] in rkeep),
            seed,
            self.stub,
        )

    def for_viewer(self, events: Sequence[Event], seat: int) -> DeckProof:
        """The proof of a player dealt in at ``seat``: the positions of the cards his copy of the hand
        shows (:class:`_Sight`), and the undealt stub when the operator allows it (``stub``)."""
        return self.for_viewers(events, (seat,))[seat]

    def for_viewers(self, events: Sequence[Event], seats: Iterable[int]) -> dict[int, DeckProof]:
        """:meth:`for_viewer` of each of ``seats``, from one walk over the events (the server's
        ``deck_revealed`` frames at the end of every hand)."""
        at = {card: i for i, card, _ in self.openings}
        where = {card: i for i, card, _ in self.reshuffle_openings}
        sight = _Sight(events, at, where)
        stub = range(_dealt(events), len(self.leaves)) if self.stub else range(0)
        seed = replace(self.seed, server_seed=None) if self.seed is not None else None
        out: dict[int, DeckProof] = {}
        for seat in seats:
            deck, again = sight.of(seat)
            deck.update(stub)
            out[seat] = self._opening(deck, again, seed)
        return out

    def to_data(self) -> dict[str, Any]:
        return self._data(lists=True)

    def _data(self, *, lists: bool) -> dict[str, Any]:
        """The proof as JSON data: with lists (:meth:`to_data`), or (``lists=False``, for :meth:`to_text`)
        with the proof's own tuples, which orjson writes as the same arrays."""
        flat: Callable[[tuple[Any, ...]], Any] = list if lists else _same
        rows: Callable[[tuple[tuple[Any, ...], ...]], Any] = _rows if lists else _same
        data: dict[str, Any] = {
            "v": VERSION,
            "spec": self.spec,
            "root": self.root,
            "deck": {"leaves": flat(self.leaves), "open": rows(self.openings)},
        }
        if self.reshuffle_leaves:
            data["reshuffle"] = {"leaves": flat(self.reshuffle_leaves), "open": rows(self.reshuffle_openings)}
        if self.seed is not None:
            data["seed"] = self.seed.to_data() if lists else self.seed.data(_same)
        if self.stub:
            data["stub"] = True
        return data

    def to_text(self) -> str:
        """The canonical text (PHH ``_deck_proof``, the frames' ``proof``): :meth:`to_data`'s, written from
        the proof's own tuples (orjson writes a tuple as the array of its list; copying every opening into
        a list first was most of the cost of the texts at every hand's end, one for each player)."""
        return orjson.dumps(self._data(lists=False), option=orjson.OPT_SORT_KEYS).decode()

    def __repr__(self) -> str:  # never an opening
        return f"DeckProof({self.root}, {len(self.openings)} opened)"


# ------------------------------------------------------------------------------------------ parsing


def _bad(reason: str) -> HistoryError:
    return HistoryError(f"the deck proof is not in the documented encoding: {reason}")


def _hexes(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(h, str) and _HEX64.match(h) for h in value):
        raise _bad(f"{what} must be a list of 64 lowercase hex digits each")
    return tuple(value)


def _openings(value: Any, size: int, spec: DeckSpec, what: str) -> tuple[Opening, ...]:
    if not isinstance(value, list):
        raise _bad(f"{what} openings must be a list")
    out: list[Opening] = []
    for o in value:
        if not (isinstance(o, list) and len(o) == 3):
            raise _bad(f"each {what} opening is [position, card, salt]")
        i, card, salt = o
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < size:
            raise _bad(f"a {what} position must be an integer 0..{size - 1}")
        if not isinstance(card, str) or not isinstance(salt, str) or not _SALT.match(salt):
            raise _bad(f"a {what} salt must be 32 lowercase hex digits")
        try:
            parsed = parse_card(card)
        except ValueError:
            raise _bad(f"{card!r} is not a card") from None
        if str(parsed) != card or parsed not in spec:
            raise _bad(f"{card!r} is not a card of the {spec.size}-card deck in canonical form")
        out.append((i, card, salt))
    if [o[0] for o in out] != sorted({o[0] for o in out}):
        raise _bad(f"the {what} openings must be in increasing position order, each position once")
    if len({o[1] for o in out}) != len(out):
        raise _bad(f"the {what} openings name a card twice")
    return tuple(out)


def _seed(value: Any) -> SeedPart:
    if not isinstance(value, dict) or not set(value) <= {"commitment", "contributions", "server_seed"}:
        raise _bad("seed must hold commitment, contributions and (audit only) server_seed")
    commitment, contributions = value.get("commitment"), value.get("contributions")
    if not isinstance(commitment, str) or not _HEX64.match(commitment):
        raise _bad("the seed commitment must be 64 lowercase hex digits")
    server_seed = value.get("server_seed")
    if server_seed is not None and (not isinstance(server_seed, str) or not _HEX64.match(server_seed)):
        raise _bad("the server seed must be 64 lowercase hex digits")
    if not isinstance(contributions, list):
        raise _bad("the contributions must be a list")
    out: list[tuple[int, str, str]] = []
    for c in contributions:
        ok = isinstance(c, list) and len(c) == 3
        if ok:
            seat, value_hex, origin = c
            ok = (
                isinstance(seat, int)
                and not isinstance(seat, bool)
                and 0 <= seat < 100
                and isinstance(value_hex, str)
                and bool(_HEX64.match(value_hex))
                and origin in _ORIGINS
            )
        if not ok:
            raise _bad("each contribution is [seat, 64 lowercase hex digits, 'player' or 'server']")
        out.append((seat, value_hex, origin))
    if [c[0] for c in out] != sorted({c[0] for c in out}):
        raise _bad("the contributions must be in seat order, one per seat")
    return SeedPart(commitment, tuple(out), server_seed)


def parse_proof(text: str) -> DeckProof:
    """Read a proof; :class:`HistoryError` unless ``text`` is exactly a proof's canonical encoding."""
    if not isinstance(text, str):
        raise _bad("the proof must be a text")
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise _bad("not JSON") from None
    if not isinstance(data, dict) or data.get("v") != VERSION or not set(data) <= _KEYS:
        raise _bad("unknown fields or version")
    size = data.get("spec")
    spec = next((s for s in DeckSpec if s.size == size and not isinstance(size, bool)), None)
    if spec is None:
        raise _bad("spec must be the deck size 52, 36 or 32")
    root = data.get("root")
    if not isinstance(root, str) or not _HEX64.match(root):
        raise _bad("the root must be 64 lowercase hex digits")
    parts = {}
    for label in ("deck", "reshuffle"):
        part = data.get(label, {"leaves": [], "open": []} if label == "reshuffle" else None)
        if not isinstance(part, dict) or set(part) != {"leaves", "open"}:
            raise _bad(f"{label} must hold leaves and open")
        leaves = _hexes(part["leaves"], f"the {label} leaves")
        if len(leaves) not in ((spec.size,) if label == "deck" else (0, spec.size)):
            raise _bad(f"the {label} order must have one leaf per card")
        parts[label] = (leaves, _openings(part["open"], len(leaves), spec, label))
    seed = _seed(data["seed"]) if "seed" in data else None
    if data.get("stub", True) is not True:
        raise _bad("stub, when present, is true")
    proof = DeckProof(root, spec.size, parts["deck"][0], parts["reshuffle"][0], parts["deck"][1],
                      parts["reshuffle"][1], seed, "stub" in data)  # fmt: skip
    if proof.to_text() != text:
        raise _bad("the text is not canonical (sorted keys, no spaces, no repeated key)")
    return proof


# ------------------------------------------------------------------------------- who sees which card


class _Sight:
    """Which dealt cards each player dealt in may see once the hand is over, from one walk over its
    events (:meth:`DeckProof.for_viewers` asks it for every such player).

    He sees his own cards (dealt and drawn), face-up cards, the board, and the final hands shown or
    mucked at the showdown (R182) — exactly the cards his copy of the history shows — never a burn, a
    discard of another, or a hand folded before the showdown (R184). ``deck`` and ``reshuffle`` map a
    card to its position in the two orders: a card's first deal comes from the dealing order, a later one
    (a discard reshuffled and dealt again) from the reshuffle order."""

    __slots__ = ("_own", "_public", "_where")

    def __init__(
        self, events: Sequence[Event], deck: Mapping[str, int], reshuffle: Mapping[str, int]
    ) -> None:
        deals: list[tuple[str, int | None, bool]] = []  # (card, seat, face up) of each dealt card
        exposed: set[int] = set()
        final: dict[int, dict[str, int]] = {}  # seat -> card -> index in deals of the deal that stayed
        shown: dict[int, set[str]] = {}
        for e in events:
            if isinstance(e, CardsDealt):
                for c, up in zip(e.cards, e.up, strict=True):
                    final.setdefault(e.seat, {})[str(c)] = len(deals)
                    deals.append((str(c), e.seat, up or e.seat in exposed))
            elif isinstance(e, BoardDealt):
                deals += [(str(c), None, True) for c in e.cards]
            elif isinstance(e, Drew):
                mine = final.setdefault(e.seat, {})
                for c in e.discarded:
                    mine.pop(str(c), None)
                for c in e.received:
                    mine[str(c)] = len(deals)
                    deals.append((str(c), e.seat, False))
            elif isinstance(e, Discarded):
                for c in e.cards:
                    final.setdefault(e.seat, {}).pop(str(c), None)
            elif isinstance(e, CardsShown):
                if e.reason == "all_in":
                    exposed.add(e.seat)
                shown.setdefault(e.seat, set()).update(str(c) for c in e.cards)
            elif isinstance(e, Mucked):
                shown.setdefault(e.seat, set()).update(str(c) for c in e.cards if c is not None)
        # Where each deal sits: a card's first deal in the dealing order, a later one in the reshuffle's
        where: list[tuple[bool, int]] = []
        first: set[str] = set()
        for card, _, _ in deals:
            later = card in first
            first.add(card)
            where.append((later, reshuffle.get(card, -1) if later else deck.get(card, -1)))
        public = {i for i, (_, _, up) in enumerate(deals) if up}  # face up, or shown at the end: anyone's
        for seat, cards in shown.items():
            public |= {i for c, i in final.get(seat, {}).items() if c in cards}
        own: dict[int, list[int]] = {}
        for i, (_, holder, _) in enumerate(deals):
            if holder is not None:
                own.setdefault(holder, []).append(i)
        self._where, self._public, self._own = where, public, own

    def of(self, viewer: int) -> tuple[set[int], set[int]]:
        """The positions ``viewer`` may see (dealing order, reshuffle order)."""
        deck: set[int] = set()
        again: set[int] = set()
        where = self._where
        for i in self._public.union(self._own.get(viewer, ())):
            later, position = where[i]
            (again if later else deck).add(position)
        return deck, again


def _dealt(events: Sequence[Event]) -> int:
    """How many cards the hand took from its deck (burns included)."""
    n = 0
    for e in events:
        if isinstance(e, CardsDealt | BoardDealt):
            n += len(e.cards)
        elif isinstance(e, Burned):
            n += 1
        elif isinstance(e, Drew):
            n += len(e.received)
    return n
