"""Run it twice (issue 20; docs/decisions.md R-RIT; RULES.md is silent on it).

When the table allows it and betting is over before the board is complete (RULES.md §3.1: at most one
active player is not all-in), the hands are face up (§6.5) and every player still in is asked at once;
any "no" or a timeout means once. With everybody's yes the rest of the board is dealt twice from the
same deck (run 2 continues it, each street with its burn), and every pot is halved, the odd chip to
run 1, each half awarded on its run's board with the ordinary rules (§3.8, §3.9, §2.7), after the rake
(§7.1, once per hand on the whole pot).
"""

from __future__ import annotations

import json

import pytest

from pokerroom.cards import DeckSpec
from pokerroom.engine import (
    Betting,
    Call,
    Check,
    ConfigError,
    Fold,
    HandState,
    IllegalAction,
    ListDeck,
    NotYourTurn,
    RaiseTo,
    RakeRule,
    RunTwice,
    RunTwiceDecision,
    SeatSetup,
    Stakes,
    Structure,
    TimeOut,
    command_from_dict,
)
from pokerroom.engine.errors import BadCommand
from pokerroom.engine.events import (
    BoardDealt,
    Burned,
    PotAwarded,
    RunTwiceAnswered,
    RunTwiceDecided,
    RunTwiceOffered,
    StreetStarted,
)
from pokerroom.variants import VARIANTS

from .helpers import start
from .rules_helpers import BURN, bet, cards, deck, interleave, of

NL = Betting.NO_LIMIT
BLINDS = Stakes.blinds(5, 10)
# Button seat 1: seat 2 posts the small blind, seat 3 the big blind; seat 1 acts first preflop.
HOLES = ("7h 2c", "Kc Kd", "As Ad")  # seats 2, 3, 1 in dealing order
RUN1 = (BURN, "3s 8h 9c", BURN, "4d", BURN, "Jc")  # aces win
RUN2 = (BURN, "Ks 5h 6c", BURN, "Qd", BURN, "2s")  # kings make trips


def all_in_preflop(run_it_twice: bool = True, rake: RakeRule | None = None) -> HandState:
    """Seat 1 all-in for 1000, seat 2 folds his small blind (5 dead: an odd pot of 2005), seat 3 calls
    with chips behind: betting is over with one player all-in and nothing left to call (§3.1)."""
    hand = start(
        "holdem",
        NL,
        BLINDS,
        {1: 1000, 2: 1000, 3: 2000},
        deck(interleave(*HOLES), *RUN1, *RUN2),
        button=1,
        rake=rake,
        run_it_twice=run_it_twice,
    )
    hand.apply(RaiseTo(1, 1000))
    hand.apply(Fold(2))
    hand.apply(Call(3))
    return hand


def test_everybody_still_in_is_asked_at_once_after_the_hands_are_face_up() -> None:
    hand = all_in_preflop()
    assert hand.pending == RunTwiceDecision((3, 1))  # clockwise from the button; the folded seat 2 is not
    assert hand.waiting_for() == (3, 1)
    offered = of(hand.events, RunTwiceOffered)
    assert [e.seats for e in offered] == [(3, 1)]
    kinds = [e.kind for e in hand.events]
    assert kinds.index("cards_shown") < kinds.index("run_twice_offered")  # §6.5 exposure first
    assert not of(hand.events, BoardDealt) and not hand.board


