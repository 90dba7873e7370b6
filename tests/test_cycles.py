"""No module imports itself back through others (issue 14): the modules of every layer form a graph
without cycles. Every import counts, at the top of a module, inside a function or under
``TYPE_CHECKING``: a cycle held together by a deferred import is still a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "pokerroom"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(current: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = current.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the pokerroom modules it imports (a package import counts as its ``__init__``; ``from
    package import name`` counts the submodule ``name`` when there is one)."""
    paths = {module_name(p): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        deps: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, path.name == "__init__.py", node)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in paths else base for a in node.names]
            else:
                continue
            deps |= {t for t in targets if t in paths and t != name}
        graph[name] = deps
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _without_packages(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """A package's ``__init__`` re-exports its submodules; the submodules importing the package for a
    name is not a cycle between modules. Keep the edges between real modules only."""
    packages = {m for m in graph if (SRC / m.replace(".", "/") / "__init__.py").exists()}
    return {m: {d for d in deps if d not in packages} for m, deps in graph.items() if m not in packages}


@pytest.mark.parametrize("layer", ["server", "rooms", "store", "engine", "history", "eval", "bots", "cli"])
def test_no_import_cycles(layer: str) -> None:
    graph = _without_packages(import_graph(PACKAGE))
    inside = {m: {d for d in deps if d.startswith(f"pokerroom.{layer}")} for m, deps in graph.items()}
    found = [c for c in cycles(inside) if c[0].startswith(f"pokerroom.{layer}")]
    assert not found, found


def test_the_cycle_finder_finds_a_deferred_import(tmp_path: Path) -> None:
    """The detector itself: a cycle closed by an import inside a function is found."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg.b import x\n")
    (pkg / "b.py").write_text("def f():\n    from pkg import a\n")
    global SRC
    saved, SRC = SRC, tmp_path
    try:
        graph = import_graph(pkg)
    finally:
        SRC = saved
    assert graph["pkg.b"] == {"pkg.a"} and graph["pkg.a"] == {"pkg.b"}
    assert cycles(graph) == [["pkg.a", "pkg.b"]]
