"""The quick paths of reading and replaying PHH (docs/engine-speed.md, issue 32) change nothing.

- A hand that writes only whole amounts is read as integers (``reader._whole_amounts``); every other
  hand, and every hand with an error, takes the general reading (``reader._amounts``). Both give the
  same hand, and the same error, for every fixture and for variations of them (decimals, minor units,
  infinite stacks, bad amounts in every place).
- An action (``PhhAction``, a native class in the compiled build: history/action.py) is the value the frozen
  dataclass was: equal and hashed by its fields, the same ``repr``, refused any assignment, copied and
  pickled, matched by position.
- A hand (``PhhHand``, compiled with the reader: history/hand.py) is the value the frozen dataclass was;
  contexts without a time, a hand number or a tournament are built by setting their slots
  (``reader._context``): the same context as its constructor.
- Replay makes each distinct structure and set of blinds once, and each seat's fold, check and call: a
  replay gives the same result cold and warm, and a structure that cannot be played is refused every
  time.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import pickle
import random
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.cards import Card
from pokerroom.history import HistoryError, read_phh, replay
from pokerroom.history import reader as reader_module
from pokerroom.history.action import ACTION_FIELDS
from pokerroom.history.errors import PhhFieldError
from pokerroom.history.model import HandContext, PhhAction, PhhHand
from pokerroom.history.tomlio import load

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "phh"
FILES = sorted(FIXTURES.rglob("*.phh"))
GOOD = (FIXTURES / "pluribus" / "100-0.phh").read_text()
replay_module = importlib.import_module("pokerroom.history.replay")  # (the package exports a function)


def _general(fields: Mapping[str, Any], text: str) -> PhhHand:
    """The general reading alone (decimals for every amount, every check in order)."""
    variant, betting, code = reader_module._variant(fields)
    if not isinstance(fields.get("starting_stacks"), list) or not fields["starting_stacks"]:
        raise PhhFieldError("expected an array of starting stacks", field="starting_stacks")
    n = len(fields["starting_stacks"])
    amounts = reader_module._amounts(fields, n, variant, betting, text, 0)
    return reader_module._hand(fields, variant, betting, code, n, amounts, None)


def _outcome(read: Any, fields: Mapping[str, Any], text: str) -> object:
    try:
        return read(fields, text)
    except HistoryError as exc:
        return (type(exc), str(exc), exc.field, exc.action, exc.line)


def _both(text: str) -> tuple[object, object, bool]:
    fields = load(text)
    quick = _outcome(lambda f, t: reader_module.parse_hand(f, text=t), fields, text)
    general = _outcome(_general, fields, text)
    n = len(fields["starting_stacks"]) if isinstance(fields.get("starting_stacks"), list) else 0
    whole = False
    if n:
        try:
            variant, betting, _ = reader_module._variant(fields)
            whole = reader_module._whole_amounts(fields, n, variant, betting, text, 0) is not None
        except HistoryError:
            whole = False
    return quick, general, whole


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(FIXTURES)) for p in FILES])
def test_every_fixture_reads_the_same_both_ways(path: Path) -> None:
    quick, general, _ = _both(path.read_text())
    assert isinstance(quick, PhhHand) and isinstance(general, PhhHand)
    assert quick == general
    fields = [a.astuple() for a in general.actions]
    assert [a.astuple() for a in quick.actions] == fields


def test_the_whole_amount_path_is_taken_for_plain_files() -> None:
    # (the point of it: a file of whole amounts does not go the slow way)
    _, _, whole = _both(GOOD)
    assert whole
    _, _, whole = _both(GOOD.replace("min_bet = 100", "min_bet = 100.5"))
    assert not whole


# Variations of a good file: each must read as the general reading does, a hand or the same error.
VARIATIONS = [
    ("min_bet = 100", "min_bet = 100.5"),
    ("min_bet = 100", "min_bet = 100.0"),
    ("min_bet = 100", "min_bet = -1"),
    ("min_bet = 100", "min_bet = true"),
    ("min_bet = 100\n", ""),
    ("hand = 0", "hand = 0\n_minor_units = 100"),
    ("hand = 0", "hand = 0\n_minor_units = 0"),
    ("hand = 0", "hand = 0\n_minor_units = true"),
    ("hand = 0", "hand = 0\n_minor_units = 3"),
    ("hand = 0", "hand = 0\n_rake = 5"),
    ("hand = 0", "hand = 0\n_rake = 0.25"),
    ("hand = 0", "hand = 0\n_rake = -1"),
    ("hand = 0", "hand = 0\n_chip_unit = 25"),
    ("hand = 0", "hand = 0\n_dead = [0, 0, 0, 0, 0, 0]"),
    ("hand = 0", "hand = 0\n_dead = [0, 0, 0, 0, 0, 1]"),
    ("hand = 0", "hand = 0\n_dead = [0, 0, 0, 0, 0, 0.5]"),
    ("hand = 0", "hand = 0\n_dead = [0, 0]"),
    ("hand = 0", "hand = 0\nbring_in = 10"),
    ("hand = 0", "hand = 0\nbring_in = 'x'"),
    ("hand = 0", "hand = 0\n_bomb_pot = true"),
    ("hand = 0", "hand = 0\nwinnings = [0, 0, 0, 0, 0, 0]"),
    ("hand = 0", "hand = 0\nwinnings = [0, 0, 0]"),
    ("hand = 0", "hand = 0\nseats = [1, 1, 2, 3, 4, 5]"),
    ("antes = [0, 0, 0, 0, 0, 0]", "antes = [0, 0, 0, 0, 0, 0.5]"),
    ("antes = [0, 0, 0, 0, 0, 0]", "antes = [0, 0, 0, 0, 0, -1]"),
    ("antes = [0, 0, 0, 0, 0, 0]", "antes = [0, 0, 0]"),
    ("antes = [0, 0, 0, 0, 0, 0]\n", ""),
    ("blinds_or_straddles = [50, 100", "blinds_or_straddles = [0.5, 100"),
    ("blinds_or_straddles = [50, 100", "blinds_or_straddles = [true, 100"),
    ("starting_stacks = [10000,", "starting_stacks = [0,"),
    ("starting_stacks = [10000,", "starting_stacks = [inf,"),
    ("starting_stacks = [10000,", "starting_stacks = [10000.25,"),
    ("starting_stacks = [10000,", "starting_stacks = [-5,"),
    ("finishing_stacks = [10310", "finishing_stacks = ['x'"),
    ("finishing_stacks = [10310", "finishing_stacks = [10310.5"),
    ("variant = 'NT'", "variant = 'NT'\n_variant = 'razz'"),
    ("variant = 'NT'", "variant = 'FT'\nsmall_bet = 100\nbig_bet = 200"),
]


@pytest.mark.parametrize(("old", "new"), VARIATIONS)
def test_variations_read_the_same_both_ways(old: str, new: str) -> None:
    assert old in GOOD
    quick, general, _ = _both(GOOD.replace(old, new, 1))
    assert quick == general


def test_amounts_in_actions_read_the_same_both_ways() -> None:
    actions_line = next(line for line in GOOD.splitlines() if line.startswith("actions"))
    raises = [w for w in actions_line.split("'") if " cbr " in w]
    assert raises
    rng = random.Random(32)
    for forms in ("{}.5", "{}.0", "{}.25", "0", "-{}", "x{}", "{}e1", "1e20", "inf", "{} {}"):
        target = rng.choice(raises)
        amount = target.split()[-1]
        text = GOOD.replace(f"'{target}'", f"'{target.rsplit(' ', 1)[0]} {forms.format(amount, amount)}'")
        quick, general, _ = _both(text)
        assert quick == general, forms


def test_actions_are_values() -> None:
    """What the frozen dataclass gave, in both builds (CI runs this file compiled and from source)."""
    card = Card.parse("As")
    for values in [
        (0, 7, None, "db", (card, None), None, None, False, ""),
        (3, None, 2, "cbr", (), 250, None, False, "a note"),
        (5, 1, 4, "sm", (card,), None, True, True, ""),
    ]:
        made = PhhAction(*values)
        named = PhhAction(**dict(zip(ACTION_FIELDS, values, strict=True)))  # type: ignore[arg-type]
        assert made == named and hash(made) == hash(named) and made.astuple() == values
        assert made != PhhAction(*values[:-1], "another note") and made != values
        body = ", ".join(f"{name}={value!r}" for name, value in zip(ACTION_FIELDS, values, strict=True))
        assert repr(made) == f"PhhAction({body})"
        assert copy.copy(made) == made and pickle.loads(pickle.dumps(made)) == made
        match made:
            case PhhAction(index, line, actor, verb):
                assert (index, line, actor, verb) == values[:4]
        for name in (*ACTION_FIELDS, "other"):
            with pytest.raises(AttributeError):
                setattr(made, name, "f")
        with pytest.raises(AttributeError):
            del made.verb
        assert made.astuple() == values
    assert PhhAction(1, None, 2, "f") == PhhAction(1, None, 2, "f", (), None, None, False, "")


def test_contexts_are_the_same_as_their_constructor() -> None:
    """A context without a time, a hand number or a tournament is made by setting its slots
    (``reader._context``); any other by its constructor. Either way: the context the constructor makes
    from the same values, immutable, its players a read-only mapping."""
    texts = [path.read_text() for path in FILES]
    extra = ["_hand_number = 12", '_tournament_id = "T1"', "_time = 2026-12-07T10:00:00Z", 'table = "Rio"']
    texts += [f"{extra_line}\n{GOOD}" for extra_line in extra]
    quick = 0
    for text in texts:
        made = read_phh(text).context
        values = [getattr(made, f.name) for f in dataclasses.fields(HandContext)]
        built = HandContext(*values)
        assert made == built and repr(made) == repr(built)
        assert isinstance(made.players, MappingProxyType) and made.players == built.players
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.table = "x"  # type: ignore[misc]
        quick += made.time is None and made.hand_number is None and made.tournament is None
    assert quick >= 2  # (the quick way is taken: the pluribus fixtures and the table line)
    with pytest.raises(HistoryError, match="non-negative"):  # (the constructor's check still runs)
        read_phh(f"_hand_number = -1\n{GOOD}")


def test_hands_are_values() -> None:
    """A hand (``PhhHand``, compiled with the reader in that build: history/hand.py, with a constructor of
    its own) is the frozen dataclass it was: made positionally or by keyword with the same defaults, the
    same repr and equality, ``replace``, pattern matching by field, assignment refused, and copied in both
    builds (``copy.copy``; a context's players are a read-only mapping, which neither the dataclass nor
    this hand could pickle)."""
    names = [f.name for f in dataclasses.fields(PhhHand)]
    assert len(names) == 31 and names[:3] == ["variant", "betting", "variant_field"]
    assert names[-4:] == ["name", "run_it_twice", "runout_selections", "bomb_pot"]
    for path in FILES:
        made = read_phh(path.read_text())
        values = tuple(getattr(made, name) for name in names)
        built = PhhHand(*values)
        assert made == built and repr(made) == repr(built), path.name
        assert PhhHand(**dict(zip(names, values, strict=True))) == made
        same = copy.copy(made)
        assert same == made and type(same) is PhhHand, path.name
        assert replay(same).finishing_stacks == replay(made).finishing_stacks
    defaults = PhhHand(*values[:27])
    assert (defaults.name, defaults.run_it_twice, defaults.runout_selections, defaults.bomb_pot) == (
        None,
        False,
        (),
        False,
    )
    assert dataclasses.replace(made, cap=9).cap == 9 and made.cap != 9
    match made:
        case PhhHand(variant=v, starting_stacks=stacks):
            assert v is made.variant and stacks == made.starting_stacks
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.scale = 2  # type: ignore[misc]
    with pytest.raises(TypeError):  # (every field without a default, no fewer)
        PhhHand(*values[:26])


def _result(text: str) -> tuple[object, ...]:
    r = replay(read_phh(text))
    return (r.finishing_stacks, r.complete, r.notes, r.deals, r.unused, r.matches, r.state.events)


def test_replays_are_the_same_cold_and_warm() -> None:
    texts = [p.read_text() for p in FILES]
    memos = [
        replay_module._STRUCTURES,
        replay_module._BLINDS,
        replay_module._FOLDS,
        replay_module._CHECKS,
        replay_module._CALLS,
    ]
    for memo in memos:
        memo.clear()
    cold = [_result(t) for t in texts]
    assert all(memos)
    warm = [_result(t) for t in texts]
    assert cold == warm
    for t in texts:  # and each alone, with the tables emptied before it
        for memo in memos:
            memo.clear()
        assert _result(t) == warm[texts.index(t)]


def test_commands_made_once_per_seat_are_the_commands() -> None:
    """Fold, check and call of a seat are made once (immutable values): equal to new ones, of their class."""
    from pokerroom.engine import Call, Check, Fold

    for table, cls in (
        (replay_module._FOLDS, Fold),
        (replay_module._CHECKS, Check),
        (replay_module._CALLS, Call),
    ):
        for seat in (1, 4, 10):
            first, again = (replay_module._memo(table, seat, cls, seat) for _ in range(2))
            assert first is again and type(first) is cls and first == cls(seat)


def test_a_structure_that_cannot_be_played_is_refused_every_time() -> None:
    bad = GOOD.replace("min_bet = 100", "min_bet = 100\n_chip_unit = 30")
    errors = []
    for _ in range(2):
        with pytest.raises(HistoryError) as info:
            replay(read_phh(bad))
        errors.append((type(info.value), str(info.value), info.value.field))
    assert errors[0] == errors[1]
    assert replay(read_phh(GOOD)).complete


def _general_deal(hand: PhhHand) -> object:
    try:
        script, spare = replay_module._script(hand)
    except HistoryError as exc:
        return (type(exc), str(exc), exc.action, exc.line)
    hole = {p: [t.card for t in toks] for p, toks in script.hole.items()}
    board = [t.card for t in script.board]
    discards = {i: tuple(t.card for t in toks) for i, toks in script.discards.items()}
    return hole, board, discards, spare


def _known_deal(hand: PhhHand) -> object:
    try:
        return replay_module._known_deal(hand)
    except HistoryError as exc:
        return (type(exc), str(exc), exc.action, exc.line)


def test_a_deal_of_known_cards_reads_as_the_general_deal() -> None:
    # (R52 decks, R-RIT boards: the cards the engine is handed are the history's, both ways)
    quick = 0
    for path in FILES:
        hand = read_phh(path.read_text())
        known = _known_deal(hand)
        if known is None:  # an unknown card or a discard: the general reading only
            assert any(a.verb == "sd" or None in a.cards for a in hand.actions)
            continue
        quick += 1
        assert known == _general_deal(hand), path
    assert quick >= len(FILES) // 2


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("'d dh p2 8s4c'", "'d dh p2 TcQc'"),  # a card dealt twice
        ("'d db Qh'", "'d db 7d'"),  # a board card dealt twice
        ("'p4 f'", "'p4 f', 'p1 sm Ah9s'"),  # shows a card he does not hold
        ("'p4 f'", "'p4 f', 'p1 sm QcTc', 'p4 sm Ah4h'"),  # shows his own cards
        ("'p4 f'", "'p4 f', 'p1 sm -'"),
        ("'p4 f'", "'p4 f', 'p1 sm'"),
    ],
)
def test_known_deals_check_as_the_general_deal(old: str, new: str) -> None:
    assert old in GOOD
    hand = read_phh(GOOD.replace(old, new, 1))
    known = _known_deal(hand)
    assert known is not None
    assert known == _general_deal(hand)


_KEY_PIECES = ["actions", "\n", " ", "\t", "=", "x", "#", "\r", "\f", "actions =", "\nactions = [", '"a"']


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_KEY_PIECES), max_size=12), st.integers(min_value=0, max_value=40))
def test_the_actions_key_is_found_where_the_expression_finds_it(pieces: list[str], offset: int) -> None:
    """``reader._actions_key``, the quick search for the line of the ``actions`` key, answers what the
    expression answers (where an action's line is counted from) for any text and offset."""
    text = "".join(pieces)
    offset = min(offset, len(text))
    m = reader_module._ACTIONS_KEY.search(text, offset)
    assert reader_module._actions_key(text, offset) == (m.start() if m else offset)


def test_the_actions_key_of_every_fixture_is_found_where_the_expression_finds_it() -> None:
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        m = reader_module._ACTIONS_KEY.search(text, 0)
        assert reader_module._actions_key(text, 0) == (m.start() if m else 0), path
