"""One player's figures of one stored hand, for his lifetime statistics (issue 31): what the hand won or
lost him and whether it counts for VPIP, PFR, 3-bet, the second street and the showdown.

The one definition of these figures (docs/client.md, "Lifetime statistics"), read from the hand's events
as the engine replays the history, the way the session statistics of the browser (web/js/stats.js) read
them live:

- the **first betting round** is every action before the second street starts (the flop, 4th street, the
  first draw); in hold'em and Omaha that is preflop, in stud third street, in draw games the round before
  the first draw;
- **VPIP**: he called, bet, raised or completed in the first betting round (blinds, antes, the bring-in and
  a check of the big blind do not count);
- **PFR**: he bet, raised or completed in the first betting round;
- **3-bet**: the forced opening (the big blind, the bring-in; with antes only, the unopened pot) is the
  first bet, the first bet, raise or completion the second ("the open"), the next one the third. He had
  the **chance** of a 3-bet when he acted in the first round facing the open (the second bet) and it was
  not his own; he **3-bet** when that action was a raise;
- **saw the second street**: the hand reached its second street with him not folded;
- **went to showdown**: he had not folded when the hand ended and at least one other player had not
  either; **won at showdown**: he went to showdown and was paid a share of a pot;
- **net**: his finishing minus his starting stack (after the rake; tournament chips in a tournament).

Read from the player's own history (the cards he could not see are ``??`` there, and replaying fills them
with cards the history never names: no figure here depends on a card), or from the audit history of a
hand whose copy for him is not written yet, given his seat: either way only public facts of his own seat
come out. Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pokerroom.engine.events import ActionTaken, HandEnded, PotAwarded, StreetStarted
from pokerroom.history import HistoryError, read_phh, replay
from pokerroom.server.stored_hands import StoredHand

__all__ = ["HandFigures", "figures_from_events", "hand_figures"]

VOLUNTARY = frozenset({"call", "bet", "raise", "complete"})
AGGRESSIVE = frozenset({"bet", "raise", "complete"})


@dataclass(frozen=True, slots=True)
class HandFigures:
    """One player's figures of one hand (the counts are 0 or 1)."""

    game: str  # the variant code ("holdem")
    betting: str  # "NL", "PL", "FL"
    currency: str  # the ISO code, PLAY, or CHIPS in a tournament
    stakes: str  # the lobby's label ("1/2")
    net: int
    vpip: int = 0
    pfr: int = 0
    three_bet_chance: int = 0
    three_bet: int = 0
    saw_second: int = 0
    showdown: int = 0
    won_showdown: int = 0


@dataclass(frozen=True, slots=True)
class _Counts:
    vpip: int
    pfr: int
    three_bet_chance: int
    three_bet: int
    saw_second: int
    showdown: int
    won_showdown: int


def figures_from_events(events: Sequence[object], seat: int) -> _Counts:
    """The counts of ``seat`` in a finished hand's events (see the module's definitions)."""
    first_round = True
    level = 1  # bets made in the first round: the forced opening counts as the first
    vpip = pfr = chance = three = saw = 0
    folded: set[int] = set()
    dealt: tuple[int, ...] = ()
    won = False
    for e in events:
        if isinstance(e, StreetStarted) and e.index >= 1 and first_round:
            first_round = False
            saw = int(seat not in folded)
        elif isinstance(e, ActionTaken):
            if e.action == "fold":
                folded.add(e.seat)
            if not first_round:
                continue
            if e.seat == seat:
                if e.action in VOLUNTARY:
                    vpip = 1
                if e.action in AGGRESSIVE:
                    pfr = 1
                if level == 2 and not chance:
                    chance = 1
                    three = int(e.action in AGGRESSIVE)
            if e.action in AGGRESSIVE:
                level += 1
        elif isinstance(e, PotAwarded):
            won = won or any(w == seat and s > 0 for w, s in zip(e.winners, e.shares, strict=False))
        elif isinstance(e, HandEnded):
            dealt = e.seats
    standing = [s for s in dealt if s not in folded]
    showdown = int(seat in standing and len(standing) >= 2)
    return _Counts(vpip, pfr, chance, three, saw, showdown, int(showdown and won))


def hand_figures(phh: str, seat: int | None = None) -> HandFigures:
    """The figures of one hand for one player: from his own history (``seat`` None: the history's
    ``_viewer``), or from the audit history and his ``seat``. :class:`HistoryError` when it cannot be read
    or replayed, or names no such player."""
    hand = read_phh(phh)
    if seat is None:
        viewer = hand.fields.get("_viewer")
        if isinstance(viewer, bool) or not isinstance(viewer, int) or not 1 <= viewer <= hand.player_count:
            raise HistoryError("not a player's own history (no _viewer)", field="_viewer")
    else:
        if seat not in hand.seats:
            raise HistoryError(f"no player at seat {seat} in this hand", field="seats")
        viewer = hand.seats.index(seat) + 1
    own = StoredHand(hand, viewer)
    net = own.net()
    if net is None:
        raise HistoryError("the history has no finishing stack for the player", field="finishing_stacks")
    events = list(replay(hand).state.events)
    c = figures_from_events(events, own.seat)
    return HandFigures(
        game=hand.variant.code,
        betting=hand.betting.value,
        currency=own.currency,
        stakes=own.stakes_label(),
        net=net,
        vpip=c.vpip,
        pfr=c.pfr,
        three_bet_chance=c.three_bet_chance,
        three_bet=c.three_bet,
        saw_second=c.saw_second,
        showdown=c.showdown,
        won_showdown=c.won_showdown,
    )
