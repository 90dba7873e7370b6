"""``pokerroom loadtest`` end to end on a tiny room: a server process, a bot process, figures out."""

from __future__ import annotations

import pytest
import typer

from pokerroom.bots.load import run_load
from pokerroom.cli.load import _think


def test_think_ranges_parse() -> None:
    assert _think("0.5-2") == (0.5, 2.0)
    assert _think("0") == (0.0, 0.0)
    for bad in ("2-1", "x", "-1-2"):
        with pytest.raises(typer.BadParameter):
            _think(bad)


@pytest.mark.slow
def test_a_small_load_run_reports_hands_latency_and_no_errors() -> None:
    report = run_load(12, 4.0, (0.0, 0.05), processes=1, warmup=6.0)
    assert (report.players, report.tables, report.seated) == (12, 2, 12)
    assert report.actions > 0 and report.latency_p50_ms > 0
    assert report.latency_p50_ms <= report.latency_p99_ms <= report.latency_max_ms
    assert report.errors == 0, report.error_codes
    assert "hands/s" in report.text()


@pytest.mark.slow
def test_the_warmup_waits_until_everybody_sits_even_when_given_none() -> None:
    """Issue 32: a run measured before its players sat gave figures from an empty room."""
    report = run_load(12, 2.0, (0.0, 0.05), processes=1, warmup=0.0)
    assert (report.seated_at_start, report.seated) == (12, 12)
    assert report.actions > 0 and report.hands > 0
