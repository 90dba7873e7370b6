"""The suite's check of logged errors (tests/conftest.py, issue 33), run on a small suite of its own: an
ERROR record fails the test that logged it and shows it; allow_errors lets through the loggers it names and
their children, never others, and wants a reason; a thread a test leaves running never fails a later test
with what it logs (the session's summary lists it under the test that left it)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

CONFTEST = Path(__file__).with_name("conftest.py")

INI = """\
[pytest]
addopts = --strict-markers -p no:cacheprovider
asyncio_default_fixture_loop_scope = function
markers =
    allow_errors(*loggers, reason): the test logs errors on purpose from these loggers
"""

SUITE = """\
import logging
import threading

import pytest

log = logging.getLogger("app")
go = threading.Event()
logged = threading.Event()


def test_an_error_fails_the_test_that_logged_it():
    log.error("the bug %s", 42)


@pytest.mark.allow_errors("app", reason="on purpose")
def test_the_loggers_allowed_and_their_children_pass():
    log.error("expected")
    logging.getLogger("app.part").critical("expected too")


@pytest.mark.allow_errors("other", reason="another logger")
def test_a_logger_not_allowed_still_fails():
    logging.getLogger("application").error("not allowed here")


def test_a_warning_passes():
    log.warning("only a warning")


def test_leaves_a_thread_running():
    def later():
        go.wait(60)
        log.error("logged by a thread the test left")
        logged.set()

    threading.Thread(target=later, daemon=True).start()


def test_a_later_test_is_not_blamed():
    go.set()
    assert logged.wait(60)
"""


def _run(directory: Path, suite: str) -> subprocess.CompletedProcess[str]:
    directory.mkdir()
    shutil.copy(CONFTEST, directory / "conftest.py")
    (directory / "pytest.ini").write_text(INI)
    (directory / "test_suite.py").write_text(suite)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-rA", "test_suite.py"],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_an_error_record_fails_its_own_test_only(tmp_path: Path) -> None:
    run = _run(tmp_path / "suite", SUITE)
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    for name in ("test_an_error_fails_the_test_that_logged_it", "test_a_logger_not_allowed_still_fails"):
        assert f"FAILED test_suite.py::{name}" in out, out
    for name in (
        "test_the_loggers_allowed_and_their_children_pass",
        "test_a_warning_passes",
        "test_leaves_a_thread_running",
        "test_a_later_test_is_not_blamed",
    ):
        assert f"PASSED test_suite.py::{name}" in out, out
    assert "ERROR app (" in out and "the bug 42" in out  # the record, with its logger and its place
    assert "ERROR application (" in out and "not allowed here" in out
    summary = out[out.index("from threads tests left running") :]
    assert "test_suite.py::test_leaves_a_thread_running: ERROR app" in summary, out
    assert "logged by a thread the test left" in summary


def test_allow_errors_wants_the_loggers_and_a_reason(tmp_path: Path) -> None:
    suite = "import pytest\n\n\n@pytest.mark.allow_errors('app')\ndef test_x():\n    pass\n"
    run = _run(tmp_path / "suite", suite)
    assert run.returncode == 4, run.stdout + run.stderr  # a usage error: nothing runs
    assert "allow_errors names the loggers it allows, and says why in reason=" in run.stdout + run.stderr
