"""The real mixed-game hands of the public PHH dataset (issue 36; tests/fixtures/phh/README.md): the 2023
WSOP Event #43, $50,000 Poker Players Championship, a mixed game whose day-5 final-table hands are kept
in ``wsop-2023-43-5/``.

The dataset's hands carry no rotation information: each names its own game and its televised hand
number, not the round it belongs to nor the hands of it dealt before (hands that were not televised are
missing, so the numbers cannot be counted into rounds). So each is replayed in its own game (RULES.md
§11.1: every hand's history names its own game), and what is checked of the mix is that each is a game of
our 8-game mix or the event's ninth game (NL 2-7 single draw). (Taken in hand-number order the games do
not even come round as one cycle would: razz at hands 20 and 85 with only six of the other games
between; the numbers are the annotator's, so no rotation can be read from them.)"""

from __future__ import annotations

from pathlib import Path

from pokerroom.engine import Betting
from pokerroom.history import read_phh, replay
from pokerroom.rooms.mixes import MIXES

WSOP = Path(__file__).resolve().parents[1] / "fixtures" / "phh" / "wsop-2023-43-5"
HANDS = sorted(WSOP.glob("*.phh"), key=lambda p: int(p.stem))
NINTH = ("deuce7_single", Betting.NO_LIMIT)  # the Players Championship's ninth game, in no shipped mix


def _games() -> list[tuple[int, tuple[str, Betting]]]:
    out = []
    for path in HANDS:
        hand = read_phh(path.read_text())
        result = replay(hand)
        assert result.complete and result.finishing_stacks == hand.finishing_stacks, path.name
        state = result.state
        out.append((int(path.stem), (state.variant.code, state.structure.betting)))
    return out


def test_each_real_mixed_game_hand_replays_in_its_own_game_of_the_mix() -> None:
    """R246's games: every hand is replayed in the game it names, and that game is one of 8-game's
    (FL 2-7 triple draw, FL hold'em, FL Omaha hi/lo, razz, stud, stud hi/lo, NL hold'em, PL Omaha) or the
    event's ninth game; the day's hands cover all eight of 8-game."""
    eight = {(g.variant, g.betting) for g in MIXES["8game"].games}
    games = _games()
    assert len(games) == len(HANDS) >= 10
    assert {g for _, g in games} <= eight | {NINTH}
    assert {g for _, g in games} >= eight
