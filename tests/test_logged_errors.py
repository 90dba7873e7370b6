"""The suite's check of logged errors (tests/conftest.py, issue 33), run on a small suite of its own: an
ERROR record fails the test that logged it and shows it; allow_errors lets through the loggers it names and
their children, never others, and wants a reason; a thread a test leaves running never fails a later test
with what it logs (the session's summary lists it under the test that left it); what an asynchronous test left
for the garbage collector is reported in its own teardown, and what was alive at the module's first collection
(the heap is frozen there) by the module's last teardown at the latest."""

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


LEFT_TASKS = """\
import asyncio

import pytest

KEPT = []


async def _failed_task_in_a_cycle():
    async def boom():
        raise RuntimeError("nobody reads this")

    task = asyncio.ensure_future(boom())
    await asyncio.sleep(0)
    assert task.done()
    box = [task]
    box.append(box)  # only the collector frees it, and the task then logs that its exception was never read
    return box


@pytest.mark.asyncio
async def test_first_keeps_a_task_alive():
    KEPT.append(await _failed_task_in_a_cycle())


@pytest.mark.asyncio
async def test_leaves_a_failed_task():
    await _failed_task_in_a_cycle()


@pytest.mark.asyncio
async def test_a_clean_test_after_it():
    await asyncio.sleep(0)


@pytest.mark.asyncio
async def test_drops_the_kept_task():
    KEPT.clear()


@pytest.mark.asyncio
async def test_last_of_the_module():
    await asyncio.sleep(0)
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


def test_what_an_async_test_left_for_the_collector_fails_that_test(tmp_path: Path) -> None:
    run = _run(tmp_path / "suite", LEFT_TASKS)
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    # (reported by the test's teardown, where the collector runs: pytest shows it as an error there)
    assert "ERROR test_suite.py::test_leaves_a_failed_task - 1 log record" in out, out
    for name in ("test_first_keeps_a_task_alive", "test_a_clean_test_after_it"):
        assert f"PASSED test_suite.py::{name}" in out, out
        assert f"ERROR test_suite.py::{name}" not in out, out
    # the task kept since the module's first collection (frozen there): not seen by the collection after
    # the test that dropped it, but by the module's last teardown (the heap unfrozen), never lost
    assert "PASSED test_suite.py::test_drops_the_kept_task" in out, out
    assert "ERROR test_suite.py::test_last_of_the_module" in out, out
    assert out.count("Task exception was never retrieved") >= 2, out


def test_allow_errors_wants_the_loggers_and_a_reason(tmp_path: Path) -> None:
    suite = "import pytest\n\n\n@pytest.mark.allow_errors('app')\ndef test_x():\n    pass\n"
    run = _run(tmp_path / "suite", suite)
    assert run.returncode == 4, run.stdout + run.stderr  # a usage error: nothing runs
    assert "allow_errors names the loggers it allows, and says why in reason=" in run.stdout + run.stderr
