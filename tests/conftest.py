"""Settings for every test.

In CI (``CI=true``) hypothesis is derandomized: each property test draws the same examples on every run, so
that a landing never depends on which random cases one run drew (a failure found by a local random run is
fixed and pinned with ``@example``, not left to luck).

A log record at ERROR or above fails the test during which it was logged (issue 33): a server that logs an
error while a test passes is a bug the test did not look for. A test that provokes errors on purpose names
the loggers it expects with ``@pytest.mark.allow_errors("pokerroom.x", reason="...")`` (a logger allows its
children too). Records are taken where they are made (a record factory), so loggers that do not propagate to
the root (uvicorn's) are seen as well. A record belongs to the test running when it was made, from any
thread (a module's room serves each of its tests from a thread of its own), except that:

- a thread a test started in its body and left running belongs to that test: what it logs later is listed
  at the end of the session under that test's name, and never fails the test running then;
- records made between tests belong to none and are dropped;
- after an asynchronous test the garbage collector runs inside its teardown (once its event loop is closed),
  so asyncio's "Task exception was never retrieved" for a task the test left behind, and the ResourceWarning
  of a socket it left open, are reported there rather than in whichever test the collector next runs in.
  That collection walks only what was made since the module's first one (the heap is frozen there, see
  ``_HeapFreeze``): what was alive then and is dropped later is reported by the module's last teardown at
  the latest.
"""

from __future__ import annotations

import gc
import logging
import os
import threading
import traceback
from collections.abc import Callable, Generator
from typing import Any

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")


class _ErrorRecords:
    """Every log record at ERROR or above made while a test runs, in the order they were made."""

    def __init__(self) -> None:
        self.records: list[logging.LogRecord] | None = None  # the running test's, else None
        self.collecting = False  # the garbage collector is running (finalizers log from there)
        self.previous: Callable[..., logging.LogRecord] = logging.getLogRecordFactory()
        self.left: dict[
            int, tuple[threading.Thread, str]
        ] = {}  # thread id -> (thread, the test that left it)
        self.late: list[tuple[str, logging.LogRecord]] = []  # what those threads logged afterwards

    def factory(self, *args: Any, **kwargs: Any) -> logging.LogRecord:
        record = self.previous(*args, **kwargs)
        if record.levelno < logging.ERROR:
            return record
        record.__dict__["_during_gc"] = self.collecting
        left = self.left.get(record.thread) if record.thread is not None else None
        if left is not None and left[0].is_alive():
            self.late.append((left[1], record))
        elif (records := self.records) is not None:
            records.append(record)
        return record

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        self.collecting = phase == "start"

    def install(self) -> None:
        logging.setLogRecordFactory(self.factory)
        gc.callbacks.append(self.on_gc)

    def uninstall(self) -> None:
        if logging.getLogRecordFactory() == self.factory:
            logging.setLogRecordFactory(self.previous)
        if self.on_gc in gc.callbacks:
            gc.callbacks.remove(self.on_gc)


_ERRORS = _ErrorRecords()
_RECORDS = pytest.StashKey[list[logging.LogRecord]]()
_ALLOWED = pytest.StashKey[tuple[str, ...]]()


def pytest_configure(config: pytest.Config) -> None:
    _ERRORS.install()


def pytest_unconfigure(config: pytest.Config) -> None:
    _ERRORS.uninstall()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Read each test's allow_errors markers: the loggers they name; one without a reason is a mistake."""
    for item in items:
        names: list[str] = []
        for mark in item.iter_markers("allow_errors"):
            if (
                not mark.args
                or not all(isinstance(a, str) for a in mark.args)
                or not mark.kwargs.get("reason")
            ):
                raise pytest.UsageError(
                    f"{item.nodeid}: allow_errors names the loggers it allows, and says why in reason="
                )
            names.extend(mark.args)
        item.stash[_ALLOWED] = tuple(names)


def _is_allowed(name: str, allowed: tuple[str, ...]) -> bool:
    return any(name == a or name.startswith(a + ".") for a in allowed)


