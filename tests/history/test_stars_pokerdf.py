"""Our PokerStars-format text read by an independent parser from PyPI: pokerdf (test-only dependency).

pokerdf turns PokerStars tournament histories into tables. We found no parser on PyPI that replays the
other games (stud, draw) the way PokerKit's replays hold'em; pokerdf reads the parts of the text every
game shares, game by game, with its own regular expressions: the hand and tournament numbers, the level,
the players and their stacks, the antes and blinds posted, the uncalled bets returned, what each player
collected, the total pot, the pots and the rake, and the hero (the player under ``Dealt to``). All must be
what our engine played. pokerdf reads integer chips and one-digit seats: tournament hands at tables of up
to nine (docs/history.md).
"""

from __future__ import annotations

import datetime as dt
import warnings

import pytest

from pokerroom.engine import Betting, HandState
from pokerroom.engine.events import BetReturned, Posted, PotAwarded
from pokerroom.history import HandContext, TournamentInfo, write_pokerstars
from pokerroom.variants import VARIANTS

from .helpers import CASE_IDS, CASES, random_hands

ET = dt.timezone(dt.timedelta(hours=-5))


def _ctx() -> HandContext:
    return HandContext(
        hand_id="turbo6-a1b2-17",
        hand_number=987654321,
        table="777 3",
        time=dt.datetime(2026, 11, 30, 12, 0, tzinfo=ET),
        time_zone_label="ET",
        players={i: f"Player{i}" for i in range(1, 10)},
        seat_count=9,
        tournament=TournamentInfo("turbo6-a1b2", buy_in=100, fee=10, level=3, number=777),
    )


def _sum(hand: HandState, seat: int, kind: type, what: str = "") -> int | None:
    total = 0
    for e in hand.events:
        if isinstance(e, kind) and getattr(e, "seat", None) == seat and (not what or e.what == what):  # type: ignore[attr-defined]
            total += e.amount  # type: ignore[attr-defined]
    return total or None


@pytest.mark.parametrize(("game", "betting"), CASES, ids=CASE_IDS)
def test_pokerdf_reads_what_the_engine_played(game: str, betting: Betting) -> None:
    pytest.importorskip("pokerdf")
    from pokerdf.regex.regex_patterns import RegexPatterns

    r = RegexPatterns()
    checked = 0
    for hand in random_hands(game, betting, 80, "pokerdf"):
        if max(hand.order) > 9 or hand.rake:
            continue
        if checked == 12:
            break
        viewer = hand.order[checked % len(hand.order)]
        text = write_pokerstars(hand, _ctx(), viewer=viewer)
        parts = text.removeprefix("PokerStars ").split("\n*** ")  # as pokerdf splits a hand
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert r.get_hand_id(parts) == ["987654321"]
            assert r.get_tourn_id(parts) == ["777"]
            assert r.get_level(parts) == ["III"]
            names = [f"Player{s}" for s in hand.order]
            assert r.get_players(parts) == names
            won: dict[int, int] = {}
            for e in hand.events:
                if isinstance(e, PotAwarded):
                    for seat, share in zip(e.winners, e.shares, strict=True):
                        won[seat] = won.get(seat, 0) + share
            for seat, name in zip(hand.order, names, strict=True):
                assert r.get_stack(name, parts) == [hand.players[seat].starting_stack]
                assert r.get_posted_ante(name, parts) == [_sum(hand, seat, Posted, "ante")]
                blind = _sum(hand, seat, Posted, "small_blind") or _sum(hand, seat, Posted, "big_blind")
                assert r.get_posted_blind(name, parts) == [blind]
                assert r.get_uncalled_returned(name, parts) == [_sum(hand, seat, BetReturned)]
                assert r.get_balance(name, parts) == [won.get(seat) or None]
            assert r.get_total_pot_log(parts) == [hand.pot_total()]
            assert r.get_rake(parts) == [0]
            pots = [p.amount for p in hand.pots] if len(hand.pots) > 1 else [hand.pot_total()]
            assert list(r.get_pot_breakdown(parts)[0]) == pots
            owners = r.get_owner(parts)
            if VARIANTS[game].is_stud:  # PokerStars lists every player's up card under "Dealt to"
                assert f"Player{viewer}" in owners
            else:  # the hero, and only him: what a tracker needs (issue 21)
                assert owners == [f"Player{viewer}"]
        checked += 1
    assert checked >= 5
