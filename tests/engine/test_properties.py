"""Property-based tests of the hand engine (hypothesis), over every game and every structure it allows."""

from __future__ import annotations

import json

from pokerroom.engine import Betting, Call, HandState, ListDeck, RestoreError, SeatSetup, Stakes, Structure
from pokerroom.engine.events import ActionTaken
from pokerroom.variants import VARIANTS

FL = Betting.FIXED_LIMIT


# ------------------------------------------------------------------- regressions found by these properties


def test_stud_no_bring_in_when_the_others_are_all_in_on_the_ante() -> None:
    """RULES §3.1 / §4.5: with every other player all-in for the ante there is nobody to bet against, so
    no bring-in is asked for (it could only come back uncalled) and the hand runs out by itself."""
    hand = HandState.start(
        variant=VARIANTS["stud"],
        structure=Structure(FL, Stakes.fixed_limit(2, 4, ante=2, bring_in=1, blinds=False)),
        seats=[SeatSetup(1, 50), SeatSetup(2, 2), SeatSetup(3, 2)],
        deck=ListDeck.from_text("2c 3c 4c  5c 6c 7c  8c 9c 2d"),
    )
    assert hand.is_over
    assert not any(isinstance(e, ActionTaken) for e in hand.events)
    assert sum(hand.stacks().values()) == 54


def test_restore_refuses_snapshots_with_wrong_types() -> None:
    """A snapshot with a field of the wrong type (the deck, the phh codes, ...) is refused with
    RestoreError (code "bad_snapshot"), never another exception."""
    hand = HandState.start(
        variant=VARIANTS["holdem"],
        structure=Structure(Betting.NO_LIMIT, Stakes.blinds(5, 10)),
        seats=[SeatSetup(1, 100), SeatSetup(2, 100), SeatSetup(3, 100)],
        deck=ListDeck.from_text(""),
    )
    hand.apply(Call(3))
    snapshot = hand.snapshot()
    for top, sub in [(k, None) for k in snapshot] + [("variant", k) for k in snapshot["variant"]]:
        for wrong in (None, True, -1, 1.5, "x", [], [1], {}):
            damaged = json.loads(json.dumps(snapshot))
            if sub is None:
                damaged[top] = wrong
            else:
                damaged[top][sub] = wrong
            try:
                HandState.restore(damaged)
            except RestoreError as exc:
                assert exc.code == "bad_snapshot"
