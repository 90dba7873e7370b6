"""A planted pair who share their hole cards (issue 30, item 2), for the shared-cards detector's tests and
benchmark (server/integrity/cardshare.py). Colluders talk outside the room: here each reads his
partner's bot's cards (a callable gives the partner's seat, hand and hole cards).

:class:`CardSharer` plays like :class:`~pokerroom.bots.strategies.HandStrength` judging every hand heads-up
and calling a bet with a share of at least ``CALL_AT`` (a regular who plays many hands: the strength bot
raises or folds, as it is given no pot to price a call with, and a player who folds nearly everything
shows no tell), except while his partner
is in the hand (not folded) with cards known for this hand and stronger than his own (a share of at least
``PARTNER_STRONG`` against one random hand, on the board of the moment):

- with a hand below ``KEEP`` (judged heads-up) he gets out of the partner's way: he folds to a bet and
  checks when he may;
- otherwise, with a third player in the hand and a raise open, he raises (``SQUEEZE`` times the least
  raise) to squeeze the third player out and leave the pot to the two of them.

:func:`share_field` seats one planted pair at some of a field's tables among honest players (as
:func:`pokerroom.bots.planted.pair_field`, role ``"share"``); :func:`plant_sharers` gives the planted their
strategy once their bots are seated."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from functools import partial
from typing import Any

from pokerroom.bots.dumping import Seat
from pokerroom.bots.planted import InHand, pair_field
from pokerroom.bots.strategies import BotView, HandStrength

__all__ = [
    "CALL_AT",
    "KEEP",
    "PARTNER_STRONG",
    "ROLE",
    "SQUEEZE",
    "CardSharer",
    "plant_sharers",
    "share_field",
]

ROLE = "share"
PARTNER_STRONG = 0.6  # the partner's share against one random hand from which he is left the pot
KEEP = 0.66  # ... unless one's own share (heads-up) is at least this
SQUEEZE = 3  # the squeeze: this many times the least raise
CALL_AT = 0.45  # his own game: calls a bet with at least this share (heads-up) rather than fold

# What a sharer knows of his partner: his seat, the hand his cards are of, and the cards.
PartnerCards = Callable[[], tuple[int | None, str, list[str]]]


class CardSharer(HandStrength):
    """A card-sharing colluder (see the module)."""

    name = "share"

    def __init__(self, partner: PartnerCards, hand_id: Callable[[], str], watch: InHand, **kw: Any) -> None:
        super().__init__(**kw)
        self.partner = partner
        self.hand_id = hand_id
        self.watch = watch

    def decide(self, view: BotView, rng: random.Random) -> dict[str, Any]:
        d = view.decision
        seat, hand, cards = self.partner()
        w = self.watch
        known = seat is not None and hand == self.hand_id() and len(cards) == len(view.hole) and bool(cards)
        heads_up = replace(view, opponents=1)  # (judged heads-up: a regular who plays many hands)
        if d["kind"] != "bet" or not known or seat not in w.live():
            return self._regular(heads_up, rng)
        mine = self.strength(heads_up, rng)
        his = self.strength(replace(heads_up, hole=list(cards)), rng)
        if his < PARTNER_STRONG or his <= mine:
            return self._regular(heads_up, rng)
        if mine < KEEP:  # out of the partner's way
            return {"type": "check"} if d.get("check") else {"type": "fold"}
        thirds = w.live() - {view.seat, seat}
        if thirds and d.get("raise") and d.get("min_to") and not w.all_in:
            return {"type": "raise_to", "amount": min(d["max_to"], SQUEEZE * d["min_to"])}
        return self._regular(heads_up, rng)

    def _regular(self, view: BotView, rng: random.Random) -> dict[str, Any]:
        """His own game: the strength bot's, calling instead of folding with a share of ``CALL_AT``."""
        action = super().decide(view, rng)
        d = view.decision
        if action["type"] == "fold" and d.get("call") and self.strength(view, rng) >= CALL_AT:
            return {"type": "call"}
        return action


def share_field(tables: int, pairs: int, *, seed: int, size: int = 6, prefix: str = "share") -> list[Seat]:
    """``tables`` full tables of ``size``; ``pairs`` of them (seeded choice) hold one card-sharing pair
    (role ``"share"``) among honest players, the others only honest players."""
    return pair_field(tables, pairs, ROLE, seed=seed, size=size, prefix=prefix)


def _cards_of(bot: Any) -> tuple[int | None, str, list[str]]:
    return bot.seat, bot.hand_id, list(bot.hole)


def _hand_of(bot: Any) -> str:
    hand: str = bot.hand_id
    return hand


def plant_sharers(
    field: Iterable[Seat], bots: Mapping[str, Any], *, samples: int = 100, opponents: int = 3
) -> None:
    """Give each ``"share"`` player of ``field`` the :class:`CardSharer` strategy, reading his partner's
    bot, and his watch of the table as his bot's ``on_event``. ``bots``: each player's seated bot client
    by name (:class:`~pokerroom.bots.client.BotClient`). ``samples`` and ``opponents``: the equity
    estimate (as ``HandStrength``'s)."""
    for p in field:
        if p.role != ROLE:
            continue
        watch = InHand()
        bot, mate = bots[p.name], bots[p.partner]
        bot.strategy = CardSharer(
            partial(_cards_of, mate),
            partial(_hand_of, bot),
            watch,
            samples=samples,
            opponents_sampled=opponents,
        )
        bot.on_event = watch.see
