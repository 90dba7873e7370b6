"""The cash table: configuration, seats, money effects, clocks, waiting list (RULES.md §4, §7)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from pokerroom.engine import (
    BetDecision,
    Betting,
    BringIn,
    Call,
    Check,
    ConfigError,
    Fold,
    NotYourTurn,
    RaiseTo,
    RakeRule,
    RunTwice,
    RunTwiceDecision,
    Stakes,
)
from pokerroom.rooms import (
    AlreadySeated,
    BuyIn,
    BuyInOutOfRange,
    CashOut,
    CashTable,
    FinishedHand,
    HandEvents,
    HandFinished,
    HandSettlement,
    LastHands,
    NoSuchSeat,
    OfferExpired,
    PostPrompt,
    SeatOffer,
    SeatTaken,
    TableConfig,
    TopUp,
    TurnClock,
)

from .helpers import at, holdem_table


def settlement(out: Sequence[object]) -> HandSettlement:
    return next(x for x in out if isinstance(x, HandSettlement))


@pytest.mark.parametrize(
    ("variant", "betting", "seats"),
    [
        ("holdem", Betting.NO_LIMIT, 11),
        ("stud", Betting.FIXED_LIMIT, 9),
        ("draw5", Betting.FIXED_LIMIT, 7),
        ("draw7a", Betting.FIXED_LIMIT, 6),
        ("omaha6", Betting.POT_LIMIT, 4),
        ("holdem", Betting.NO_LIMIT, 1),
    ],
)
def test_seat_counts_outside_the_games_limits_are_refused(variant: str, betting: Betting, seats: int) -> None:
    # R113 (stud 8), R166 (5-card draw 6), R52 (7-A 5), R171 (6-card Omaha 2 or 6), R242 (10 max)
    stakes = (
        Stakes.fixed_limit(200, 400, ante=40, bring_in=50, blinds=False)
        if variant == "stud"
        else (Stakes.fixed_limit(200) if betting is Betting.FIXED_LIMIT else Stakes.blinds(50, 100))
    )
    with pytest.raises(ConfigError):
        TableConfig("t", "T", variant, betting, stakes, seats)


def test_r155_fixed_limit_irish_table_is_refused() -> None:
    with pytest.raises(ConfigError):
        TableConfig("t", "T", "irish", Betting.FIXED_LIMIT, Stakes.fixed_limit(200), 6)


def test_bad_configurations_are_refused() -> None:
    with pytest.raises(ConfigError):
        TableConfig(
            "t", "T", "holdem", Betting.NO_LIMIT, Stakes.blinds(50, 100), 6, min_buy_in=5000, max_buy_in=4000
        )
    with pytest.raises(ConfigError):
        TableConfig("t", "T", "nope", Betting.NO_LIMIT, Stakes.blinds(50, 100), 6)
    with pytest.raises(ConfigError):
        TableConfig("t", "T", "stud", Betting.FIXED_LIMIT, Stakes.fixed_limit(200), 8)  # no bring-in


def test_default_buy_in_limits() -> None:
    nl = TableConfig("t", "T", "holdem", Betting.NO_LIMIT, Stakes.blinds(50, 100), 6)
    fl = TableConfig("t", "T", "holdem", Betting.FIXED_LIMIT, Stakes.fixed_limit(200, 400), 6)
    assert nl.buy_in_range == (4000, 10000)  # 40 BB / 100 BB
    assert fl.buy_in_range == (4000, 0)  # 10 big bets, no maximum


def test_sitting_and_its_errors() -> None:
    t = holdem_table()
    out = t.sit("ann", "Ann", 3, 10000, at(0))
    assert BuyIn("t1", "ann", 3, 10000) in out
    with pytest.raises(AlreadySeated):
        t.sit("ann", "Ann", 4, 10000, at(0))
    with pytest.raises(SeatTaken):
        t.sit("bob", "Bob", 3, 10000, at(0))
    with pytest.raises(NoSuchSeat):
        t.sit("bob", "Bob", 7, 10000, at(0))
    with pytest.raises(BuyInOutOfRange):
        t.sit("bob", "Bob", 4, 3999, at(0))
    with pytest.raises(BuyInOutOfRange):
        t.sit("bob", "Bob", 4, 10001, at(0))
    assert t.seat_of("bob") is None  # refused calls changed nothing


def start_heads_up(t: CashTable) -> Sequence[object]:
    t.sit("ann", "Ann", 1, 10000, at(0))
    t.sit("bob", "Bob", 2, 10000, at(0))
    return t.tick(at(1))


def test_a_hand_starts_runs_and_settles_to_zero_with_rake() -> None:
    t = holdem_table(rake=RakeRule(500, 300))
    out = start_heads_up(t)
    assert any(isinstance(x, HandEvents) for x in out)
    assert t.in_hand
    while t.in_hand:
        d = t.hand.pending  # type: ignore[union-attr]
        assert isinstance(d, BetDecision)
        player = t.seats[d.seat].player
        out = t.act(player, Check(d.seat) if d.check else Call(d.seat), at(2))
    s = settlement(out)
    assert sum(s.results.values()) + s.rake == 0
    assert s.rake == 10  # 5 % of a 200 pot that saw the flop
    assert sum(p.stack for p in t.seats.values()) == 20000 - 10


def test_a_player_acts_only_for_his_own_seat() -> None:
    t = holdem_table()
    start_heads_up(t)
    d = t.hand.pending  # type: ignore[union-attr]
    other = "ann" if t.seats[d.seat].player == "bob" else "bob"  # type: ignore[union-attr]
    with pytest.raises(NotYourTurn):
        t.act(other, Fold(d.seat), at(2))  # type: ignore[union-attr]


def test_r104_timeout_folds_and_the_player_is_sat_out_after_the_hand() -> None:
    t = holdem_table(action=15, time_bank=30)
    out = start_heads_up(t)
    clock = next(x for x in out if isinstance(x, TurnClock))
    assert (clock.action_deadline - clock.started).total_seconds() == 15
    assert (clock.bank_deadline - clock.started).total_seconds() == 45
    seat = clock.seat
    assert t.tick(at(1 + 44)) == []  # still inside the time bank
    out = t.tick(at(1 + 45))
    assert not t.in_hand
    p = t.seats[seat]
    assert p.sitting_out and p.time_bank == 0
    assert settlement(out).results[p.player] < 0


def test_time_bank_is_spent_when_used() -> None:
    t = holdem_table(action=15, time_bank=30)
    start_heads_up(t)
    d = t.hand.pending  # type: ignore[union-attr]
    player = t.seats[d.seat].player  # type: ignore[union-attr]
    t.act(player, Call(d.seat), at(1 + 25))  # type: ignore[union-attr]
    assert t.seats[d.seat].time_bank == 20  # type: ignore[union-attr]


def test_top_up_between_hands_only_and_up_to_the_maximum() -> None:
    t = holdem_table()
    t.sit("ann", "Ann", 1, 4000, at(0))
    out = t.top_up("ann", 6000, at(0))
    assert TopUp("t1", "ann", 1, 6000) in out and t.seats[1].stack == 10000
    with pytest.raises(BuyInOutOfRange):
        t.top_up("ann", 1, at(0))
    t.sit("bob", "Bob", 2, 5000, at(0))
    t.tick(at(1))
    assert t.top_up("bob", 1000, at(2)) == []  # during the hand: joins the stack (and is booked) after it
    assert t.seats[2].pending_top_up == 1000
    t.leave("ann", at(3))  # Ann's hand is folded at her turn, then she leaves


def test_leaving_during_a_hand_folds_at_the_players_turn_and_cashes_out_after() -> None:
    t = holdem_table()
    start_heads_up(t)
    d = t.hand.pending  # type: ignore[union-attr]
    leaver = t.seats[d.seat].player  # type: ignore[union-attr]
    out = t.leave(leaver, at(2))
    assert not t.in_hand
    cash = next(x for x in out if isinstance(x, CashOut))
    assert cash.player == leaver and t.seat_of(leaver) is None


def test_leaving_between_hands_cashes_out_the_stack() -> None:
    t = holdem_table()
    t.sit("ann", "Ann", 1, 5000, at(0))
    assert CashOut("t1", "ann", 1, 5000) in t.leave("ann", at(1))


def test_waiting_list_offers_in_order_and_expire() -> None:
    t = holdem_table(seats=2, offer_time=30)
    t.sit("ann", "Ann", 1, 10000, at(0))
    t.sit("bob", "Bob", 2, 10000, at(0))
    t.join_waiting_list("cid", at(1))
    t.join_waiting_list("dee", at(2))
    out = t.leave("bob", at(3))
    offer = next(x for x in out if isinstance(x, SeatOffer))
    assert (offer.player, offer.seat) == ("cid", 2)
    with pytest.raises(SeatTaken):
        t.sit("dee", "Dee", 2, 10000, at(4))  # reserved for Cid
    out = t.tick(at(3 + 30))
    assert OfferExpired("t1", "cid", 2) in out
    assert any(isinstance(x, SeatOffer) and x.player == "dee" for x in out)
    t.sit("dee", "Dee", 2, 10000, at(40))
    assert t.waiting_list == []


def test_sit_out_limit_unseats_the_player() -> None:
    t = holdem_table(sit_out_limit=900)
    t.sit("ann", "Ann", 1, 5000, at(0))
    t.sit_out("ann", at(10))
    t.tick(at(909))
    assert t.seat_of("ann") == 1
    out = t.tick(at(910))
    assert CashOut("t1", "ann", 1, 5000) in out and t.seat_of("ann") is None


def test_disconnected_player_keeps_his_seat_for_the_grace_period() -> None:
    t = holdem_table(disconnect_grace=120)
    t.sit("ann", "Ann", 1, 5000, at(0))
    t.disconnect("ann", at(0))
    t.tick(at(119))
    assert not t.seats[1].sitting_out
    t.tick(at(120))
    assert t.seats[1].sitting_out
    t.sit_in("ann", at(130))
    assert not t.seats[1].sitting_out


def test_auto_post_off_prompts_and_declining_sits_out() -> None:
    t = holdem_table(seats=3)
    for i, name in enumerate(("ann", "bob", "cid"), start=1):
        t.sit(name, name.title(), i, 10000, at(0))
        t.set_auto_post(name, False)
    out = t.tick(at(1))
    prompts = [x for x in out if isinstance(x, PostPrompt)]
    assert {p.what for p in prompts} == {"small_blind", "big_blind"} and not t.in_hand
    bb = next(p for p in prompts if p.what == "big_blind")
    sb = next(p for p in prompts if p.what == "small_blind")
    t.answer_post(sb.player, True, at(2))
    out = t.answer_post(bb.player, False, at(2))  # declines: sits out, blinds are planned again
    assert t.seats[bb.seat].sitting_out


def play_heads_up(t: CashTable, last: LastHands, hands: int, *, call: bool) -> list[FinishedHand]:
    """Play ``hands`` hands at a started heads-up table, checking when free and otherwise calling (or
    folding), keeping each hand in ``last``; the finished hands' records."""
    records: list[FinishedHand] = []
    clock = 1.0
    while len(records) < hands:
        while not t.in_hand:
            clock += 5
            t.tick(at(clock))
            if t.seats[1].sitting_out:
                t.sit_in("ann", at(clock))
        out: Sequence[object] = []
        while t.in_hand:
            d = t.hand.pending  # type: ignore[union-attr]
            answer = (Call(d.seat) if call else Fold(d.seat)) if d.call else Check(d.seat)  # type: ignore[union-attr]
            out = t.act(t.seats[d.seat].player, answer, at(clock))  # type: ignore[union-attr]
        for x in out:
            if isinstance(x, HandFinished):
                last.add(x.record)
                records.append(x.record)
    return records


