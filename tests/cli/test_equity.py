"""``pokerroom equity``."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pokerroom.cli import app
from pokerroom.eval import equity


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout


def test_json_output_is_one_object_with_per_hand_figures() -> None:
    code, out = run("equity", "AhKh", "QsQd", "--board", "2h 7h Qc", "--json")
    assert code == 0
    data = json.loads(out)
    expected = equity("holdem", ["AhKh", "QsQd"], "2h 7h Qc")
    assert data["game"] == "holdem" and data["exact"] is True and data["deals"] == 990
    assert [h["cards"] for h in data["hands"]] == ["AhKh", "QsQd"]
    assert [h["share"] for h in data["hands"]] == [h.share for h in expected.hands]
    assert [h["win"] for h in data["hands"]] == [h.win for h in expected.hands]
    assert [h["tie"] for h in data["hands"]] == [h.tie for h in expected.hands]


def test_table_output() -> None:
    code, out = run("equity", "AhKh", "QsQd", "--board", "2h 7h Qc Jd")
    assert code == 0
    assert "AhKh" in out and "QsQd" in out and "exact" in out and "%" in out


def test_game_dead_samples_and_seed() -> None:
    args = ["equity", "AsAd2c", "KsKd9c", "--game", "stud", "--samples", "5000", "--seed", "4", "--json"]
    code1, out1 = run(*args)
    code2, out2 = run(*args)
    assert code1 == code2 == 0 and out1 == out2
    data = json.loads(out1)
    assert data["exact"] is False and data["deals"] == 5000
    code, out = run("equity", "AhKh", "QsQd", "--board", "2h 7h Qc", "--dead", "Jh Th", "--json")
    assert code == 0 and json.loads(out)["deals"] == 43 * 42 // 2


def test_hi_lo_game() -> None:
    code, out = run(
        "equity", "AdKd3s2s", "Ac2c7s8s", "--game", "omaha8", "--board", "Jd 4d 3c Qd 5h", "--json"
    )
    assert code == 0
    assert [h["share"] for h in json.loads(out)["hands"]] == [0.75, 0.25]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["AhKh", "AhQd"], "duplicate_card"),
        (["AhKh", "QsQd", "--game", "pineapple"], "unknown_game"),
        (["AhKh", "Zz"], "bad_notation"),
        (["AhKh"], "wrong_card_count"),
    ],
)
def test_errors(args: list[str], code: str) -> None:
    exit_code, out = run("equity", *args, "--json")
    assert exit_code == 2
    assert json.loads(out)["error"] == code