def _describe(record: logging.LogRecord) -> str:
    text = f"{record.levelname} {record.name} ({record.pathname}:{record.lineno}): {record.getMessage()}"
    if record.__dict__.get("_during_gc"):
        text += "\n  (logged while the garbage collector ran: an object left by this or an earlier test)"
    if record.exc_info and record.exc_info[1] is not None:
        text += "\n" + "".join(traceback.format_exception(*record.exc_info)).rstrip()
    return text


_THREADS = pytest.StashKey[set[threading.Thread]]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    records: list[logging.LogRecord] = []
    item.stash[_RECORDS] = records
    _ERRORS.records = records
    try:
        return (yield)
    finally:
        _ERRORS.records = None
        # Threads the test's body started and left running (not those of fixtures set up for it: a module's
        # room thread serves the tests after this one too).
        before = item.stash.get(_THREADS, None)
        if before is not None:
            for thread in threading.enumerate():
                if thread not in before and thread.ident is not None:
                    _ERRORS.left[thread.ident] = (thread, item.nodeid)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    item.stash[_THREADS] = set(threading.enumerate())
    return (yield)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _ERRORS.late:
        terminalreporter.section("log records at ERROR or above from threads tests left running", yellow=True)
        for nodeid, record in _ERRORS.late:
            terminalreporter.line(f"{nodeid}: {_describe(record)}")


class _HeapFreeze:
    """The collections below walk only what the running test module made (``gc.freeze``).

    A full collection walks every object of the process: with the whole room, SQLAlchemy, hypothesis and
    the rest imported, some hundreds of thousands, about 0.1 s of CPU each time, after each of thousands of
    asynchronous tests. So the first collection in a test module freezes what survives it (the imported
    modules, the module's fixtures: all alive until the module ends) and the later ones walk only what was
    made since. When the module's last test is torn down the heap is unfrozen first, so that collection,
    and whatever the module's fixtures collect as they are torn down (tests/web/conftest.py), see it all:
    an object alive at the module's first collection and dropped later in the module is finalized by the
    module's last teardown at the latest."""

    def __init__(self) -> None:
        self.frozen_for: object = None  # the test module whose first collection froze the heap
        self.ending = False  # the module's last test is being torn down: the heap stays unfrozen

    def collect(self, module: object) -> None:
        gc.collect()
        if not self.ending and self.frozen_for != module:
            gc.freeze()
            self.frozen_for = module


_HEAP = _HeapFreeze()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    _HEAP.ending = False


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    if nextitem is None or nextitem.path != item.path:  # the module's fixtures are torn down now too
        _HEAP.ending = True
        _HEAP.frozen_for = None
        gc.unfreeze()


def pytest_fixture_post_finalizer(fixturedef: pytest.FixtureDef[Any], request: pytest.FixtureRequest) -> None:
    """Once an asynchronous test's event loop is closed (pytest-asyncio's ``_<scope>_scoped_runner``), the
    garbage collector runs: what the test left behind is finalized within its own teardown, where pytest
    reports unraisable exceptions (an unclosed socket's ResourceWarning) and this module the log records
    (asyncio's "Task exception was never retrieved"), instead of in whichever test the collector next runs
    (what the test made, that is: see ``_HeapFreeze`` for what was alive at the module's first collection)."""
    if fixturedef.argname.endswith("_scoped_runner"):
        _HEAP.collect(request.node.path)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    report: pytest.TestReport = yield
    if call.when == "setup" and report.passed:
        return report  # (setup's records are judged with the test's own)
    records = item.stash.get(_RECORDS, [])
    allowed = item.stash.get(_ALLOWED, ())
    unexpected = [r for r in records if not _is_allowed(r.name, allowed)]
    records.clear()
    if not unexpected:
        return report
    text = "\n\n".join(_describe(r) for r in unexpected)
    if report.passed:
        report.outcome = "failed"
        report.longrepr = (
            f"{len(unexpected)} log record(s) at ERROR or above were logged during this test "
            "(mark the test allow_errors(logger, reason=...) if they are expected):\n\n" + text
        )
    else:
        report.sections.append(("log records at ERROR or above", text))
    return report
