"""Game integrity (issue 30): the bot-by-timing detector's recall and precision on planted fields.

Each field is honest bots (the room's strategies, thinking as the room's bots do: a uniform wait of
0.5-2 s) with planted machine-timed bots (a fixed 1 s before every action: ``pokerroom.bots.planted``),
seated at 6-max no-limit hold'em tables and played on the server's virtual clock (the planted-table
harness the detectors' tests use too: tests/server/planted_room.py, the store on the same clock, so the
journal's times are the room's). Then the detector reads the journal
(``store.hand_times``) as ``pokerroom integrity report`` does, and this prints per field: the planted
bots found (recall), the flagged that were planted (precision), the honest flagged, the hands dealt, and
the detector's time per 1,000 hands (to judge a day of a 1,000-table room: about 1.7 million hands).

With ``--dumping`` it runs the chip-dumping scenario instead (``pokerroom.bots.dumping``): full 6-max
tables, some holding one planted pair (a dumper who raises strong hands and folds them to his partner's
raise) among honest bots, the rest only honest bots, no think time; then the detector reads the stored
audit histories (``store.audit_hands``) as ``pokerroom integrity report`` does, and this prints per field:
the planted pairs found (recall), the flagged pairs that were planted (precision), the honest players in
a flagged pair, the hands dealt, the hands the detector needed to flag each planted pair (the room's
hands read so far, checked every tenth of the run), and the detector's time per 1,000 hands.
``--save DIR`` keeps each field's audit histories (and its seats), ``--load`` scores kept fields again
without playing them.

With ``--pair soft`` or ``--pair whipsaw`` it runs a planted-pair scenario (``pokerroom.bots.planted``:
two ``SoftPlayer`` who check down against each other, or two ``Whipsawer`` who re-raise each other's
opening bets with a third player in the hand) at tables of ``--size`` players, some holding one pair
among honest bots of the three strategies, and prints the soft-play (or collusive-betting) detector's
recall, precision, honest players in a flagged pair and time per 1,000 hands.

    python benchmarks/integrity.py [--players 12 24] [--machines 0.1] [--hands 60] [--seed 1]
    python benchmarks/integrity.py --dumping [--tables 2 6] [--pairs 0.5] [--hands 150] [--seed 1]
        [--save DIR]
    python benchmarks/integrity.py --dumping --load DIR [DIR ...]   (score fields kept by --save again)
    python benchmarks/integrity.py --pair soft|whipsaw [--tables 4] [--size 4] [--pairs 0.5] [--hands 150]
    python benchmarks/integrity.py --pair share [--tables 4] [--size 6] [--pairs 0.5] [--hands 300]
    python benchmarks/integrity.py --rush [--players 50 500] [--rounds 2000] [--together 0.3] [--seed 1]

With ``--fast SCENARIO ...`` (``timing``, ``dumping``, ``soft``, ``whipsaw``, ``share``) it plays fields of
the issue's sizes with the fast field player (``pokerroom.bots.field``: the room's cash table, table
core, history writer and bot clients, without the server and the store, the strategies deciding at once
and the bots' waits on a virtual clock: honest ``HONEST_THINK``, machine-timed ``MACHINE_THINK``):
``--players`` (about; 6-max tables: the pair scenarios fill whole tables) and ``--hands`` (of the whole
field), then prints per scenario and size the detector's recall, precision, honest players flagged, hands
dealt, the hands each planted item needed (the field's hands read when it was first flagged, checked at
every tenth) and the detector's CPU per 1,000 hands (parsing the histories included). ``--save DIR``
keeps each field in ``DIR/<scenario>-<players>-<seed>`` (a ``.phh`` per hand, ``order.json``,
``field.json``: readable by ``--dumping --load`` too, and ``decisions.jsonl``, ``meta.json``);
``--fast-load DIR ...`` scores kept fields again.

    python benchmarks/integrity.py --fast timing dumping soft whipsaw share --players 50 200
        [--hands 20000] [--minutes M] [--pairs 0.5] [--machines 0.1] [--seed 1] [--save DIR [--index FILE]]
        [--equities FILE]
    python benchmarks/integrity.py --fast-load DIR [DIR ...]

With ``--rush`` it scores Rush pools without playing them (``pokerroom.bots.planted.rush_rounds``: who is
dealt in with whom, a round every 20 s, each player present for a random stretch of the period, tables of
6): 5 % of the players in planted pairs seated together in a share ``--together`` of the rounds both
play, beyond chance; it prints the Rush detector's recall, precision, honest players in a flagged pair,
the hands needed (the pool's hands read when each planted pair was first flagged, checked every tenth of
the run) and CPU per 1,000 hands, and the session detector's CPU over the same hands (each a minute).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pickle
import random
import sys
import tempfile
import time
from dataclasses import asdict
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.server.harness import EPOCH  # noqa: E402
from tests.server.planted_room import open_planted_room, play_hands, seat_field  # noqa: E402

from pokerroom.bots.cardshare import plant_sharers, share_field  # noqa: E402
from pokerroom.bots.dumping import Seat, dumping_field  # noqa: E402
from pokerroom.bots.field import EQUITIES, FastField  # noqa: E402
from pokerroom.bots.planted import (  # noqa: E402
    HONEST,
    HONEST_THINK,
    MACHINE_THINK,
    pair_field,
    plant,
    rush_rounds,
    timing_field,
)
from pokerroom.history import read_phh  # noqa: E402
from pokerroom.server.integrity.cardshare import cardshare_findings  # noqa: E402
from pokerroom.server.integrity.dumping import dumping_findings  # noqa: E402
from pokerroom.server.integrity.groups import Link, groups_of  # noqa: E402
from pokerroom.server.integrity.rush import PoolHand, rush_findings  # noqa: E402
from pokerroom.server.integrity.softplay import softplay_findings  # noqa: E402
from pokerroom.server.integrity.timing import Decision, Played, session_findings, timing_findings  # noqa: E402
from pokerroom.server.integrity.whipsaw import whipsaw_findings  # noqa: E402


async def field(players: int, machines: int, hands: int, seed: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        n_tables = max(1, -(-players // 6))
        h, tables = await open_planted_room(Path(tmp) / "bench.db", seed=seed, tables=n_tables)
        planted = timing_field(players - machines, machines, seed=seed, prefix="bench")
        ids: dict[int, bool] = {}
        try:
            for i, p in enumerate(planted):
                c = await h.cash_bot(p.name, tables[i % n_tables], HONEST[i % 3], seed=seed + i)
                c.bot.think = p.think
                assert c.player is not None
                ids[c.player.id] = p.machine
            await play_hands(h, hands)
            dealt = sum(a.table.hand_count for a in h.room.tables.values())
            began = time.process_time()
            times = await h.store.hand_times.decisions(since=EPOCH)
            found = timing_findings({p: [Decision(x, s) for x, s in rows] for p, rows in times.items()})
            spent = time.process_time() - began
        finally:
            await h.close()
    flagged = {f.player_id for f in found if f.flagged}
    machine_ids = {p for p, m in ids.items() if m}
    honest = len(ids) - len(machine_ids)
    hit = len(flagged & machine_ids)
    return {
        "recall": hit / len(machine_ids) if machine_ids else 1.0,
        "precision": hit / len(flagged) if flagged else 1.0,
        "honest_flagged": len(flagged - machine_ids) / honest if honest else 0.0,
        "hands": dealt,
        "ms_per_1000_hands": 1000 * spent / max(dealt, 1) * 1000,
    }


async def dumping(
    n_tables: int, pairs: int, hands: int, seed: int, save: Path | None = None
) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        h, tables = await open_planted_room(Path(tmp) / "bench.db", seed=seed, tables=n_tables)
        field_ = dumping_field(n_tables, pairs, seed=seed, prefix="bench")
        try:
            await seat_field(h, field_, tables, seed=seed, planted_as="caller")
            await play_hands(h, hands)
            stored = await h.store.audit_hands.since(EPOCH)
        finally:
            await h.close()
    if save is not None:  # the hands and the field, to run the detector again without playing
        save.mkdir(parents=True, exist_ok=True)
        for hid, text in stored:
            (save / f"{hid}.phh").write_text(text, encoding="utf-8")
        (save / "field.json").write_text(json.dumps([asdict(p) for p in field_]), encoding="utf-8")
        (save / "order.json").write_text(json.dumps([hid for hid, _ in stored]), encoding="utf-8")
    return score_dumping(field_, stored)


def load_dumping(directory: Path) -> tuple[list[Seat], list[tuple[str, str]]]:
    """A field saved by ``--save``: its seats and its hands in the order they were stored (a directory
    without ``order.json``: by hand number, then table, about the order they were dealt in)."""
    field_ = [Seat(**row) for row in json.loads((directory / "field.json").read_text(encoding="utf-8"))]
    order_file = directory / "order.json"
    if order_file.exists():
        order = json.loads(order_file.read_text(encoding="utf-8"))
    else:
        order = sorted(
            (p.stem for p in directory.glob("*.phh")),
            key=lambda h: (int(h.rsplit("-", 1)[1]), h) if h.rsplit("-", 1)[-1].isdigit() else (0, h),
        )
    return field_, [(h, (directory / f"{h}.phh").read_text(encoding="utf-8")) for h in order]


def score_dumping(field_: list[Seat], stored: list[tuple[str, str]]) -> dict[str, object]:
    """The detector over a field's stored hands: recall, precision, honest players flagged, hands needed."""
    began = time.process_time()
    parsed = [(hid, read_phh(text)) for hid, text in stored]
    found = dumping_findings(parsed)
    spent = time.process_time() - began
    planted = {(p.name, p.partner) for p in field_ if p.role == "dumper"}
    needed: dict[tuple[str, str], int] = {}
    for step in range(1, 11):  # the hands read so far when each planted pair is first flagged
        upto = len(parsed) * step // 10
        for f in dumping_findings(parsed[:upto]):
            if f.flagged and (f.giver, f.taker) in planted:
                needed.setdefault((f.giver, f.taker), upto)
    flagged = {(f.giver, f.taker) for f in found if f.flagged}
    honest = {p.name for p in field_ if p.role == "honest"}
    accused = {name for pair in flagged - planted for name in pair} & honest
    hit = len(flagged & planted)
    return {
        "recall": hit / len(planted) if planted else 1.0,
        "precision": hit / len(flagged) if flagged else 1.0,
        "honest_flagged": len(accused) / len(honest) if honest else 0.0,
        "hands": len(parsed),
        "needed": sorted(needed.values()),
        "planted": sorted(
            f"{f.giver}->{f.taker} z {f.z:.1f} {f.suspect}/{f.faced} {f.flow_bb:.0f}bb"
            for f in found
            if (f.giver, f.taker) in planted
        ),
        "false": sorted(
            f"{f.giver}->{f.taker} z {f.z:.1f} {f.suspect}/{f.faced} {f.flow_bb:.0f}bb"
            for f in found
            if f.flagged and (f.giver, f.taker) not in planted
        ),
        "ms_per_1000_hands": 1000 * spent / max(len(parsed), 1) * 1000,
    }


