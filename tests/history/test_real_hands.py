"""Recorded hands (tests/fixtures/phh, see its README) replay to their recorded finishing stacks."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerroom.cli import app
from pokerroom.engine.events import ActionTaken, BetReturned, Posted
from pokerroom.engine.stud import bring_in_seat
from pokerroom.history import PhhReplayError, read_phh, replay

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "phh"
ALL = sorted(FIXTURES.rglob("*.phh"))
RECORDED = [p for p in ALL if "finishing_stacks" in p.read_text()]
runner = CliRunner()


def test_the_fixture_set_covers_every_standard_variant() -> None:
    codes = {read_phh(p.read_text()).variant_field for p in ALL}
    assert codes >= {"NT", "FT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "F2L3D", "FB"}
    assert len(RECORDED) >= 15


# What a replay notes where the record and our rules part (every other recorded hand: no note).
EXPECTED_NOTES = {
    "wsop-2023-43-5/85.phh": [
        "p2 raises to 750000 (all any opponent can call): read as the full raise to 1200000; the excess "
        "comes back uncalled"
    ],
}
# Hands PokerKit 0.7 cannot replay itself ("Unable to repair the hand history"): its minimum raise refuses
# the recorded raise-to at the amount that can be called.
POKERKIT_REFUSES = {"wsop-2023-43-5/85.phh"}


@pytest.mark.parametrize("path", RECORDED, ids=[str(p.relative_to(FIXTURES)) for p in RECORDED])
def test_recorded_hand_replays_to_its_finishing_stacks(path: Path) -> None:
    result = replay(read_phh(path.read_text()))
    assert result.complete
    assert result.hand.finishing_stacks is not None
    assert result.finishing_stacks == result.hand.finishing_stacks
    assert result.notes == EXPECTED_NOTES.get(str(path.relative_to(FIXTURES)), [])


@pytest.mark.parametrize("path", ALL, ids=[str(p.relative_to(FIXTURES)) for p in ALL])
def test_same_finishing_stacks_as_pokerkit(path: Path) -> None:
    """PokerKit's PHH reader is an independent implementation of the standard: same chips."""
    pokerkit = pytest.importorskip("pokerkit")
    text = path.read_text()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if str(path.relative_to(FIXTURES)) in POKERKIT_REFUSES:
            with pytest.raises(ValueError):
                list(pokerkit.HandHistory.loads(text))
            return
        state = list(pokerkit.HandHistory.loads(text))[-1]
    ours = replay(read_phh(text))
    theirs = [int(s * ours.hand.scale) for s in state.stacks]
    assert list(ours.finishing_stacks) == theirs


def test_badugi_hand_with_every_card_unknown_until_the_showdown() -> None:
    result = replay(read_phh((FIXTURES / "historical" / "alice-carol-wikipedia.phh").read_text()))
    assert result.finishing_stacks == (196, 220, 200, 184)  # Carol's 3-5-7-8 badugi beats Alice's
    assert result.hand.variant.code == "badugi"


def test_heads_up_blinds_are_reverse_assigned() -> None:
    """PHH heads-up: p2 is the button and posts blinds_or_straddles[0]; p1 posts the big blind."""
    hand = read_phh((FIXTURES / "historical" / "antonius-blom-2009.phh").read_text())
    state = replay(hand).state
    posted = [(e.seat, e.amount) for e in state.events if isinstance(e, Posted)]
    assert posted == [(2, 50000), (1, 100000)]  # scale 100: $500 and $1,000
    assert state.button == 2


def test_cli_verify_passes_on_the_fixtures() -> None:
    result = runner.invoke(app, ["replay", "--verify", str(FIXTURES)])
    assert result.exit_code == 0, result.output
    assert "0 failed" in result.output


def test_cli_json_lines() -> None:
    result = runner.invoke(app, ["replay", "--json", "--verify", str(FIXTURES / "wsop-2023-43-5")])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert len(lines) == len(list((FIXTURES / "wsop-2023-43-5").glob("*.phh")))
    first = next(r for r in lines if r["path"].endswith("/1.phh"))
    assert first["index"] == 0
    assert first["variant"] == "holdem"
    assert first["finishing_stacks"] == [7340000, 3775000, 5110000, 8935000, 4545000]
    assert first["error"] is None and first["matches"] is True
    assert first["path"] == str(FIXTURES / "wsop-2023-43-5" / "1.phh")


