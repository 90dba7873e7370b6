"""A player's copies written later from the audit PHH (history/views.py) are exactly the copies written
from the hand at the table, for every game and structure, with the context the room gives a cash hand
and a tournament hand (names, time, table, currency, seat count, deck proof, global numbers)."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest

from pokerroom.cards import DeckSpec
from pokerroom.engine import Betting
from pokerroom.history import DeckProof, HandContext, TournamentInfo, write_phh, write_pokerstars
from pokerroom.history.errors import HistoryError
from pokerroom.history.views import views_from_audit
from pokerroom.variants import VARIANTS

from .helpers import CASE_IDS, CASES, random_hands

_CASH = HandContext(
    hand_id="holdem-nl-7",
    table="Alpha",
    time=dt.datetime(2026, 11, 30, 12, 0, 5, tzinfo=dt.UTC),
    players={i: f"player {i}" for i in range(1, 11)},
    currency="USD",
    currency_symbol="$",
    minor_units=100,
    seat_count=10,
    proof=DeckProof.seal(DeckSpec.STANDARD.cards(), None, salt=lambda: "5" * 32),
)
_TOURNAMENT = HandContext(
    hand_id="t1-3-12",
    table="Daily 3",
    time=dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC),
    players={i: f"P{i}" for i in range(1, 11)},
    seat_count=10,
    tournament=TournamentInfo(tournament_id="t1", name="Daily", buy_in=1000, fee=100, level=2),
)


@pytest.mark.parametrize(("game", "betting"), CASES, ids=CASE_IDS)
@pytest.mark.parametrize("ctx", [_CASH, _TOURNAMENT, HandContext()], ids=["cash", "tournament", "bare"])
def test_copies_from_the_audit_phh_are_the_copies_written_at_the_table(
    game: str, betting: Betting, ctx: HandContext
) -> None:
    hands = list(random_hands(game, betting, 4, "later"))
    if VARIANTS[game].has_shared_board:  # run it twice (R-RIT): the runs' boards and pots
        hands += random_hands(game, betting, 4, "later", run_it_twice=True)
    for i, hand in enumerate(hands):
        t = ctx.tournament
        numbered = replace(
            ctx, hand_number=1000 + i, tournament=replace(t, number=77) if t is not None else None
        )
        later = views_from_audit(
            write_phh(hand, context=ctx), hand.order, hand_number=1000 + i, tournament_number=77
        )
        for seat in hand.order:
            assert later[seat] == (
                write_phh(hand, viewer=seat, context=numbered),
                write_pokerstars(hand, numbered, viewer=seat),
            )


def test_an_unreadable_audit_copy_is_a_history_error() -> None:
    with pytest.raises(HistoryError):
        views_from_audit("variant = 'NT'\n", [1])