def test_last_hands_keep_fifty_per_session() -> None:
    t = holdem_table()
    last = LastHands()
    last.start_session("ann")
    start_heads_up(t)
    assert len(play_heads_up(t, last, 55, call=False)) == 55
    hands = last.hands("ann")
    assert len(hands) == 50  # R183: the 51st most recent hand is not offered
    assert hands[0].hand_id == f"t1-{55}"


def test_a_kept_hand_shows_each_viewer_what_the_finished_hand_shows_him() -> None:
    """The last-hand window keeps a packed copy of each hand (R182-R184 views from the copy)."""
    t = holdem_table()
    last = LastHands()
    for name in ("ann", "bob"):
        last.start_session(name)
    start_heads_up(t)
    records = play_heads_up(t, last, 3, call=True)
    for record in records:
        kept = last.get("ann", record.hand_id)
        assert kept is not None and kept is last.get("bob", record.hand_id)  # one copy for both players
        assert kept.events == tuple(record.hand.events)
        assert kept.variant == record.hand.variant.code and kept.players == record.players
        for seat in (None, 1, 2):
            assert kept.events_for(seat) == record.events_for(seat)
        assert kept.seat_of("bob") == record.seat_of("bob") == 2


def test_stud_table_deals_newcomers_at_once_with_antes() -> None:
    cfg = TableConfig(
        "s",
        "Stud",
        "stud",
        Betting.FIXED_LIMIT,
        Stakes.fixed_limit(200, 400, ante=40, bring_in=50, blinds=False),
        8,
    )
    t = CashTable(cfg, random.Random(3))
    t.sit("ann", "Ann", 1, 4000, at(0))
    t.sit("bob", "Bob", 5, 4000, at(0))
    t.tick(at(1))
    assert t.in_hand
    t.sit("cid", "Cid", 3, 4000, at(2))
    while t.in_hand:
        d = t.hand.pending  # type: ignore[union-attr]
        t.act(t.seats[d.seat].player, Fold(d.seat) if d.fold else BringIn(d.seat), at(3))  # type: ignore[union-attr]
    t.tick(at(10))
    assert t.in_hand and 3 in t.hand.players  # R132