def main_dumping(args: argparse.Namespace) -> None:
    print(
        f"{'players':>7} {'pairs':>5} {'hands':>7} {'recall':>7} {'precision':>9} {'honest':>7}"
        f" {'ms/1k hands':>11}  hands needed per pair found"
    )
    runs: list[tuple[int, int, dict[str, object]]] = []
    for directory in args.load or []:
        field_, stored = load_dumping(directory)
        n = len({p.table for p in field_})
        runs.append((n, sum(p.role == "dumper" for p in field_), score_dumping(field_, stored)))
    for n in [] if args.load else args.tables:
        pairs = max(1, round(n * args.pairs))
        save = args.save / f"t{n}-h{args.hands}-s{args.seed}" if args.save else None
        runs.append((n, pairs, asyncio.run(dumping(n, pairs, args.hands, args.seed, save))))
    for n, pairs, r in runs:
        print(
            f"{n * 6:7} {pairs:5} {r['hands']:7} {r['recall']:7.0%} {r['precision']:9.0%}"
            f" {r['honest_flagged']:7.1%} {r['ms_per_1000_hands']:11.1f}  {r['needed']}"
        )
        for line in r["planted"]:  # type: ignore[attr-defined]
            print(f"        planted: {line}")
        for line in r["false"]:  # type: ignore[attr-defined]
            print(f"        falsely flagged: {line}")


