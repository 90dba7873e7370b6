"""The fast PHH TOML reader (history/toml_subset.py) against tomllib: for any text it gives what tomllib
gives, or ``None`` (then ``tomlio.load`` asks tomllib, which reads the text or names its error)."""

from __future__ import annotations

import datetime as dt
import random
import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pokerroom.engine import Betting
from pokerroom.history import HandContext, HistoryError, read_phh, read_phhs, toml_subset, write_phh
from pokerroom.history.toml_subset import read
from pokerroom.history.tomlio import load

from .helpers import corrupt, random_hands

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "phh"
TEXTS = {str(p.relative_to(FIXTURES)): p.read_text(encoding="utf-8") for p in sorted(FIXTURES.rglob("*.phh"))}


def _typed(value: Any) -> Any:
    """The value with every scalar's type kept (``1``, ``True`` and ``Decimal(1)`` compare equal)."""
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    if isinstance(value, dt.datetime):
        return (type(value), value.isoformat(), value.utcoffset())
    return (type(value), repr(value))


def _tomllib(text: str) -> dict[str, Any] | None:
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError:
        return None


def _agrees(text: str) -> dict[str, Any] | None:
    """Checks the contract on ``text`` and returns the fast reader's answer."""
    fast = read(text)
    if fast is not None:
        slow = _tomllib(text)
        assert slow is not None, f"the fast reader accepted text tomllib refuses: {text!r}"
        assert _typed(fast) == _typed(slow), text
    return fast


def test_every_fixture_is_read_by_the_fast_reader_exactly() -> None:
    for name, text in TEXTS.items():
        assert _agrees(text) is not None, name


def test_plain_one_line_arrays_take_the_quick_paths() -> None:
    """Arrays of whole numbers and of plain strings on one line (nearly every array of a PHH file) are
    split rather than matched (``_whole_numbers``, ``_plain_strings``), to tomllib's values."""
    seen = {"numbers": 0, "strings": 0}
    for text in [
        *TEXTS.values(),
        *(write_phh(hand) for hand in random_hands("holdem", Betting.NO_LIMIT, 12, seed="arrays")),
    ]:
        for line in text.splitlines():
            key, _, value = line.partition(" = ")
            if not value.startswith("[") or not value.endswith("]"):
                continue
            pos = line.index("[")
            expected = _tomllib(line)
            assert expected is not None, line
            if value[1:2].isdigit() and "." not in value and "-" not in value:
                quick = toml_subset._whole_numbers(line, pos)
                seen["numbers"] += 1
            elif value[1:2] in ("'", '"') and "\\" not in value:
                quick = toml_subset._plain_strings(line, pos, value[1])
                seen["strings"] += 1
            else:
                continue
            assert quick is not None and quick[1] == len(line), line
            assert _typed(quick[0]) == _typed(expected[key]), line
    assert min(seen.values()) > 50, seen