def test_all_agree_two_boards_each_half_on_its_own_board_odd_chip_to_run_one() -> None:
    hand = all_in_preflop()
    hand.apply(RunTwice(1, True))
    assert hand.pending == RunTwiceDecision((3,))  # the others still owe their answer
    hand.apply(RunTwice(3, True))
    assert hand.is_over and hand.runs == 2
    assert hand.boards == (cards("3s 8h 9c 4d Jc"), cards("Ks 5h 6c Qd 2s"))
    boards = [(e.run, " ".join(map(str, e.cards))) for e in of(hand.events, BoardDealt)]
    assert boards == [(1, "3s 8h 9c"), (1, "4d"), (1, "Jc"), (2, "Ks 5h 6c"), (2, "Qd"), (2, "2s")]
    runs = [(e.run, e.name) for e in of(hand.events, StreetStarted)]
    assert runs == [(1, "flop"), (1, "turn"), (1, "river"), (2, "flop"), (2, "turn"), (2, "river")]
    assert len(of(hand.events, Burned)) == 6  # every street of every run burns (RULES.md §1.1)
    paid = [(a.run, a.pot, a.amount, a.winners) for a in of(hand.events, PotAwarded)]
    assert paid == [(1, 0, 1003, (1,)), (2, 0, 1002, (3,))]  # 2005: the odd chip goes to run 1
    assert hand.stacks() == {1: 1003, 2: 995, 3: 2002}
    assert sum(hand.stacks().values()) == 4000  # chips conserved


def test_one_no_means_once_without_waiting_for_the_others() -> None:
    hand = all_in_preflop()
    events = hand.apply(RunTwice(3, False))
    assert [e.kind for e in events[:2]] == ["run_twice_answered", "run_twice_decided"]
    assert of(events, RunTwiceDecided)[0].runs == 1
    assert hand.is_over and hand.runs == 1 and hand.boards == (cards("3s 8h 9c 4d Jc"),)
    assert all(e.run == 0 for e in of(hand.events, BoardDealt) + of(hand.events, PotAwarded))
    assert hand.stacks() == {1: 2005, 2: 995, 3: 1000}


def test_a_timeout_answers_no() -> None:
    hand = all_in_preflop()
    hand.apply(RunTwice(3, True))
    events = hand.apply(TimeOut(1))
    assert of(events, RunTwiceAnswered) == [RunTwiceAnswered(1, False)]
    assert hand.is_over and hand.runs == 1


def test_only_the_players_asked_answer_once_and_only_now() -> None:
    hand = all_in_preflop()
    with pytest.raises(NotYourTurn):
        hand.apply(RunTwice(2, True))  # folded: not asked
    hand.apply(RunTwice(1, True))
    with pytest.raises(NotYourTurn):
        hand.apply(RunTwice(1, False))  # an answer is final
    for command in (Check(3), Call(3), Fold(3), RaiseTo(3, 2000)):
        with pytest.raises(IllegalAction):
            hand.apply(command)
    assert hand.pending == RunTwiceDecision((3,))
    with pytest.raises(BadCommand):
        hand.apply(RunTwice(3, "yes"))  # type: ignore[arg-type]


def test_not_asked_when_the_table_does_not_allow_it() -> None:
    hand = all_in_preflop(run_it_twice=False)
    assert hand.is_over and hand.runs == 1 and not of(hand.events, RunTwiceOffered)


def test_a_run_it_twice_answer_is_refused_when_nothing_is_asked() -> None:
    hand = start("holdem", NL, BLINDS, [1000, 1000, 1000], button=1, run_it_twice=True)
    with pytest.raises(IllegalAction):
        hand.apply(RunTwice(bet(hand).seat, True))


def test_all_in_on_the_flop_runs_the_turn_and_river_twice_on_the_shared_flop() -> None:
    hand = start(
        "holdem",
        NL,
        BLINDS,
        {1: 1000, 2: 1000},
        deck(interleave("As Ad", "Kc Kd"), BURN, "3s 8h 9c", BURN, "4d", BURN, "Jc", BURN, "Ks", BURN, "2s"),
        button=1,
        run_it_twice=True,
    )
    hand.apply(Call(1))  # heads-up: the button posts the small blind and acts first (RULES.md §4.3)
    hand.apply(Check(2))
    hand.apply(RaiseTo(2, 990))
    hand.apply(Call(1))
    assert hand.pending == RunTwiceDecision((2, 1))
    hand.apply(RunTwice(2, True))
    hand.apply(RunTwice(1, True))
    assert hand.boards == (cards("3s 8h 9c 4d Jc"), cards("3s 8h 9c Ks 2s"))
    assert [e.run for e in of(hand.events, BoardDealt)] == [0, 1, 1, 2, 2]
    assert hand.stacks() == {1: 1000, 2: 1000}  # 1000 each way


