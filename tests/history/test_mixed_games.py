"""Hand histories of a mixed table (RULES.md §11.1: "every hand's history names its own game and stakes"):
PHH writes each hand's own ``variant`` and stakes with the mix as ``_mix``; the PokerStars-style text
names the mix, then the hand's game, as PokerStars writes mixed-game hands ("HORSE (Razz Limit, $2/$4)")."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from pokerroom.engine import Betting, Stakes
from pokerroom.history import (
    GAME_NAMES,
    HandContext,
    TournamentInfo,
    read_phh,
    read_pokerstars,
    replay,
    write_phh,
    write_pokerstars,
)
from pokerroom.rooms import CashTable, FinishedHand, TableConfig

from ..rooms.cash_driver import play

WHEN = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def _eight_game_hands() -> list[FinishedHand]:
    cfg = TableConfig(
        "m", "Mixed", "deuce7_triple", Betting.FIXED_LIMIT, Stakes.fixed_limit(200, 400), 6, mix="8game",
        round_hands=2, currency="USD",
    )  # fmt: skip
    return play(CashTable(cfg, random.Random(7)), random.Random(8), 40).records


def test_every_hand_is_written_in_its_own_game_under_the_mix() -> None:
    records = _eight_game_hands()
    assert {r.hand.variant.code for r in records} == {
        "deuce7_triple", "holdem", "omaha8", "razz", "stud", "stud8", "omaha",
    }  # fmt: skip
    for r in records:
        assert r.mix == "8-Game"
        ctx = HandContext(hand_id=r.hand_id, time=WHEN, currency="USD", minor_units=100, mix=r.mix)
        phh = read_phh(write_phh(r.hand, context=ctx))
        assert phh.variant.code == r.hand.variant.code and phh.betting is r.hand.structure.betting
        assert phh.context.mix == "8-Game"
        assert replay(phh).state.events == r.hand.events
        header = write_pokerstars(r.hand, ctx).splitlines()[0]
        words = {Betting.FIXED_LIMIT: "Limit", Betting.POT_LIMIT: "Pot Limit", Betting.NO_LIMIT: "No Limit"}
        game = f"{GAME_NAMES[r.hand.variant.code]} {words[r.hand.structure.betting]}"
        assert f": 8-Game ({game}, " in header, header
        if r.hand.structure.betting is Betting.FIXED_LIMIT:
            assert header.endswith("$2/$4 USD) - 2026/12/01 20:00:00 UTC")


def test_razz_header_and_a_mixed_tournament_header() -> None:
    records = [r for r in _eight_game_hands() if r.hand.variant.code == "razz"]
    ctx = HandContext(hand_id="5", time=WHEN, currency="USD", minor_units=100, mix="HORSE")
    assert write_pokerstars(records[0].hand, ctx).startswith(
        "PokerStars Hand #5: HORSE (Razz Limit, $2/$4 USD)"
    )
    info = TournamentInfo("t9", number=9, buy_in=1000, fee=100, level=2)
    ctx = HandContext(hand_id="6", time=WHEN, tournament=info, mix="HORSE")
    head = write_pokerstars(records[0].hand, ctx).splitlines()[0]
    assert "Tournament #9, 1000+100 HORSE (Razz Limit) - Level II (200/400)" in head


def test_a_mixed_games_text_reads_back_with_its_game_and_mix() -> None:
    """The PokerStars-format reader (hold'em and Omaha) takes the mixed header's game, and keeps the mix."""
    records = _eight_game_hands()
    info = TournamentInfo("t9", number=9, buy_in=1000, fee=100, level=2)
    for code, betting in (("holdem", "FL"), ("holdem", "NL"), ("omaha", "PL")):
        r = next(
            x for x in records if (x.hand.variant.code, x.hand.structure.betting.value) == (code, betting)
        )
        for ctx in (
            HandContext(hand_id="5", time=WHEN, currency="USD", minor_units=100, mix="8-Game"),
            HandContext(hand_id="6", time=WHEN, tournament=info, mix="8-Game"),
        ):
            ((_, phh_text),) = read_pokerstars(write_pokerstars(r.hand, ctx))
            assert isinstance(phh_text, str), phh_text
            phh = read_phh(phh_text)
            assert (phh.variant.code, phh.betting.value, phh.context.mix) == (code, betting, "8-Game")
            assert replay(phh).matches is True
