"""``pokerroom import`` of non-hold'em games (issue 36 item 5): Omaha hi/lo, 7-card stud (hi/lo) and razz,
2-7 triple and single draw and 5-card draw, as PokerStars writes them, mixed-game headers included.

Round trip: our own text export of random hands of each game (a player's copy, most cards unknown, and
the audit copy) comes back as PHH that replays to the same chips in the same game, the engine agreeing
with the text's own figures. Hands written by hand in PokerStars' words (not by our writer) too."""

from __future__ import annotations

from decimal import Decimal

import pytest

from pokerroom.engine import Betting
from pokerroom.history import read_phh, read_pokerstars, replay, write_pokerstars

from ..history.helpers import random_hands
from .test_import import CTX

GAMES = [
    ("omaha8", Betting.POT_LIMIT),
    ("omaha8", Betting.FIXED_LIMIT),
    ("stud", Betting.FIXED_LIMIT),
    ("stud8", Betting.FIXED_LIMIT),
    ("razz", Betting.FIXED_LIMIT),
    ("deuce7_triple", Betting.FIXED_LIMIT),
    ("deuce7_single", Betting.NO_LIMIT),
    ("draw5", Betting.NO_LIMIT),
]


@pytest.mark.parametrize(("game", "betting"), GAMES, ids=[f"{g}-{b.value}" for g, b in GAMES])
def test_our_export_of_every_game_comes_back_to_the_same_hand(game: str, betting: Betting) -> None:
    checked = 0
    for i, hand in enumerate(random_hands(game, betting, 16, "import-games")):
        if hand.rake:
            continue  # a raked hand replays to the chips before the rake (docs/history.md)
        for viewer in (hand.order[i % len(hand.order)], None):
            [(number, phh)] = read_pokerstars(write_pokerstars(hand, CTX, viewer=viewer))
            assert number == 3000000001 and isinstance(phh, str), phh
            result = replay(read_phh(phh))
            assert (result.hand.variant.code, result.hand.betting) == (game, betting)
            assert result.matches is True, phh  # the engine's chips are the text's
            cents = {
                s: int(Decimal(f) * 100 / result.hand.scale)
                for s, f in zip(result.hand.seats, result.finishing_stacks, strict=True)
            }
            assert cents == hand.stacks()
            checked += 1
    assert checked >= 16


# Written by hand in PokerStars' words (a HORSE razz hand, a stud hi/lo hand, a triple draw hand).
RAZZ = """\
PokerStars Hand #244000000001:  HORSE (Razz Limit, $2/$4 USD) - 2023/06/22 21:04:05 ET
Table 'Aase III' 8-max
Seat 1: amy ($40 in chips)
Seat 3: ben ($31.50 in chips)
Seat 6: cat ($18 in chips)
amy: posts the ante $0.40
ben: posts the ante $0.40
cat: posts the ante $0.40
*** 3rd STREET ***
Dealt to amy [Kd]
Dealt to ben [As 3d 4h]
Dealt to cat [2c]
amy: brings in for $0.50
ben: completes it to $2
cat: calls $2
amy: folds
*** 4th STREET ***
Dealt to ben [As 3d 4h] [7c]
Dealt to cat [2c] [Qh]
ben: bets $2
cat: calls $2
*** 5th STREET ***
Dealt to ben [As 3d 4h 7c] [8s]
Dealt to cat [2c Qh] [Jh]
ben: bets $4
cat: folds
Uncalled bet ($4) returned to ben
ben collected $9.70 from pot
ben: doesn't show hand
*** SUMMARY ***
Total pot $9.70 | Rake $0
Seat 1: amy folded on the 3rd Street
Seat 3: ben collected ($9.70)
Seat 6: cat folded on the 5th Street
"""