def test_not_asked_once_the_board_is_complete() -> None:
    # All-in on the river: nothing is left to deal, the pot goes to one showdown.
    hand = start(
        "holdem",
        NL,
        BLINDS,
        {1: 1000, 2: 1000},
        deck(interleave("As Ad", "Kc Kd"), BURN, "3s 8h 9c", BURN, "4d", BURN, "Jc"),
        button=1,
        run_it_twice=True,
    )
    hand.apply(Call(1))
    hand.apply(Check(2))
    for _ in range(2):  # flop and turn checked through
        hand.apply(Check(2))
        hand.apply(Check(1))
    assert len(hand.board) == 5
    hand.apply(RaiseTo(2, 990))
    hand.apply(Call(1))
    assert hand.is_over and not of(hand.events, RunTwiceOffered)


def test_side_pots_are_halved_one_by_one() -> None:
    # RULES.md §3.8: seat 1 all-in 300, seats 2 and 3 all-in 1000: main pot 900 (1, 2, 3), side pot
    # 1400 (2, 3). Run 1: seat 1's aces win the main half, seat 2's kings beat seat 3 for the side
    # half; run 2: seat 3 makes a straight and wins both halves.
    holes = ("Kc Kd", "7s 8s", "As Ah")  # seats 2, 3, 1 (button 1)
    run_a = (BURN, "2c 3d 9h", BURN, "Qs", BURN, "4c")
    run_b = (BURN, "5d 6h 4s", BURN, "Jd", BURN, "3c")
    hand = start(
        "holdem",
        NL,
        BLINDS,
        {1: 300, 2: 1000, 3: 1000},
        deck(interleave(*holes), *run_a, *run_b),
        button=1,
        run_it_twice=True,
    )
    hand.apply(RaiseTo(1, 300))
    hand.apply(RaiseTo(2, 1000))
    hand.apply(Call(3))
    hand.apply(RunTwice(2, True))
    hand.apply(RunTwice(3, True))
    hand.apply(RunTwice(1, True))
    paid = [(a.run, a.pot, a.amount, a.winners) for a in of(hand.events, PotAwarded)]
    # last-created pot first in each run (§3.8 step 3)
    assert paid == [(1, 1, 700, (2,)), (1, 0, 450, (1,)), (2, 1, 700, (3,)), (2, 0, 450, (3,))]
    assert hand.stacks() == {1: 450, 2: 700, 3: 1150}


def test_rake_is_taken_once_before_the_pot_is_halved() -> None:
    # RULES.md §7.1: one rake per hand on the total; the rest is halved (odd chip to run 1).
    hand = all_in_preflop(rake=RakeRule(500, 300))  # 5 %, cap 3.00
    hand.apply(RunTwice(3, True))
    hand.apply(RunTwice(1, True))
    assert hand.rake == 100  # 2005 * 5 % = 100.25 -> 100
    paid = [(a.run, a.amount, a.rake) for a in of(hand.events, PotAwarded)]
    assert paid == [(1, 953, 100), (2, 952, 0)]  # 1905: 953 + 952
    assert sum(hand.stacks().values()) + hand.rake == 4000


def test_board_games_only() -> None:
    for code, variant in VARIANTS.items():
        assert variant.has_shared_board == (not variant.is_stud and not variant.is_draw), code
    stud = Stakes.fixed_limit(200, 400, ante=40, bring_in=50, blinds=False)
    for code, stakes, betting in (("stud", stud, Betting.FIXED_LIMIT), ("draw5", BLINDS, NL)):
        with pytest.raises(ConfigError):
            start(code, betting, stakes, [1000, 1000], run_it_twice=True)


