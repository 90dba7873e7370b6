"""A cash table's numbers for the lobby (issue 20, item 5): average pot, the share of players who see the
second street ("players per flop"; the second street of any game: the flop, 4th street, the first draw),
and hands per hour, over the table's last hands. Pure: the caller gives each finished hand's events and
when it ended. A mixed table's figures are kept per game too (RULES.md §11.1: each hand in its own game,
:meth:`TableStats.by_game`)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from pokerroom.engine.events import ActionTaken, Event, HandStarted, PotAwarded, StreetStarted

__all__ = ["HandFigures", "TableStats", "figures_of"]

HOUR = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class HandFigures:
    ended: datetime
    pot: int  # every pot paid out, rake included
    dealt: int  # players dealt in
    saw_second: int  # of them, still in when the second street began
    game: str = ""  # the hand's game: ``holdem/FL`` (variant code / structure)


def figures_of(events: Iterable[Event], ended: datetime) -> HandFigures:
    dealt = 0
    folded: set[int] = set()
    saw = 0
    pot = 0
    game = ""
    for e in events:
        if isinstance(e, HandStarted):
            dealt = len(e.seats)
            game = f"{e.variant}/{e.betting}"
        elif isinstance(e, ActionTaken) and e.action == "fold":
            folded.add(e.seat)
        elif isinstance(e, StreetStarted) and e.index == 1:
            saw = dealt - len(folded)
        elif isinstance(e, PotAwarded):
            pot += e.amount + e.rake
    return HandFigures(ended, pot, dealt, saw, game)


class TableStats:
    """The last ``keep`` hands of one table."""

    def __init__(self, keep: int = 100) -> None:
        self.hands: deque[HandFigures] = deque(maxlen=keep)
        self.game_hands: dict[str, int] = {}  # every hand since the table opened, by game

    def add(self, figures: HandFigures) -> None:
        self.hands.append(figures)
        self.game_hands[figures.game] = self.game_hands.get(figures.game, 0) + 1

    def by_game(self) -> dict[str, dict[str, int | None]]:
        """Each game's figures (a mixed table's, RULES.md §11.1): ``hands`` since the table opened, and over
        the kept hands of that game ``recent`` (how many), ``avg_pot`` and ``players_per_flop`` as
        :meth:`summary` has them."""
        out: dict[str, dict[str, int | None]] = {}
        for game, total in sorted(self.game_hands.items()):
            kept = [h for h in self.hands if h.game == game]
            dealt = sum(h.dealt for h in kept)
            out[game] = {
                "hands": total,
                "recent": len(kept),
                "avg_pot": sum(h.pot for h in kept) // len(kept) if kept else None,
                "players_per_flop": round(100 * sum(h.saw_second for h in kept) / dealt) if dealt else None,
            }
        return out

    def summary(self, now: datetime) -> dict[str, int | None]:
        """``avg_pot`` (chips, rounded down), ``players_per_flop`` (per cent of the players dealt in, rounded)
        and ``hands_per_hour`` (the hands of the last hour, or the pace of the hands so far when the table
        has dealt for less than an hour); None where no hand was played."""
        hands = list(self.hands)
        if not hands:
            return {"avg_pot": None, "players_per_flop": None, "hands_per_hour": None}
        dealt = sum(h.dealt for h in hands)
        recent = [h for h in hands if now - h.ended <= HOUR]
        if len(recent) >= 2 and now - recent[0].ended < HOUR:
            span = (now - recent[0].ended).total_seconds()
            per_hour = round((len(recent) - 1) * 3600 / span) if span > 0 else None
        else:
            per_hour = len(recent)
        return {
            "avg_pot": sum(h.pot for h in hands) // len(hands),
            "players_per_flop": round(100 * sum(h.saw_second for h in hands) / dealt) if dealt else None,
            "hands_per_hour": per_hour,
        }
