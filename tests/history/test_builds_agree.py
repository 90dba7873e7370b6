"""Compiled and from source, PHH reading and replay give the same hands, results and errors.

``setup.py`` compiles ``reader``, ``replay`` and ``toml_subset`` with the engine (docs/engine-speed.md).
Every fixture, and seeded corruptions of them (most refused: a syntax error, a field, an action, the
engine), is read and replayed in this process and in a child process running the sources
(``POKERROOM_PURE=1``): every hand read, every outcome and every error must be the same.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pokerroom.engine import BUILD
from pokerroom.history import HistoryError, read_phh, replay

from ..builds import assert_builds_agree, transcript_from_source
from .helpers import corrupt

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "phh"
CORRUPTIONS = 400


def texts() -> list[str]:
    """The fixtures, then seeded corruptions of them (a character changed, dropped or added)."""
    originals = [p.read_text(encoding="utf-8") for p in sorted(FIXTURES.rglob("*.phh"))]
    rng = random.Random(32)
    alphabet = "'\"[],=#\\ \n\t0123456789.-+_abcdefinprsdhcKQJTA?"
    out = list(originals)
    for _ in range(CORRUPTIONS):
        out.append(corrupt(rng.choice(originals), rng, alphabet))
    return out


def _error(exc: HistoryError) -> list[Any]:
    return [type(exc).__name__, str(exc), *(repr(v) for v in sorted(vars(exc).items()))]


def transcript() -> list[Any]:
    """Everything observable of reading and replaying each text, as plain data."""
    out: list[Any] = []
    for text in texts():
        try:
            hand = read_phh(text)
        except HistoryError as exc:
            out.append(["read", *_error(exc)])
            continue
        out.append(["hand", repr(hand)])
        try:
            r = replay(hand)
        except HistoryError as exc:
            out.append(["replay", *_error(exc)])
            continue
        events = [e.to_dict() for e in r.state.events]
        out.append(["done", list(r.finishing_stacks), r.complete, r.notes, r.unused, events, repr(r.deals)])
    return out


@pytest.mark.skipif(BUILD != "mypyc", reason="the sources run here: there is one build only")
def test_compiled_and_source_reading_and_replay_agree() -> None:
    import pokerroom.history.reader as reader

    assert not (reader.__file__ or "").endswith(".py")  # the history modules are compiled with the engine
    from_source = transcript_from_source("tests.history.test_builds_agree")
    compiled = transcript()
    assert sum(item[0] == "done" for item in compiled) >= 25  # (every fixture, and some corruptions)
    assert sum(item[0] in ("read", "replay") for item in compiled) >= 100
    assert_builds_agree(compiled, from_source)