# Pieces of TOML, inside and outside the subset, valid and not.
_KEYS = st.sampled_from(["a", "b_2", "x-y", "1", "actions", "a.b", '"q"', "", "a b", "é"])
_CHARS = st.sampled_from(["a", " ", "'", '"', "\\", "\t", "\x00", "\x7f", "#", "é", "\n", "\r", ",", "]"])
_ESCAPES = st.sampled_from(
    ["\\n", "\\t", '\\"', "\\\\", "\\b", "\\f", "\\r", "\\u00e9", "\\U0001F0A1", "\\uD800", "\\x41", "\\"]
)
_STRING_BODY = st.lists(st.one_of(_CHARS, _ESCAPES, st.text(max_size=3)), max_size=5).map("".join)
_NUMBERS = st.sampled_from(
    ["0", "-0", "+7", "12", "007", "1_000", "0x1F", "1.5", "-0.25", "+3.0", "1.", ".5", "1e3", "1.5E-2"]
    + ["inf", "-inf", "+nan", "nan", "infinity", "12a", "3.14.15"]
)
_DATES = st.sampled_from(
    ["2023-06-25T18:30:00Z", "2023-06-25 18:30:00+02:00", "2023-06-25T18:30:00-07:30", "2023-06-25T18:30:00"]
    + ["2023-06-25", "18:30:00", "2023-02-30", "2023-13-01T00:00:00Z", "24:00:00", "18:30:00.5"]
    + ["2023-06-25T18:30:00+24:00", "2023-06-25T18:30:00+01:60", "2023-06-25T18:30"]
    + ["2023-06-25T18:30:00.123456+00:00", "18:30:00.1234567", "18:30:00.", "2023-06-25 18:30:00.5Z"]
)
_SCALARS = st.one_of(
    _STRING_BODY.map(lambda s: f'"{s}"'),
    _STRING_BODY.map(lambda s: f"'{s}'"),
    _NUMBERS,
    _DATES,
    st.sampled_from(["true", "false", "True", "'''x'''", '"""y"""', "{a = 1}", "[1, [2]]"]),
)
_GAPS = st.sampled_from(["", " ", "\n", " # note\n", "\r\n", "\t", "# x\n  ", "\r"])


@st.composite
def _arrays(draw: st.DrawFn) -> str:
    items = draw(st.lists(_SCALARS, max_size=5))
    out = "["
    for i, item in enumerate(items):
        out += draw(_GAPS) + item + draw(_GAPS)
        if i < len(items) - 1 or draw(st.booleans()):
            out += ","
    return out + draw(_GAPS) + "]"


@st.composite
def _documents(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.integers(0, 9))
        if kind == 0:
            lines.append(draw(st.sampled_from(["", "   ", "# comment", "#\x01", "\t# é"])))
        elif kind == 1:
            lines.append(f"[{draw(_KEYS)}]" + draw(st.sampled_from(["", " # t", " x"])))
        else:
            value = draw(_arrays()) if kind < 5 else draw(_SCALARS)
            eq = draw(st.sampled_from([" = ", "=", " =\t", " = = ", " "]))
            tail = draw(st.sampled_from(["", "  # c", " x", "#\x00"]))
            lines.append(f"{draw(_KEYS)}{eq}{value}{tail}")
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines) + draw(st.sampled_from(["", "\n"]))


@settings(max_examples=1500, deadline=None)
@given(_documents())
@example("a = 1\na = 2\n")  # a key defined twice
@example("[1]\nx = 1\n[1]\ny = 2\n")  # a table defined twice
@example("a = 1\n[a]\n")  # a table over a key
@example("a = '''x'''\n")  # a multi-line literal string
@example('a = ["x", "y",]\nb = [1, 2.5, -3,]\nc = [\n  "z",  # note\n]\n')
@example("a = [,]\n")
# arrays of whole numbers (read without the regular expressions when plain)
@example("a = [10000, 50, 0]\nb = [ ]\nc = [1,]\nd = [\t1\t,\t2\t]\ne = []  # c\n")
@example("a = [007]\n")  # a leading zero
@example("a = [0, 00]\n")
@example("a = [1 0]\n")  # a space inside a number
@example("a = [+7, -0]\n")  # signs: the expressions read them
@example("a = [ ,]\n")
@example("a = [1,,2]\n")
@example("a = [1\r]\n")
@example("a = [\u0661]\n")  # a digit that is not ASCII
@example("a = [1, 2\nb = [3]\n")  # not closed on its line
@example("a = [1,\n2]\n")  # over two lines
# keys read before, without the expression (after the first line, "a" and "b" have been read)
@example("a = 1\nb = 2\nab = 3\n a = 4\n")  # a new key, and a key after a space
@example("a = 1\nb =  2\n")  # two spaces after the "="
@example("a = 1\nb = \t2\n")
@example("a = 1\nb = = 2\n")
@example("a = 1\n[b]\na = 2\nc = 1 = 2\n")
@example("a = 1\na = 2\n")
# one-line arrays of plain strings (split at their quotes when plain)
@example("a = ['x', 'y',]\nb = ['x','y' ,\t'z']\nc = ['a]b', '']\nd = [\"p1 cc\", \"# not a comment\"]\n")
@example("a = ['x'] # it's\n")  # a quote after the array
@example('a = [\'x\', "y"]\nb = ["x", \'y\', "z"]\n')  # both kinds of string
@example('a = ["a\\"b", "c"]\n')  # an escape
@example("a = ['tab\there', '\u200b']\n")  # a tab and a character that prints nothing: both allowed
@example("a = ['nul\x00']\n")
@example("a = ['x', 'y'\n")  # not closed on its line
@example("a = ['x' 'y']\n")  # no comma
@example("a = ['x',, 'y']\n")
@example("a = ['x']]\n")
@example("a = ['x']\r\nb = ['y']")
@example('a = "\\u00e9\\t\\"q\\""\n')
@example("t = 2023-06-25T18:30:00+05:30\nd = 2023-06-25\nh = 07:05:00\n")
def test_the_fast_reader_agrees_with_tomllib(text: str) -> None:
    _agrees(text)


