"""Planted scenarios for the integrity detectors (issue 30): a field of honest bots with one or more that
play with machine timing (a fixed wait before every action), seeded, for the detector's tests and its
benchmark. The honest bots think as the room's own bots do (a uniform wait in ``HONEST_THINK``); the
planted ones wait ``MACHINE_THINK`` every time.

And planted pairs (:func:`pair_field`) for the soft-play and collusive-betting detectors: two
:class:`SoftPlayer` who check down against each other, or two :class:`Whipsawer` who re-raise each
other's opening bets with a third player in the hand. The two of a pair know each other's seat
(colluders talk outside the room: here a callable gives it) and watch their table (:class:`InHand`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from pokerroom.bots.dumping import Watch
from pokerroom.bots.strategies import BotView, HandStrength

__all__ = [
    "HONEST_THINK",
    "MACHINE_THINK",
    "OPEN_AT",
    "InHand",
    "PairSeat",
    "Planted",
    "SoftPlayer",
    "Whipsawer",
    "pair_field",
    "timing_field",
]

HONEST_THINK = (0.5, 2.0)  # the room's bots (BotClient's default)
MACHINE_THINK = (1.0, 1.0)  # a program that waits one second, always
OPEN_AT = 0.5  # a Whipsawer opens the betting for his partner to re-raise with this share heads-up


@dataclass(frozen=True)
class Planted:
    name: str
    think: tuple[float, float]
    machine: bool  # planted: the detector should flag it


def timing_field(honest: int, machines: int, *, seed: int, prefix: str = "plant") -> list[Planted]:
    """``honest + machines`` players in a seeded order (the planted ones among the others)."""
    field = [Planted("", HONEST_THINK, False) for _ in range(honest)]
    field += [Planted("", MACHINE_THINK, True) for _ in range(machines)]
    random.Random(seed).shuffle(field)
    return [Planted(f"{prefix}{i + 1}", p.think, p.machine) for i, p in enumerate(field)]


class InHand(Watch):
    """:class:`~pokerroom.bots.dumping.Watch`, and the seats dealt into the current hand (to know who is
    left in it) and the bets and raises of the current round."""

    def __init__(self) -> None:
        super().__init__()
        self.dealt: set[int] = set()
        self.raises = 0

    def see(self, msg: dict[str, Any]) -> None:
        super().see(msg)
        if msg.get("type") != "event":
            return
        e = msg["event"]
        if e["type"] == "hand_started":
            self.dealt, self.raises = set(), 0
        elif e["type"] == "round_ended":
            self.raises = 0
        elif e["type"] == "cards_dealt" and e.get("seat") is not None:
            self.dealt.add(e["seat"])
        elif e["type"] == "action" and e["action"] in ("bet", "raise", "complete"):
            self.raises += 1

    def live(self) -> set[int]:
        return self.dealt - self.folded


class SoftPlayer(HandStrength):
    """A soft-playing friend (issue 30, item 2): plays like ``HandStrength``, except when his partner is
    the only other player left in the hand: then he checks (or calls), never bets, raises or folds."""

    name = "soft"

    def __init__(self, partner_seat: Callable[[], int | None], watch: InHand, **kw: Any) -> None:
        super().__init__(**kw)
        self.partner_seat = partner_seat
        self.watch = watch

    def decide(self, view: BotView, rng: random.Random) -> dict[str, Any]:
        d = view.decision
        partner = self.partner_seat()
        if d["kind"] == "bet" and partner is not None and self.watch.live() == {view.seat, partner}:
            return {"type": "check"} if d.get("check") else {"type": "call"}
        return super().decide(view, rng)


class Whipsawer(HandStrength):
    """A colluder who raises a third player out with his partner (issue 30, item 2): plays like
    ``HandStrength``, except with his partner and a third player in the hand: he opens the round's betting
    (three times the least bet or raise) with a hand of share ``OPEN_AT`` or more against one random hand,
    and when the partner opened it (the first bet or raise), he re-raises (three times the least raise)
    whatever he holds."""

    name = "whipsaw"

    def __init__(self, partner_seat: Callable[[], int | None], watch: InHand, **kw: Any) -> None:
        super().__init__(**kw)
        self.partner_seat = partner_seat
        self.watch = watch

    def decide(self, view: BotView, rng: random.Random) -> dict[str, Any]:
        d = view.decision
        partner = self.partner_seat()
        w = self.watch
        together = partner is not None and partner in w.live() and bool(w.live() - {view.seat, partner})
        if d["kind"] == "bet" and together and d.get("raise") and d.get("min_to") and not w.all_in:
            squeeze = {"type": "raise_to", "amount": min(d["max_to"], 3 * d["min_to"])}
            if w.aggressor == partner and w.raises == 1:
                return squeeze
            if w.raises == 0 and self.strength(replace(view, opponents=1), rng) >= OPEN_AT:
                return squeeze
        return super().decide(view, rng)


@dataclass(frozen=True)
class PairSeat:
    """One player of a planted pair field: ``role`` honest or the pair's role; ``partner`` the other of
    his pair ("" for the honest); ``table`` the index of his table."""

    name: str
    role: str
    partner: str
    table: int


def pair_field(
    tables: int, pairs: int, role: str, *, seed: int, size: int = 6, prefix: str = "pair"
) -> list[PairSeat]:
    """``tables`` full tables of ``size``; ``pairs`` of them (seeded choice) hold one planted pair whose two
    players both have ``role`` ("soft" or "whipsaw"), the others only honest players."""
    if not 0 <= pairs <= tables or size < 3:
        raise ValueError("at most one planted pair a table, and tables of 3 or more")
    rng = random.Random(seed)
    planted = set(rng.sample(range(tables), pairs))
    out: list[PairSeat] = []
    for t in range(tables):
        names = [f"{prefix}{t * size + i + 1}" for i in range(size)]
        pair = set(rng.sample(names, 2)) if t in planted else set()
        for n in names:
            partner = next((p for p in pair if p != n), "") if n in pair else ""
            out.append(PairSeat(n, role if n in pair else "honest", partner, t))
    return out
