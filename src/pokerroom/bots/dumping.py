"""A planted chip dumper and his partner (issue 30, item 2), for the chip-dumping detector's tests and
benchmark. The two know each other's seat (colluders talk outside the room: here a callable gives it).

Both play their own hands as a regular does (:meth:`_Partnered.own`): ``HandStrength`` judged against one
opponent, with the price of a call from the pot their watch counts (a ``PotWatch`` of
:mod:`pokerroom.bots.planted`), as the soft-playing friend does. (The room's ``strength`` bot judges its
hand against every player seated and is blind to the pot, so it folds every bet it cannot raise: a
dumper of that style lays down most of his strong hands to everybody and his partner is nothing special,
and a taker of that style folds to everybody's bets. Two accounts that pass chips play their own hands
to win.)

- :class:`ChipDumper`: with his partner in the hand he raises his strong hands (judged heads-up), never
  folds to the others, and folds to the partner's bet or raise whatever he holds (the strong hands he
  raised with too), and calls the partner's all-in with anything.
- :class:`DumpTaker`: raises (the least it may) over every raise of the dumper: the signal that the
  dumper has chips to give.

Each watches its table's events (:meth:`Watch.see`, a bot client's ``on_event``) to know who bet last."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from pokerroom.bots.strategies import BotView, HandStrength

__all__ = ["RAISE_AT", "RAISE_SIZE", "ChipDumper", "DumpTaker", "Seat", "Watch", "dumping_field"]

RAISE_AT = 0.55  # the dumper's share against one random hand from which he raises (to fold it later)
RAISE_SIZE = 3  # ... to this many times the least raise


class Watch:
    """The current hand as a bot's table messages tell it: the last seat to bet or raise, whether he is
    all in, and the seats that folded."""

    def __init__(self) -> None:
        self.aggressor: int | None = None
        self.all_in = False
        self.folded: set[int] = set()

    def see(self, msg: dict[str, Any]) -> None:
        if msg.get("type") != "event":
            return
        e = msg["event"]
        if e["type"] == "hand_started":
            self.aggressor, self.all_in, self.folded = None, False, set()
        elif e["type"] == "round_ended":
            self.aggressor, self.all_in = None, False
        elif e["type"] == "action":
            if e["action"] in ("bet", "raise", "complete"):
                self.aggressor, self.all_in = e["seat"], bool(e.get("all_in"))
            elif e["action"] == "fold":
                self.folded.add(e["seat"])


class _Partnered(HandStrength):
    """A bot of a planted pair: it knows its partner's seat and what the table did this round."""

    def __init__(self, partner_seat: Callable[[], int | None], watch: Watch, **kw: Any) -> None:
        super().__init__(**kw)
        self.partner_seat = partner_seat
        self.watch = watch

    def own(self, view: BotView, rng: random.Random) -> dict[str, Any]:
        """His own play (a regular's): ``HandStrength`` against one opponent, the price of a call from the
        pot his watch counts (a watch without ``pot``: the view's)."""
        pot = int(getattr(self.watch, "pot", view.pot))
        return HandStrength.decide(self, replace(view, opponents=1, pot=pot), rng)


class ChipDumper(_Partnered):
    name = "dumper"

    def decide(self, view: BotView, rng: random.Random) -> dict[str, Any]:
        d = view.decision
        partner = self.partner_seat()
        live = partner is not None and partner not in self.watch.folded
        if d["kind"] != "bet" or not live:
            return self.own(view, rng)
        if self.watch.aggressor == partner and d.get("call"):
            return {"type": "call"} if self.watch.all_in else {"type": "fold"}
        # With the partner in the hand: raise a strong hand big (judged heads-up: ``RAISE_AT``), for the
        # partner to raise over; never fold to the others.
        heads_up = replace(view, opponents=1)
        if d.get("raise") and d.get("min_to") and self.strength(heads_up, rng) >= RAISE_AT:
            return {"type": "raise_to", "amount": min(d["max_to"], RAISE_SIZE * d["min_to"])}
        action = self.own(view, rng)
        if action["type"] == "fold":
            return {"type": "check"} if d.get("check") else {"type": "call"}
        return action


class DumpTaker(_Partnered):
    name = "taker"

    def decide(self, view: BotView, rng: random.Random) -> dict[str, Any]:
        d = view.decision
        partner = self.partner_seat()
        if d["kind"] == "bet" and partner is not None and self.watch.aggressor == partner and d.get("min_to"):
            if d.get("raise"):
                return {"type": "raise_to", "amount": d["min_to"]}  # the dumper raised: raise him back
        return self.own(view, rng)


@dataclass(frozen=True)
class Seat:
    """One player of a planted chip-dumping field: ``role`` honest, dumper or taker; ``partner`` the other
    of a planted pair ("" for the honest); ``table`` the index of his table."""

    name: str
    role: str
    partner: str
    table: int


def dumping_field(tables: int, pairs: int, *, seed: int, size: int = 6, prefix: str = "dump") -> list[Seat]:
    """``tables`` full tables of ``size`` players; ``pairs`` of them (seeded choice) hold one planted pair
    (a dumper and his taker) among honest players, the others only honest players."""
    if not 0 <= pairs <= tables or size < 3:
        raise ValueError("at most one planted pair a table, and tables of 3 or more")
    rng = random.Random(seed)
    planted = set(rng.sample(range(tables), pairs))
    out: list[Seat] = []
    for t in range(tables):
        roles = ["honest"] * size
        if t in planted:
            roles[:2] = ["dumper", "taker"]
            rng.shuffle(roles)
        names = [f"{prefix}{t * size + i + 1}" for i in range(size)]
        pair = {r: n for n, r in zip(names, roles, strict=True) if r != "honest"}
        for n, r in zip(names, roles, strict=True):
            partner = pair.get("taker" if r == "dumper" else "dumper", "") if r != "honest" else ""
            out.append(Seat(n, r, partner, t))
    return out
