"""The README's two commands exist and .ci/run runs the test command."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _block_after(marker: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(re.escape(marker) + r"\s*```\w*\n(.*?)```", text, re.S)
    assert m, f"README.md lacks a command block after {marker}"
    return m.group(1).strip()


def test_readme_has_run_and_test_commands() -> None:
    assert "pokerroom" in _block_after("<!-- run-command -->")
    assert "pytest" in _block_after("<!-- test-command -->")


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "<!-- test-command -->" in ci and "README.md" in ci
