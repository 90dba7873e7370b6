"""A day of a 1,000-table room (issue 30): ``pokerroom integrity report`` end to end over a large stored
corpus, its CPU and its peak memory, and the hours it would take for 1.7 million hands.

The corpus is generated, seeded, straight into a SQLite database of the room's own schema (``pokerroom db
upgrade``): tables of 6-max no-limit hold'em (most of them), 9-max no-limit hold'em, pot-limit Omaha and
fixed-limit stud, each played by the engine with a simple style per player (how loose, how aggressive,
a crude strength of his cards), written by the room's history writer as the audit copy the room stores
(every card, the sealed deck proof with its salts and seed part, the table, time and names), with the
rows the report reads beside it: the hand (started, ended), its seats and its journal of commands (the
decision times of the timing detector). A tenth of the tables are Rush pools' tables. Players come and go:
each table's seats change every few dozen hands, from a population of ``--players``.

The corpus generator is tests/server/integrity_corpus.py (the report's tests use it too). Then it runs
``pokerroom integrity report --json`` over the whole period in a child process, on a copy of this tree's
``src`` and, with ``--base REV``, on the same copy with the report's own files (:data:`MINE`) as they are at
git revision REV, alternating base and new ``--repeat`` times; it prints each run's CPU (user + system of
the child), wall time, peak RSS, CPU per 1,000 hands and the hours 1.7 million hands would take at that
rate on one core, with the load average.

    python benchmarks/integrity_scale.py --make DB --hands 200000 [--tables 1000] [--players 8000] [--seed 1]
    python benchmarks/integrity_scale.py --run DB [--base HEAD] [--repeat 1] [--same] [--without-dumping]

``--same`` checks the runs' JSON documents are identical (the same findings from the old and new code).
``--without-dumping`` runs the report with the chip-dumping detector replaced by one that reads the hands
and finds nothing: the rest of the report at a size where the whole one would take hours on this machine
(chip dumping's own cost is being cut apart; the runs with it measure its share).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.server.integrity_corpus import DAY_HANDS, START, fill, upgrade  # noqa: E402

# ------------------------------------------------------------------------------------------- the runs


MINE = tuple(  # the report's own files (the detectors owned elsewhere are this tree's in both runs)
    f"src/pokerroom/{rel}"
    for rel in (
        "server/integrity/report.py",
        "server/integrity/whipsaw.py",
        "server/integrity/cardshare.py",
        "server/integrity/dumping.py",
        "server/integrity/softplay.py",
        "server/integrity/groups.py",
        "server/integrity/timing.py",
        "server/integrity/rush.py",
        "cli/integrity.py",
        "store/integrity.py",
    )
)


def _scratch(name: str) -> Path:
    """A path of this run's own under the temporary directory."""
    return Path(tempfile.gettempdir()) / f"integrity-scale-{os.getpid()}-{name.replace('/', '_')}"


def _tree(rev: str | None) -> Path:
    """A copy of this tree's ``src`` (taken once: other work on the tree does not change it between the
    runs), with the report's own files (:data:`MINE`) as they are at ``rev`` (None: as they are)."""
    out = _scratch(rev or "new")
    if out.exists():
        subprocess.run(["rm", "-rf", str(out)], check=True)
    new = _scratch("new")
    subprocess.run(["cp", "-r", str(new if rev is not None else ROOT / "src"), str(out)], check=True)
    for name in MINE if rev is not None else ():
        body = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{rev}:{name}"], check=True, capture_output=True
        )
        (out / name.removeprefix("src/")).write_bytes(body.stdout)
    return out


def _build(src: Path) -> str:
    """Whether the tree's compiled modules (engine, PHH reader: docs/engine-speed.md) run, or their sources
    (a source changed since the build)."""
    probe = "import warnings; warnings.simplefilter('ignore')\n"
    probe += "from pokerroom.engine.native import running_build; print(running_build())"
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def _hands(path: Path) -> int:
    con = sqlite3.connect(path)
    try:
        return int(con.execute("SELECT count(*) FROM hand_histories").fetchone()[0])
    finally:
        con.close()


# ``--without-dumping``: the report with the chip-dumping detector replaced by one that reads the hands and
# finds nothing (its owner is cutting its cost apart: its share is measured by the runs with it)
_WITHOUT_DUMPING = (
    "import sys\n"
    "import pokerroom.server.integrity.report as report\n"
    "def nothing(hands, **options):\n"
    "    for _ in hands:\n"
    "        pass\n"
    "    return []\n"
    "report.dumping_findings = nothing\n"
    "from pokerroom.cli import main\n"
    "sys.argv[0] = 'pokerroom'\n"
    "main()\n"
)


def run_once(db: Path, src: Path, out: Path, *, dumping: bool = True) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, peak RSS in kB) of one report over the whole corpus."""
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    cmd = [
        sys.executable,
        *(("-m", "pokerroom") if dumping else ("-c", _WITHOUT_DUMPING)),
        "integrity",
        "report",
        "--url",
        f"sqlite+aiosqlite:///{db}",
        "--since",
        (START - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%S"),
        "--json",
    ]
    begun = time.perf_counter()
    with out.open("wb") as f:
        proc = subprocess.Popen(cmd, env=env, stdout=f, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - begun
    if proc.returncode not in (0, 1):
        err = proc.stderr.read().decode() if proc.stderr else ""
        raise SystemExit(f"the report failed ({proc.returncode}): {err[-2000:]}")
    return usage.ru_utime + usage.ru_stime, wall, int(usage.ru_maxrss)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--make", type=Path, help="Generate the corpus into this SQLite file.")
    ap.add_argument("--run", type=Path, help="Run the report over this corpus.")
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--players", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--base", help="Also run the report of this git revision (alternating with this tree's).")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--same", action="store_true", help="Check every run printed the same JSON document.")
    ap.add_argument(
        "--without-dumping", action="store_true", help="Run the report with chip dumping finding nothing."
    )
    args = ap.parse_args()
    if args.make:
        begun = time.perf_counter()
        asyncio.run(upgrade(args.make))
        done = fill(args.make, args.tables, args.hands, args.players, args.seed)
        print(f"made {args.make}: {done} hands, {args.tables} tables ({time.perf_counter() - begun:.0f} s)")
    if args.run:
        n = _hands(args.run)
        trees = [("new", _tree(None))]  # (first: the base is this copy with its own files changed)
        if args.base:
            trees.insert(0, (f"base {args.base}", _tree(args.base)))
        digests = set()
        print(
            f"{n} hands; load average {os.getloadavg()[0]:.2f} at the start"
            f" ({datetime.now(UTC):%Y-%m-%d %H:%M} UTC)"
        )
        for name, src in trees:
            print(f"{name}: {_build(src)} build of the compiled modules")
        for _ in range(args.repeat):
            for name, src in trees:
                out = _scratch(f"{name.split()[0]}.json")
                cpu, wall, rss = run_once(args.run, src, out, dumping=not args.without_dumping)
                digests.add(_digest(out))
                per = cpu / n * 1000
                hours = cpu / n * DAY_HANDS / 3600
                print(
                    f"{name:12} CPU {cpu:8.1f} s  wall {wall:8.1f} s  peak RSS {rss / 1024:8.0f} MB"
                    f"  {per:6.3f} s per 1,000 hands  -> {hours:5.2f} h for 1.7 M hands"
                    f"  (load {os.getloadavg()[0]:.2f})",
                    flush=True,
                )
        if args.same:
            print("documents identical" if len(digests) == 1 else f"documents DIFFER: {sorted(digests)}")
            if len(digests) != 1:
                raise SystemExit(1)


if __name__ == "__main__":
    main()
