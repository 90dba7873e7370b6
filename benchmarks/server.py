"""The server's cost per action, this tree against an earlier commit, side by side in one run.

    python benchmarks/server.py --base e3566af --players 500 --duration 20 --think 0-0 --rounds 2
    python benchmarks/server.py --base e3566af --players 2000 --duration 20 --think 0.5-2 --rounds 1
    python benchmarks/server.py --base 4acdb76 --players 600 --duration 20 --think 0-0 --mix ha

Each round runs the load test (``pokerroom loadtest``, bots in their own processes against one server
process on SQLite) on the base commit and then on this tree, with the same players, tables and think time
(``--mix``: mixed tables, the games of a mix in turn); the rounds alternate, so a machine that gets
busier or quieter during the run weighs on both sides alike. The base commit is checked out into a
temporary directory and run from there (``PYTHONPATH``); when its engine sources are those this tree's
compiled engine was built from, it gets that build, so the two sides differ only in the code changed
since; otherwise its engine is compiled there with mypyc first. It prints each run and, for the medians
of the rounds, the ratios this tree / base: the server's CPU per action (from its resource usage, the
figure to halve), actions per second and the p99 of action-to-broadcast. Read docs/server-speed.md for
the profile behind them.

A run in which not every player sat, or no action was made, gives no figure: it is run once more with
twice the warm-up (the line says so), and when that fails too the benchmark stops with the reason and exit
status 1, printing no ratio. (This tree's load test waits for every player to sit; an older base's may not.)
With an even number of rounds a median is the mean of the two middle runs, and the output says so; use an
odd number of rounds to have every median be one run.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RUN = """
import json, sys
from pokerroom.bots.load import run_load
report = run_load({players}, {duration}, ({lo}, {hi}), warmup={warmup}{mix})
print("REPORT " + json.dumps({{
    "actions": report.actions, "duration": report.duration, "hands": report.hands,
    "p50": report.latency_p50_ms, "p99": report.latency_p99_ms, "errors": report.errors,
    "seated": report.seated, "cpu_ms": report.cpu_ms_per_action,
    "seated_at_start": getattr(report, "seated_at_start", None),
}}))
"""


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def _built_from(tree: Path) -> bool:
    """Was this tree's compiled engine built from the engine sources ``tree`` holds? (The build's manifest
    lists the digest of each compiled module's source.)"""
    manifest = ROOT / "src/pokerroom/engine/compiled.txt"
    if not manifest.exists():
        return False
    for line in manifest.read_text().splitlines():
        module, _, digest = line.partition(" ")
        source = tree / "src" / (module.replace(".", "/") + ".py")
        if not source.exists() or hashlib.sha256(source.read_bytes()).hexdigest() != digest:
            return False
    return True


def checkout_base(rev: str, into: Path) -> str:
    """The commit's sources under ``into``; returns how its engine runs there. Its engine gets this tree's
    compiled build when it was built from the same sources, else it is compiled there (as an install
    would), so that both sides run a compiled engine."""
    into.mkdir(parents=True)
    files = ["src", "setup.py", "pyproject.toml", "README.md"]
    archive = subprocess.run(["git", "archive", rev, *files], cwd=ROOT, check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    compiled = sorted((ROOT / "src").rglob("*.so"))
    if compiled and _built_from(into):
        for path in compiled:
            shutil.copy2(path, into / path.relative_to(ROOT))
        shutil.copy2(ROOT / "src/pokerroom/engine/compiled.txt", into / "src/pokerroom/engine/compiled.txt")
        return "the same compiled engine"
    print(f"compiling the engine of {rev} (a minute or two)", flush=True)
    if _compile(into):
        return "its own engine, compiled"
    return "its engine as pure Python (it could not be compiled here)"


def _compile(tree: Path) -> bool:
    """Build the checked-out commit's wheel (pip, in its own build environment, as an install does) and
    put its compiled modules and their manifest beside the sources."""
    wheels = tree / "wheels"
    build = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(tree)]
    if subprocess.run(build, capture_output=True, text=True).returncode != 0:
        return False
    with zipfile.ZipFile(next(wheels.glob("*.whl"))) as wheel:
        for name in wheel.namelist():
            if name.endswith((".so", "compiled.txt")):
                target = tree / "src" / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(wheel.read(name))
    return (tree / "src/pokerroom/engine/compiled.txt").exists()


def load_code(args: argparse.Namespace, warmup: float | None = None) -> str:
    """The Python code of one side's run: the load test with the benchmark's settings."""
    lo, _, hi = args.think.partition("-")
    return RUN.format(
        players=args.players,
        duration=args.duration,
        lo=float(lo),
        hi=float(hi or lo),
        warmup=args.warmup if warmup is None else warmup,
        mix=f", mix={args.mix!r}" if args.mix else "",
    )


def run_side(src: Path, args: argparse.Namespace, warmup: float | None = None) -> dict[str, Any]:
    code = load_code(args, warmup)
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
    line = next(x for x in out.stdout.splitlines() if x.startswith("REPORT "))
    report: dict[str, Any] = json.loads(line.removeprefix("REPORT "))
    report["rate"] = report["actions"] / report["duration"]
    return report


def default_warmup(players: int) -> float:
    """The load test's own warm-up when none is given (``run_load``)."""
    return 10.0 + players / 100


