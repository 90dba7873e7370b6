"""The compiled engine: which build runs, the guard against stale compiled modules, and commands whose
fields have the wrong type (a compiled module would stop on them with a bare TypeError)."""

from __future__ import annotations

import hashlib
import importlib
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import pokerroom.engine.state as state_module
from pokerroom.engine import (
    BUILD,
    BadCommand,
    BetDecision,
    Betting,
    Blinds,
    Call,
    Check,
    ConfigError,
    Discard,
    Draw,
    DrawDecision,
    EngineError,
    HandState,
    InvalidCards,
    ListDeck,
    RaiseTo,
    SeatSetup,
    Stakes,
    Structure,
)
from pokerroom.engine.native import COMPILED, MANIFEST, choose
from pokerroom.variants import get_variant

from .helpers import start

NL = Betting.NO_LIMIT


def _package(tmp_path: Path, sources: dict[str, str], compiled_from: dict[str, str] | None) -> Path:
    for name, text in sources.items():
        (tmp_path / f"{name}.py").write_text(text)
    if compiled_from is not None:
        lines = [
            f"pokerroom.engine.{name} {hashlib.sha256(text.encode()).hexdigest()}\n"
            for name, text in compiled_from.items()
        ]
        (tmp_path / MANIFEST).write_text("".join(lines))
    return tmp_path


def test_without_a_manifest_nothing_is_compiled(tmp_path: Path) -> None:
    here = _package(tmp_path, {"state": "x = 1\n"}, None)
    assert choose(here, pure=False) == ("python", [], [])


def test_current_compiled_modules_run_unless_pure_is_asked(tmp_path: Path) -> None:
    sources = {"state": "x = 1\n", "betting": "y = 2\n"}
    here = _package(tmp_path, sources, sources)
    assert choose(here, pure=False) == ("mypyc", [], [])
    every = ["pokerroom.engine.betting", "pokerroom.engine.state"]
    assert choose(here, pure=True) == ("python", every, [])


def test_a_source_edited_after_the_build_loads_every_module_from_source(tmp_path: Path) -> None:
    """Compiled modules call each other directly: one stale module sends all of them back to source."""
    here = _package(
        tmp_path, {"state": "x = 1\n", "betting": "y = 3\n"}, {"state": "x = 1\n", "betting": "y = 2\n"}
    )
    build, from_source, stale = choose(here, pure=False)
    assert build == "python"
    assert from_source == ["pokerroom.engine.betting", "pokerroom.engine.state"]
    assert stale == ["pokerroom.engine.betting"]


def _build_in_child(env: dict[str, str]) -> list[str]:
    code = "import pokerroom.engine as e, pokerroom.engine.state as s; print(e.BUILD); print(s.__file__)"
    out = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True, check=True
    )
    return out.stdout.split()


def test_pure_environment_runs_the_sources() -> None:
    build, path = _build_in_child({"POKERROOM_PURE": "1"})
    assert build == "python"
    assert path.endswith("state.py")


def test_build_reports_what_runs() -> None:
    source = (state_module.__file__ or "").endswith(".py")
    running = "python" if source else "mypyc"
    assert running == BUILD
    if os.environ.get("CI") == "true" and os.environ.get("POKERROOM_PURE") != "1":
        # CI installs with the compiler at hand: a silent fallback to the sources would leave the
        # compiled engine, the one users run, untested.
        assert running == "mypyc", "the engine was not compiled at install"


def test_every_module_of_the_group_runs_in_the_same_build() -> None:
    """The table core (``rooms.cash``, ``rooms.clock``, ``server.core``) and the PHH modules load as the
    engine does: all compiled or all from source, never some of each."""
    for name in COMPILED:
        module = importlib.import_module(name)
        assert (module.__file__ or "").endswith(".py") == (BUILD == "python"), name


def test_the_rooms_package_lets_the_engine_choose_before_its_cash_table_is_found() -> None:
    """``import pokerroom.rooms`` first (no engine imported yet) with the sources asked for: the cash
    table runs from source with the engine, not compiled beside it."""
    code = "import pokerroom.rooms.cash as c, pokerroom.engine.state as s; print(c.__file__, s.__file__)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "POKERROOM_PURE": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert [p.rsplit(".", 1)[1] for p in out.stdout.split()] == ["py", "py"]


