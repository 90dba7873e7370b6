"""A ``pokerroom`` process's output, line by line, for the tests that start one and wait on what it says."""

from __future__ import annotations

import queue
import subprocess
import threading
import time
from collections.abc import Callable


def pump(proc: subprocess.Popen[str]) -> queue.Queue[str]:
    """The process's output lines as they come (read by a thread of their own)."""
    out: queue.Queue[str] = queue.Queue()

    def run() -> None:
        assert proc.stdout is not None
        with proc.stdout:  # (closed at the end of the output, when the process has exited)
            for line in proc.stdout:
                out.put(line)

    threading.Thread(target=run, daemon=True).start()
    return out


def wait_line(lines: queue.Queue[str], test: Callable[[str], bool], seconds: float, seen: list[str]) -> str:
    """The first line that passes ``test`` within ``seconds`` (every line read is kept in ``seen``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            continue
        seen.append(line)
        if test(line):
            return line
    raise AssertionError(f"not printed in {seconds} s; output: {''.join(seen)}")