def run_problem(report: dict[str, Any], players: int) -> str | None:
    """Why a run gives no figure, or None: every player must have sat (when the window opened, where the
    load test says, and when it closed) and some action been made."""
    at_start = report.get("seated_at_start")
    if at_start is not None and at_start < players:
        return f"only {at_start} of {players} players sat before the measured window"
    if report["seated"] < players:
        return f"only {report['seated']} of {players} players sat"
    if report["actions"] <= 0:
        return "no action was made in the measured window"
    return None


class RunFailed(Exception):
    """A side's run gave no figure, twice."""


def checked_run(
    name: str,
    args: argparse.Namespace,
    run: Callable[[float | None], dict[str, Any]],
    say: Callable[[str], None] = print,
) -> dict[str, Any]:
    """One side's run (``run(warmup)``), checked; a run that gives no figure is run once more with twice the
    warm-up (the one given or the load test's default, the longer), and :class:`RunFailed` is raised when
    that one fails too."""
    report = run(None)
    problem = run_problem(report, args.players)
    if problem is None:
        return report
    warmup = 2 * max(args.warmup or 0.0, default_warmup(args.players))
    say(f"  {name:5} no figure: {problem}; running it once more with a {warmup:g} s warm-up")
    report = run(warmup)
    problem = run_problem(report, args.players)
    if problem is not None:
        raise RunFailed(f"{name}: {problem} again, with a {warmup:g} s warm-up; no figure from it")
    return report


def median_words(rounds: int) -> str:
    """What the medians printed for ``rounds`` rounds are."""
    if rounds == 1:
        return "one round: the figures of its runs"
    if rounds % 2:
        return f"medians of {rounds} rounds (each the middle run)"
    return f"medians of {rounds} rounds: an even number, so each is the mean of the two middle runs"


def show(name: str, r: dict[str, Any]) -> str:
    return (
        f"  {name:5} {r['rate']:7.0f} actions/s  p50 {r['p50']:7.1f} ms  p99 {r['p99']:7.1f} ms  "
        f"errors {r['errors']}  seated {r['seated']}  server CPU {r['cpu_ms']:.3f} ms/action"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="the commit to compare with (e.g. the one before the work)")
    ap.add_argument("--new", default=None, help="a commit to measure instead of this working tree")
    ap.add_argument(
        "--base-src",
        default=None,
        help="the base commit's src directory, already built (its compiled engine beside the sources),"
        " instead of checking it out and compiling it here",
    )
    ap.add_argument(
        "--new-src",
        default=None,
        help="a copy of a tree's src directory to measure instead of this tree's (a snapshot: others may edit"
        " the tree while the benchmark runs)",
    )
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--duration", type=float, default=20.0)
    ap.add_argument("--think", default="0-0")
    ap.add_argument("--warmup", type=float, default=None)
    ap.add_argument("--rounds", type=int, default=3, help="rounds (odd: each median is one run)")
    ap.add_argument(
        "--mix",
        default="",
        help="mixed tables of this mix (horse, 8game, ha: the load test's --mix) on both sides",
    )
    args = ap.parse_args()
    if not 2 <= args.players <= 5000 or not 1 <= args.duration <= 900 or not 1 <= args.rounds <= 9:
        ap.error("bounded: 2..5000 players, 1..900 seconds, 1..9 rounds")
    head = _git("rev-parse", "--short", "HEAD").strip()
    dirty = " (with uncommitted changes)" if _git("status", "--porcelain", "--", "src").strip() else ""
    with tempfile.TemporaryDirectory(prefix="pokerroom-base-") as tmp:
        base_src = Path(tmp) / "base" / "src"
        if args.base_src is not None:
            base_src, how = Path(args.base_src).resolve(), f"its sources in {args.base_src}"
        else:
            how = checkout_base(args.base, Path(tmp) / "base")
        new_src = ROOT / "src"
        what = f"this tree {head}{dirty}"
        if args.new is not None:  # (a fixed commit: the tree may change while the benchmark runs)
            checkout_base(args.new, Path(tmp) / "new")
            new_src, what = Path(tmp) / "new" / "src", f"commit {args.new}"
        elif args.new_src is not None:
            new_src, what = Path(args.new_src).resolve(), f"the sources in {args.new_src}"
        mixed = f", mix {args.mix}" if args.mix else ""
        print(f"base {args.base} ({how}) against {what}: {args.players} players{mixed}, "
              f"think {args.think} s, {args.duration:g} s measured, {args.rounds} round(s)")  # fmt: skip
        sides: dict[str, list[dict[str, Any]]] = {"base": [], "new": []}
        for k in range(args.rounds):
            print(f"round {k + 1}", flush=True)
            for name, src in (("base", base_src), ("new", new_src)):
                try:
                    report = checked_run(name, args, functools.partial(run_side, src, args))
                except RunFailed as failure:
                    sys.exit(f"error: {failure}")
                sides[name].append(report)
                print(show(name, report), flush=True)
    med = {name: {key: statistics.median(r[key] for r in runs) for key in ("rate", "p99", "cpu_ms")}
           for name, runs in sides.items()}  # fmt: skip
    b, n = med["base"], med["new"]
    print(f"{median_words(args.rounds)}; this tree / base:")
    for label, key, unit in (
        ("server CPU per action", "cpu_ms", "ms"),
        ("actions per second", "rate", ""),
        ("p99 action->broadcast", "p99", "ms"),
    ):
        ratio = n[key] / b[key] if b[key] else float("nan")
        print(f"  {label:22} {n[key]:9.3f} / {b[key]:9.3f} {unit:2} = x{ratio:.2f}")


if __name__ == "__main__":
    main()