def test_irish_is_asked_after_the_discard_and_runs_turn_and_river_twice() -> None:
    # RULES.md §5.2 / §6.5: all-in preflop, the flop is dealt once, everybody discards, the kept cards
    # are shown, then the question; the runs are the turn and the river.
    holes = ("Kc Kd 7h 2c", "As Ad 8d 3c")  # seats 2 (big blind), 1 (button)
    hand = start(
        "irish",
        NL,
        BLINDS,
        {1: 1000, 2: 1000},
        deck(interleave(*holes), BURN, "9s 5h 4s", BURN, "Qs", BURN, "Js", BURN, "Kh", BURN, "Ts"),
        button=1,
        run_it_twice=True,
    )
    hand.apply(RaiseTo(1, 1000))
    hand.apply(Call(2))
    assert hand.pending.kind == "discard" and not of(hand.events, RunTwiceOffered)
    from pokerroom.engine import Discard

    hand.apply(Discard(1, cards("8d 3c")))
    hand.apply(Discard(2, cards("7h 2c")))
    assert hand.pending == RunTwiceDecision((2, 1))
    hand.apply(RunTwice(2, True))
    hand.apply(RunTwice(1, True))
    assert hand.boards == (cards("9s 5h 4s Qs Js"), cards("9s 5h 4s Kh Ts"))
    assert hand.stacks() == {1: 1000, 2: 1000}  # aces hold in run 1, kings make trips in run 2


def test_snapshot_in_the_middle_of_the_question_restores_and_continues() -> None:
    hand = all_in_preflop()
    hand.apply(RunTwice(1, True))
    data = json.loads(json.dumps(hand.snapshot()))
    assert data["run_it_twice"] is True
    again = HandState.restore(data)
    assert again.events == hand.events and again.pending == hand.pending
    hand.apply(RunTwice(3, True))
    again.apply(RunTwice(3, True))
    assert again.events == hand.events and again.boards == hand.boards and again.stacks() == hand.stacks()
    done = HandState.restore(json.loads(json.dumps(hand.snapshot())))
    assert done.events == hand.events and done.runs == 2


def test_a_snapshot_from_before_run_it_twice_restores_with_it_off() -> None:
    hand = HandState.start(
        variant=VARIANTS["holdem"],
        structure=Structure(NL, BLINDS),
        seats=[SeatSetup(1, 1000), SeatSetup(2, 1000)],
        deck=ListDeck.shuffled(DeckSpec.STANDARD),
    )
    data = hand.snapshot()
    del data["run_it_twice"]
    assert HandState.restore(data).snapshot()["run_it_twice"] is False


def test_plain_data_names_the_run_and_an_ordinary_hand_reads_as_before() -> None:
    hand = all_in_preflop()
    hand.apply(RunTwice(1, True))
    hand.apply(RunTwice(3, True))
    dicts = [e.to_dict() for e in hand.events]
    assert {d["run"] for d in dicts if d["type"] in ("board_dealt", "pot_awarded")} == {1, 2}
    once = all_in_preflop(run_it_twice=False)
    assert all("run" not in e.to_dict() for e in once.events)
    assert RunTwice(3, True).to_dict() == {"type": "run_twice", "seat": 3, "agree": True}
    assert command_from_dict({"type": "run_twice", "seat": 3, "agree": False}) == RunTwice(3, False)
    with pytest.raises(BadCommand):
        command_from_dict({"type": "run_twice", "seat": 3, "agree": "no"})


def test_when_the_stub_cannot_hold_two_runs_the_question_waits_until_it_can() -> None:
    # Ten players of Omaha all-in preflop: 40 hole cards leave 12, two runs of the flop, turn and river
    # need 16 (burns included). The flop is dealt once; turn and river (8 cards for two runs) fit.
    stacks = dict.fromkeys(range(1, 11), 10)
    hand = start("omaha", Betting.POT_LIMIT, BLINDS, stacks, button=10, run_it_twice=True)
    while hand.pending.kind == "bet":
        hand.apply(Call(bet(hand).seat))
    assert len(hand.board) == 3 and hand.deck.remaining() == 8
    assert hand.pending == RunTwiceDecision(tuple(range(1, 11)))
    for seat in range(1, 11):
        hand.apply(RunTwice(seat, True))
    assert hand.is_over and hand.runs == 2 and hand.deck.remaining() == 0
    assert [e.run for e in of(hand.events, BoardDealt)] == [0, 1, 1, 2, 2]
    assert sum(hand.stacks().values()) == 100