def _same_both_ways(text: str) -> None:
    """An array of strings over several lines, read in one match, reads as item by item."""
    fast, steps = read(text), read(text, string_arrays=False)
    assert (fast is None) == (steps is None), text
    if fast is not None:
        assert _typed(fast) == _typed(steps), text


@settings(max_examples=800, deadline=None)
@given(_documents())
@example("a = 1 # c\nb = [1, 2.5]\nc = ['x', 'y',]\nd = []\ne = 2023-06-25 18:30:00+02:00\n")
@example("a = 2023-06-25 18:30:00+5\n")  # a date, then something that is not the end of the line
@example("a = ['x', 'y'] , \n")
@example("a = [\n  'x', # a comment\n  \"y\",\n]\n")  # strings over lines, with comments
@example("a = ['x', 'y'# 'z', 'w']\nb = 1\n")  # the array ends in a comment: not closed
def test_string_arrays_read_as_item_by_item(text: str) -> None:
    _same_both_ways(text)


def test_string_arrays_of_fixtures_and_their_corruptions_read_as_item_by_item() -> None:
    rng = random.Random(5)
    texts = list(TEXTS.values())
    for text in texts:
        _same_both_ways(text)
        assert read(text) is not None
    alphabet = "'\"[],=#\\ \n\r\t0123456789.-+_abcdefinptrue\x00:TZ"
    for _ in range(600):
        chars = list(rng.choice(texts))
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(chars))
            if rng.random() < 0.5:
                chars.insert(i, rng.choice(alphabet))
            else:
                chars[i] = rng.choice(alphabet)
        _same_both_ways("".join(chars))


def test_the_subset_is_read_by_the_fast_reader() -> None:
    """The forms PHH files use are read without tomllib (each line is in the subset)."""
    text = (
        "# a comment\r\n"
        "variant = 'NT'  # trailing comment\n"
        'name = "Jo \\"JB\\" Bloggs\\tB\\u00e9"\n'
        "antes = [0, 0.25, -0, +3]\n"
        "stacks = [inf, 1.5]\n"
        "flag = true\n"
        "actions = [\n  # Pre-flop\n\n  'd dh p1 AhKh',  # a deal\n  \"p1 cbr 3\",\n]\n"
        "_time = 2023-06-25T18:30:00Z\n"
        "day = 2023-06-25\n"
        "time = 18:30:00\n"
        "then = 18:30:00.5\n"
        "_then = 2026-12-06T20:42:13.1234567+00:00\n"  # (the room writes its times to the microsecond)
        "empty = []\n"
        "[1]\n"
        "x = 'y'\n"
    )
    fast = _agrees(text)
    assert fast is not None
    assert fast["name"] == 'Jo "JB" Bloggs\tBé'
    assert fast["antes"] == [0, Decimal("0.25"), 0, 3] and isinstance(fast["antes"][1], Decimal)
    assert fast["actions"] == ["d dh p1 AhKh", "p1 cbr 3"]
    assert fast["_time"] == dt.datetime(2023, 6, 25, 18, 30, tzinfo=dt.UTC)
    assert fast["then"] == dt.time(18, 30, 0, 500000)
    assert fast["_then"] == dt.datetime(2026, 12, 6, 20, 42, 13, 123456, tzinfo=dt.UTC)
    assert fast["1"] == {"x": "y"}


