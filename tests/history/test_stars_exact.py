"""Histories trackers read exactly (issue 32): the PokerStars-format text's pots, a hand run twice, and
tournament tables, checked against the engine, our importer and pokerdf (an independent parser).

RULES.md R185 (the rake), §3.8 (side pots), R-RIT (running the board twice, docs/decisions.md).
"""

from __future__ import annotations

import datetime as dt
import re
import warnings
from collections.abc import Iterator
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from pokerroom.engine import Betting, HandState
from pokerroom.engine.events import PotAwarded
from pokerroom.eval import evaluate
from pokerroom.history import HandContext, TournamentInfo, read_phh, read_pokerstars, replay, write_pokerstars
from pokerroom.history.stars_words import summary_words

from .helpers import random_hands

ET = dt.timezone(dt.timedelta(hours=-5))
CASH = HandContext(
    hand_number=4242,
    table="Alpha",
    time=dt.datetime(2026, 11, 30, 12, 0, tzinfo=ET),
    time_zone_label="ET",
    players={i: f"Player{i}" for i in range(1, 11)},
    currency="USD",
    minor_units=100,
    seat_count=10,
)


def _cents(text: str) -> int:
    return int(Decimal(text.lstrip("$")) * 100)


def _won(hand: HandState) -> dict[int, int]:
    won: dict[int, int] = {}
    for e in hand.events:
        if isinstance(e, PotAwarded):
            for seat, share in zip(e.winners, e.shares, strict=True):
                won[seat] = won.get(seat, 0) + share
    return won


# ------------------------------------------------------------------------ 1. pots net of the rake


def test_main_and_side_pots_are_net_of_the_rake_and_add_up_with_it_to_the_total() -> None:
    """PokerStars' summary: ``Total pot`` includes the rake; the main and side pots are what their winners
    collected. Before: the pots were written before the rake ("Main pot $3. Side pot $4. | Rake $0.30"
    with $2.87 and $3.83 collected)."""
    checked = 0
    for hand in random_hands("holdem", Betting.NO_LIMIT, 600, "net-pots"):
        if not hand.rake or len(hand.pots) < 2:
            continue
        text = write_pokerstars(hand, CASH)
        m = re.search(
            r"^Total pot (\S+) Main pot (\S+)\.((?: Side pot(?:-\d+)? \S+\.)+) \| Rake (\S+)$", text, re.M
        )
        assert m is not None, text
        total, main, rake = _cents(m[1]), _cents(m[2]), _cents(m[4])
        sides = [_cents(x) for x in re.findall(r"Side pot(?:-\d+)? (\S+)\.", m[3])]
        pots = [main, *sides]
        collected = [int(_cents(x)) for x in re.findall(r"^.+ collected (\S+) from ", text, re.M)]
        assert rake == hand.rake > 0
        assert total == hand.pot_total()
        assert sum(pots) + rake == total  # the pots are net: collected + rake = total
        assert sum(collected) == sum(pots)
        # pot by pot, what the engine paid out of it
        paid = [
            sum(e.amount for e in hand.events if isinstance(e, PotAwarded) and e.pot == k)
            for k in range(len(pots))
        ]
        assert pots == paid
        assert any(p < q.amount for p, q in zip(pots, hand.pots, strict=True))
        _pokerdf_reads_the_pots(hand, paid)
        checked += 1
    assert checked >= 3


def _pokerdf_reads_the_pots(hand: HandState, paid: list[int]) -> None:
    """pokerdf (amounts without a currency sign: the play-money copy) reads the same pots, rake, total and
    collections."""
    pokerdf = pytest.importorskip("pokerdf.regex.regex_patterns")
    r = pokerdf.RegexPatterns()
    text = write_pokerstars(hand, HandContext(hand_number=1, players=CASH.players))
    parts = text.removeprefix("PokerStars ").split("\n*** ")  # as pokerdf splits a hand
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert list(r.get_pot_breakdown(parts)[0]) == paid
        assert r.get_rake(parts) == [hand.rake]
        assert r.get_total_pot_log(parts) == [sum(paid) + hand.rake]
        won = _won(hand)
        for seat in (s for s in hand.order if s <= 9):  # pokerdf reads one-digit seats
            assert r.get_balance(CASH.players[seat], parts) == [won.get(seat) or None]


