"""Build hook: compile the hand engine's hot modules (and PHH reading and replay, and the server's table
core) with mypyc (docs/engine-speed.md, docs/server-speed.md).

The modules stay ordinary typed Python; mypyc turns them into C extensions that run the same code
about twice as fast. ``POKERROOM_PURE=1`` at install time skips the compilation, and so does a machine
without a C compiler or Python headers: the install then says so and the sources run. Beside the
compiled modules the build writes ``compiled.txt`` (module, SHA-256 of its source), from which
``pokerroom.engine.native`` decides at import whether the compiled modules are current.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# The modules every action of every hand runs through. Commands, events and specs stay interpreted:
# callers build, subclass, pickle and compare them freely.
# pokerroom.engine.native.COMPILED names the same modules (a test keeps the lists equal).
COMPILED = ["state", "hand_betting", "hand_deal", "betting", "pots", "deck", "showdown", "stud"]
# Reading and replaying PHH (issue 32), in the same group: their calls into the engine are direct.
HISTORY_COMPILED = ["reader", "replay", "toml_subset", "action", "hand"]
# The table core every action of the server runs through (issue 32, item 3: docs/server-speed.md): the cash
# table's rules and clocks, and the projection of events and turns for each watcher.
TABLE_COMPILED = ["rooms.cash", "rooms.clock", "server.core"]
MODULES = (
    [f"pokerroom.engine.{name}" for name in COMPILED]
    + [f"pokerroom.history.{name}" for name in HISTORY_COMPILED]
    + [f"pokerroom.{name}" for name in TABLE_COMPILED]
)
SOURCES = ["src/" + module.replace(".", "/") + ".py" for module in MODULES]
MANIFEST = "compiled.txt"  # pokerroom.engine.native.MANIFEST
# The one-call seven-card ranker (eval/_rank7.c, docs/eval-speed.md): optional, built on its own.
RANK7 = Extension("pokerroom.eval._rank7", ["src/pokerroom/eval/_rank7.c"], optional=True)


def say(text: str) -> None:
    print(f"pokerroom: {text}", file=sys.stderr)


class EngineBuildExt(build_ext):
    """Builds the compiled engine and its manifest; any failure leaves the pure Python engine."""

    def run(self) -> None:
        if not any(ext is not RANK7 for ext in self.extensions):
            super().run()  # only the seven-card ranker (optional: a failure is a warning)
            return
        try:
            super().run()
        except (Exception, SystemExit) as exc:  # no compiler or headers, a compile error: run the sources
            self._remove_outputs()
            say(f"the engine was not compiled ({exc}); it runs as pure Python")
            return
        manifest = Path(self.get_ext_fullpath("pokerroom.engine.state")).parent / MANIFEST
        lines = []
        for module, source in zip(MODULES, SOURCES, strict=True):
            digest = hashlib.sha256((ROOT / source).read_bytes()).hexdigest()
            lines.append(f"{module} {digest}\n")
        manifest.write_text("".join(lines))

    def _remove_outputs(self) -> None:
        for ext in self.extensions:
            if ext is not RANK7:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
        manifest = Path(self.get_ext_fullpath("pokerroom.engine.state")).parent / MANIFEST
        manifest.unlink(missing_ok=True)


def ext_modules() -> list[object]:
    if os.environ.get("POKERROOM_PURE") == "1":
        say("POKERROOM_PURE=1: the engine is not compiled")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        say("mypyc is not installed; the engine runs as pure Python")
        return [RANK7]
    try:
        return [*mypycify(SOURCES, opt_level="3", group_name="pokerroom_engine"), RANK7]
    except (Exception, SystemExit) as exc:  # mypyc could not translate the sources: run them as they are
        say(f"mypyc failed ({exc}); the engine runs as pure Python")
        return [RANK7]


setup(ext_modules=ext_modules(), cmdclass={"build_ext": EngineBuildExt})
