"""The pure layers stay pure and every layer imports only from the layers below it (ARCHITECTURE.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "pokerroom"

# Bottom to top. A module may import pokerroom.<layer> only for a layer at or below its own.
LAYERS = ["cards", "eval", "engine", "variants", "history", "rooms", "store", "server", "bots", "cli"]
PURE = LAYERS[: LAYERS.index("rooms") + 1]
BANNED_IN_PURE = {
    "asyncio",
    "random",
    "time",
    "socket",
    "sqlite3",
    "sqlalchemy",
    "aiosqlite",
    "asyncpg",
    "threading",
    "subprocess",
    "urllib",
    "http",
    "httpx",
    "uvicorn",
    "starlette",
    "websockets",
}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def _modules(layer: str) -> list[Path]:
    base = SRC / layer
    if base.is_dir():
        return sorted(base.rglob("*.py"))
    single = SRC / f"{layer}.py"
    return [single] if single.exists() else []


@pytest.mark.parametrize("layer", PURE)
def test_pure_layer_has_no_io_time_or_randomness(layer: str) -> None:
    bad = [
        f"{path.relative_to(SRC)} imports {name}"
        for path in _modules(layer)
        for name in _imports(path)
        if name.split(".")[0] in BANNED_IN_PURE
    ]
    assert bad == []


@pytest.mark.parametrize("layer", LAYERS)
def test_layer_imports_only_from_below(layer: str) -> None:
    rank = LAYERS.index(layer)
    bad = []
    for path in _modules(layer):
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] == "pokerroom" and len(parts) > 1 and parts[1] in LAYERS[rank + 1 :]:
                bad.append(f"{path.relative_to(SRC)} imports {name}")
    assert bad == []


def test_the_checker_sees_a_banned_import(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text("import random\nfrom time import monotonic\nfrom pokerroom.server import x\n")
    assert _imports(sample) == ["random", "time", "pokerroom.server"]
