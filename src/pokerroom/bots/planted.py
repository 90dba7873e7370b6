"""Planted scenarios for the integrity detectors (issue 30): a field of honest bots with one or more that
play with machine timing (a fixed wait before every action), seeded, for the detector's tests and its
benchmark. The honest bots think as the room's own bots do (a uniform wait in ``HONEST_THINK``); the
planted ones wait ``MACHINE_THINK`` every time.

And planted pairs (:func:`pair_field`) for the soft-play and collusive-betting detectors: two
:class:`SoftPlayer` who check down against each other, or two :class:`Whipsawer` who re-raise each
other's opening bets with a third player in the hand. The two of a pair know each other's seat
(colluders talk outside the room: here a callable gives it) and watch their table (:class:`InHand`;
:class:`PotWatch` counts the pot too).

:func:`plant` gives the planted players of a field (this module's pairs, or the chip dumpers of
:mod:`pokerroom.bots.dumping`) their strategies once their bots are seated: the one place the detectors'
tests and benchmark (benchmarks/integrity.py) do it.

And a Rush pool's seating (:func:`rush_rounds`), without playing the hands: who is dealt in with whom,
round after round, honest (the pool mixes its players at random) or with planted pairs seated together
more often, for the Rush detector's tests and benchmark."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from pokerroom.bots.dumping import ChipDumper, DumpTaker, Seat, Watch
from pokerroom.bots.strategies import BotView, HandStrength

__all__ = [
    "HONEST",
    "HONEST_THINK",
    "MACHINE_THINK",
    "OPEN_AT",
    "InHand",
    "PairSeat",
    "Planted",
    "PotWatch",
    "SoftPlayer",
    "Whipsawer",
    "pair_field",
    "plant",
    "rush_rounds",
    "timing_field",
]

HONEST = ("strength", "caller", "random")  # the honest strategies of a field, in turn
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


class PotWatch(InHand):
    """:class:`InHand`, and the chips in the pot so far (the blinds, antes and bets of every round, less a
    bet returned): what a player who weighs the price of a call knows from the table."""

    def __init__(self) -> None:
        super().__init__()
        self.pot = 0

    def see(self, msg: dict[str, Any]) -> None:
        super().see(msg)
        if msg.get("type") != "event":
            return
        e = msg["event"]
        if e["type"] == "hand_started":
            self.pot = 0
        elif e["type"] in ("posted", "action"):
            self.pot += int(e.get("amount") or 0)
        elif e["type"] == "bet_returned":
            self.pot -= int(e.get("amount") or 0)


class SoftPlayer(HandStrength):
    """A soft-playing friend (issue 30, item 2). His own style is a regular's: ``HandStrength`` judged
    against one opponent (as the chip dumper of :mod:`pokerroom.bots.dumping` plays), with the price of a
    call from the pot his watch counts. He bets and raises his strong hands (``HandStrength``'s share of
    more than 0.62 against one random hand), calls when his share beats the price, checks or folds the
    rest. (The room's ``strength`` bot, judging its hand against every player seated and blind to the pot,
    raises only near-nuts and folds to every bet it cannot raise: a friend of that style has no aggression
    to hold back, and his soft play is nothing anybody could see.)

    Against his partner he is soft: when the partner is the only other player left in the hand he never
    bets or raises (he checks, or calls); with others in the hand too he never raises the partner's bet
    or raise (he calls where he would have raised). Everything else, his bets into the others included,
    is his own style. With no partner (``partner_seat`` gives None) he is an honest regular."""

    name = "soft"

    def __init__(self, partner_seat: Callable[[], int | None], watch: InHand, **kw: Any) -> None:
        super().__init__(**kw)
        self.partner_seat = partner_seat
        self.watch = watch

    def own(self, view: BotView, rng: random.Random) -> dict[str, Any]:
        """His own style's action (the regular's)."""
        pot = self.watch.pot if isinstance(self.watch, PotWatch) else view.pot
        return super().decide(replace(view, opponents=1, pot=pot), rng)

    def decide(self, view: BotView, rng: random.Random) -> dict[str, Any]:
        d = view.decision
        partner = self.partner_seat()
        live = self.watch.live()
        if d["kind"] != "bet" or partner is None or partner not in live:
            return self.own(view, rng)
        if live == {view.seat, partner}:
            return {"type": "check"} if d.get("check") else {"type": "call"}
        choice = self.own(view, rng)
        if self.watch.aggressor == partner and choice.get("type") == "raise_to":
            return {"type": "call"}
        return choice


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


PairSeat = Seat  # one player of a planted field: name, role ("honest" or the pair's), partner, table


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


# role -> (strategy, the watch it reads)
PLANTED: dict[str, tuple[Callable[..., HandStrength], type[Watch]]] = {
    "dumper": (ChipDumper, PotWatch),
    "taker": (DumpTaker, PotWatch),
    "soft": (SoftPlayer, PotWatch),
    "whipsaw": (Whipsawer, InHand),
}


def _seat_of(bot: Any) -> int | None:
    seat: int | None = bot.seat
    return seat


def plant(field: Iterable[Seat], bots: Mapping[str, Any], *, samples: int = 100, opponents: int = 3) -> None:
    """Give each planted player of ``field`` (a role of :data:`PLANTED`) his role's strategy, knowing his
    partner's seat, and his watch of the table as his bot's ``on_event``. ``bots``: each player's seated
    bot client by name (:class:`~pokerroom.bots.client.BotClient`). ``samples`` and ``opponents``: the
    strategies' equity estimate (as ``HandStrength``'s ``samples`` and ``opponents_sampled``)."""
    for p in field:
        if p.role == "honest":
            continue
        kind, watching = PLANTED[p.role]
        watch = watching()
        bot = bots[p.name]
        seat = partial(_seat_of, bots[p.partner])
        bot.strategy = kind(seat, watch, samples=samples, opponents_sampled=opponents)
        bot.on_event = watch.see


def rush_rounds(
    players: Sequence[int],
    rounds: int,
    rng: random.Random,
    *,
    start: datetime,
    every: timedelta = timedelta(seconds=20),
    size: int = 6,
    pairs: Sequence[tuple[int, int]] = (),
    together: float = 0.0,
    present: Mapping[int, range] | None = None,
    pool: str = "rush",
) -> list[tuple[str, str, datetime, tuple[int, ...]]]:
    """A Rush pool's hands, ``(hand id, pool, start, the accounts dealt in)`` as the store gives them: in
    each of ``rounds`` rounds (``every`` apart from ``start``) the players present (``present``: the rounds
    of each; all by default) are shuffled into tables of ``size`` (the last one smaller, at least two:
    one left alone waits). Each planted pair of ``pairs`` both present is put at one table in about a
    share ``together`` of the rounds (beyond the chance of the shuffle)."""
    out: list[tuple[str, str, datetime, tuple[int, ...]]] = []
    for r in range(rounds):
        here = [p for p in players if present is None or r in present.get(p, range(rounds))]
        rng.shuffle(here)
        for a, b in pairs:
            if a in here and b in here and rng.random() < together:
                here.remove(b)
                here.insert(here.index(a) // size * size, b)  # at a's table (the table's last leaves it)
        for t in range(0, len(here), size):
            table = tuple(here[t : t + size])
            if len(table) >= 2:
                out.append((f"{pool}-{r}-{t // size}", pool, start + r * every, table))
    return out
