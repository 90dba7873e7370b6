"""Who straddles and who chooses the game at a cash table (RULES.md §11.1, §11.2): pure decisions that
``rooms/cash.py`` asks before a hand, kept here so the table stays readable (docs/decisions.md, issue 36)."""

from __future__ import annotations

from collections.abc import Mapping

from pokerroom.rooms.seating import HandPlan, Positions

__all__ = ["chooser", "straddler"]


def straddler(option: str, amount: int, plan: HandPlan, wants: Mapping[int, tuple[bool, int]]) -> int | None:
    """The seat that straddles ``amount`` this hand, if any (R252, R253): ``option`` is the table's
    (``off``, ``utg``, ``mississippi``), ``wants`` each dealt-in seat's (asked to straddle, stack).

    Never heads-up; one straddle a hand; at a Mississippi table the button first, else the player under
    the gun. Our decisions: the player must have asked for it, must not be posting in this hand (a new or
    returning player's live or dead blind), and must have more chips than the straddle."""
    if option == "off" or len(plan.dealt_in) < 3:
        return None
    big = plan.big_blind
    after_big = [s for s in plan.dealt_in if s > big] + [s for s in plan.dealt_in if s < big]
    candidates = [after_big[0]]
    if option == "mississippi" and plan.button in plan.dealt_in and plan.button != after_big[0]:
        candidates.insert(0, plan.button)
    for seat in candidates:
        asked, stack = wants[seat]
        if asked and seat not in plan.live and seat not in plan.dead and stack > amount:
            return seat
    return None


def chooser(positions: Positions | None, playing: Mapping[int, bool]) -> int | None:
    """Dealer's choice (RULES.md §11.1): the seat of the player who picks the round's game: the button's,
    which during stud rounds stays where it was; if that seat is empty or its player does not play
    (``playing[seat]`` False: sitting out, broke, leaving), the next player clockwise who does. Nobody
    before the table's first blind hand (no button yet)."""
    if positions is None:
        return None
    button = positions.button
    seats = sorted(playing)
    for seat in [s for s in seats if s >= button] + [s for s in seats if s < button]:
        if playing[seat]:
            return seat
    return None
