"""Issue 30, item 2: the planted soft-playing friend (``pokerroom.bots.planted.SoftPlayer``) decides as
its docstring says: a regular's own style (its hand judged against one opponent, calls priced from the
pot its ``PotWatch`` counts) against everybody but the partner; never a bet or raise when the partner is
the only other player left; never a raise of the partner's bet with others in the hand. The hand's
strength is fixed here (the equity sampling is ``HandStrength``'s, tested with the strategies)."""

from __future__ import annotations

import random
from typing import Any

from pokerroom.bots.planted import PLANTED, PotWatch, SoftPlayer
from pokerroom.bots.strategies import BotView

RNG = random.Random(1)


class _Fixed(SoftPlayer):
    """A SoftPlayer whose hand has ``share`` against one random hand (as ``HandStrength`` would raise it to
    the power of the opponents it is judged against)."""

    def __init__(self, share: float, partner: int | None, watch: PotWatch) -> None:
        super().__init__(lambda: partner, watch, samples=1, opponents_sampled=1)
        self.share = share
        self.judged: list[int] = []

    def strength(self, view: BotView, rng: random.Random) -> float:
        self.judged.append(view.opponents)
        return float(self.share**view.opponents)


def _event(**e: Any) -> dict[str, Any]:
    return {"type": "event", "event": e}


def _table(*actions: dict[str, Any], seats: int = 6) -> PotWatch:
    """A watch of a 6-max hand: blinds 1/2 by seats 1 and 2, then ``actions`` (events)."""
    w = PotWatch()
    w.see(_event(type="hand_started"))
    for s in range(1, seats + 1):
        w.see(_event(type="cards_dealt", seat=s, cards=["??", "??"]))
    w.see(_event(type="posted", seat=1, amount=1, what="small_blind"))
    w.see(_event(type="posted", seat=2, amount=2, what="big_blind"))
    for a in actions:
        w.see(_event(type="action", **a))
    return w


def _view(seat: int, *, call: int = 0, opponents: int = 5) -> BotView:
    decision = {
        "kind": "bet", "fold": call > 0, "check": call == 0, "call": call, "to_call": call,
        "raise": "raise" if call else "bet", "min_to": 12, "max_to": 200, "choices": [], "bring_in": 0,
    }  # fmt: skip
    return BotView("holdem", "NL", seat, ["As", "Kd"], ["2c", "7d", "9h"], decision, opponents=opponents)


def _raise(seat: int, to: int) -> dict[str, Any]:
    return {"seat": seat, "action": "raise", "amount": to, "total": to}


def test_the_watch_counts_the_pot_from_the_tables_events() -> None:
    w = _table(_raise(3, 6), {"seat": 4, "action": "call", "amount": 6, "total": 6})
    assert w.pot == 1 + 2 + 6 + 6
    w.see(_event(type="action", seat=5, action="raise", amount=30, total=30))
    w.see(_event(type="bet_returned", seat=5, amount=24))
    assert w.pot == 15 + 6
    w.see(_event(type="hand_started"))
    assert w.pot == 0
    assert PLANTED["soft"] == (SoftPlayer, PotWatch)


def test_against_others_he_plays_a_regulars_style() -> None:
    # seat 3 raised to 6 (pot 9), seat 6 (the partner, seat 5) is still in: a bet not the partner's
    for share, call, expected in [
        (0.7, 6, "raise_to"),  # strong: raises, judged against one opponent though five are seated
        (0.45, 6, "call"),  # fair: the price is 6 / 15, his share beats it
        (0.3, 6, "fold"),
        (0.5, 0, "check"),
    ]:
        w = _table(_raise(3, 6)) if call else _table()
        bot = _Fixed(share, 5, w)
        assert bot.decide(_view(4, call=call), RNG)["type"] == expected, (share, call)
        assert set(bot.judged) == {1}
    # no partner at all: the same regular
    assert _Fixed(0.7, None, _table(_raise(3, 6))).decide(_view(4, call=6), RNG)["type"] == "raise_to"


def test_with_the_partner_alone_he_never_bets_or_raises() -> None:
    folds = [{"seat": s, "action": "fold"} for s in (1, 2, 3, 6)]
    w = _table(*folds)  # seats 4 and 5 left: the pair
    assert w.live() == {4, 5}
    assert _Fixed(0.95, 5, w).decide(_view(4), RNG) == {"type": "check"}
    assert _Fixed(0.95, 5, w).decide(_view(4, call=4), RNG) == {"type": "call"}
    # the same spot against an honest player (seat 5 is not his partner): he bets
    assert _Fixed(0.95, 2, w).decide(_view(4), RNG)["type"] == "raise_to"


def test_with_others_in_he_never_raises_the_partners_bet_but_bets_as_ever() -> None:
    partner_bet = _table(_raise(5, 6))
    assert _Fixed(0.9, 5, partner_bet).decide(_view(4, call=6), RNG) == {"type": "call"}
    assert _Fixed(0.3, 5, partner_bet).decide(_view(4, call=6), RNG) == {"type": "fold"}
    # another's bet over the partner's: raised as ever; and he bets first into a pot the partner is in
    other_bet = _table(_raise(5, 6), _raise(6, 18))
    assert _Fixed(0.9, 5, other_bet).decide(_view(4, call=18), RNG)["type"] == "raise_to"
    assert _Fixed(0.9, 5, _table()).decide(_view(4), RNG)["type"] == "raise_to"
    # the partner folded: alone with another player he bets as ever
    folded = _table(*({"seat": s, "action": "fold"} for s in (1, 2, 3, 5)))
    assert folded.live() == {4, 6}
    assert _Fixed(0.95, 5, folded).decide(_view(4), RNG)["type"] == "raise_to"
