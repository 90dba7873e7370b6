"""Benchmark of pokerroom.eval against peers, side by side in one run (one core).

    python benchmarks/eval.py                # full run (a few minutes)
    python benchmarks/eval.py --quick        # smaller inputs
    python benchmarks/eval.py --repeat 9     # more paired runs against OMPEval (default 5)
    python benchmarks/eval.py --ompeval      # only the lines against OMPEval (a minute or two)
    python benchmarks/eval.py --single       # only the one-call-per-hand lines (seconds)

Peers (the ``bench`` extra): OMPEval (C++, shipped inside pokerfast), phevaluator, eval7, treys,
poker-equity, pokerkit. Inputs are converted to each library's own format before timing; every
figure is the best of three runs, in CPU time of the process (see ``best_of``). The lines against
OMPEval alternate pokerroom and OMPEval runs (``--repeat`` pairs, see ``paired``): both get the same
chances of a quiet moment on a shared machine; the line gives the best of each and the median of
the pairs' ratios.
A peer that does not install or import is reported as such.
pokerroom's kernels are single-threaded numba; numba compilation happens before timing (it is
cached per machine).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from pokerroom.eval import equity, evaluate_batch, ranker
from pokerroom.eval.fast import RANK7_BUILD, omaha_function, rank7_function

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def name(i: int) -> str:
    return RANKS[i >> 2] + SUITS[i & 3]


def best_of(fn: Callable[[], Any], repeat: int = 3) -> float:
    """Best CPU time (all threads of this process) of ``repeat`` runs: "one core" figures that other
    load on a shared machine disturbs less than wall-clock time, and a peer that runs several
    threads is charged for all of them."""
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


class Paired:
    """Interleaved timings of pokerroom and one peer: ``repeat`` pairs of runs (pokerroom, then the
    peer), so that load from other work on a shared machine falls on both alike."""

    repeat = 5

    def __init__(self, ours: Callable[[], Any], peer: Callable[[], Any], scale: int = 1) -> None:
        self.ours: list[float] = []
        self.peer: list[float] = []
        for _ in range(self.repeat * scale):
            for fn, times in ((ours, self.ours), (peer, self.peer)):
                t = time.process_time()
                fn()
                times.append(time.process_time() - t)

    def median_speedup(self) -> float:
        """Median over the pairs of peer time / our time (>1: pokerroom is faster)."""
        ratios = sorted(p / o for o, p in zip(self.ours, self.peer, strict=True))
        return ratios[len(ratios) // 2]


def deal(n: int, k: int, seed: int = 1, deck: int = 52) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (np.argsort(rng.random((n, deck)), axis=1)[:, :k] + (52 - deck)).astype(np.uint8)


class Report:
    def __init__(self) -> None:
        self.rows: list[str] = []

    def line(
        self,
        work: str,
        unit: str,
        ours: float,
        peers: dict[str, Any],
        higher_better: bool,
        units: int = 1,
    ) -> None:
        """One line: ours, each peer, and the ratio ours/peer (speed-up, >1 means we are faster).
        A ``Paired`` peer replaces ``ours`` by its own interleaved pokerroom runs (``units`` items per
        run for a rate)."""
        fmt = (lambda v: f"{v / 1e6:.2f} M/s") if unit == "rate" else (lambda v: f"{v * 1e3:.1f} ms")
        parts = [f"ours {fmt(ours)}"]
        for peer, value in peers.items():
            if isinstance(value, str):
                parts.append(f"{peer}: {value}")
            elif isinstance(value, Paired):
                best_o, best_p = min(value.ours), min(value.peer)
                ours = units / best_o if higher_better else best_o
                theirs = units / best_p if higher_better else best_p
                parts[0] = f"ours {fmt(ours)}"
                parts.append(
                    f"{peer} {fmt(theirs)} (x{best_p / best_o:.2f}; median of {len(value.ours)} "
                    f"paired runs x{value.median_speedup():.2f})"
                )
            else:
                ratio = ours / value if higher_better else value / ours
                parts.append(f"{peer} {fmt(value)} (x{ratio:.2f})")
        text = f"{work:<44} " + " | ".join(parts)
        print(text, flush=True)
        self.rows.append(text)


def try_peer(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception as err:  # a peer that does not import or run here is reported, not fatal
        return f"unavailable ({type(err).__name__}: {str(err)[:60]})"


# ---------------------------------------------------------------- peers


def ompeval_batch(hands: np.ndarray, ours: Callable[[], Any]) -> Paired:
    from pokerfast import equity as pfe

    lib = pfe._load()  # the library's own loader: OMPEval's C ABI via ctypes
    # OMPEval card index: 4 * rank + suit with suits s, h, c, d
    to_omp = np.array([4 * (i >> 2) + {0: 2, 1: 3, 2: 1, 3: 0}[i & 3] for i in range(52)], dtype=np.uint8)
    buf = to_omp[hands].tobytes()
    n, k = hands.shape
    out = (ctypes.c_uint16 * n)()
    return Paired(ours, lambda: lib.pf_evaluate(buf, n, k, out))


def phevaluator_batch(hands: np.ndarray) -> float:
    from phevaluator import _pheval

    cols = [hands[:, j].tolist() for j in range(hands.shape[1])]
    f = {5: _pheval.evaluate_5cards, 7: _pheval.evaluate_7cards}[hands.shape[1]]
    return len(hands) / best_of(lambda: list(map(f, *cols)))


def phevaluator_omaha_batch(hands: np.ndarray) -> float:
    from phevaluator import _pheval

    # phevaluator wants the five board cards first, then the four hole cards
    cols = [hands[:, j].tolist() for j in (4, 5, 6, 7, 8, 0, 1, 2, 3)]
    return len(hands) / best_of(lambda: list(map(_pheval.evaluate_omaha_cards, *cols)))


def poker_equity_batch(kernel: str, hands: np.ndarray) -> float:
    import poker_equity

    texts = ["".join(name(int(c)) for c in row) for row in hands]
    return len(hands) / best_of(lambda: poker_equity.score_batch(kernel, texts))


def phevaluator_single(rows: list[list[int]]) -> float:
    from phevaluator import evaluate_cards

    return len(rows) / best_of(lambda: [evaluate_cards(*r) for r in rows])


def phevaluator_c_single(rows: list[list[int]], ours: Callable[..., int]) -> Paired:
    """phevaluator's fastest entry point: its C function, seven ints per call (``evaluate_cards`` is
    the Python wrapper over it), paired with our seven-int entry point."""
    from phevaluator import _pheval

    theirs = _pheval.evaluate_7cards
    return Paired(lambda: [ours(*r) for r in rows], lambda: [theirs(*r) for r in rows])


def treys_single(rows: list[list[int]]) -> float:
    from treys import Card as TCard
    from treys import Evaluator

    ev = Evaluator()
    conv = [([TCard.new(name(c)) for c in r[:2]], [TCard.new(name(c)) for c in r[2:]]) for r in rows]
    return len(rows) / best_of(lambda: [ev.evaluate(b, h) for h, b in conv])


def eval7_single(rows: list[list[int]]) -> float:
    import eval7

    conv = [[eval7.Card(name(c)) for c in r] for r in rows]
    return len(rows) / best_of(lambda: [eval7.evaluate(h) for h in conv])


def pokerfast_single(rows: list[list[int]]) -> float:
    from pokerfast import eval7 as pf_eval7

    conv = [tuple(name(c) for c in r) for r in rows]
    return len(rows) / best_of(lambda: [pf_eval7(h) for h in conv])


def pokerkit_batch(hand_type: str, hands: np.ndarray, n_hole: int = 0) -> float:
    import pokerkit

    cls = getattr(pokerkit, hand_type)
    rows = ["".join(name(int(c)) for c in row) for row in hands]
    if n_hole:
        split = [(r[: 2 * n_hole], r[2 * n_hole :]) for r in rows]
        return len(rows) / best_of(lambda: [cls.from_game_or_none(h, b) for h, b in split], repeat=1)
    return len(rows) / best_of(lambda: [cls.from_game_or_none(r) for r in rows], repeat=1)


# ---------------------------------------------------------------- work items


def single_lines(rep: Report, h7: np.ndarray) -> None:
    """One Python call per seven-card hand: ours against each peer's fastest single-hand entry point."""
    rows = h7.tolist()
    n_single = len(rows)
    f7 = rank7_function("high")  # the C entry point where it was built (RANK7_BUILD)
    ours = len(rows) / best_of(lambda: [f7(*r) for r in rows])
    rep.line(f"7-card high, one Python call per hand ({RANK7_BUILD})", "rate", ours, {
        "phevaluator C": try_peer(lambda: phevaluator_c_single(rows, f7)),
        "pokerfast.eval7": try_peer(lambda: pokerfast_single(rows[: n_single // 4])),
        "eval7": try_peer(lambda: eval7_single(rows)),
        "treys": try_peer(lambda: treys_single(rows[: n_single // 4])),
    }, True, len(rows))  # fmt: skip
    g7 = ranker("high", 7)
    ours = len(rows) / best_of(lambda: [g7(r) for r in rows])
    rep.line("  7-card high, ranker(rule, 7) (a list a call)", "rate", ours, {
        "phevaluator evaluate_cards": try_peer(lambda: phevaluator_single(rows)),
    }, True)  # fmt: skip
    for rule in ("ace5_low", "eight_low", "deuce7_low", "short_deck_6a"):
        f = rank7_function(rule)
        hands = deal(n_single, 7, deck=36).tolist() if rule == "short_deck_6a" else rows
        ours = len(hands) / best_of(lambda f=f, hands=hands: [f(*r) for r in hands])  # type: ignore[misc]
        rep.line(f"  7-card {rule}, one call per hand", "rate", ours, {}, True)
    omaha_single_lines(rep, n_single)


def phevaluator_omaha_single(rows: list[list[int]], ours: Callable[..., int]) -> Paired:
    """phevaluator's C function for four-card Omaha (the five board cards first, then the four hole
    cards), paired with our Omaha entry point (the hole cards first)."""
    from phevaluator import _pheval

    theirs = _pheval.evaluate_omaha_cards
    swapped = [r[4:] + r[:4] for r in rows]
    return Paired(lambda: [ours(*r) for r in rows], lambda: [theirs(*r) for r in swapped])


def omaha_single_lines(rep: Report, n_single: int) -> None:
    """One Python call per Omaha hand (hole cards and a five-card board): ours (``omaha_function``)
    against phevaluator's C function, and the Python function ``ranker`` used before it."""
    rows = deal(n_single // 3, 9, seed=2).tolist()
    f = omaha_function("omaha_high", 4)
    ours = len(rows) / best_of(lambda: [f(*r) for r in rows])
    rep.line(f"Omaha 4-card high, one call per hand ({RANK7_BUILD})", "rate", ours, {
        "phevaluator C": try_peer(lambda: phevaluator_omaha_single(rows, f)),
    }, True, len(rows))  # fmt: skip
    for rule, hole in (("omaha_high", 5), ("omaha_high", 6), ("omaha_eight_low", 4)):
        g = omaha_function(rule, hole)
        hands = deal(n_single // 3, hole + 5, seed=hole).tolist()
        ours = len(hands) / best_of(lambda g=g, hands=hands: [g(*r) for r in hands])  # type: ignore[misc]
        rep.line(f"  {rule}, {hole} hole cards, one call per hand", "rate", ours, {}, True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller inputs")
    parser.add_argument("--repeat", type=int, default=5, help="paired runs against OMPEval")
    parser.add_argument("--ompeval", action="store_true", help="only the lines against OMPEval")
    parser.add_argument("--single", action="store_true", help="only the one-call-per-hand lines")
    args = parser.parse_args()
    Paired.repeat = args.repeat
    n_batch = 400_000 if args.quick else 4_000_000
    if args.ompeval:
        ompeval_lines(n_batch)
        return
    n_single = 50_000 if args.quick else 300_000
    if args.single:
        single_lines(Report(), deal(n_single, 7))
        return
    n_slow = 2_000 if args.quick else 10_000
    rep = Report()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"pokerroom.eval benchmark: one core, numpy {np.__version__}, load average {load:.2f}")
    print("best of 3 runs in process CPU time; (xN) = how many times faster pokerroom is than that peer\n")

    # warm up every kernel (compilation is cached per machine, not timed)
    for rule, k in (("high", 7), ("high", 5), ("omaha_high", 9), ("deuce7_low", 5), ("ace5_low", 7),
                    ("eight_low", 7), ("omaha_eight_low", 9)):  # fmt: skip
        evaluate_batch(rule, deal(10, k))
    equity("holdem", ["AhKh", "QsQd"], board="2c3c4c")
    equity("omaha", ["AsAd2c3h", "KsKd9c9h"], board="2d4c5c")
    equity("stud", ["AsAd2c", "KsKd9c"], samples=10, seed=1)

    h7 = deal(n_batch, 7)
    ours = len(h7) / best_of(lambda: evaluate_batch("high", h7))
    ours_nc = len(h7) / best_of(lambda: evaluate_batch("high", h7, check=False))
    rep.line("7-card high, batch (validated)", "rate", ours, {
        "OMPEval/pokerfast": try_peer(lambda: ompeval_batch(h7, lambda: evaluate_batch("high", h7))),
        "phevaluator": try_peer(lambda: phevaluator_batch(h7[: n_batch // 4])),
        "poker-equity": try_peer(lambda: poker_equity_batch("high", h7[: n_batch // 4])),
    }, True, len(h7))  # fmt: skip
    rep.line("7-card high, batch (check=False)", "rate", ours_nc, {
        "OMPEval/pokerfast": try_peer(
            lambda: ompeval_batch(h7, lambda: evaluate_batch("high", h7, check=False))
        ),
    }, True, len(h7))  # fmt: skip

    single_lines(rep, h7[:n_single])

    om = deal(n_batch // 4, 9)
    ours = len(om) / best_of(lambda: evaluate_batch("omaha_high", om))
    rep.line("Omaha 4-card high, batch", "rate", ours, {
        "phevaluator": try_peer(lambda: phevaluator_omaha_batch(om)),
        "pokerkit": try_peer(lambda: pokerkit_batch("OmahaHoldemHand", om[:n_slow // 10], n_hole=4)),
    }, True)  # fmt: skip
    ours = len(om) / best_of(lambda: evaluate_batch("omaha_eight_low", om))
    rep.line("Omaha 8-or-better low, batch", "rate", ours, {
        "pokerkit": try_peer(
            lambda: pokerkit_batch("OmahaEightOrBetterLowHand", om[: n_slow // 10], n_hole=4)
        ),
    }, True)  # fmt: skip

    h5 = deal(n_batch, 5)
    ours = len(h5) / best_of(lambda: evaluate_batch("deuce7_low", h5))
    rep.line("2-7 low, 5 cards, batch", "rate", ours, {
        "poker-equity": try_peer(lambda: poker_equity_batch("deuce_seven", h5[: n_batch // 4])),
        "pokerkit": try_peer(lambda: pokerkit_batch("StandardLowHand", h5[:n_slow])),
    }, True)  # fmt: skip
    ours = len(h7) / best_of(lambda: evaluate_batch("ace5_low", h7))
    rep.line("A-5 low (razz), 7 cards, batch", "rate", ours, {
        "poker-equity": try_peer(lambda: poker_equity_batch("low_a5", h7[: n_batch // 4])),
        "pokerkit": try_peer(lambda: pokerkit_batch("RegularLowHand", h7[:n_slow])),
    }, True)  # fmt: skip
    ours = len(h7) / best_of(lambda: evaluate_batch("eight_low", h7))
    rep.line("8-or-better low, 7 cards, batch", "rate", ours, {
        "poker-equity": "no 8-or-better kernel in score_batch",
        "pokerkit": try_peer(lambda: pokerkit_batch("EightOrBetterLowHand", h7[:n_slow])),
    }, True)  # fmt: skip
    ours = len(h5) / best_of(lambda: evaluate_batch("high", h5))
    rep.line("5-card high, batch", "rate", ours, {
        "OMPEval/pokerfast": try_peer(lambda: ompeval_batch(h5, lambda: evaluate_batch("high", h5))),
        "phevaluator": try_peer(lambda: phevaluator_batch(h5[: n_batch // 4])),
    }, True, len(h5))  # fmt: skip

    print()
    _equity_lines(rep, args.quick)


def _poker_equity_exact(variant: str, hands: list[str], board: str = "") -> float:
    import poker_equity

    t = best_of(lambda: poker_equity.exact_from_text(variant, hands, board))
    if poker_equity.exact_from_text(variant, hands, board) is None:
        raise RuntimeError("declined: too many deals to enumerate")
    return t


def _poker_equity_mc(variant: str, hands: list[str], samples: int) -> float:
    import poker_equity

    masks = [[[1 << poker_equity.card_index(h[i : i + 2]) for i in range(0, len(h), 2)]] for h in hands]
    return best_of(lambda: poker_equity.chunk(variant, masks, [], 0, samples, 1, 1))


def _pokerkit_mc(
    hand_type: str, hands: list[str], board: str, hole: int, board_n: int, samples: int
) -> float:
    import pokerkit

    ranges = [[list(pokerkit.Card.parse(h))] for h in hands]
    deck = pokerkit.Deck.STANDARD
    kind = getattr(pokerkit, hand_type)
    return best_of(
        lambda: pokerkit.calculate_equities(
            ranges, list(pokerkit.Card.parse(board)), hole, board_n, deck, (kind,), sample_count=samples
        ),
        repeat=1,
    )


def ompeval_lines(n_batch: int) -> None:
    """The five lines against OMPEval alone, every one from paired runs (``--ompeval``)."""
    rep = Report()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"pokerroom.eval against OMPEval: paired runs in process CPU time, load average {load:.2f}\n")
    evaluate_batch("high", deal(10, 7))
    evaluate_batch("high", deal(10, 5))
    equity("holdem", ["AhKh", "QsQd"], board="2c3c4c")
    h7, h5 = deal(n_batch, 7), deal(n_batch, 5)
    for work, hands, check in (
        ("7-card high, batch (validated)", h7, True),
        ("7-card high, batch (check=False)", h7, False),
        ("5-card high, batch", h5, True),
    ):
        paired = try_peer(
            lambda h=hands, c=check: ompeval_batch(h, lambda: evaluate_batch("high", h, check=c))
        )  # type: ignore[misc]
        rep.line(work, "rate", 0.0, {"OMPEval/pokerfast": paired}, True, len(hands))
    for work, hands_ in (
        ("exact hold'em heads-up preflop (1,712,304 boards)", ["AhKh", "QsQd"]),
        ("exact hold'em 3-way preflop (1,370,754 boards)", ["AhKh", "QsQd", "7c8c"]),
    ):
        paired = try_peer(lambda h=hands_: _pokerfast_exact(h))  # type: ignore[misc]
        rep.line(work, "time", 0.0, {"OMPEval/pokerfast": paired}, False)


def _equity_lines(rep: Report, quick: bool) -> None:
    pk_samples = 2_000 if quick else 10_000
    mc = 200_000 if quick else 1_000_000

    t = best_of(lambda: equity("holdem", ["AhKh", "QsQd"]))
    rep.line("exact hold'em heads-up preflop (1,712,304 boards)", "time", t, {
        "OMPEval/pokerfast": try_peer(lambda: _pokerfast_exact(["AhKh", "QsQd"])),
        "poker-equity": try_peer(lambda: _poker_equity_exact("holdem", ["AhKh", "QsQd"])),
        "eval7": "py_hand_vs_range_exact returns 0.0 without a board here; not comparable",
    }, False)  # fmt: skip

    t = best_of(lambda: equity("holdem", ["AhKh", "QsQd", "7c8c"]))
    rep.line("exact hold'em 3-way preflop (1,370,754 boards)", "time", t, {
        "OMPEval/pokerfast": try_peer(lambda: _pokerfast_exact(["AhKh", "QsQd", "7c8c"])),
        "poker-equity": try_peer(lambda: _poker_equity_exact("holdem", ["AhKh", "QsQd", "7c8c"])),
    }, False)  # fmt: skip

    t = best_of(lambda: equity("omaha", ["AsAd2c3h", "KsKd9c9h"]))
    rep.line("exact Omaha heads-up preflop (1,086,008 boards)", "time", t, {
        "poker-equity": try_peer(lambda: _poker_equity_exact("omaha", ["AsAd2c3h", "KsKd9c9h"])),
        "pokerkit (MC, per 10k deals)": try_peer(lambda: _pokerkit_mc(
            "OmahaHoldemHand", ["AsAd2c3h", "KsKd9c9h"], "", 4, 5, pk_samples) * 10_000 / pk_samples),
    }, False)  # fmt: skip

    t = best_of(lambda: equity("omaha", ["AsKsQhJh", "AdKdQcJc"]))
    rep.line("exact Omaha heads-up preflop, double-suited", "time", t, {
        "poker-equity": try_peer(lambda: _poker_equity_exact("omaha", ["AsKsQhJh", "AdKdQcJc"])),
    }, False)  # fmt: skip

    t = best_of(lambda: equity("omaha8", ["AsAd2c3h", "KsKd9c9h"]))
    rep.line("exact Omaha hi/lo heads-up preflop", "time", t, {
        "poker-equity": try_peer(lambda: _poker_equity_exact("omaha_hi_lo", ["AsAd2c3h", "KsKd9c9h"])),
    }, False)  # fmt: skip

    t = best_of(lambda: equity("stud", ["AsAd2c4d5d", "KsKd9c9h2h"]))
    rep.line("exact stud heads-up, 5 cards known each", "time", t, {
        "poker-equity": try_peer(lambda: _poker_equity_exact("stud", ["AsAd2c4d5d", "KsKd9c9h2h"])),
    }, False)  # fmt: skip

    for game, peer_variant, hands, pk_type in (
        ("stud", "stud", ["AsAd2c", "KsKd9c"], "StandardHighHand"),
        ("razz", "razz", ["As2d3c", "KsKd9c"], "RegularLowHand"),
        ("stud8", "stud_hi_lo", ["As2d3c", "KsKd9c"], None),
    ):
        t = best_of(lambda g=game, h=hands: equity(g, h, samples=mc, seed=1, exact=False))  # type: ignore[misc]
        peers: dict[str, Any] = {
            "poker-equity (1 thread)": try_peer(lambda v=peer_variant, h=hands: _poker_equity_mc(v, h, mc)),  # type: ignore[misc]
        }
        if pk_type:
            peers[f"pokerkit (x{mc // pk_samples} extrapolated)"] = try_peer(
                lambda h=hands, p=pk_type: _pokerkit_mc(p, h, "", 7, 0, pk_samples) * mc / pk_samples  # type: ignore[misc]
            )
        rep.line(f"{game} heads-up 3 cards known, MC {mc:,} deals", "time", t, peers, False)


def _pokerfast_exact(hands: list[str]) -> Paired:
    from pokerfast import equity as pfe

    # a few milliseconds a run: four times as many pairs as the batch lines
    return Paired(lambda: equity("holdem", hands), lambda: pfe.equity(hands, exact=True, threads=1), 4)


if __name__ == "__main__":
    main()