async def planted_pairs(
    kind: str, n_tables: int, pairs: int, size: int, hands: int, seed: int
) -> dict[str, float]:
    """A field of ``pair_field`` played out, then the soft-play or collusive-betting detector over it."""
    with tempfile.TemporaryDirectory() as tmp:
        h, tables = await open_planted_room(Path(tmp) / "bench.db", seed=seed, tables=n_tables)
        field_ = pair_field(n_tables, pairs, kind, seed=seed, size=size, prefix="bench")
        try:
            await seat_field(h, field_, tables, seed=seed)
            await play_hands(h, hands)
            stored = await h.store.audit_hands.since(EPOCH)
        finally:
            await h.close()
    began = time.process_time()
    parsed = [(hid, read_phh(text)) for hid, text in stored]
    rows: dict[frozenset[str], tuple[bool, str]] = {}
    if kind == "soft":
        for sp in softplay_findings(parsed):
            rows[frozenset((sp.a, sp.b))] = (sp.flagged, f"z {sp.z:.1f}, {sp.aggressive}/{sp.spots} bets")
    else:
        for w in whipsaw_findings(parsed):
            rows[frozenset((w.a, w.b))] = (w.flagged, f"z {w.z:.1f}, {w.whipsaws}/{w.chances} whipsaws")
    spent = time.process_time() - began
    return _pair_results(rows, field_, len(parsed), spent, "never met")


