"""The cluster load test's CPU quotas (pokerroom.bots.cpu_quota; docs/cluster.md, "Capacity"): a group of
its own with the quota written in the kernel's terms, the process moved in, the group removed after."""

from __future__ import annotations

import subprocess
import sys
import uuid

import pytest

from pokerroom.bots.cpu_quota import PERIOD_US, CpuQuota, quota_unavailable


def test_a_quota_is_bounded() -> None:
    for cores in (0.0, -1.0, 65.0):
        with pytest.raises(ValueError):
            CpuQuota("pokerroom-test-bad", cores)


def test_a_host_process_runs_under_its_quota() -> None:
    reason = quota_unavailable()
    if reason is not None:
        pytest.skip(f"no CPU quotas here: {reason}")
    quota = CpuQuota(f"pokerroom-test-{uuid.uuid4().hex[:8]}", 0.25)
    child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        quota.add(child.pid)
        assert str(child.pid) in (quota.path / "cgroup.procs").read_text().split()
        if quota.version == 1:
            assert (quota.path / "cpu.cfs_quota_us").read_text().strip() == str(PERIOD_US // 4)
            assert (quota.path / "cpu.cfs_period_us").read_text().strip() == str(PERIOD_US)
        else:
            assert (quota.path / "cpu.max").read_text().split() == [str(PERIOD_US // 4), str(PERIOD_US)]
        assert quota.throttled_seconds() >= 0.0
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait(10)
        quota.remove()
    assert not quota.path.exists()
