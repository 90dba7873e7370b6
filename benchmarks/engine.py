"""Benchmark of the hand engine against PokerKit 0.7, side by side in one run (one core).

    python benchmarks/engine.py              # full run (two to four minutes)
    python benchmarks/engine.py --quick      # smaller batches
    POKERROOM_PURE=1 python benchmarks/engine.py --profile   # also profile our 6-max NL hold'em loop
                                             # (cProfile cannot see into the compiled modules)

Work: whole hands with random legal actions (fold 35 %, raise 20 % to a random legal amount, else
check or call; draws discard a random number of cards), from the shuffle to the payout, every dealer
step included. PokerKit plays the same policy with every dealer step automated. Both print how many
actions a hand took on average, to show the work is the same. Time is process CPU time (the machine is
shared: CPU time is steadier than wall time under load). Figures are the best of three batches;
(xN) is how many times faster pokerroom is. Target for 6-max no-limit hold'em: x30 or more.

The engine build is printed first: the install compiles the engine's hot modules with mypyc
(docs/engine-speed.md). When it did, the headline is also measured on the sources, in a child process
with POKERROOM_PURE=1, so one run shows both builds against the same PokerKit figure.

PHH replay: every file under tests/fixtures/phh is parsed and replayed to the end, by
``pokerroom.history`` (read_phh + replay) and by PokerKit (HandHistory.loads + iterating the states).
Each side first replays every file once; the timing runs on the files both replay, and the run prints how
many files each side replayed and names each file a side could not (PokerKit 0.7 cannot replay
wsop-2023-43-5/85.phh). The two sides' timings alternate (``--pairs``, default 3); the line gives the
best of each and the median of the paired ratios. ``--phh PATH ...`` prints only this comparison, on
the files given or every ``.phh`` file under a folder (the public PHH dataset's 10,088 hands, say):

    python benchmarks/engine.py --quick --phh tests/fixtures/phh/wsop-2023-43-5/*.phh
    python benchmarks/engine.py --phh path/to/phh-dataset/data --pairs 5
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from pokerroom.engine import (  # noqa: E402
    BUILD,
    BetDecision,
    Betting,
    BringIn,
    Call,
    Check,
    Discard,
    DiscardDecision,
    Draw,
    DrawDecision,
    Fold,
    HandState,
    ListDeck,
    Muck,
    RaiseTo,
    SeatSetup,
    Show,
    ShowDecision,
    Stakes,
    Structure,
    VariantSpec,
)
from pokerroom.engine.native import BUILD_WORDS  # noqa: E402
from pokerroom.variants import VARIANTS  # noqa: E402

try:
    import pokerkit as pk
except ImportError:  # the bench extra is not installed: our figures only
    pk = None

FL, PL, NL = Betting.FIXED_LIMIT, Betting.POT_LIMIT, Betting.NO_LIMIT
STACK = 400  # 200 big blinds
FOLD, RAISE = 0.35, 0.20


def best_of(run: Callable[[int], int], hands: int, repeat: int = 3) -> tuple[float, float]:
    """(hands per second, actions per hand), best of ``repeat`` batches."""
    best, actions = float("inf"), 0
    for _ in range(repeat):
        start = time.process_time()
        actions = run(hands)
        best = min(best, time.process_time() - start)
    return hands / best, actions / hands


# ------------------------------------------------------------------------------------------ ours


def our_stakes(v: VariantSpec, betting: Betting) -> Stakes:
    if v.is_stud:
        return Stakes.fixed_limit(2, 4, ante=1, bring_in=1, blinds=False)
    if betting is FL:
        return Stakes.fixed_limit(2, 4)
    return Stakes.blinds(1, 2)


def players_for(v: VariantSpec) -> int:
    return min(6, v.max_players)


def our_hands(code: str, betting: Betting, seed: int = 1) -> Callable[[int], int]:
    v = VARIANTS[code]
    n = players_for(v)
    structure = Structure(betting, our_stakes(v, betting))
    seats = [SeatSetup(s, STACK) for s in range(1, n + 1)]
    spec = v.deck_for(n)

    def run(hands: int) -> int:
        rng = random.Random(seed)
        r, choice, randint = rng.random, rng.choice, rng.randint
        actions = 0
        for i in range(hands):
            deck = ListDeck.shuffled(spec, rng, reshuffle=v.is_draw)
            hand = HandState.start(variant=v, structure=structure, seats=seats, deck=deck, button=i % n + 1)
            while not hand.is_over:
                p = hand.pending
                actions += 1
                if isinstance(p, BetDecision):
                    x = r()
                    if p.bring_in:
                        hand.apply(
                            RaiseTo(p.seat, p.min_to) if p.raise_kind and x < RAISE else BringIn(p.seat)
                        )
                    elif p.raise_kind and x < RAISE:
                        amount = choice(p.choices) if p.choices else randint(p.min_to, p.max_to)
                        hand.apply(RaiseTo(p.seat, amount))
                    elif p.call and x < RAISE + FOLD:
                        hand.apply(Fold(p.seat))
                    else:
                        hand.apply(Call(p.seat) if p.call else Check(p.seat))
                elif isinstance(p, DrawDecision):
                    hole = hand.hole_cards(p.seat)
                    hand.apply(
                        Draw(p.seat, tuple(rng.sample(hole, randint(0, min(p.max_discard, len(hole))))))
                    )
                elif isinstance(p, DiscardDecision):
                    seat = p.seats[0]
                    hand.apply(Discard(seat, tuple(rng.sample(hand.hole_cards(seat), p.count))))
                elif isinstance(p, ShowDecision):
                    hand.apply(Muck(p.seat) if r() < 0.5 else Show(p.seat))
        return actions

    return run


# -------------------------------------------------------------------------------------- PokerKit


def pokerkit_games() -> dict[tuple[str, Betting], Callable[[], Any]]:
    """PokerKit's own game definitions, with the stakes of :func:`our_stakes`."""
    if pk is None:
        return {}
    a = pk.Automation
    auto = (
        a.ANTE_POSTING,
        a.BET_COLLECTION,
        a.BLIND_OR_STRADDLE_POSTING,
        a.CARD_BURNING,
        a.HOLE_DEALING,
        a.BOARD_DEALING,
        a.RUNOUT_COUNT_SELECTION,
        a.HOLE_CARDS_SHOWING_OR_MUCKING,
        a.HAND_KILLING,
        a.CHIPS_PUSHING,
        a.CHIPS_PULLING,
    )
    cash = {"mode": pk.Mode.CASH_GAME}
    return {
        ("holdem", NL): lambda: pk.NoLimitTexasHoldem(auto, True, 0, (1, 2), 2, **cash),
        ("holdem", FL): lambda: pk.FixedLimitTexasHoldem(auto, True, 0, (1, 2), 2, 4, **cash),
        ("omaha", PL): lambda: pk.PotLimitOmahaHoldem(auto, True, 0, (1, 2), 2, **cash),
        ("shortdeck", NL): lambda: pk.NoLimitShortDeckHoldem(auto, True, 0, (1, 2), 2, **cash),
        ("stud", FL): lambda: pk.FixedLimitSevenCardStud(auto, True, 1, 1, 2, 4, **cash),
        ("stud8", FL): lambda: pk.FixedLimitSevenCardStudHighLowSplitEightOrBetter(
            auto, True, 1, 1, 2, 4, **cash
        ),
        ("razz", FL): lambda: pk.FixedLimitRazz(auto, True, 1, 1, 2, 4, **cash),
        ("deuce7_triple", FL): lambda: pk.FixedLimitDeuceToSevenLowballTripleDraw(
            auto, True, 0, (1, 2), 2, 4, **cash
        ),
        ("deuce7_single", NL): lambda: pk.NoLimitDeuceToSevenLowballSingleDraw(
            auto, True, 0, (1, 2), 2, **cash
        ),
        ("badugi", FL): lambda: pk.FixedLimitBadugi(auto, True, 0, (1, 2), 2, 4, **cash),
    }


