"""Recorded hands (tests/fixtures/phh, see its README) replay to their recorded finishing stacks."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerroom.cli import app
from pokerroom.history import read_phh, replay

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "phh"
ALL = sorted(FIXTURES.rglob("*.phh"))
RECORDED = [p for p in ALL if "finishing_stacks" in p.read_text()]
runner = CliRunner()


def test_the_fixture_set_covers_every_standard_variant() -> None:
    codes = {read_phh(p.read_text()).variant_field for p in ALL}
    assert codes >= {"NT", "FT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "F2L3D", "FB"}
    assert len(RECORDED) >= 15


@pytest.mark.parametrize("path", RECORDED, ids=[str(p.relative_to(FIXTURES)) for p in RECORDED])
def test_recorded_hand_replays_to_its_finishing_stacks(path: Path) -> None:
    result = replay(read_phh(path.read_text()))
    assert result.complete
    assert result.hand.finishing_stacks is not None
    assert result.finishing_stacks == result.hand.finishing_stacks
    assert result.notes == []


@pytest.mark.parametrize("path", ALL, ids=[str(p.relative_to(FIXTURES)) for p in ALL])
def test_same_finishing_stacks_as_pokerkit(path: Path) -> None:
    """PokerKit's PHH reader is an independent implementation of the standard: same chips."""
    pokerkit = pytest.importorskip("pokerkit")
    text = path.read_text()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
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
    posted = [(e.seat, e.amount) for e in state.events if e.kind == "posted"]
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
