"""The planted chip dumper and his partner (``pokerroom.bots.dumping``) play their own hands as regulars: the
price of a call from the pot their watch counts, their hand judged against one opponent."""

from __future__ import annotations

import random
from typing import Any

from pokerroom.bots.dumping import ChipDumper, DumpTaker, Seat
from pokerroom.bots.planted import PotWatch, plant
from pokerroom.bots.strategies import BotView


def _facing_a_bet(hole: list[str], call: int) -> BotView:
    # a bet to call, no raise allowed (so a strong hand cannot simply raise), six players seated
    decision = {"kind": "bet", "fold": True, "check": False, "call": call, "raise": False}
    return BotView("holdem", "NL", 1, hole, [], decision, opponents=5)


def _watching(pot: int) -> PotWatch:
    watch = PotWatch()
    watch.see({"type": "event", "event": {"type": "hand_started"}})
    watch.see({"type": "event", "event": {"type": "posted", "seat": 2, "amount": pot}})
    return watch


def test_without_his_partner_in_the_hand_each_calls_a_cheap_bet_with_a_fair_hand() -> None:
    # 20 to call into 1,000: a price of 0.02, and K-Q has far more than that against one random hand. Before,
    # both played as the room's strength bot, blind to the pot (its view's pot is 0: a price of 1) and, for
    # the taker, judging his hand against all five seated players: each folded every bet it could not
    # raise, so a dumper folded his strong hands to everybody and his partner was nothing special
    for kind in (ChipDumper, DumpTaker):
        bot = kind(lambda: None, _watching(1000), samples=50, opponents_sampled=2)
        assert bot.decide(_facing_a_bet(["Ks", "Qh"], 20), random.Random(1)) == {"type": "call"}
        # ... and folds trash to a bet the size of the pot
        bot = kind(lambda: None, _watching(20), samples=50, opponents_sampled=2)
        assert bot.decide(_facing_a_bet(["7c", "2d"], 1000), random.Random(1)) == {"type": "fold"}


def test_plant_gives_the_pair_a_watch_that_counts_the_pot() -> None:
    class Bot:
        seat = 1
        strategy: Any = None
        on_event: Any = None

    bots = {"d": Bot(), "t": Bot(), "h": Bot()}
    plant([Seat("d", "dumper", "t", 0), Seat("t", "taker", "d", 0), Seat("h", "honest", "", 0)], bots)
    for name in ("d", "t"):
        assert isinstance(bots[name].strategy.watch, PotWatch)
        assert bots[name].on_event == bots[name].strategy.watch.see
    assert bots["h"].strategy is None
