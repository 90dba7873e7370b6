"""CPU quotas for the cluster load test's table hosts (``pokerroom loadtest --cluster --host-cpu``;
docs/cluster.md, "Capacity"): each host process in a Linux control group of its own that may use at most
a given share of one core, so that on a small machine the bots and the other nodes never starve the hosts
and a host's saturated throughput is a fixed, comparable amount of CPU.

cgroup v1 (a ``cpu`` hierarchy: ``cpu.cfs_quota_us`` over ``cpu.cfs_period_us``) and v2 (``cpu.max``) are
both understood. Making a group needs write access to the hierarchy (root, or a delegated subtree);
:func:`quota_unavailable` says why not when it cannot be done, so that the caller can refuse clearly
instead of measuring something else.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["PERIOD_US", "CpuQuota", "quota_unavailable"]

PERIOD_US = 100_000  # the enforcement period: 100 ms, the kernel's default
_V1 = Path("/sys/fs/cgroup/cpu")
_V2 = Path("/sys/fs/cgroup")


def _root() -> tuple[Path, int] | None:
    """The hierarchy to make groups in and its version, or None."""
    if (_V1 / "cpu.cfs_quota_us").exists():
        return _V1, 1
    controllers = _V2 / "cgroup.controllers"
    if controllers.exists() and "cpu" in controllers.read_text().split():
        return _V2, 2
    return None


def quota_unavailable() -> str | None:
    """None when CPU quotas can be set on this machine, else the reason."""
    found = _root()
    if found is None:
        return "no cgroup cpu controller (neither /sys/fs/cgroup/cpu nor a v2 hierarchy with cpu)"
    root, _ = found
    if not os.access(root, os.W_OK):
        return f"{root} is not writable (run as root or delegate a cgroup subtree)"
    return None


class CpuQuota:
    """One control group limited to ``cores`` (e.g. 0.25: a quarter of one core), named ``name``."""

    def __init__(self, name: str, cores: float) -> None:
        if not 0.01 <= cores <= 64:
            raise ValueError("a CPU quota is between 0.01 and 64 cores")
        reason = quota_unavailable()
        if reason is not None:
            raise OSError(f"cannot set a CPU quota: {reason}")
        found = _root()
        assert found is not None
        root, self.version = found
        self.cores = cores
        self.path = root / name
        self.path.mkdir(exist_ok=True)
        quota = max(1000, round(cores * PERIOD_US))
        if self.version == 1:
            (self.path / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (self.path / "cpu.cfs_quota_us").write_text(str(quota))
        else:
            (self.path / "cpu.max").write_text(f"{quota} {PERIOD_US}")

    def add(self, pid: int) -> None:
        """Move process ``pid`` (all its threads) into the group."""
        (self.path / "cgroup.procs").write_text(str(pid))

    def throttled_seconds(self) -> float:
        """How long the group's processes were held back by the quota so far (cpu.stat)."""
        with contextlib.suppress(OSError, ValueError):
            for line in (self.path / "cpu.stat").read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "throttled_time":  # v1: nanoseconds
                    return int(value) / 1e9
                if key == "throttled_usec":  # v2: microseconds
                    return int(value) / 1e6
        return 0.0

    def remove(self) -> None:
        """Remove the group (its processes must have exited or moved out)."""
        with contextlib.suppress(OSError):
            self.path.rmdir()