# ------------------------------------------------------------------------------ run it twice


def _run_twice(game: str, betting: Betting, count: int = 150) -> Iterator[HandState]:
    for hand in random_hands(game, betting, count, "rit-exact", True):
        if hand.runs == 2 and not hand.rake:
            yield hand


@pytest.mark.parametrize(
    ("game", "betting"),
    [("holdem", Betting.NO_LIMIT), ("holdem", Betting.FIXED_LIMIT), ("omaha", Betting.POT_LIMIT)],
)
def test_a_hand_run_twice_comes_back_from_its_text_exactly(game: str, betting: Betting) -> None:
    """``pokerroom import`` of our export of a hand run twice: both boards, each player's show once, the
    players' answers, and a replay to the same chips and boards, whose text is the text read, every
    player's copy and the audit copy. Before: no board card was read, every show line came twice."""
    checked = 0
    for hand in _run_twice(game, betting):
        for viewer in [None, *hand.order]:
            text = write_pokerstars(hand, CASH, viewer=viewer)
            [(number, phh)] = read_pokerstars(text)
            assert number == 4242 and isinstance(phh, str), phh
            parsed = read_phh(phh)
            assert parsed.run_it_twice
            assert sum(1 for a in parsed.actions if a.verb == "sm") == len(
                [s for s in hand.order if not hand.players[s].folded]
            )
            result = replay(parsed)
            assert result.matches is True and result.complete and not result.notes
            assert result.state.runs == 2 and result.state.boards == hand.boards
            scale = result.hand.scale  # engine units per dollar of the text
            assert {s: c * 100 // scale for s, c in result.state.stacks().items()} == hand.stacks()
            again = write_pokerstars(result.state, replace(CASH, minor_units=scale), viewer=viewer)
            assert again == text
        checked += 1
    assert checked >= 3


def test_each_board_is_described_with_its_own_result() -> None:
    """A player who won only the second board: ``lost with <his hand on the first board>, and won ($x) with
    <his hand on the second>``, as PokerStars words it. Before: "won ($x) with" his first board's hand."""
    found = 0
    for hand in _run_twice("holdem", Betting.NO_LIMIT, 400):
        runs: dict[tuple[int, int], int] = {}  # (seat, run) -> chips won on that run's board
        for e in hand.events:
            if isinstance(e, PotAwarded):
                for seat, share in zip(e.winners, e.shares, strict=True):
                    runs[seat, e.run] = runs.get((seat, e.run), 0) + share
        text = write_pokerstars(hand, CASH)
        for seat in hand.order:
            if hand.players[seat].folded:
                continue
            hole = hand.hole_cards(seat)
            words = []
            for run, board in enumerate(hand.boards, 1):
                value = evaluate(hand.variant.rule_for(hand.deck_spec), hole, board)
                won = runs.get((seat, run), 0)
                result = f"won (${Decimal(won) / 100:.2f})".replace(".00)", ")") if won else "lost"
                words.append(f"{result} with {summary_words(value, None, False)}")
            summary = text.split("*** SUMMARY ***")[1].splitlines()
            line = next(ln for ln in summary if ln.startswith(f"Seat {seat}: Player{seat} "))
            assert line.endswith(f"and {words[0]}, and {words[1]}"), line
            if (seat, 1) not in runs and (seat, 2) in runs:
                assert re.search(r"showed \[.+\] and lost with .+, and won \(\$[0-9.]+\) with ", line)
                found += 1
    assert found >= 1


# ------------------------------------------------------------------------ tournament tables


def _tournament(table: str, number: int | None) -> HandContext:
    return HandContext(
        hand_number=900001,
        table=table,
        time=dt.datetime(2026, 11, 30, 12, 0, tzinfo=ET),
        time_zone_label="ET",
        players={i: f"Player{i}" for i in range(1, 10)},
        seat_count=9,
        tournament=TournamentInfo(
            "sunday-1", name="Sunday Turbo", buy_in=100, fee=10, level=2, number=number
        ),
    )


def test_a_tournament_table_is_named_as_pokerstars_names_it() -> None:
    hand = next(random_hands("holdem", Betting.NO_LIMIT, 1, "tour-name"))
    line = write_pokerstars(hand, _tournament("Sunday Turbo - table 12", 777)).splitlines()[1]
    assert line.startswith("Table '777 12' 9-max Seat #")
    assert write_pokerstars(hand, _tournament("Final", 777)).splitlines()[1].startswith("Table '777 1' ")
    assert write_pokerstars(hand, CASH).splitlines()[1].startswith("Table 'Alpha' 10-max")  # cash: its name


def test_pokerdf_reads_every_holdem_tournament_hand_exactly() -> None:
    """pokerdf's own conversion of a file of tournament hands (tables of up to nine, no rake): every hand
    read, each player's row what the engine played. Before: no hand at all (the table name)."""
    pytest.importorskip("pokerdf")
    from pokerdf.core.read_and_convert import apply_regex

    hands = [
        h
        for h in random_hands("holdem", Betting.NO_LIMIT, 400, "pokerdf-tour")
        if max(h.order) <= 9 and not h.rake
    ][:72]
    assert len(hands) == 72
    texts = []
    for k, hand in enumerate(hands):
        ctx = replace(_tournament("Sunday Turbo - table 3", 777), hand_number=900001 + k)
        texts.append(write_pokerstars(hand, ctx, viewer=hand.order[0]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = apply_regex("\n\n\n".join(texts))
    assert sorted(set(df["HandID"])) == [str(900001 + k) for k in range(72)]
    assert set(df["TableID"]) == {"3"} and set(df["TournID"]) == {"777"}
    for k, hand in enumerate(hands):
        rows = df[df["HandID"] == str(900001 + k)]
        assert list(rows["Player"]) == [f"Player{s}" for s in hand.order]
        won = _won(hand)
        for seat, (_, row) in zip(hand.order, rows.iterrows(), strict=True):
            assert row["Seat"] == seat
            assert row["Stack"] == hand.players[seat].starting_stack
            assert (row["Balance"] if row["Balance"] == row["Balance"] else 0) == won.get(seat, 0)
        assert rows["TotalPotLog"].iloc[0] == hand.pot_total()
        pots = [p.amount for p in hand.pots] if len(hand.pots) > 1 else [hand.pot_total()]
        assert list(rows["PotBreakdown"].iloc[0]) == pots
        board = tuple(str(c) for c in hand.board)
        if len(board) == 5:
            assert tuple(rows["BoardRiver"].iloc[0]) == board


def test_pokerroom_import_reads_a_file_of_hands_run_twice(tmp_path: Path) -> None:
    """The command itself: every hand run twice of the file read, replayed and checked (exit status 0)."""
    from typer.testing import CliRunner

    from pokerroom.cli import app

    hands = list(_run_twice("holdem", Betting.NO_LIMIT))
    texts = [write_pokerstars(h, replace(CASH, hand_number=100 + k)) for k, h in enumerate(hands)]
    src = tmp_path / "rit.txt"
    src.write_text("\n\n\n".join(texts))
    result = CliRunner().invoke(app, ["import", str(src), "-o", str(tmp_path / "rit.phhs")])
    assert result.exit_code == 0, result.output
    assert all(f"hand #{100 + k}: ok" in result.output for k in range(len(hands)))
