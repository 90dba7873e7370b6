"""The install compiles the engine with mypyc in pip's isolated build environment, which holds only
``[build-system] requires``; mypyc type-checks every module the compiled ones import, however far. A
package they reach that the build environment lacks fails the type check, and the install quietly falls
back to the sources (about three times slower): this happened when PHH reading joined the compiled
group and reached ``orjson`` through ``pokerroom.history``. Every package the compiled modules reach must
be in ``requires``, the standard library, or mypy's ``ignore_missing_imports`` (numba: its modules are
then typed as ``Any``)."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

from pokerroom.engine.native import COMPILED

from ..test_cycles import PACKAGE, import_graph, module_name

ROOT = Path(__file__).resolve().parents[2]


def _reached(start: tuple[str, ...]) -> tuple[set[str], set[str]]:
    """The project's modules that mypy reads from ``start`` (the import graph of ``test_cycles``, which
    counts every import anywhere in a module, and every package above a module), and the top-level names
    of the other packages they import."""
    graph = import_graph(PACKAGE)
    paths = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    seen: set[str] = set()
    todo = list(start)
    while todo:
        module = todo.pop()
        if module in seen or module not in graph:
            continue
        seen.add(module)
        parts = module.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))] + sorted(graph[module])
    outside: set[str] = set()
    for module in seen:
        for node in ast.walk(ast.parse(paths[module].read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                outside |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                outside.add(node.module.split(".")[0])
    return seen, outside - {"pokerroom"}


IMPORT_NAMES = {"argon2_cffi": "argon2"}  # a distribution whose package has another name


def test_the_build_environment_holds_every_package_the_compiled_modules_reach() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    requires = project["build-system"]["requires"]
    provided = {re.split(r"[<>=!~ \[;]", r, maxsplit=1)[0].lower().replace("-", "_") for r in requires}
    provided |= {IMPORT_NAMES[d] for d in provided if d in IMPORT_NAMES}
    provided |= {"mypy_extensions", "typing_extensions"}  # (mypy's own dependencies)
    for override in project["tool"]["mypy"].get("overrides", []):  # (untyped packages mypy may miss)
        if override.get("ignore_missing_imports"):
            provided |= {m.split(".")[0] for m in override["module"]}
    seen, outside = _reached(COMPILED)
    assert "pokerroom.history.deckproof" in seen  # (the walk does reach beyond the compiled modules)
    missing = sorted(n for n in outside if n not in sys.stdlib_module_names and n not in provided)
    assert missing == [], f"add to [build-system] requires in pyproject.toml: {missing}"