@pytest.mark.parametrize(
    "text",
    [
        "a.b = 1\n",  # dotted key
        'a = """x"""\n',  # multi-line string
        "a = 1_000\n",  # underscores
        "a = 1e3\n",  # exponent
        "a = {b = 1}\n",  # inline table
        "a = [[1], [2]]\n",  # nested arrays
        "[[a]]\nb = 1\n",  # array of tables
    ],
)
def test_valid_toml_outside_the_subset_is_still_read(text: str) -> None:
    assert read(text) is None
    assert _typed(load(text)) == _typed(tomllib.loads(text, parse_float=Decimal))


@pytest.mark.parametrize(
    "text",
    [
        "min_bet = = 100\n",
        "a = 1\na = 2\n",
        "a = 'x\n",
        "a = [1, 2\n",
        "a = 007\n",
        "a = '\x01'\n",
        "a = 1 # \x00\n",
        'a = "\\uD800"\n',
        "a = 2023-02-30\n",
        "a = 1\rb = 2\n",
    ],
)
def test_bad_toml_gets_tomllibs_error(text: str) -> None:
    """Every text the subset refuses reaches tomllib, so the error (and its line) is tomllib's."""
    assert read(text) is None
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(text)
    with pytest.raises(HistoryError) as info:
        load(text)
    assert info.value.code == "phh_syntax"


def test_mutated_real_hands_agree_with_tomllib() -> None:
    """Random corruptions of real files: the fast reader never accepts what tomllib refuses, never reads
    a value differently, and read_phh raises the same error as tomllib's path would."""
    rng = random.Random(11)
    texts = list(TEXTS.values())
    alphabet = "'\"[],=#\\ \n\r\t0123456789.-+_abcdefinptrue\x00"
    for _ in range(800):
        _agrees(corrupt(rng.choice(texts), rng, alphabet, rng.randint(1, 3)))


def test_a_phhs_file_through_the_fast_reader() -> None:
    good = TEXTS["pluribus/100-0.phh"]
    text = f"[1]\n{good}\n[2]\n{good}"
    assert read(text) is not None
    items = read_phhs(text)
    assert [i for i, _ in items] == [1, 2]
    hand = items[1][1]
    assert not isinstance(hand, HistoryError)
    shift = good.count("\n") + 3  # the second hand follows the first, two headers and a blank line
    alone = read_phh(good).actions
    assert hand.name == "2" and [a.line for a in hand.actions] == [a.line + shift for a in alone]  # type: ignore[operator]
    assert [(a.actor, a.verb, a.cards, a.amount) for a in hand.actions] == [
        (a.actor, a.verb, a.cards, a.amount) for a in alone
    ]


def test_the_rooms_own_histories_with_times_to_the_microsecond_are_read_by_the_fast_reader() -> None:
    """The room writes ``time`` and ``_time`` to the microsecond: those histories (every audit copy the
    integrity report reads) stay in the subset, with tomllib's values, rather than falling back to it."""
    ctx = HandContext(
        hand_id="holdem-nl-7",
        hand_number=7,
        table="Alpha",
        time=dt.datetime(2026, 12, 6, 20, 42, 13, 123456, tzinfo=dt.UTC),
        players={i: f"Player{i}" for i in range(1, 11)},
    )
    for hand in random_hands("holdem", Betting.NO_LIMIT, 5, seed="micro"):
        text = write_phh(hand, None, ctx)
        fast = _agrees(text)
        assert fast is not None
        assert fast["_time"] == ctx.time
