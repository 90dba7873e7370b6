"""Bot strategies. Each turns what the bot knows (its cards, the board, the legal actions sent by the
server) into an action of the wire protocol. They play every game of the catalog."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Protocol

from pokerroom.cards import Card, DeckSpec, parse_cards
from pokerroom.eval import EvalError, equity, evaluate
from pokerroom.variants import get_variant

__all__ = ["STRATEGIES", "BotView", "HandStrength", "PassiveCaller", "RandomLegal", "Strategy", "decide"]


@dataclass
class BotView:
    """What a bot knows when it must decide."""

    variant: str
    betting: str
    seat: int
    hole: list[str]
    board: list[str]
    decision: dict[str, Any]
    others_up: dict[int, list[str]] = field(default_factory=dict)  # stud: opponents' up cards
    opponents: int = 1
    pot: int = 0


class Strategy(Protocol):
    name: str
    heavy: bool  # does deciding take long enough to hold up the bot's other tables? (see :func:`decide`)

    def decide(self, view: BotView, rng: random.Random) -> dict[str, Any]: ...


async def decide(strategy: Strategy, view: BotView, rng: random.Random) -> dict[str, Any]:
    """The strategy's action. A heavy strategy (equity sampling: milliseconds) decides on a worker thread
    so that the bot process's loop goes on serving its other bots; a light one decides at once on the loop,
    a few microseconds, where a thread hop would cost more than the decision (and, under load, a wait for
    the GIL). A strategy that does not say is taken for heavy."""
    if getattr(strategy, "heavy", True):
        return await asyncio.to_thread(strategy.decide, view, rng)
    return strategy.decide(view, rng)


def _bet_options(d: dict[str, Any]) -> list[dict[str, Any]]:
    opts: list[dict[str, Any]] = []
    if d.get("fold"):
        opts.append({"type": "fold"})
    if d.get("check"):
        opts.append({"type": "check"})
    if d.get("call"):
        opts.append({"type": "call"})
    if d.get("bring_in"):
        opts.append({"type": "bring_in"})
    return opts


def _raise(d: dict[str, Any], rng: random.Random, *, size: float | None = None) -> dict[str, Any] | None:
    if not d.get("raise"):
        return None
    if d.get("choices"):
        return {"type": "raise_to", "amount": rng.choice(d["choices"])}
    lo, hi = d["min_to"], d["max_to"]
    if size is None:
        amount = rng.choice([lo, hi, rng.randint(lo, hi)])
    else:
        amount = min(hi, max(lo, int(lo + (hi - lo) * size)))
    return {"type": "raise_to", "amount": amount}


def _discard_random(view: BotView, rng: random.Random) -> dict[str, Any]:
    d = view.decision
    if d["kind"] == "discard":
        return {"type": "discard", "cards": rng.sample(view.hole, d["count"])}
    k = rng.randint(0, min(d["max_discard"], len(view.hole)))
    return {"type": "draw", "cards": rng.sample(view.hole, k)}


class RandomLegal:
    """Any legal action, uniformly (amounts too): a stress tester, not a player."""

    name = "random"
    heavy = False

    def decide(self, view: BotView, rng: random.Random) -> dict[str, Any]:
        d = view.decision
        if d["kind"] in ("draw", "discard"):
            return _discard_random(view, rng)
        if d["kind"] == "show":
            return {"type": rng.choice(["show", "muck"])}
        if d["kind"] == "run_twice":
            return {"type": "run_twice", "agree": rng.random() < 0.7}
        opts = _bet_options(d)
        r = _raise(d, rng)
        if r is not None:
            opts.append(r)
        return rng.choice(opts)


class PassiveCaller:
    """Checks when it can, calls otherwise, never raises; stands pat; discards its last cards in Irish."""

    name = "caller"
    heavy = False

    def decide(self, view: BotView, rng: random.Random) -> dict[str, Any]:
        d = view.decision
        if d["kind"] == "draw":
            return {"type": "draw", "cards": []}
        if d["kind"] == "discard":
            return {"type": "discard", "cards": view.hole[-d["count"] :]}
        if d["kind"] == "show":
            return {"type": "show"}
        if d["kind"] == "run_twice":  # less variance suits a caller
            return {"type": "run_twice", "agree": True}
        if d.get("bring_in"):
            return {"type": "bring_in"}
        if d.get("check"):
            return {"type": "check"}
        if d.get("call"):
            return {"type": "call"}
        return {"type": "fold"}


_EQUITY_GAMES = {
    "holdem": "holdem",
    "irish": "holdem",
    "omaha": "omaha",
    "omaha5": "omaha5",
    "omaha6": "omaha6",
    "omaha8": "omaha8",
    "omaha8_5": "omaha8_5",
    "stud": "stud",
    "stud8": "stud8",
    "razz": "razz",
    "stud5": "stud5",
    "soko": "soko",
    "deuce7_triple": "deuce7",
    "deuce7_single": "deuce7",
    "draw5": "draw",
    "draw7a": "draw7a",
    "shortdeck": "shortdeck",
    "badugi": "badugi",
}


class HandStrength:
    """Plays by its share of the pot against random hands (``pokerroom.eval.equity``), adjusted for the
    number of opponents: raises strong hands, calls fair ones, folds the rest. Draws keep the cards that
    make its hand; the Irish discard keeps the best two with the flop."""

    name = "strength"
    heavy = True

    def __init__(self, samples: int = 300, opponents_sampled: int = 8) -> None:
        self.samples = samples
        self.opponents_sampled = opponents_sampled

    def strength(self, view: BotView, rng: random.Random) -> float:
        game = _EQUITY_GAMES.get(view.variant)
        if game is None:
            return 0.5
        v = get_variant(view.variant)
        mine = list(parse_cards(view.hole))
        board = list(parse_cards(view.board))
        deck_spec = v.deck if len(mine) + len(board) < 40 else DeckSpec.STANDARD
        used = set(mine) | set(board)
        for cards in view.others_up.values():
            used |= set(parse_cards(cards))
        pool = [c for c in deck_spec.cards() if c not in used]
        size = len(mine) if v.family in ("holdem", "omaha") else 1
        total = 0.0
        n = 0
        for _ in range(self.opponents_sampled):
            if v.is_stud and view.others_up:
                seat = rng.choice(list(view.others_up))
                opp: list[Card] = list(parse_cards(view.others_up[seat])) or rng.sample(pool, 1)
            else:
                opp = rng.sample(pool, size)
            board_now = board if len(board) >= 3 else []
            try:
                result = equity(game, [mine, opp], board_now, samples=self.samples, seed=rng.randrange(2**31))
            except (EvalError, ValueError):
                return 0.5
            total += result.hands[0].share
            n += 1
        share = total / max(1, n)
        return float(share ** max(1, view.opponents))

    def decide(self, view: BotView, rng: random.Random) -> dict[str, Any]:
        d = view.decision
        if d["kind"] == "discard":
            return {"type": "discard", "cards": self._irish_discard(view, d["count"])}
        if d["kind"] == "draw":
            return {"type": "draw", "cards": self._draw(view)}
        if d["kind"] == "show":
            return {"type": "show"}
        if d["kind"] == "run_twice":
            return {"type": "run_twice", "agree": True}
        s = self.strength(view, rng)
        if d.get("bring_in"):
            return (
                {"type": "raise_to", "amount": d["choices"][0]}
                if s > 0.5 and d.get("choices")
                else {"type": "bring_in"}
            )
        r = _raise(d, rng, size=min(1.0, max(0.0, (s - 0.6) * 2)))
        if s > 0.62 and r is not None:
            return r
        if d.get("check"):
            return {"type": "check"}
        price = d.get("call", 0) / max(1, view.pot + d.get("call", 0))
        if d.get("call") and s >= price:
            return {"type": "call"}
        return {"type": "fold"}

    def _irish_discard(self, view: BotView, count: int) -> list[str]:
        hole = list(parse_cards(view.hole))
        flop = list(parse_cards(view.board))[:3]
        keep = max(combinations(hole, len(hole) - count), key=lambda pair: evaluate("high", pair, flop))
        return [str(c) for c in hole if c not in keep]

    def _draw(self, view: BotView) -> list[str]:
        v = get_variant(view.variant)
        hole = list(parse_cards(view.hole))
        rule = v.high
        if rule in ("deuce7_low", "badugi"):
            # Keep low, unpaired cards (for 2-7 at most an 8); draw to the rest.
            keep: list[Card] = []
            for c in sorted(hole, key=lambda c: c.rank):
                if all(k.rank != c.rank for k in keep) and (rule == "badugi" or c.rank <= 6):
                    if rule == "badugi" and any(k.suit == c.suit for k in keep):
                        continue
                    keep.append(c)
            return [str(c) for c in hole if c not in keep]
        ranks = [c.rank for c in hole]
        keep = [c for c in hole if ranks.count(c.rank) > 1]
        suits = [c.suit for c in hole]
        flush = max(set(suits), key=suits.count)
        if not keep and suits.count(flush) >= 4:
            keep = [c for c in hole if c.suit == flush]
        if not keep:
            keep = sorted(hole, key=lambda c: c.rank, reverse=True)[:2]
        return [str(c) for c in hole if c not in keep][: v.max_draw]


STRATEGIES: dict[str, type[RandomLegal] | type[PassiveCaller] | type[HandStrength]] = {
    "random": RandomLegal,
    "caller": PassiveCaller,
    "strength": HandStrength,
}
