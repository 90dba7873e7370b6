"""The compiled build against its sources, for the tests that hold them equal (tests/engine and
tests/history ``test_builds_agree.py``): a module's ``transcript()`` (everything observable of a seeded run,
as plain data) is run again in a child process on the sources and compared item by item."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def transcript_from_source(module: str) -> list[Any]:
    """``module.transcript()`` run by a child process on the sources (``POKERROOM_PURE=1``), through JSON;
    fails unless the child really ran them."""
    code = f"import json; from {module} import BUILD, transcript; print(json.dumps([BUILD, transcript()]))"
    child = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "POKERROOM_PURE": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    build, out = json.loads(child.stdout)
    assert build == "python"  # the child really ran the sources
    return list(out)


def assert_builds_agree(compiled: list[Any], from_source: list[Any]) -> None:
    """The two transcripts are the same, item by item (the first that differs named)."""
    compiled = json.loads(json.dumps(compiled))  # (as the child's came: through JSON)
    assert len(compiled) == len(from_source)
    for i, (a, b) in enumerate(zip(compiled, from_source, strict=True)):
        assert a == b, f"item {i} differs between the builds"