def pokerkit_hands(make: Callable[[], Any], players: int, seed: int = 1) -> Callable[[int], int]:
    game = make()

    def run(hands: int) -> int:
        rng = random.Random(seed)
        r, randint = rng.random, rng.randint
        actions = 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for _ in range(hands):
                s = game((STACK,) * players, players)
                while s.status:
                    actions += 1
                    if s.stand_patter_or_discarder_index is not None:
                        hole = s.hole_cards[s.stand_patter_or_discarder_index]
                        s.stand_pat_or_discard(rng.sample(hole, randint(0, len(hole))))
                        continue
                    x = r()
                    low = s.min_completion_betting_or_raising_to_amount
                    if s.can_post_bring_in():
                        if low is not None and x < RAISE:
                            s.complete_bet_or_raise_to(low)
                        else:
                            s.post_bring_in()
                    elif low is not None and x < RAISE:
                        s.complete_bet_or_raise_to(
                            randint(low, s.max_completion_betting_or_raising_to_amount)
                        )
                    elif s.checking_or_calling_amount and x < RAISE + FOLD:
                        s.fold()
                    else:
                        s.check_or_call()
        return actions

    return run


# ---------------------------------------------------------------------------------------- replay


PHH_DIR = ROOT / "tests" / "fixtures" / "phh"


