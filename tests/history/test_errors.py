"""A corrupt hand history gets a typed HistoryError with a stable code and its place, never a crash."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pokerroom.history import HistoryError, PhhReplayError, read_phh, read_phhs, replay

from .helpers import corrupt

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "phh"
GOOD = (FIXTURES / "pluribus" / "100-0.phh").read_text()
MULTILINE = (FIXTURES / "historical" / "dwan-ivey-2009.phh").read_text()


def _error(text: str) -> HistoryError:
    with pytest.raises(HistoryError) as info:
        replay(read_phh(text))
    return info.value


@pytest.mark.parametrize(
    ("old", "new", "code", "field"),
    [
        ("variant = 'NT'", "variant = 'XX'", "phh_field", "variant"),
        ("variant = 'NT'", "variant = 3", "phh_field", "variant"),
        ("min_bet = 100\n", "", "phh_field", "min_bet"),
        ("antes = [0, 0, 0, 0, 0, 0]", "antes = [0, 0, 0]", "phh_field", "antes"),
        ("antes = [0, 0, 0, 0, 0, 0]", "antes = [0, 0, 0, 0, 0, -1]", "phh_field", "antes"),
        ("antes = [0, 0, 0, 0, 0, 0]", "antes = 'none'", "phh_field", "antes"),
        ("starting_stacks = [10000,", "starting_stacks = [0,", "phh_field", "starting_stacks"),
        ("finishing_stacks = [10310", "finishing_stacks = ['x'", "phh_field", "finishing_stacks"),
        ("hand = 0", "hand = 0\nseats = [1, 1, 2, 3, 4, 5]", "phh_field", "seats"),
        ("hand = 0", "hand = 0\nseats = [3, 1, 2, 4, 5, 6]", "phh_field", "seats"),
        ("hand = 0", "hand = 0\n_variant = 'poker'", "phh_field", "_variant"),
        ("hand = 0", "hand = 0\n_minor_units = 0", "phh_field", "_minor_units"),
        ("hand = 0", "hand = 0\n_posts = ['p9 big_blind 100']", "phh_field", "_posts"),
        ("min_bet = 100", "min_bet = 0.0000001", "phh_field", None),
    ],
)
def test_field_errors(old: str, new: str, code: str, field: str | None) -> None:
    assert old in GOOD
    err = _error(GOOD.replace(old, new, 1))
    assert err.code == code
    assert err.field == field


@pytest.mark.parametrize(
    ("old", "new", "code"),
    [
        ("'p3 f'", "'p3 fold'", "phh_action"),
        ("'p3 f'", "'p7 f'", "phh_action"),
        ("'p3 f'", "'x3 f'", "phh_action"),
        ("'p3 f'", "'p3 f 10'", "phh_action"),
        ("'p4 cbr 210'", "'p4 cbr abc'", "phh_action"),
        ("'p4 cbr 210'", "'p4 cbr -5'", "phh_action"),
        ("'p4 cbr 210'", "'p4 cbr'", "phh_action"),
        ("'d dh p1 TcQc'", "'d dh p1 TcQ'", "phh_action"),
        ("'d dh p1 TcQc'", "'d dh p1 TcQx'", "phh_action"),
        ("'d dh p1 TcQc'", "'d dh p1 TcTc'", "phh_action"),
        ("'d dh p1 TcQc'", "'d dh p1'", "phh_action"),
        ("'d db 7d5h9d'", "'d db 7d5h??'", "phh_action"),
        ("'d db 7d5h9d'", "'d xx 7d5h9d'", "phh_action"),
        ("'d db 7d5h9d'", "'d db 7d5h9dTc'", "phh_action"),  # Tc is p1's card: dealt twice
    ],
)
def test_action_errors_name_the_action_and_its_line(old: str, new: str, code: str) -> None:
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    err = _error(text)
    assert err.code == code
    if err.action is not None:
        assert err.line == 7  # every action of this file is on line 7


def test_engine_refusal_is_a_replay_error_with_the_engine_code() -> None:
    # p4 may not raise to less than the minimum raise
    err = _error(GOOD.replace("'p4 cbr 210'", "'p4 cbr 150'"))
    assert isinstance(err, PhhReplayError)
    assert err.code == "phh_replay"
    assert err.engine_code == "amount_out_of_range"
    assert err.action == 7
    # out of turn
    err = _error(GOOD.replace("'p3 f', 'p4 cbr 210'", "'p4 cbr 210', 'p3 f'"))
    assert isinstance(err, PhhReplayError) and err.engine_code == "not_your_turn"


def test_line_numbers_in_a_multiline_file() -> None:
    err = _error(MULTILINE.replace('"p1 cbr 35000"', '"p1 cbr lots"'))
    assert err.code == "phh_action"
    assert err.line is not None
    assert '"p1 cbr lots"' in MULTILINE.replace('"p1 cbr 35000"', '"p1 cbr lots"').splitlines()[err.line - 1]


def test_toml_syntax_error_has_a_line() -> None:
    err = _error(GOOD.replace("min_bet = 100", "min_bet = = 100"))
    assert err.code == "phh_syntax"
    assert err.line == 5


def test_errors_carry_no_cards() -> None:
    err = _error(GOOD.replace("'d dh p1 TcQc'", "'d dh p1 TcQx'"))
    assert "Tc" not in str(err) and "Qx" not in str(err)
    assert err.to_dict()["code"] == "phh_action"


def test_a_bad_hand_in_a_phhs_file_does_not_hide_the_others() -> None:
    text = f"[1]\n{GOOD}\n[2]\n{GOOD.replace('min_bet = 100', 'min_bet = []')}\n[3]\n{GOOD}"
    items = read_phhs(text)
    assert [i for i, _ in items] == [1, 2, 3]
    assert isinstance(items[1][1], HistoryError) and items[1][1].hand == "2"
    assert not isinstance(items[0][1], HistoryError)


def test_fuzzed_histories_only_raise_history_errors() -> None:
    """Random corruption of a real hand: either it still replays or a HistoryError says why."""
    rng = random.Random(7)
    alphabet = "pdfcbrsmh0123456789 ?AKQJT#-x."
    texts = [GOOD, MULTILINE, (FIXTURES / "wsop-2023-43-5" / "60.phh").read_text()]
    for _ in range(600):
        text = corrupt(rng.choice(texts), rng, alphabet, rng.randint(1, 4))
        try:
            replay(read_phh(text))
        except HistoryError as exc:
            assert exc.code.startswith("phh_")