STUD8 = """\
PokerStars Hand #244000000002:  7 Card Stud Hi/Lo Limit ($1/$2 USD) - 2023/06/22 21:10:00 ET
Table 'Aase IV' 8-max
Seat 2: dan ($20 in chips)
Seat 5: eve ($20 in chips)
dan: posts the ante $0.20
eve: posts the ante $0.20
*** 3rd STREET ***
Dealt to dan [3c]
Dealt to eve [Ad 2d 5h]
dan: brings in for $0.25
eve: calls $0.25
*** 4th STREET ***
Dealt to dan [3c] [9h]
Dealt to eve [Ad 2d 5h] [3s]
dan: bets $1
eve: calls $1
*** 5th STREET ***
Dealt to dan [3c 9h] [Kc]
Dealt to eve [Ad 2d 5h 3s] [Td]
dan: checks
eve: checks
*** 6th STREET ***
Dealt to dan [3c 9h Kc] [Ks]
Dealt to eve [Ad 2d 5h 3s Td] [4c]
dan: bets $2
eve: calls $2
*** RIVER ***
Dealt to eve [Ad 2d 5h 3s Td 4c] [Jc]
dan: checks
eve: checks
*** SHOW DOWN ***
eve: shows [Ad 2d 5h 3s Td 4c Jc] (HI: a straight, Ace to Five; LO: 5,4,3,2,A)
dan: mucks hand
eve collected $6.90 from pot
*** SUMMARY ***
Total pot $6.90 | Rake $0
Seat 2: dan mucked [8d 2s 3c 9h Kc Ks 6h]
Seat 5: eve showed [Ad 2d 5h 3s Td 4c Jc] and won ($6.90) with HI: a straight, Ace to Five; LO: 5,4,3,2,A
"""

TRIPLE = """\
PokerStars Hand #244000000003:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD) - 2023/06/22 21:20:00 ET
Table 'Aase V' 6-max Seat #1 is the button
Seat 1: fay ($5 in chips)
Seat 2: gus ($4 in chips)
Seat 4: hal ($6 in chips)
gus: posts small blind $0.05
hal: posts big blind $0.10
*** DEALING HANDS ***
Dealt to fay [2h 3h 7c 8d Kd]
fay: raises $0.10 to $0.20
gus: folds
hal: calls $0.10
*** FIRST DRAW ***
hal: discards 2 cards
fay: discards 1 card [Kd]
Dealt to fay [2h 3h 7c 8d] [4s]
hal: checks
fay: bets $0.10
hal: calls $0.10
*** SECOND DRAW ***
hal: discards 1 card
fay: stands pat on [2h 3h 7c 8d 4s]
hal: bets $0.20
fay: raises $0.20 to $0.40
hal: calls $0.20
*** THIRD DRAW ***
hal: stands pat
fay: stands pat on [2h 3h 7c 8d 4s]
hal: checks
fay: bets $0.20
hal: calls $0.20
*** SHOW DOWN ***
fay: shows [2h 3h 7c 8d 4s] (Lo: 8,7,4,3,2)
hal: shows [2c 3c 4d 5s 7h] (Lo: 7,5,4,3,2)
hal collected $1.85 from pot
*** SUMMARY ***
Total pot $1.85 | Rake $0
Seat 1: fay (button) showed [2h 3h 7c 8d 4s] and lost with Lo: 8,7,4,3,2
Seat 2: gus (small blind) folded before the Draw
Seat 4: hal (big blind) showed [2c 3c 4d 5s 7h] and won ($1.85) with Lo: 7,5,4,3,2
"""


@pytest.mark.parametrize(
    ("text", "game", "stacks", "mix"),
    [
        (RAZZ, "razz", {"amy": "39.1", "ben": "36.8", "cat": "13.6"}, "HORSE"),
        (STUD8, "stud8", {"dan": "16.55", "eve": "23.45"}, None),
        (TRIPLE, "deuce7_triple", {"fay": "4.1", "gus": "3.95", "hal": "6.95"}, None),
    ],
    ids=["razz-in-horse", "stud8", "triple-draw"],
)
def test_hands_written_by_pokerstars_come_in_as_their_games(
    text: str, game: str, stacks: dict[str, str], mix: str | None
) -> None:
    [(_, phh)] = read_pokerstars(text)
    assert isinstance(phh, str), phh
    hand = read_phh(phh)
    result = replay(hand)
    assert result.hand.variant.code == game and result.matches is True
    got = {p: Decimal(f) / hand.scale for p, f in zip(hand.players, result.finishing_stacks, strict=True)}
    assert got == {p: Decimal(v) for p, v in stacks.items()}
    assert hand.fields.get("_mix") == mix