def _pair_results(
    rows: dict[frozenset[str], tuple[bool, str]], field_: Any, hands: int, spent: float, absent: str
) -> dict[str, float]:
    """Print each planted and each falsely flagged pair with its row (``absent`` when it has none), and
    give the field's recall, precision, honest players flagged and the detector's CPU per 1,000 hands."""
    found = {pair for pair, (flagged, _) in rows.items() if flagged}
    planted = {frozenset((p.name, p.partner)) for p in field_ if p.role != "honest"}
    for pair in sorted(planted | found, key=sorted):
        what = "planted" if pair in planted else "falsely flagged"
        print(f"        {what}: {' + '.join(sorted(pair))}: {rows.get(pair, (False, absent))[1]}")
    honest = {p.name for p in field_ if p.role == "honest"}
    accused = {name for pair in found - planted for name in pair} & honest
    hit = len(found & planted)
    return {
        "recall": hit / len(planted) if planted else 1.0,
        "precision": hit / len(found) if found else 1.0,
        "honest_flagged": len(accused) / len(honest) if honest else 0.0,
        "hands": hands,
        "ms_per_1000_hands": 1000 * spent / max(hands, 1) * 1000,
    }


async def planted_share(n_tables: int, pairs: int, size: int, hands: int, seed: int) -> dict[str, float]:
    """``--pair share``: a field of ``share_field`` (card-sharing pairs, ``pokerroom.bots.cardshare``)
    played out, then the shared-cards detector over its audit histories, and the groups of its flags."""
    with tempfile.TemporaryDirectory() as tmp:
        h, tables = await open_planted_room(Path(tmp) / "bench.db", seed=seed, tables=n_tables)
        field_ = share_field(n_tables, pairs, seed=seed, size=size, prefix="bench")
        try:
            bots = {}
            for i, p in enumerate(field_):
                strategy = HONEST[i % len(HONEST)] if p.role == "honest" else "strength"
                bots[p.name] = (await h.cash_bot(p.name, tables[p.table], strategy, seed=seed + i)).bot
            plant_sharers(field_, bots)
            await play_hands(h, hands)
            stored = await h.store.audit_hands.since(EPOCH)
        finally:
            await h.close()
    began = time.process_time()
    parsed = [(hid, read_phh(text)) for hid, text in stored]
    found_ = cardshare_findings(parsed)
    groups = groups_of(Link(f.a, f.b, "shared_cards", f.hands) for f in found_ if f.flagged)
    spent = time.process_time() - began
    rows = {
        frozenset((f.a, f.b)): (f.flagged, f"z {f.z:.1f} ({f.tell}, from {f.threshold:.1f})") for f in found_
    }
    result = _pair_results(rows, field_, len(parsed), spent, "not tested")
    planted = {frozenset((p.name, p.partner)) for p in field_ if p.role != "honest"}
    top = sorted((f for f in found_ if frozenset((f.a, f.b)) not in planted), key=lambda f: -f.z)[:1]
    for f in top:
        print(f"        highest honest pair: {f.a} + {f.b}: z {f.z:.1f} ({f.tell})")
    print(f"        groups: {len(groups)} ({sum(g.flagged for g in groups)} of 3 or more)")
    return result


def main_share(args: argparse.Namespace) -> None:
    print(
        f"{'players':>7} {'pairs':>5} {'hands':>7} {'recall':>7} {'precision':>9} {'honest':>7}"
        f" {'ms/1k hands':>11}"
    )
    for n in args.tables:
        pairs = max(1, round(n * args.pairs))
        r = asyncio.run(planted_share(n, pairs, args.size, args.hands, args.seed))
        print(
            f"{n * args.size:7} {pairs:5} {r['hands']:7.0f} {r['recall']:7.0%} {r['precision']:9.0%}"
            f" {r['honest_flagged']:7.1%} {r['ms_per_1000_hands']:11.1f}"
        )


def main_pairs(args: argparse.Namespace) -> None:
    print(
        f"{'players':>7} {'pairs':>5} {'hands':>7} {'recall':>7} {'precision':>9} {'honest':>7}"
        f" {'ms/1k hands':>11}"
    )
    for n in args.tables:
        pairs = max(1, round(n * args.pairs))
        r = asyncio.run(planted_pairs(args.pair, n, pairs, args.size, args.hands, args.seed))
        print(
            f"{n * args.size:7} {pairs:5} {r['hands']:7.0f} {r['recall']:7.0%} {r['precision']:9.0%}"
            f" {r['honest_flagged']:7.1%} {r['ms_per_1000_hands']:11.1f}"
        )