def phh_files(folder: Path = PHH_DIR) -> dict[str, str]:
    """Every PHH file under ``folder``: its path relative to ``folder`` -> its text."""
    return {str(p.relative_to(folder)): p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.phh"))}


def _replays(replay_one: Callable[[str], object], text: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            replay_one(text)
    except Exception:  # any failure to read or replay a file: it is left out of the comparison
        return False
    return True


def _ours_once(text: str) -> None:
    from pokerroom.history import read_phh, replay

    replay(read_phh(text))


def _theirs_once(text: str) -> None:
    for _state in pk.HandHistory.loads(text):
        pass


def phh_lines(files: dict[str, str], rounds: int, pairs: int = 3) -> list[str]:
    """The PHH replay comparison: each side first replays every file once; the timing then runs on the
    files both could replay, and the lines say how many each could and name the files each could not.
    ``pairs`` timings of each side alternate (``rounds`` passes over the files for pokerroom, a quarter
    of that for PokerKit); the line gives the best of each and the median of the pairs' ratios."""
    ours_failed = [name for name, text in files.items() if not _replays(_ours_once, text)]
    lines = [f"PHH files: {len(files)}; pokerroom replays {len(files) - len(ours_failed)}"]
    theirs_failed: list[str] = []
    if pk is not None:
        theirs_failed = [name for name, text in files.items() if not _replays(_theirs_once, text)]
        lines[0] += f", PokerKit replays {len(files) - len(theirs_failed)}"
    lines += [f"  pokerroom could not replay {name}" for name in ours_failed]
    lines += [f"  PokerKit could not replay {name}" for name in theirs_failed]
    both = [text for name, text in files.items() if name not in ours_failed and name not in theirs_failed]
    if not both:
        return [*lines, "PHH replay: no file that both replay; not measured"]
    label = f"PHH replay ({len(both)} files, parse + replay)"
    ours_run, theirs_run = our_replay(both), pokerkit_replay(both) if pk is not None else None
    their_rounds = max(1, rounds // 4)
    ours_t: list[float] = []
    theirs_t: list[float] = []
    for _ in range(pairs):  # interleaved: load from other work falls on both sides alike
        ours_t.append(_cpu(ours_run, rounds) / (rounds * len(both)))
        if theirs_run is not None:
            theirs_t.append(_cpu(theirs_run, their_rounds) / (their_rounds * len(both)))
    line = f"{label:<44} ours {1 / min(ours_t):8.0f} files/s"
    if theirs_t:
        ratios = sorted(t / o for o, t in zip(ours_t, theirs_t, strict=True))
        line += f" | PokerKit {1 / min(theirs_t):6.0f} files/s | {ratio(min(theirs_t), min(ours_t))}"
        line += f" (median of {pairs} paired runs x{ratios[len(ratios) // 2]:.1f})"
    return [*lines, line]


def _cpu(run: Callable[[int], int], rounds: int) -> float:
    start = time.process_time()
    run(rounds)
    return time.process_time() - start


def our_replay(texts: list[str]) -> Callable[[int], int]:
    from pokerroom.history import read_phh, replay

    def run(rounds: int) -> int:
        for _ in range(rounds):
            for text in texts:
                replay(read_phh(text))
        return 0

    return run


def pokerkit_replay(texts: list[str]) -> Callable[[int], int]:
    def run(rounds: int) -> int:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for _ in range(rounds):
                for text in texts:
                    for _state in pk.HandHistory.loads(text):
                        pass
        return 0

    return run


# --------------------------------------------------------------------------------------- profile


def profile(hands: int) -> None:
    """Where our 6-max no-limit hold'em time goes: cProfile's top functions and shares by area, then
    direct timings of the main costs (without the profiler's per-call overhead) per hand."""
    from pokerroom.cards import DeckSpec
    from pokerroom.eval import evaluate

    if BUILD == "mypyc":
        print("\nProfile: cProfile cannot see into the compiled engine modules; profile their sources with")
        print("POKERROOM_PURE=1 python benchmarks/engine.py --profile, or the compiled build with perf.")
        return
    run = our_hands("holdem", NL, seed=7)
    run(100)  # warm-up: the evaluation tables are built on first use
    rate, _ = best_of(run, hands)
    profiler = cProfile.Profile()
    profiler.enable()
    run(hands)
    profiler.disable()
    raw: dict[Any, Any] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = max(v[3] for (_, _, n), v in raw.items() if n == "run")

    def short(path: str) -> str:
        return path.split("/src/")[-1] if "/src/" in path else Path(path).name

    print(f"\nProfile: {hands} hands of 6-max NL hold'em under cProfile, {total:.2f} s")
    print(f"(without the profiler: {rate:.0f} hands/s)")
    print("top 12 functions by own time (share of the run):")
    rows = sorted(raw.items(), key=lambda kv: kv[1][2], reverse=True)[:12]
    for (path, line, name), (_, calls, own, cum, _) in rows:
        where = f"{short(path)}:{line} {name}"
        print(f"  {own / total:6.1%} own {cum / total:6.1%} cum {calls / hands:7.1f} calls/hand  {where}")

    def cum(file: str, name: str) -> tuple[float, int]:
        hits = [v for (p, _, n), v in raw.items() if p.endswith(file) and n == name]
        return sum(v[3] for v in hits), sum(v[1] for v in hits)

    print("share of the run by area (cumulative time of the entry point):")
    areas = [
        ("eval/api.py", "evaluate", "hand evaluation (pokerroom.eval.evaluate)"),
        ("engine/deck.py", "shuffled", "ListDeck.shuffled: two shuffles + sorted() checks"),
        ("engine/deck.py", "to_data", "ListDeck.to_data at every start (snapshot data)"),
        ("engine/state.py", "_decision", "legal options (_decision/bet_options)"),
        ("engine/state.py", "_current_pots", "side pots at every round end"),
        ("engine/state.py", "start", "HandState.start"),
        ("engine/state.py", "apply", "HandState.apply"),
    ]
    for file, name, label in areas:
        t, calls = cum(file, name)
        print(f"  {t / total:6.1%}  {calls / hands:5.1f} calls/hand  {label}")

    # Direct timings (no profiler), scaled by the calls per hand counted above.
    per_hand = 1e6 / rate
    rng = random.Random(3)
    deck = ListDeck.shuffled(DeckSpec.STANDARD, rng)
    cards = deck.order()
    hand = HandState.start(
        variant=VARIANTS["holdem"],
        structure=Structure(NL, our_stakes(VARIANTS["holdem"], NL)),
        seats=[SeatSetup(s, STACK) for s in range(1, 7)],
        deck=ListDeck.shuffled(DeckSpec.STANDARD, rng),
    )
    seat = hand.to_act or 1
    timings = [
        (
            "ListDeck.shuffled",
            "shuffled",
            "engine/deck.py",
            lambda: ListDeck.shuffled(DeckSpec.STANDARD, rng),
        ),
        (
            "  of it: ListDeck(...) checks",
            "shuffled",
            "engine/deck.py",
            lambda: ListDeck(cards, DeckSpec.STANDARD, cards),
        ),
        ("ListDeck.to_data", "to_data", "engine/deck.py", deck.to_data),
        (
            "evaluate('high', 2 + 5 cards)",
            "evaluate",
            "eval/api.py",
            lambda: evaluate("high", cards[:2], cards[2:7]),
        ),
        ("HandState._decision", "_decision", "engine/state.py", lambda: hand._decision(seat)),
    ]
    print(f"direct timings, per hand of {per_hand:.0f} us:")
    for label, name, file, fn in timings:
        n = 2000
        start = time.process_time()
        for _ in range(n):
            fn()
        each = (time.process_time() - start) / n * 1e6
        calls = cum(file, name)[1] / hands
        cost = each * calls
        print(f"  {each:7.1f} us x {calls:4.1f}/hand = {cost:6.1f} us ({cost / per_hand:5.1%})  {label}")


# ------------------------------------------------------------------------------------------ main


def other_build_rate(quick: bool, env: dict[str, str]) -> float:
    """Our headline rate in a child process with ``env`` added (another build of the engine)."""
    argv = [sys.executable, __file__, "--headline", *(["--quick"] if quick else [])]
    out = subprocess.run(argv, env={**os.environ, **env}, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def ratio(ours: float, theirs: float | None) -> str:
    return f"x{ours / theirs:.1f}" if theirs else "-"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller batches")
    parser.add_argument("--profile", action="store_true", help="profile our 6-max NL hold'em loop")
    parser.add_argument("--headline", action="store_true", help="print only our 6-max NL hold'em rate")
    parser.add_argument(
        "--phh",
        nargs="+",
        type=Path,
        metavar="PATH",
        help="only the PHH line: these files, or every file in a folder",
    )
    parser.add_argument("--pairs", type=int, default=3, help="interleaved PHH timings of each side")
    args = parser.parse_args()
    scale = 0.25 if args.quick else 1.0
    if args.phh:  # the PHH comparison alone, on the files given (a folder: every .phh file under it)
        paths = [q for p in args.phh for q in (sorted(p.rglob("*.phh")) if p.is_dir() else [p])]
        files = {str(p): p.read_text(encoding="utf-8") for p in paths}
        rounds = max(1, int(20 * scale)) if len(files) < 1000 else 1  # a dataset: one pass a run
        for line in phh_lines(files, rounds, pairs=args.pairs):
            print(line)
        return
    if args.headline:  # used by the run below to measure the other build of the engine
        print(f"{best_of(our_hands('holdem', NL), int(3000 * scale))[0]:.0f}")
        return
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    version = getattr(pk, "__version__", None) or ("not installed" if pk is None else _pk_version())
    print(f"pokerroom.engine benchmark: one core, PokerKit {version}, load average {load:.2f}")
    print(f"engine build: {BUILD_WORDS[BUILD]}")
    print(
        "hands per CPU second, best of 3 batches; actions per hand in brackets; (xN) = pokerroom / PokerKit\n"
    )

    games = pokerkit_games()
    ours_rate, ours_actions = best_of(our_hands("holdem", NL), int(3000 * scale))
    theirs_rate = theirs_actions = None
    if games:
        theirs_rate, theirs_actions = best_of(pokerkit_hands(games[("holdem", NL)], 6), int(400 * scale))
    label = "6-max NL hold'em, random legal actions"
    line = f"{label:<44} ours {ours_rate:8.0f} [{ours_actions:4.1f}]"
    if theirs_rate:
        line += f" | PokerKit {theirs_rate:6.0f} [{theirs_actions:4.1f}] | {ratio(ours_rate, theirs_rate)}"
        line += "  (target x30)"
    print(line, flush=True)
    if BUILD == "mypyc":  # the same loop on the engine's sources, for comparison
        pure = other_build_rate(args.quick, {"POKERROOM_PURE": "1"})
        line = f"{'  the same, engine run from source':<44} ours {pure:8.0f}"
        if theirs_rate:
            line += f"{'':8} | PokerKit {theirs_rate:6.0f}        | {ratio(pure, theirs_rate)}"
        print(line, flush=True)

    print("\nevery game (6 players, 5 in 5-Card Draw 7-A), each structure it allows:")
    for code, v in VARIANTS.items():
        for betting in v.structures:
            if (code, betting) == ("holdem", NL):
                continue
            rate, acts = best_of(our_hands(code, betting), int(1200 * scale))
            text = f"  {v.name + ' ' + betting.value:<42} ours {rate:8.0f} [{acts:4.1f}]"
            make = games.get((code, betting))
            if make is not None:
                theirs, their_acts = best_of(pokerkit_hands(make, players_for(v)), int(150 * scale))
                text += f" | PokerKit {theirs:6.0f} [{their_acts:4.1f}] | {ratio(rate, theirs)}"
            print(text, flush=True)

    print()
    for line in phh_lines(phh_files(), max(1, int(20 * scale)), pairs=args.pairs):
        print(line)

    if args.profile:
        profile(int(2000 * scale))


def _pk_version() -> str:
    from importlib.metadata import version

    return version("pokerkit")


if __name__ == "__main__":
    main()