@pytest.mark.skipif(BUILD != "mypyc", reason="needs the compiled build")
def test_a_compiled_module_found_before_the_engine_chose_its_sources_is_refused() -> None:
    """``pokerroom.server.core`` imported first in a process asked to run the sources: its compiled
    module is found before the engine chooses; the choice refuses to run the sources beside it."""
    code = "import pokerroom.server.core"
    env = {**os.environ, "POKERROOM_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode != 0
    assert "loaded compiled before the engine chose to run from source" in out.stderr


def _draw_hand() -> tuple[object, int]:
    hand = start("draw5", NL, Stakes.blinds(1, 2), [100, 100, 100])
    while not isinstance(hand.pending, DrawDecision):
        p = hand.pending
        assert isinstance(p, BetDecision)
        hand.apply(Call(p.seat) if p.call else Check(p.seat))
    return hand, hand.pending.seat


@pytest.mark.parametrize(
    ("make", "error"),
    [
        (lambda seat, hole: Draw(seat, list(hole[:1])), BadCommand),  # type: ignore[arg-type]  # a list, not a tuple
        (lambda seat, hole: Draw(seat, ("As",)), InvalidCards),  # type: ignore[arg-type]  # a string, not a card
        (lambda seat, hole: Draw(str(seat), hole[:1]), BadCommand),  # type: ignore[arg-type]  # a seat that is not a number
        (lambda seat, hole: Draw(True, hole[:1]), BadCommand),  # a bool is no seat
        (lambda seat, hole: Discard(seat, list(hole[:2])), BadCommand),  # type: ignore[arg-type]
    ],
)
def test_a_command_with_a_field_of_the_wrong_type_is_a_typed_error(make: object, error: type) -> None:
    hand, seat = _draw_hand()
    before = hand.snapshot()  # type: ignore[attr-defined]
    hole = hand.hole_cards(seat)  # type: ignore[attr-defined]
    with pytest.raises(error) as info:
        hand.apply(make(seat, hole))  # type: ignore[attr-defined, operator]
    assert isinstance(info.value, EngineError)
    assert hand.snapshot() == before  # type: ignore[attr-defined]


@pytest.mark.parametrize("amount", [2.5, "10", None, True])
def test_a_raise_to_that_is_not_an_integer_is_a_bad_command(amount: object) -> None:
    hand = start("holdem", NL, Stakes.blinds(1, 2), [100, 100, 100])
    before = hand.snapshot()
    with pytest.raises(BadCommand):
        hand.apply(RaiseTo(hand.pending.seat, amount))  # type: ignore[arg-type, union-attr]
    assert hand.snapshot() == before


def _start_with(seats: list[SeatSetup], **kw: object) -> None:
    v = get_variant("holdem")
    HandState.start(
        variant=v,
        structure=Structure(NL, Stakes.blinds(1, 2)),
        seats=seats,
        deck=ListDeck.shuffled(v.deck, random.Random(1)),
        **kw,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("seats", "kw"),
    [
        ([SeatSetup(1, 10.5), SeatSetup(2, 100)], {}),  # type: ignore[arg-type]
        ([SeatSetup(1.0, 10), SeatSetup(2, 100)], {}),  # type: ignore[arg-type]
        ([SeatSetup("1", 10), SeatSetup(2, 100)], {}),  # type: ignore[arg-type]
        ([SeatSetup(True, 10), SeatSetup(2, 100)], {}),
        ([SeatSetup(1, 10, "yes"), SeatSetup(2, 100)], {}),  # type: ignore[arg-type]
        ([(1, 10), (2, 100)], {}),
        ([SeatSetup(1, 10), SeatSetup(2, 100)], {"blinds": Blinds(small=(1, 0.5), big=(2, 1))}),  # type: ignore[arg-type]
        ([SeatSetup(1, 10), SeatSetup(2, 100)], {"blinds": Blinds(big=(2, 2), live=[(1, 2)])}),  # type: ignore[arg-type]
        ([SeatSetup(1, 10), SeatSetup(2, 100)], {"blinds": {"big": (2, 2)}}),
        # (check_start is compiled: each field of the blinds is read as a plain object)
        ([SeatSetup(1, 10), SeatSetup(2, 100)], {"blinds": Blinds(small=[1, 1], big=(2, 2))}),  # type: ignore[arg-type]
        ([SeatSetup(1, 10), SeatSetup(2, 100)], {"blinds": Blinds(antes=[(1, 1)])}),  # type: ignore[arg-type]
        ([SeatSetup(1, 10), SeatSetup(2, 100)], {"blinds": Blinds(antes=((1, 1),), bomb_pot=1)}),  # type: ignore[arg-type]
    ],
)
def test_start_data_of_the_wrong_type_is_a_config_error(
    seats: list[SeatSetup], kw: dict[str, object]
) -> None:
    """Both builds: ConfigError, never a bare TypeError from a compiled module reading a typed field."""
    with pytest.raises(ConfigError):
        _start_with(seats, **kw)


@pytest.mark.parametrize("kw", [{"button": "1"}, {"button": 1.5}, {"hand_id": 5}])
def test_an_argument_against_its_annotation_is_refused(kw: dict[str, object]) -> None:
    """A scalar argument of ``HandState.start`` is checked against its annotation where the compiled
    method is called (TypeError, before any code runs); from source, ``check_start`` raises ConfigError.
    Record fields (seats, blinds) are checked by ``check_start`` in both builds (above)."""
    with pytest.raises(ConfigError if BUILD == "python" else TypeError):
        _start_with([SeatSetup(1, 10), SeatSetup(2, 100)], **kw)


def test_setup_compiles_the_modules_native_knows() -> None:
    """setup.py's COMPILED list and ``native.COMPILED`` name the same modules (issue 14: the split of
    ``state.py`` added ``hand_deal`` and ``hand_betting``)."""
    text = (Path(__file__).resolve().parents[2] / "setup.py").read_text()

    def names(prefix: str) -> list[str]:
        line = next(ln for ln in text.splitlines() if ln.startswith(prefix))
        return [n.strip().strip('"') for n in line.partition("=")[2].strip(" []").split(",")]

    engine = tuple(f"pokerroom.engine.{n}" for n in names("COMPILED = "))
    history = tuple(f"pokerroom.history.{n}" for n in names("HISTORY_COMPILED = "))
    table = tuple(f"pokerroom.{n}" for n in names("TABLE_COMPILED = "))
    assert engine + history + table == COMPILED
    # the server's table core (issue 32, item 3: docs/server-speed.md), in the same group
    assert set(table) == {"pokerroom.rooms.cash", "pokerroom.rooms.clock", "pokerroom.server.core"}
    assert {"pokerroom.engine.hand_deal", "pokerroom.engine.hand_betting"} <= set(COMPILED)
    # PHH reading and replay, and the actions and hands they make and read (issue 32), in the engine's group
    assert set(history) == {
        "pokerroom.history.reader",
        "pokerroom.history.replay",
        "pokerroom.history.toml_subset",
        "pokerroom.history.action",
        "pokerroom.history.hand",
    }


@pytest.mark.parametrize(("folder", "module"), [("history", "reader"), ("server", "core"), ("rooms", "cash")])
def test_a_stale_module_of_another_package_runs_everything_from_source(
    tmp_path: Path, folder: str, module: str
) -> None:
    """The compiled history and table modules share the engine's manifest and its switch: an edited
    ``reader.py``, ``server/core.py`` or ``rooms/cash.py`` (folders beside the engine's) runs every
    compiled module from source."""
    engine, other = tmp_path / "engine", tmp_path / folder
    engine.mkdir()
    other.mkdir()
    state, text = b"x = 1\n", b"y = 2\n"
    (engine / "state.py").write_bytes(state)
    (other / f"{module}.py").write_bytes(text)
    name = f"pokerroom.{folder}.{module}"
    lines = [
        f"pokerroom.engine.state {hashlib.sha256(state).hexdigest()}\n",
        f"{name} {hashlib.sha256(text).hexdigest()}\n",
    ]
    (engine / MANIFEST).write_text("".join(lines))
    assert choose(engine, pure=False) == ("mypyc", [], [])
    (other / f"{module}.py").write_text("y = 3\n")
    build, from_source, stale = choose(engine, pure=False)
    assert (build, stale) == ("python", [name])
    assert from_source == sorted(["pokerroom.engine.state", name])


def test_a_build_that_lacks_a_module_runs_the_sources(tmp_path: Path) -> None:
    """A manifest from before a module was split off: the build is incomplete, every module from source."""
    sources = {"state": "x = 1\n", "hand_deal": "y = 2\n"}
    here = _package(tmp_path, sources, {"state": "x = 1\n"})
    build, from_source, stale = choose(here, pure=False)
    assert build == "python"
    assert from_source == ["pokerroom.engine.state"]
    assert stale == ["pokerroom.engine.hand_deal"]


def test_pots_are_values_in_both_builds() -> None:
    """``Pot`` keeps what its frozen dataclass gave (equality and hash by its fields, its repr, pattern
    matching, ``dataclasses.replace``, assignment refused) with a constructor of its own, compiled; and
    it is copied and pickled in both builds (the compiled frozen dataclass could not be rebuilt from its
    slots). The pots of a hand are Pot values (RULES.md §3.8)."""
    import copy
    import dataclasses
    import pickle

    from pokerroom.engine import Pot, Show, ShowDecision

    pot = Pot(150, (1, 3))
    assert pot == Pot(150, (1, 3)) and hash(pot) == hash(Pot(150, (1, 3))) and pot != Pot(150, (1,))
    assert repr(pot) == "Pot(amount=150, eligible=(1, 3))"
    assert Pot(amount=150, eligible=(1, 3)) == pot
    assert [f.name for f in dataclasses.fields(Pot)] == ["amount", "eligible"]
    assert dataclasses.replace(pot, amount=10) == Pot(10, (1, 3))
    match pot:
        case Pot(amount, eligible):
            assert (amount, eligible) == (150, (1, 3))
    for same in (copy.copy(pot), copy.deepcopy(pot), pickle.loads(pickle.dumps(pot))):
        assert same == pot and type(same) is Pot
    with pytest.raises(dataclasses.FrozenInstanceError):
        pot.amount = 5  # type: ignore[misc]
    hand = start("holdem", Betting.NO_LIMIT, Stakes.blinds(50, 100), [1_000, 300, 1_000])
    while not hand.is_over:  # everybody calls the big blind and checks down
        decision = hand.pending
        if isinstance(decision, ShowDecision):
            hand.apply(Show(decision.seat))
            continue
        assert isinstance(decision, BetDecision)
        hand.apply(Check(decision.seat) if decision.check else Call(decision.seat))
    assert hand.pots == [Pot(300, (1, 2, 3))]
    assert all(type(p) is Pot for p in hand.pots)
    assert copy.deepcopy(hand.pots) == hand.pots