def test_run_it_twice_is_asked_at_a_table_that_allows_it_and_a_leaver_answers_no() -> None:
    """R-RIT: the table passes its `run_it_twice` to the hand; both players all-in preflop are asked
    (`decision_of` gives each his question); a player who leaves meanwhile answers no at once, so the
    board runs once and the hand settles."""
    cfg = TableConfig("t1", "Alpha", "holdem", Betting.NO_LIMIT, Stakes.blinds(50, 100), 2, run_it_twice=True)
    t = CashTable(cfg, random.Random(1))
    start_heads_up(t)
    hand = t.hand
    assert hand is not None and hand.run_it_twice
    d = hand.pending
    assert isinstance(d, BetDecision)
    t.act(t.seats[d.seat].player, RaiseTo(d.seat, d.max_to), at(2))
    d = hand.pending
    assert isinstance(d, BetDecision)
    t.act(t.seats[d.seat].player, Call(d.seat), at(3))
    asked = hand.pending
    assert isinstance(asked, RunTwiceDecision) and set(asked.seats) == {1, 2}
    assert t.decision_of(1) == asked and t.decision_of(2) == asked
    t.act("ann", RunTwice(1, True), at(4))
    assert t.decision_of(1) is None and t.decision_of(2) == RunTwiceDecision((2,))
    t.leave("bob", at(5))
    assert hand.is_over and hand.runs == 1 and not t.in_hand
    assert sum(hand.stacks().values()) == 20000