def test_cli_verify_fails_on_a_mismatch_and_keeps_going(tmp_path: Path) -> None:
    good = (FIXTURES / "pluribus" / "100-0.phh").read_text()
    (tmp_path / "a.phh").write_text(good.replace("finishing_stacks = [10310", "finishing_stacks = [10311"))
    (tmp_path / "b.phh").write_text("variant = 'NT'\nantes = [0, 0\n")
    (tmp_path / "c.phhs").write_text(f"[1]\n{good}\n[2]\n{good.replace('p4 f', 'p9 f')}\n")
    result = runner.invoke(app, ["replay", "--json", "--verify", str(tmp_path)])
    assert result.exit_code == 1
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [(Path(r["path"]).name, r["index"]) for r in rows] == [
        ("a.phh", 0),
        ("b.phh", 0),
        ("c.phhs", 1),
        ("c.phhs", 2),
    ]
    assert rows[0]["matches"] is False and rows[0]["error"] is None
    assert rows[1]["error"]["code"] == "phh_syntax" and rows[1]["error"]["line"] == 2
    assert rows[2]["matches"] is True
    assert rows[3]["error"]["code"] == "phh_action"


def test_cli_without_hands_exits_2(tmp_path: Path) -> None:
    assert runner.invoke(app, ["replay", str(tmp_path)]).exit_code == 2


# ----------------------------------------------------- three hands that did not replay (issue 21)


def _wsop(n: int) -> str:
    return (FIXTURES / "wsop-2023-43-5" / f"{n}.phh").read_text()


def test_big_blind_ante_is_dead_money_in_the_main_pot() -> None:
    """02-01-50 (our 45.phh), 2-7 single draw: p5 is all-in for 775,000 and wins. p2's 225,000
    big-blind ante is dead money, so p5 takes all 1,850,000 (before: the ante went back to p2 as a side
    pot of his own and p5 ended with 1,625,000)."""
    result = replay(read_phh(_wsop(45)))
    assert result.finishing_stacks[4] == 1_850_000
    assert [(p.amount, p.eligible) for p in result.state.pots] == [(1_850_000, (2, 5))]


def test_unknown_stud_up_card_the_bring_in_comes_from_the_record() -> None:
    """02-25-11 (our 53.phh), stud hi/lo: p5's cards are unknown and p4 (4c, the lowest known up card)
    brings in. The unknown up card is filled so that the engine agrees with the record."""
    result = replay(read_phh(_wsop(53)))
    assert result.matches
    actions = [e for e in result.state.events if isinstance(e, ActionTaken)]
    assert (actions[0].seat, actions[0].action) == (4, "bring_in")
    up = {s: result.state.players[s].upcards() for s in (4, 5)}
    assert str(up[4][0]) == "4c" and bring_in_seat([(4, up[4][0]), (5, up[5][0])], highest=False) == 4


def test_unknown_up_cards_do_not_excuse_what_the_known_cards_contradict() -> None:
    """Only what cannot be known comes from the record: p1's known up card (Qs) is not the lowest, so a
    record in which p1 brings in is still refused."""
    text = _wsop(53).replace("'p4 pb', 'p5 f', 'p1 cbr 250000'", "'p1 pb', 'p2 f', 'p4 cbr 250000'")
    with pytest.raises(PhhReplayError) as info:
        replay(read_phh(text))
    assert info.value.engine_code == "not_your_turn"


def test_a_raise_to_the_callable_amount_is_read_as_the_full_raise() -> None:
    """03-50-24 (our 85.phh), razz heads-up: p1 bets 600,000 with 150,000 behind and p2 "raises to
    750,000", all p1 can reach; the replay takes it as the full raise to 1,200,000 (450,000 comes back)."""
    result = replay(read_phh(_wsop(85)))
    assert result.finishing_stacks == (0, 29_700_000)
    returned = [(e.seat, e.amount) for e in result.state.events if isinstance(e, BetReturned)]
    assert returned == [(2, 450_000)]


def test_a_raise_to_below_what_an_opponent_can_reach_is_still_refused() -> None:
    """The reading applies only from the largest total an opponent can reach: a raise-to of 700,000
    (p1 could still call 750,000) is an error, as at the table."""
    text = _wsop(85).replace("'p2 cbr 750000'", "'p2 cbr 700000'")
    with pytest.raises(PhhReplayError) as info:
        replay(read_phh(text))
    assert info.value.engine_code == "amount_out_of_range"
