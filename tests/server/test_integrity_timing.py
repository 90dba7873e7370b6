"""Issue 30, item 3: bots spotted by their timing (their sessions: test_integrity_sessions.py). Unit
tests of the score on hand-made decision times; then a planted scenario (the bots package's
``timing_field``) played on the server's harness with the store on the same manual clock, read back from
the hand journal, flagged by the detector and by ``pokerroom integrity report``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pokerroom.bots.planted import MACHINE_THINK, timing_field
from pokerroom.server.integrity.timing import Decision, timing_findings

from .harness import EPOCH
from .planted_room import integrity_report, open_planted_room


def _made(times: list[float]) -> list[Decision]:
    return [Decision(f"h{i // 4}", t) for i, t in enumerate(times)]


def test_constant_or_instant_timing_is_flagged_and_a_human_spread_is_not() -> None:
    rng = random.Random(5)
    human = _made([rng.uniform(0.5, 2.0) for _ in range(200)])
    jittered = _made([1.0 + rng.uniform(-0.02, 0.02) for _ in range(200)])
    instant = _made([0.05] * 95 + [3.0] * 5)
    found = {
        f.player_id: f for f in timing_findings({1: human, 2: jittered, 3: instant, 4: _made([1.0] * 49)})
    }
    assert set(found) == {1, 2, 3}  # 49 decisions: too few for an opinion
    assert not found[1].flagged and 0.3 < found[1].cv < 0.4
    assert found[2].flagged and "hardly vary" in found[2].reason and found[2].hands[:2] == ("h0", "h1")
    assert found[3].flagged and "within 0.2 s" in found[3].reason
    assert [f.player_id for f in timing_findings({1: human, 2: jittered})] == [2, 1]  # the flagged first


def test_the_planted_field_is_seeded_and_mixes_the_machines_in() -> None:
    field = timing_field(5, 2, seed=3)
    assert field == timing_field(5, 2, seed=3)
    assert [p.name for p in field] == [f"plant{i}" for i in range(1, 8)]
    assert sum(p.machine for p in field) == 2 and all(p.think == MACHINE_THINK for p in field if p.machine)


@pytest.mark.asyncio
async def test_a_planted_machine_is_flagged_from_the_journal_and_the_honest_bots_are_not(
    tmp_path: Path,
) -> None:
    path = tmp_path / "timing.db"
    h, _ = await open_planted_room(path, seed=11)
    store = h.store
    try:
        table = "holdem-nl"
        field = timing_field(3, 1, seed=4)
        clients = {}
        for i, p in enumerate(field):
            c = await h.cash_bot(p.name, table, "caller", seed=i)
            c.bot.think = p.think
            clients[p.name] = c
        machine = next(p.name for p in field if p.machine)
        await h.run(lambda: h.room.tables[table].table.hand_count >= 40, seconds=3600)
        times = await store.hand_times.decisions(since=EPOCH)
        made = {pid: [Decision(hid, s) for hid, s in rows] for pid, rows in times.items()}
        found = timing_findings(made, min_decisions=30)
        ids = {name: c.player.id for name, c in clients.items() if c.player is not None}
        assert {f.player_id for f in found} == set(ids.values())  # every bot made 30+ decisions
        assert {f.player_id for f in found if f.flagged} == {ids[machine]}
        by_id = {f.player_id: f for f in found}
        assert abs(by_id[ids[machine]].median - MACHINE_THINK[0]) < 0.05
    finally:
        await h.close()
    code, output = await integrity_report(path, "--min-decisions", "30", "--json")
    assert code == 1, output
    report = json.loads(output)
    assert [r["name"] for r in report["bots_by_timing"] if r["flagged"]] == [machine] and report[
        "flagged"
    ] == 1


def test_the_journals_commands_are_read_as_the_journal_checked_them() -> None:
    """The journal checks a command's text with ``json`` (which takes NaN and integers past 64 bits); the
    report reads them with orjson for speed, and with ``json`` what orjson refuses, so one such row does not
    fail a day's report: the seat and the kind, all it reads, are there."""
    from pokerroom.store.integrity import _command

    assert _command('{"seat": 2, "type": "call"}') == {"seat": 2, "type": "call"}
    big = _command('{"seat": 3, "type": "raise_to", "amount": 123456789012345678901234567890}')
    assert (big["seat"], big["type"]) == (3, "raise_to")
    odd = _command('{"seat": 1, "type": "raise_to", "amount": NaN}')
    assert (odd["seat"], odd["type"]) == (1, "raise_to")
