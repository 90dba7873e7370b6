"""Which build of the engine runs: the modules compiled by mypyc at install time, or their sources.

``setup.py`` compiles the engine's hot modules, PHH reading and replay, and the server's table core
(:data:`COMPILED`) with mypyc and writes ``compiled.txt`` beside the engine's: one line per module, its
name and the SHA-256 of the source it was compiled from. This module is imported first by
``pokerroom.engine`` and decides, before any engine module loads:

- no ``compiled.txt``: nothing was compiled (``POKERROOM_PURE=1`` at install, or no C compiler);
- ``POKERROOM_PURE=1`` in the environment: the sources run even though compiled modules exist
  (tests and benchmarks compare the two builds this way);
- a source edited since the build (an editable install): its compiled module is stale, so every
  compiled module is loaded from source instead, with a warning to rebuild. Running yesterday's
  compiled code while today's source is on screen is the one thing this must never do;
- a manifest that does not list every module of :data:`COMPILED` (a build made before a module was
  split off, say): the build is incomplete, and the same happens.

Compiled modules call one another directly, so they load all compiled or all from source.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

__all__ = ["BUILD_WORDS", "COMPILED", "choose", "compiled_modules", "running_build"]

_HERE = Path(__file__).resolve().parent
MANIFEST = "compiled.txt"

COMPILED: tuple[str, ...] = tuple(
    f"pokerroom.engine.{name}"
    for name in ("state", "hand_betting", "hand_deal", "betting", "pots", "deck", "showdown", "stud")
)
COMPILED += tuple(f"pokerroom.history.{n}" for n in ("reader", "replay", "toml_subset", "action", "hand"))
COMPILED += tuple(f"pokerroom.{n}" for n in ("rooms.cash", "rooms.clock", "server.core"))
"""The modules ``setup.py`` compiles, in one group (its ``COMPILED``, ``HISTORY_COMPILED`` and
``TABLE_COMPILED`` lists name the same ones): the engine's; reading and replaying PHH; and the table core
the server runs every action through (the cash table, its clocks, the projection), whose calls into the
engine are then direct. ``pokerroom.history`` and ``pokerroom.rooms`` import the engine (so this module)
before any of theirs is found; a compiled module found before this choice, when the choice is the sources
(``pokerroom.server.core`` imported first, say), is refused rather than run beside them."""


def compiled_modules(here: Path = _HERE) -> dict[str, str]:
    """Module name -> SHA-256 of the source it was compiled from (empty: nothing compiled)."""
    try:
        text = (here / MANIFEST).read_text()
    except OSError:
        return {}
    out: dict[str, str] = {}
    for line in text.splitlines():
        name, _, digest = line.partition(" ")
        if name and digest:
            out[name] = digest
    return out


def _source(here: Path, name: str) -> Path:
    """The source of the module ``name``: in ``here`` (the engine's folder) for an engine module, in the
    sibling package's folder for another (``pokerroom.history.reader``: ``here/../history/reader.py``)."""
    package, _, module = name.rpartition(".")
    folder = here if package == "pokerroom.engine" else here.parent / package.rpartition(".")[2]
    return folder / f"{module}.py"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def choose(here: Path, pure: bool) -> tuple[str, list[str], list[str]]:
    """(build, modules to load from source, stale modules) for the package directory ``here``."""
    modules = compiled_modules(here)
    if not modules or not all(_source(here, n).exists() for n in modules):
        return ("mypyc" if modules else "python"), [], []
    stale = [n for n, digest in modules.items() if _digest(_source(here, n)) != digest]
    # A module the build should have compiled but did not (an older build) counts as stale too, when
    # its source is in this package (the test packages of tests/engine/test_native.py hold only some).
    stale += [n for n in COMPILED if n not in modules and _source(here, n).exists()]
    if pure or stale:
        return "python", sorted(modules), sorted(stale)
    return "mypyc", [], []


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Loads the named engine modules from their ``.py`` files, ahead of the compiled ones."""

    def __init__(self, here: Path, names: list[str]) -> None:
        self.here = here
        self.names = set(names)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        return importlib.util.spec_from_file_location(fullname, _source(self.here, fullname))


def _install() -> None:
    _, from_source, stale = choose(_HERE, os.environ.get("POKERROOM_PURE") == "1")
    if stale:
        warnings.warn(
            f"pokerroom: {', '.join(stale)} changed (or came) since the engine was compiled; running the "
            "engine from source (rebuild with: pip install -e .)",
            RuntimeWarning,
            stacklevel=2,
        )
    if from_source:
        # A compiled module loaded before this choice (the table core's, found before the engine was
        # imported) would call the compiled engine while everything else runs its sources: refuse.
        early = [n for n in from_source if n in sys.modules]
        if early:
            raise ImportError(
                f"pokerroom: {', '.join(early)} loaded compiled before the engine chose to run from source;"
                " rebuild (pip install -e .) or import pokerroom.engine first"
            )
        sys.meta_path.insert(0, _SourceFinder(_HERE, from_source))


def running_build() -> str:
    """``"mypyc"`` when the compiled engine modules run, ``"python"`` when their sources do."""
    import pokerroom.engine.state as state

    return "python" if (state.__file__ or "").endswith(".py") else "mypyc"


BUILD_WORDS = {
    "mypyc": "compiled (mypyc)",
    "python": "pure Python, not compiled at install (slower; see docs/engine-speed.md)",
}
"""How ``pokerroom serve`` and the benchmark name each build."""


_install()