def rush(players: int, rounds: int, together: float, seed: int) -> dict[str, object]:
    """A Rush pool of ``players`` over ``rounds`` rounds, 5 % of them in planted pairs; the detectors."""
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    present = {}
    for p in ids:  # each plays a stretch of the period: a quarter of it to all of it
        length = rng.randrange(rounds // 4, rounds + 1)
        first = rng.randrange(0, rounds - length + 1)
        present[p] = range(first, first + length)
    planted = rng.sample(ids, max(2, players // 20) // 2 * 2)
    pairs = [(planted[i], planted[i + 1]) for i in range(0, len(planted), 2)]
    for a, b in pairs:  # a pair plays the same stretch
        present[b] = present[a]
    dealt = rush_rounds(ids, rounds, rng, start=EPOCH, pairs=pairs, together=together, present=present)
    hands = [PoolHand(*h) for h in dealt]
    began = time.process_time()
    found = rush_findings(hands)
    spent = time.process_time() - began
    wanted = {tuple(sorted(p)) for p in pairs}
    needed: dict[tuple[int, int], int] = {}
    for step in range(1, 11):
        upto = len(hands) * step // 10
        for f in rush_findings(hands[:upto]):
            if f.flagged and (f.a, f.b) in wanted:
                needed.setdefault((f.a, f.b), upto)
    flagged = {(f.a, f.b) for f in found if f.flagged}
    honest = set(ids) - set(planted)
    accused = {p for pair in flagged - wanted for p in pair} & honest
    hit = len(flagged & wanted)
    played: dict[int, list[Played]] = {}
    for h in hands:
        for p in h.players:
            played.setdefault(p, []).append(
                Played(h.hand_id, h.started_at, h.started_at + timedelta(minutes=1))
            )
    began = time.process_time()
    session_findings(played)
    session_spent = time.process_time() - began
    return {
        "pairs": len(pairs),
        "hands": len(hands),
        "recall": hit / len(wanted),
        "precision": hit / len(flagged) if flagged else 1.0,
        "honest_flagged": len(accused) / len(honest),
        "needed": sorted(needed.values()),
        "ms_per_1000_hands": 1000 * spent / max(len(hands), 1) * 1000,
        "session_ms_per_1000_hands": 1000 * session_spent / max(len(hands), 1) * 1000,
        "planted": sorted(
            f"{f.a}+{f.b}: {f.together} together, expected {f.expected:.1f}, z {f.z:.1f}"
            for f in found
            if (f.a, f.b) in wanted
        ),
    }


def main_rush(args: argparse.Namespace) -> None:
    print(
        f"{'players':>7} {'pairs':>5} {'hands':>8} {'recall':>7} {'precision':>9} {'honest':>7}"
        f" {'ms/1k hands':>11} {'sessions':>8}  hands needed per pair found"
    )
    for n in args.players:
        r = rush(n, args.rounds, args.together, args.seed)
        print(
            f"{n:7} {r['pairs']:5} {r['hands']:8} {r['recall']:7.0%} {r['precision']:9.0%}"
            f" {r['honest_flagged']:7.1%} {r['ms_per_1000_hands']:11.1f}"
            f" {r['session_ms_per_1000_hands']:8.1f}"
            f"  {r['needed']}"
        )
        if args.verbose:
            for line in r["planted"]:  # type: ignore[attr-defined]
                print(f"        planted: {line}")


# ------------------------------------------------------------------------- fields of the sizes

SCENARIOS = ("timing", "dumping", "soft", "whipsaw", "share")


def fast_seats(scenario: str, players: int, seed: int, *, pairs: float, machines: float) -> list[Seat]:
    """The seats of a field of about ``players``: the timing field over ``ceil(players / 6)`` tables (its
    planted players' role ``machine``), the pair scenarios' fields over ``round(players / 6)`` full 6-max
    tables, a share ``pairs`` of them holding one planted pair."""
    if scenario == "timing":
        n_tables = max(1, -(-players // 6))
        n_machines = max(1, round(players * machines))
        planted = timing_field(players - n_machines, n_machines, seed=seed, prefix="bench")
        return [
            Seat(p.name, "machine" if p.machine else "honest", "", i % n_tables)
            for i, p in enumerate(planted)
        ]
    n_tables = max(1, round(players / 6))
    n_pairs = max(1, round(n_tables * pairs))
    if scenario == "dumping":
        return dumping_field(n_tables, n_pairs, seed=seed, prefix="bench")
    if scenario == "share":
        return share_field(n_tables, n_pairs, seed=seed, prefix="bench")
    return pair_field(n_tables, n_pairs, scenario, seed=seed, prefix="bench")


def play_fast(
    scenario: str,
    seats: list[Seat],
    hands: int,
    seed: int,
    save: Path | None = None,
    minutes: float | None = None,
) -> tuple[list[tuple[str, str]], dict[str, list[Decision]], dict[str, Any]]:
    """Play a field with the fast player: its hands ``(hand id, audit PHH)`` in the order dealt, each
    player's decision times by name, and what was played (``meta``). With ``save``, each hand is written
    there as it ends (and the field, its order and its decisions when it is over). ``minutes``: stop
    dealing after that much real time (the hands dealt so far are the field)."""
    n_tables = max(p.table for p in seats) + 1
    fast = FastField(n_tables, seed=seed)
    for i, p in enumerate(seats):
        if p.role == "honest":
            strategy = HONEST[i % len(HONEST)]
        else:
            strategy = {"dumping": "caller", "timing": HONEST[i % len(HONEST)]}.get(scenario, "strength")
        think = MACHINE_THINK if p.role == "machine" else HONEST_THINK
        fast.seat(p.name, p.table, strategy, seed=seed + i, think=think)
    if scenario == "share":
        plant_sharers(seats, fast.bots)
    elif scenario != "timing":
        plant(seats, fast.bots)
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)
    stored: list[tuple[str, str]] = []
    times: dict[str, list[Decision]] = {}
    wall, cpu = time.perf_counter(), time.process_time()
    log = (save / "decisions.jsonl").open("w", encoding="utf-8") if save is not None else None
    try:
        for h in fast.play(hands):
            stored.append((h.hand_id, h.phh))
            for name, seconds in h.decisions:
                times.setdefault(name, []).append(Decision(h.hand_id, seconds))
            if save is not None and log is not None:
                (save / f"{h.hand_id}.phh").write_text(h.phh, encoding="utf-8")
                log.write(json.dumps([h.hand_id, h.decisions]) + "\n")
            if sum(h.results.values()) + h.rake != 0:
                raise AssertionError(f"chips not conserved in {h.hand_id}")
            if minutes is not None and time.perf_counter() - wall > 60 * minutes:
                break
    finally:
        if log is not None:
            log.close()
    if fast.chips() != fast.paid_in:
        raise AssertionError(f"chips not conserved: {fast.chips()} on the tables, {fast.paid_in} paid in")
    meta = {
        "scenario": scenario,
        "players": len(seats),
        "tables": n_tables,
        "seed": seed,
        "hands": len(stored),
        "play_seconds": round(time.perf_counter() - wall, 1),
        "play_cpu_seconds": round(time.process_time() - cpu, 1),
        "refused_actions": fast.errors,
        "strategy_errors": fast.strategy_errors,
    }
    meta["virtual_hours"] = round((max(t.now for t in fast.tables) - fast.start).total_seconds() / 3600, 2)
    if save is not None:
        (save / "field.json").write_text(json.dumps([asdict(p) for p in seats]), encoding="utf-8")
        (save / "order.json").write_text(json.dumps([hid for hid, _ in stored]), encoding="utf-8")
        (save / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return stored, times, meta


def load_fast(
    directory: Path,
) -> tuple[str, list[Seat], list[tuple[str, str]], dict[str, list[Decision]], dict[str, Any]]:
    """A field kept by ``--fast ... --save``: its scenario, seats, hands, decision times and meta."""
    seats, stored = load_dumping(directory)
    meta = json.loads((directory / "meta.json").read_text(encoding="utf-8"))
    times: dict[str, list[Decision]] = {}
    with (directory / "decisions.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            hand_id, rows = json.loads(line)
            for name, seconds in rows:
                times.setdefault(name, []).append(Decision(hand_id, seconds))
    return str(meta["scenario"]), seats, stored, times, meta


def _flagged_pairs(scenario: str, parsed: list[tuple[str, Any]]) -> dict[Any, str]:
    """The pairs a detector flags in ``parsed``: (giver, taker) for chip dumping, else the pair as a
    frozenset, each with its figures."""
    if scenario == "dumping":
        return {
            (f.giver, f.taker): f"z {f.z:.1f} {f.suspect}/{f.faced} {f.flow_bb:.0f}bb"
            for f in dumping_findings(parsed)
            if f.flagged
        }
    if scenario == "soft":
        return {
            frozenset((f.a, f.b)): f"z {f.z:.1f}, {f.aggressive}/{f.spots} bets"
            for f in softplay_findings(parsed)
            if f.flagged
        }
    if scenario == "whipsaw":
        return {
            frozenset((f.a, f.b)): f"z {f.z:.1f}, {f.whipsaws}/{f.chances} whipsaws"
            for f in whipsaw_findings(parsed)
            if f.flagged
        }
    return {
        frozenset((f.a, f.b)): f"z {f.z:.1f} ({f.tell}, from {f.threshold:.1f})"
        for f in cardshare_findings(parsed)
        if f.flagged
    }


def score_fast(
    scenario: str, seats: list[Seat], stored: list[tuple[str, str]], times: dict[str, list[Decision]]
) -> dict[str, Any]:
    """The scenario's detector over a field: recall, precision, honest flagged, hands needed per planted
    item found (the hands read when it was first flagged, at each tenth), CPU per 1,000 hands."""
    honest = {p.name for p in seats if p.role == "honest"}
    order = {hid: i for i, (hid, _) in enumerate(stored)}
    if scenario == "timing":
        ids = {p.name: i + 1 for i, p in enumerate(seats)}
        planted_ids = {ids[p.name] for p in seats if p.role == "machine"}

        def flagged_upto(upto: int) -> set[int]:
            return {
                f.player_id
                for f in timing_findings(
                    {ids[n]: [d for d in ds if order[d.hand_id] < upto] for n, ds in times.items()}
                )
                if f.flagged
            }

        began = time.process_time()
        found = flagged_upto(len(stored))
        spent = time.process_time() - began
        needed_t: dict[int, int] = {}
        for step in range(1, 11):
            upto = len(stored) * step // 10
            for pid in flagged_upto(upto) & planted_ids:
                needed_t.setdefault(pid, upto)
        hit = len(found & planted_ids)
        wrong = len(found - planted_ids)
        return {
            "planted": len(planted_ids),
            "recall": hit / len(planted_ids) if planted_ids else 1.0,
            "precision": hit / len(found) if found else 1.0,
            "honest_flagged": wrong / len(honest) if honest else 0.0,
            "hands": len(stored),
            "needed": sorted(needed_t.values()),
            "ms_per_1000_hands": 1000 * spent / max(len(stored), 1) * 1000,
            "lines": [],
        }
    began = time.process_time()
    parsed = [(hid, read_phh(text)) for hid, text in stored]
    found_pairs = _flagged_pairs(scenario, parsed)
    spent = time.process_time() - began
    if scenario == "dumping":
        planted: set[Any] = {(p.name, p.partner) for p in seats if p.role == "dumper"}
    else:
        planted = {frozenset((p.name, p.partner)) for p in seats if p.role != "honest"}
    needed: dict[Any, int] = {}
    for step in range(1, 11):
        upto = len(parsed) * step // 10
        flagged = found_pairs if upto == len(parsed) else _flagged_pairs(scenario, parsed[:upto])
        for pair in set(flagged) & planted:
            needed.setdefault(pair, upto)
        if len(needed) == len(planted):
            break  # (every planted pair found: the later tenths cannot change the figure)
    caught = set(found_pairs) & planted
    accused = {name for pair in set(found_pairs) - planted for name in pair} & honest
    lines = [
        f"falsely flagged: {'+'.join(sorted(pair))}: {why}"
        for pair, why in found_pairs.items()
        if pair not in planted
    ]
    return {
        "planted": len(planted),
        "recall": len(caught) / len(planted) if planted else 1.0,
        "precision": len(caught) / len(found_pairs) if found_pairs else 1.0,
        "honest_flagged": len(accused) / len(honest) if honest else 0.0,
        "hands": len(parsed),
        "needed": sorted(needed.values()),
        "ms_per_1000_hands": 1000 * spent / max(len(parsed), 1) * 1000,
        "lines": lines,
    }


def _print_fast(scenario: str, players: int, meta: dict[str, Any], r: dict[str, Any]) -> None:
    needed = r["needed"]
    span = "-" if not needed else (f"{needed[0]}" if needed[0] == needed[-1] else f"{needed[0]}-{needed[-1]}")
    print(
        f"{scenario:>8} {players:7} {r['planted']:7} {r['hands']:8} {r['recall']:7.0%} {r['precision']:9.0%}"
        f" {r['honest_flagged']:7.1%} {r['ms_per_1000_hands']:11.1f}  {span}"
        f"  (played: {meta.get('play_cpu_seconds', '?')} s CPU, {meta.get('virtual_hours', '?')} h virtual)",
        flush=True,
    )
    for line in r["lines"]:
        print(f"        {line}")


_FAST_HEAD = (
    f"{'scenario':>8} {'players':>7} {'planted':>7} {'hands':>8} {'recall':>7} {'precision':>9} {'honest':>7}"
    f" {'ms/1k hands':>11}  hands needed"
)


def _equities(path: Path | None, *, save: bool = False) -> None:
    """Read (or, ``save``, write) the exact equities remembered by the fast player (``pokerroom.bots.field.
    EQUITIES``: the same numbers, computed once) from a file, to share them between runs."""
    if path is None:
        return
    if save:
        known = dict(EQUITIES.known)
        if path.exists():
            known.update(pickle.loads(path.read_bytes()))
        part = path.with_suffix(f".{os.getpid()}")
        part.write_bytes(pickle.dumps(known))
        part.replace(path)
    elif path.exists():
        EQUITIES.known.update(pickle.loads(path.read_bytes()))


def main_fast(args: argparse.Namespace) -> None:
    print(_FAST_HEAD, flush=True)
    _equities(args.equities)
    for scenario in args.fast:
        for n in args.players:
            seats = fast_seats(scenario, n, args.seed, pairs=args.pairs, machines=args.machines)
            save = args.save / f"{scenario}-{n}-{args.seed}" if args.save else None
            stored, times, meta = play_fast(scenario, seats, args.hands, args.seed, save, args.minutes)
            if save is not None and args.index is not None:
                with args.index.open("a", encoding="utf-8") as index:
                    index.write(
                        f"{save}\t{scenario}\tplayers={len(seats)}\thands={len(stored)}\tseed={args.seed}"
                        f"\ttree={args.tree}\n"
                    )
            _equities(args.equities, save=True)
            if args.no_score:  # (kept to score later with --fast-load)
                print(f"{scenario:>8} {len(seats):7} played: {json.dumps(meta)}", flush=True)
                continue
            _print_fast(scenario, len(seats), meta, score_fast(scenario, seats, stored, times))


def main_fast_load(args: argparse.Namespace) -> None:
    print(_FAST_HEAD, flush=True)
    for directory in args.fast_load:
        scenario, seats, stored, times, meta = load_fast(directory)
        _print_fast(scenario, len(seats), meta, score_fast(scenario, seats, stored, times))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, nargs="+", default=[12, 24])
    ap.add_argument("--machines", type=float, default=0.1, help="share of planted machine-timed bots")
    ap.add_argument("--hands", type=int, default=60, help="hands dealt at each table")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dumping", action="store_true", help="the chip-dumping scenario (--tables, --pairs)")
    ap.add_argument("--tables", type=int, nargs="+", default=[2, 6], help="chip dumping: tables per field")
    ap.add_argument("--pairs", type=float, default=0.5, help="chip dumping: share of tables with a pair")
    ap.add_argument(
        "--save", type=Path, help="chip dumping, --fast: keep each field's hands in a directory here"
    )
    ap.add_argument("--load", type=Path, nargs="+", help="chip dumping: score fields saved by --save")
    ap.add_argument(
        "--pair", choices=("soft", "whipsaw", "share"), help="a planted-pair scenario (--tables, --pairs)"
    )
    ap.add_argument("--size", type=int, default=6, help="planted pairs: players a table")
    ap.add_argument("--rush", action="store_true", help="Rush pools with planted pairs (--players, --rounds)")
    ap.add_argument("--rounds", type=int, default=2000, help="Rush: rounds dealt (a round every 20 s)")
    ap.add_argument(
        "--together", type=float, default=0.3, help="Rush: a pair's extra share of rounds together"
    )
    ap.add_argument("--verbose", action="store_true", help="Rush: each planted pair's figures")
    ap.add_argument("--fast", nargs="+", choices=SCENARIOS, help="fields of the issue's sizes, fast player")
    ap.add_argument("--fast-load", type=Path, nargs="+", help="score fields kept by --fast --save again")
    ap.add_argument("--index", type=Path, help="--fast --save: append a line per saved field to this file")
    ap.add_argument("--no-score", action="store_true", help="--fast: play and save only (score: --fast-load)")
    ap.add_argument("--minutes", type=float, help="--fast: stop dealing a field after this many minutes")
    ap.add_argument("--equities", type=Path, help="--fast: a file of exact equities to share between runs")
    ap.add_argument("--tree", default="", help="--fast --index: what the tree was (a note in the index)")
    args = ap.parse_args()
    if args.fast_load:
        main_fast_load(args)
        return
    if args.fast:
        if args.hands == 60:
            args.hands = 20_000
        if args.players == [12, 24]:
            args.players = [50, 200]
        main_fast(args)
        return
    if args.rush:
        main_rush(args)
        return
    if args.pair == "share":  # card-sharing pairs (pokerroom.bots.cardshare)
        if args.hands == 60:
            args.hands = 300
        main_share(args)
        return
    if args.pair:
        if args.hands == 60:
            args.hands = 150
        main_pairs(args)
        return
    if args.dumping:
        if args.hands == 60:
            args.hands = 150
        main_dumping(args)
        return
    print(
        f"{'players':>7} {'planted':>7} {'hands':>7} {'recall':>7} {'precision':>9} {'honest':>7}"
        f" {'ms/1k hands':>11}"
    )
    for n in args.players:
        machines = max(1, round(n * args.machines))
        r = asyncio.run(field(n, machines, args.hands, args.seed))
        print(
            f"{n:7} {machines:7} {r['hands']:7.0f} {r['recall']:7.0%} {r['precision']:9.0%}"
            f" {r['honest_flagged']:7.1%} {r['ms_per_1000_hands']:11.1f}"
        )
    print("(a day of a 1,000-table room, ~1.7 M hands, at that rate: ms/1k hands x 1,700 / 1,000 s)")


if __name__ == "__main__":
    main()
