"""Statistical test of the keyed shuffle ``deal_order`` over millions of decks (docs/shuffle.md), and its
speed against the system-random shuffle (`pokerroom.cards.shuffle`), side by side in one run (one core).

    python benchmarks/shuffle_stats.py                  # 10,000,000 decks of 52 (3 minutes, one quiet core)
    python benchmarks/shuffle_stats.py --quick          # 200,000 decks (a few seconds)
    python benchmarks/shuffle_stats.py --decks 1000000 --cards 36
    python benchmarks/shuffle_stats.py --system-seeds   # fresh seeds from the system RNG, not reproducible

Every deck tested is ``deal_order(seed, n)`` itself, called once per deck (numpy only counts). Deck k's
seed is ``SHA-256(master || k as 8 bytes big-endian)``, so a run can be repeated exactly (``--master``),
or, with ``--system-seeds``, ``secrets.token_bytes(32)`` as in production. The tests, each at the 99 %
level (PASS when its p-value is at least 0.01; a family of tests is held to 99 % as a whole by
Bonferroni: PASS when its smallest p-value is at least 0.01 / its size):

1. position, whole table: chi-square of the n x n card-by-position counts against D / n each,
   (n - 1)^2 degrees of freedom (every row and column sums to D);
2. position, per card: chi-square of each card's n positions, n - 1 degrees of freedom, a family of n;
3. serial pairs: for each i, the ordered pair (card at i, card at i + 1) over the n (n - 1) pairs,
   n (n - 1) - 1 degrees of freedom, a family of n - 1 (i = 0 is the first two cards dealt);
4. relative order: for the n / 2 disjoint pairs of cards (0, 1), (2, 3), ... (2c 2d, 2h 2s, ...), how
   often the first comes before the second; each is a chi-square with 1 degree of freedom and, the pairs
   being disjoint, their sum is one with n / 2.

A failing test makes the exit status 1.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from scipy.stats import chi2

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from pokerroom.cards import DeckSpec, shuffle
from pokerroom.cards.keyed import deal_order

ALPHA = 0.01
BATCH = 50_000
DEFAULT_MASTER = hashlib.sha256(b"pokerroom benchmarks/shuffle_stats.py").hexdigest()


def seeds(start: int, count: int, master: bytes | None) -> list[bytes]:
    if master is None:
        return [secrets.token_bytes(32) for _ in range(count)]
    return [hashlib.sha256(master + k.to_bytes(8, "big")).digest() for k in range(start, start + count)]


@dataclass
class Counts:
    """What the tests need, summed over every deck: card x position, per position pair, relative order."""

    n: int
    decks: int = 0

    def __post_init__(self) -> None:
        n = self.n
        self.position = np.zeros(n * n, dtype=np.int64)
        self.pairs = np.zeros((n - 1) * n * n, dtype=np.int64)
        self.first_before = np.zeros(n // 2, dtype=np.int64)
        self._pos = np.arange(n, dtype=np.int64)
        self._pair_base = np.arange(n - 1, dtype=np.int64) * n * n

    def add(self, decks: np.ndarray) -> None:
        n = self.n
        d = decks.astype(np.int64)
        self.position += np.bincount((d * n + self._pos).ravel(), minlength=n * n)
        pair_index = self._pair_base + d[:, :-1] * n + d[:, 1:]
        self.pairs += np.bincount(pair_index.ravel(), minlength=(n - 1) * n * n)
        where = np.empty_like(d)  # where[k, card] = position of card in deck k
        np.put_along_axis(where, d, np.broadcast_to(self._pos, d.shape), axis=1)
        half = 2 * (n // 2)
        self.first_before += (where[:, 0:half:2] < where[:, 1:half:2]).sum(axis=0)
        self.decks += len(d)


def _p(p: float) -> str:
    """A p-value with four decimals, or in scientific notation when it is below 0.0001."""
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"


def chi_square(observed: np.ndarray, expected: float, axis: int | None = None) -> Any:
    return ((observed - expected) ** 2 / expected).sum(axis=axis)


class Report:
    def __init__(self) -> None:
        self.failed: list[str] = []

    def line(
        self, name: str, statistic: float, df: int, p: float, threshold: float = ALPHA, note: str = ""
    ) -> None:
        verdict = "PASS" if p >= threshold else "FAIL"
        if verdict == "FAIL":
            self.failed.append(name)
        print(
            f"{name:<44} chi2 {statistic:>12.2f}  df {df:>6}  p {_p(p)}  {verdict} at 99 %{note}", flush=True
        )

    def family(self, name: str, stats: np.ndarray, df: int, labels: list[str]) -> None:
        """A family of tests held to 99 % as a whole (Bonferroni): the worst member decides."""
        pvalues = chi2.sf(stats, df)
        worst = int(np.argmin(pvalues))
        below = int((pvalues < ALPHA).sum())
        note = (
            f"  (worst of {len(stats)}: {labels[worst]}; {below} below 0.01 where about "
            f"{len(stats) * ALPHA:.1f} are expected; mean p {pvalues.mean():.3f})"
        )
        self.line(name, float(stats[worst]), df, float(pvalues[worst]), ALPHA / len(stats), note)


def run_tests(counts: Counts, report: Report) -> None:
    n, d = counts.n, counts.decks
    names = [str(c) for c in _deck(n)]
    table = counts.position.reshape(n, n)
    assert (table.sum(axis=0) == d).all() and (table.sum(axis=1) == d).all()
    whole = float(chi_square(table, d / n))
    report.line(
        "position, whole card x position table", whole, (n - 1) ** 2, float(chi2.sf(whole, (n - 1) ** 2))
    )
    report.family("position, per card (family of n)", chi_square(table, d / n, axis=1), n - 1, names)

    pairs = counts.pairs.reshape(n - 1, n * n)
    possible = np.ones((n, n), dtype=bool)
    np.fill_diagonal(possible, False)
    assert (pairs[:, ~possible.ravel()] == 0).all()  # a card never follows itself
    observed = pairs[:, possible.ravel()]
    cells = n * (n - 1)
    stats = chi_square(observed, d / cells, axis=1)
    report.line(
        "serial pair, positions 1-2 (first two dealt)",
        float(stats[0]),
        cells - 1,
        float(chi2.sf(stats[0], cells - 1)),
    )
    labels = [f"positions {i + 1}-{i + 2}" for i in range(n - 1)]
    report.family("serial pairs, positions i, i+1 (family)", stats, cells - 1, labels)

    before = counts.first_before
    per_pair = (2 * before - d) ** 2 / d
    total = float(per_pair.sum())
    worst = int(np.argmax(per_pair))
    note = f"  (worst pair {names[2 * worst]} before {names[2 * worst + 1]}: {before[worst] / d:.5f})"
    report.line(
        "relative order of disjoint card pairs",
        total,
        len(before),
        float(chi2.sf(total, len(before))),
        note=note,
    )


def _deck(n: int) -> tuple[Any, ...]:
    return DeckSpec(n).cards() if n in (32, 36, 52) else tuple(range(n))


def collect(decks: int, n: int, master: bytes | None) -> tuple[Counts, float]:
    counts = Counts(n)
    spent = 0.0
    start = time.process_time()
    report_every = max(decks // 10, BATCH)
    done = 0
    while done < decks:
        size = min(BATCH, decks - done)
        batch = seeds(done, size, master)
        t = time.process_time()
        flat: list[int] = []
        extend = flat.extend
        for s in batch:
            extend(deal_order(s, n))
        spent += time.process_time() - t
        counts.add(np.array(flat, dtype=np.uint8).reshape(size, n))
        done += size
        if done % report_every < BATCH or done == decks:
            rate = done / (time.process_time() - start)
            print(
                f"  {done:>12,} decks  ({rate:,.0f} decks/s with the counting)", file=sys.stderr, flush=True
            )
    return counts, spent


def interleaved(fns: dict[str, Callable[[], Any]], units: int, repeat: int) -> dict[str, float]:
    """Best units per second of each function over ``repeat`` interleaved rounds (CPU time of the process)."""
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(repeat):
        for name, fn in fns.items():
            t = time.process_time()
            fn()
            best[name] = min(best[name], time.process_time() - t)
    return {name: units / spent for name, spent in best.items()}


def speed(n: int, count: int, repeat: int) -> None:
    cards = _deck(n)
    fresh = [secrets.token_bytes(32) for _ in range(count)]

    def keyed() -> None:
        for s in fresh:
            deal_order(s, n)

    def keyed_cards() -> None:
        for s in fresh:
            [cards[i] for i in deal_order(s, n)]

    def production() -> None:
        for _ in range(count):
            shuffle(cards)  # secrets.SystemRandom

    rates = interleaved({"keyed": keyed, "keyed_cards": keyed_cards, "production": production}, count, repeat)
    prod = rates["production"]
    print(
        f"{'speed, decks of ' + str(n) + ' per second (one core)':<44} "
        f"deal_order {rates['keyed']:,.0f} (x{rates['keyed'] / prod:.2f}) | "
        f"deal_order + cards {rates['keyed_cards']:,.0f} (x{rates['keyed_cards'] / prod:.2f}) | "
        f"shuffle(SystemRandom) {prod:,.0f}  [best of {repeat} interleaved rounds of {count:,}; "
        "x = ratio to shuffle(SystemRandom), >1 is faster]",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decks", type=int, default=None, help="decks to test (default 10,000,000)")
    parser.add_argument("--quick", action="store_true", help="200,000 decks (unless --decks says otherwise)")
    parser.add_argument(
        "--cards", type=int, default=52, help="deck size n (2..256; 52, 36 and 32 name cards)"
    )
    parser.add_argument("--master", default=DEFAULT_MASTER, help="hex master seed of the decks' seeds")
    parser.add_argument("--system-seeds", action="store_true", help="seeds from secrets.token_bytes(32)")
    args = parser.parse_args(argv)
    decks = args.decks if args.decks is not None else 200_000 if args.quick else 10_000_000
    if decks < 1000 or not 4 <= args.cards <= 256:
        parser.error("need --decks >= 1000 and 4 <= --cards <= 256")
    master = None if args.system_seeds else bytes.fromhex(args.master)
    source = "secrets.token_bytes(32)" if master is None else f"SHA-256(master || k), master {args.master}"
    print(f"deal_order: {decks:,} decks of {args.cards}, label b'deck', seeds {source}", flush=True)

    speed(args.cards, 5_000 if args.quick else 20_000, 3 if args.quick else 5)
    started = time.process_time()
    counts, spent = collect(decks, args.cards, master)
    print(
        f"{'dealt':<44} {decks:,} decks: deal_order {decks / spent:,.0f} decks/s; the whole run with seeds "
        f"and counting {decks / (time.process_time() - started):,.0f} decks/s (CPU time)",
        flush=True,
    )
    report = Report()
    run_tests(counts, report)
    verdict = "FAIL: " + ", ".join(report.failed) if report.failed else "PASS: every test at the 99 % level"
    print(verdict, flush=True)
    return 1 if report.failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
