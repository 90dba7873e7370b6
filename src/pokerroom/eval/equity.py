"""Equity: each hand's chance to win, tie and its expected share of the pot.

Exact enumeration of every completion of the board and the hands when that is feasible, Monte Carlo
otherwise. Hi/lo games count the share of the pot won, quartering included. The games are data
(:data:`EQUITY_GAMES`); a bare rule name also works and uses that one ranking.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product
from math import comb, factorial, prod
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt

from pokerroom.cards import Card, DeckSpec, RandomSource
from pokerroom.eval import tables
from pokerroom.eval.errors import CardNotInDeck, DuplicateCard, TooManyDeals, UnknownGame, WrongCardCount
from pokerroom.eval.rules import to_cards
from pokerroom.eval.value import RULES

I32 = npt.NDArray[np.int32]

__all__ = ["EQUITY_GAMES", "EXACT_LIMIT", "EXACT_MAX", "EquityGame", "EquityResult", "HandEquity", "equity"]

#: Exact enumeration is chosen automatically up to this many deals ...
EXACT_LIMIT = 3_000_000
#: ... and refused (``TooManyDeals``) above this many even when asked for.
EXACT_MAX = 500_000_000
DEFAULT_SAMPLES = 200_000
_CHUNK = 1 << 18
_POT = 5040


@dataclass(frozen=True, slots=True)
class EquityGame:
    """How a game deals and ranks, for equity: each player ends with ``hand_size`` own cards, the
    board with ``board_size`` cards; ``high`` ranks the pot (or its high half), ``low`` the low half."""

    name: str
    high: str
    low: str | None
    deck: DeckSpec
    hand_size: int
    board_size: int


def _g(
    name: str,
    high: str,
    hand: int,
    board: int = 0,
    low: str | None = None,
    deck: DeckSpec = DeckSpec.STANDARD,
) -> EquityGame:
    return EquityGame(name, high, low, deck, hand, board)


#: The games equity knows. Stud hands are the known cards of each player, completed from the deck;
#: draw games compare made hands (no draws).
EQUITY_GAMES: Mapping[str, EquityGame] = MappingProxyType(
    {
        g.name: g
        for g in (
            _g("holdem", "high", 2, 5),
            _g("shortdeck", "short_deck_6a", 2, 5, deck=DeckSpec.SHORT_6A),
            _g("omaha", "omaha_high", 4, 5),
            _g("omaha5", "omaha_high", 5, 5),
            _g("omaha6", "omaha_high", 6, 5),
            _g("omaha8", "omaha_high", 4, 5, low="omaha_eight_low"),
            _g("omaha8_5", "omaha_high", 5, 5, low="omaha_eight_low"),
            _g("stud", "high", 7),
            _g("stud8", "high", 7, low="eight_low"),
            _g("razz", "ace5_low", 7),
            _g("stud5", "high", 5),
            _g("soko", "soko", 5),
            _g("draw", "high", 5),
            _g("deuce7", "deuce7_low", 5),
            _g("draw7a", "short_deck_7a", 5, deck=DeckSpec.SHORT_7A),
            _g("draw6a", "short_deck_6a", 5, deck=DeckSpec.SHORT_6A),
            _g("badugi", "badugi", 4),
        )
    }
)

# A bare rule name plays like this game, ranked by that rule alone.
_RULE_GAME = {
    "high": "holdem",
    "omaha_high": "omaha",
    "omaha_eight_low": "omaha",
    "ace5_low": "razz",
    "eight_low": "stud",
    "deuce7_low": "deuce7",
    "soko": "soko",
    "short_deck_7a": "draw7a",
    "short_deck_6a": "shortdeck",
    "badugi": "badugi",
}
assert set(_RULE_GAME) == set(RULES)


@dataclass(frozen=True, slots=True)
class HandEquity:
    """``win``: the hand takes the whole pot alone; ``tie``: it gets part of it; ``share``: its
    expected fraction of the pot (its equity). All are fractions of the deals."""

    win: float
    tie: float
    share: float


@dataclass(frozen=True, slots=True)
class EquityResult:
    game: str
    exact: bool
    deals: int
    hands: tuple[HandEquity, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "exact": self.exact,
            "deals": self.deals,
            "hands": [{"win": h.win, "tie": h.tie, "share": h.share} for h in self.hands],
        }


def resolve_game(name: str, hands: Sequence[Sequence[Card]] = ()) -> EquityGame:
    """A game of :data:`EQUITY_GAMES`, or the game a bare rule name stands for."""
    if name in EQUITY_GAMES:
        return EQUITY_GAMES[name]
    if name in _RULE_GAME:
        base = EQUITY_GAMES[_RULE_GAME[name]]
        size = base.hand_size
        if name.startswith("omaha") and hands and len({len(h) for h in hands}) == 1:
            size = min(max(len(hands[0]), 4), 6)
        return EquityGame(name, name, None, base.deck, size, base.board_size)
    raise UnknownGame(name)


@cache
def _rule_tables(rule: str, n_cards: int) -> tuple[int, bool, I32, I32, I32]:
    """Kind, flush flag and the lo / ms / fl tables with which ``run`` ranks ``n_cards`` cards."""
    from pokerroom.eval import equity_kernels as ek

    empty = np.zeros(1, dtype=np.int32)
    if rule.startswith("omaha"):
        raise AssertionError("Omaha games run in board_games: their hands are always complete")
    if rule == "badugi":
        return ek.KIND_BADUGI, False, empty, empty, empty
    if rule == "soko":
        lo5 = tables.multiset_index(5)[0]
        return ek.KIND_SOKO, True, lo5, tables.multiset_values("soko", 5), tables.flush_values("soko")
    lo = tables.multiset_index(n_cards)[0]
    flush = rule not in ("ace5_low", "eight_low")
    return ek.KIND_POOLED, flush, lo, tables.multiset_values(rule, n_cards), tables.flush_values(rule)


@cache
def _run_args(high: str, low: str | None, n_cards: int) -> tuple[Any, ...]:
    """``kinds, flushes, lo, lo_off, hi, ms, ms_off, fl, fl_off, ff4`` for ``run``."""
    halves = [_rule_tables(high, n_cards)] + ([_rule_tables(low, n_cards)] if low else [])
    kinds = np.array([h[0] for h in halves], dtype=np.int64)
    flushes = np.array([h[1] for h in halves], dtype=np.bool_)
    cat: list[npt.NDArray[Any]] = []
    for tabs in ([h[2] for h in halves], [h[3] for h in halves], [h[4] for h in halves]):
        sizes = [0] + [len(a) for a in tabs[:-1]]
        cat += [np.concatenate(tabs).astype(np.int32), np.cumsum(np.array(sizes, dtype=np.int64))]
    lo, lo_off, ms, ms_off, fl, fl_off = cat
    return (kinds, flushes, lo, lo_off, tables.multiset_index(5)[1], ms, ms_off, fl, fl_off,
            tables.four_flush_keys())  # fmt: skip


def _board_args(
    game: EquityGame,
    hands: Sequence[Sequence[Card]],
    keys: npt.NDArray[np.int64],
    bits: npt.NDArray[np.int64],
) -> tuple[Any, ...]:
    """Per-player precomputation and tables for ``board_games``."""
    p, n = len(hands), game.hand_size + game.board_size
    own_keys = np.array([sum(int(keys[c.index]) for c in h) for h in hands], dtype=np.int64)
    own_bits = np.array(
        [np.bitwise_or.reduce([int(bits[c.index]) for c in h]) for h in hands], dtype=np.int64
    )
    pair_rows = np.zeros((p, 15), dtype=np.int64)
    suited = np.zeros((p, 15), dtype=np.int64)
    n_pairs = np.zeros(p, dtype=np.int64)
    n_suited = np.zeros(p, dtype=np.int64)
    hi = tables.multiset_index(5)[1]
    empty = np.zeros(1, dtype=np.int32)
    omaha = game.high.startswith("omaha")
    if omaha:
        pidx = tables.pair_index()
        for i, h in enumerate(hands):
            for a, c in combinations(h, 2):
                pair_rows[i, n_pairs[i]] = pidx[13 * a.rank + c.rank]
                n_pairs[i] += 1
                if a.suit == c.suit:
                    suited[i, n_suited[i]] = int(bits[a.index]) | int(bits[c.index])
                    n_suited[i] += 1
        lo = tables.multiset_index(game.board_size)[0]
        om_hi, dec_hi = tables.omaha_classes("high", game.board_size)
        om_lo, dec_lo = tables.omaha_classes("eight_low", game.board_size) if game.low else (om_hi, dec_hi)
        return (own_keys, own_bits, pair_rows, n_pairs, suited, n_suited, keys, bits, True, lo, hi,
                empty, tables.flush_values("high"), om_hi, dec_hi, om_lo, dec_lo)  # fmt: skip
    lo = tables.multiset_index(n)[0]
    no_om = np.zeros(1, dtype=np.uint16)
    return (own_keys, own_bits, pair_rows, n_pairs, suited, n_suited, keys, bits, False, lo, hi,
            tables.multiset_values(game.high, n), tables.flush_values(game.high), no_om, empty, no_om,
            empty)  # fmt: skip


def _exact_by_ranks(
    game: EquityGame,
    hands: Sequence[Sequence[Card]],
    board: Sequence[Card],
    stub: npt.NDArray[np.int64],
    m: int,
    keys: npt.NDArray[np.int64],
    bits: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Exact outcome counts (outright wins, and n-way ties per player) over every way to complete
    the board, for a game ranked by any 5 of own + board cards (hold'em, short deck): flush-blind
    by rank multisets of the missing cards, then the boards on which a flush is made, grouped by its
    suit (:mod:`pokerroom.eval.board_exact`)."""
    from pokerroom.eval import board_exact as bx

    p, n = len(hands), game.hand_size + game.board_size
    lo, hi, ms, fl = tables.pooled_classes(game.high, n)
    wins = np.zeros(p, dtype=np.int64)
    ties = np.zeros((p, p + 1), dtype=np.int64)
    key_of, bit_of = _card_lists()
    own_keys = np.array([sum(key_of[c.index] for c in h) for h in hands], dtype=np.int64)
    own_bits = np.zeros(p, dtype=np.int64)
    for i, h in enumerate(hands):
        for c in h:
            own_bits[i] |= bit_of[c.index]
    k0 = sum(key_of[c.index] for c in board)
    b0 = 0
    for c in board:
        b0 |= bit_of[c.index]
    bx.pooled_exact(stub, m, k0, b0, own_keys, own_bits, keys, bits, _RANK_KEYS, lo, hi, ms, fl, wins, ties)
    return wins, ties


@cache
def _card_arrays() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The card keys and suit bits as int64 arrays (read-only: the kernels never write them)."""
    keys = tables.card_keys().astype(np.int64)
    bits = tables.card_bits().astype(np.int64)
    keys.flags.writeable = bits.flags.writeable = False
    return keys, bits


@cache
def _card_lists() -> tuple[list[int], list[int]]:
    return [int(x) for x in tables.card_keys()], [int(x) for x in tables.card_bits()]


# the rank counters of one card of each rank (see tables.card_keys)
_RANK_KEYS = np.array([5**r if r < 7 else 5 ** (r - 7) << 20 for r in range(13)], dtype=np.int64)


def _rank_multisets(
    stub: npt.NDArray[np.int64], m: int, known_key: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Rank keys (known cards plus every rank multiset of m cards from the stub) and the number of
    ways the stub deals each multiset."""
    avail = np.bincount(stub >> 2, minlength=13)
    vectors = tables.multiset_index(m)[2].astype(np.int64)
    weights = np.prod(_COMB[avail[None, :], vectors], axis=1)
    keep = weights > 0
    rank_keys = np.array([5**r if r < 7 else 5 ** (r - 7) << 20 for r in range(13)], dtype=np.int64)
    board_keys = (vectors[keep] @ rank_keys + (known_key & ((1 << 40) - 1))).astype(np.int64)
    return board_keys, weights[keep].astype(np.int64)


def _suits_of(stub: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The stub's cards by suit (4 x 13, padded) and how many of each suit."""
    suit_cards = np.zeros((4, 13), dtype=np.int64)
    suit_n = np.zeros(4, dtype=np.int64)
    for c in stub.tolist():
        suit_cards[c & 3, suit_n[c & 3]] = c
        suit_n[c & 3] += 1
    return suit_cards, suit_n


def _exact_omaha_by_ranks(
    game: EquityGame,
    hands: Sequence[Sequence[Card]],
    board: Sequence[Card],
    stub: npt.NDArray[np.int64],
    m: int,
    keys: npt.NDArray[np.int64],
    bits: npt.NDArray[np.int64],
    win: npt.NDArray[np.int64],
    tie: npt.NDArray[np.int64],
    share: npt.NDArray[np.int64],
) -> None:
    """``_exact_by_ranks`` for Omaha (high, or hi/lo): flush-blind values per board rank multiset,
    then the boards on which some hand can use a flush (two suited hole cards, three of that suit on
    the board) enumerated and corrected. Adds into win / tie / share."""
    from pokerroom.eval import equity_kernels as ek

    args = _board_args(game, hands, keys, bits)
    pair_rows, n_pairs, suited, n_suited = args[2:6]
    blo, hi, fl, om_hi, dec_hi, om_lo, dec_lo = args[9], args[10], args[12], *args[13:17]
    has_low = game.low is not None
    k0 = sum(int(keys[c.index]) for c in board)
    b0 = 0
    for c in board:
        b0 |= int(bits[c.index])
    board_keys, weights = _rank_multisets(stub, m, k0)
    ek.omaha_multisets(
        board_keys, weights, pair_rows, n_pairs, blo, hi, om_hi, dec_hi, om_lo, dec_lo, has_low,
        win, tie, share,
    )  # fmt: skip
    suit_cards, suit_n = _suits_of(stub)
    two_suited = [any(sum(1 for c in h if c.suit == s) >= 2 for h in hands) for s in range(4)]
    on_board = [sum(1 for c in board if c.suit == s) for s in range(4)]
    comps = [
        q
        for q in product(*(range(min(m, int(k)) + 1) for k in suit_n))
        if sum(q) == m and any(two_suited[s] and on_board[s] + q[s] >= 3 for s in range(4))
    ]
    if comps:
        ek.omaha_flush_corrections(
            np.array(comps, dtype=np.int64), suit_cards, suit_n, k0, b0, pair_rows, n_pairs, suited,
            n_suited, keys, bits, blo, hi, om_hi, dec_hi, om_lo, dec_lo, fl, has_low, win, tie, share,
        )  # fmt: skip


# C(a, c) for a, c in 0..4
_COMB = np.array([[comb(a, c) for c in range(5)] for a in range(5)], dtype=np.int64)


def _patterns(sizes: Sequence[int]) -> npt.NDArray[np.int64]:
    """Every distinct way to hand out sum(sizes) drawn cards: group g gets sizes[g] of them."""
    out: list[list[int]] = []

    def rec(prefix: list[int], left: list[int]) -> None:
        if not any(left):
            out.append(list(prefix))
            return
        for g, n in enumerate(left):
            if n:
                left[g] -= 1
                prefix.append(g)
                rec(prefix, left)
                prefix.pop()
                left[g] += 1

    rec([], list(sizes))
    return np.array(out, dtype=np.int64).reshape(len(out), sum(sizes))


def _unrank(rank: int, n: int, k: int) -> npt.NDArray[np.int64]:
    """The ``rank``-th k-subset of range(n) in lexicographic order."""
    out = []
    x = 0
    for i in range(k):
        while comb(n - x - 1, k - i - 1) <= rank:
            rank -= comb(n - x - 1, k - i - 1)
            x += 1
        out.append(x)
        x += 1
    return np.array(out, dtype=np.int64)


def equity(
    rule_or_variant: str,
    hands: Sequence[str | Iterable[Card | str]],
    board: str | Iterable[Card | str] = (),
    dead: str | Iterable[Card | str] = (),
    exact: bool | None = None,
    samples: int = DEFAULT_SAMPLES,
    *,
    seed: int | None = None,
    rng: RandomSource | None = None,
    progress: Callable[[int, int], None] | None = None,
    exact_limit: int = EXACT_LIMIT,
) -> EquityResult:
    """Win, tie and pot share of each hand.

    ``hands`` are the known cards of each player (all of them in flop games; 1 up to the game's
    number in stud and draw games, the rest completed from the deck). ``exact=None`` enumerates
    every deal when there are at most ``exact_limit`` of them (:data:`EXACT_LIMIT`) and samples
    ``samples`` random deals otherwise; ``True``/``False`` force the choice. Monte Carlo is seeded by
    ``seed``, else by ``rng.randrange``, else by :class:`secrets.SystemRandom`. ``progress(done,
    total)`` is called between chunks.
    """
    parsed = [to_cards(h) for h in hands]
    game = resolve_game(rule_or_variant, parsed)
    b, dd = to_cards(board), to_cards(dead)
    if not 2 <= len(parsed) <= 10:
        raise WrongCardCount(f"{len(parsed)} hands given, equity needs 2-10")
    for h in parsed:
        if not 1 <= len(h) <= game.hand_size:
            raise WrongCardCount(f"{len(h)} cards in a hand, game {game.name} needs 1-{game.hand_size}")
        if game.board_size and len(h) != game.hand_size:
            raise WrongCardCount(f"{len(h)} cards in a hand, game {game.name} needs {game.hand_size}")
    if b and not game.board_size:
        raise WrongCardCount(f"{len(b)} board cards given, game {game.name} has no board")
    if len(b) > game.board_size or len(b) in (1, 2):
        raise WrongCardCount(f"{len(b)} board cards given, game {game.name} takes 0 or 3-{game.board_size}")
    known = [c for h in parsed for c in h] + list(b) + list(dd)
    if len(set(known)) != len(known):
        raise DuplicateCard()
    deck_cards = game.deck.cards()
    if any(c not in game.deck for c in known):
        raise CardNotInDeck(game.name, game.deck.size)
    known_set = set(known)
    stub = np.array([c.index for c in deck_cards if c not in known_set], dtype=np.int64)
    missing_board = game.board_size - len(b)
    missing_own = np.array([game.hand_size - len(h) for h in parsed], dtype=np.int64)
    m = missing_board + int(missing_own.sum())
    if m > len(stub):
        raise WrongCardCount(f"{m} cards to deal but only {len(stub)} left in the deck")
    sizes = [missing_board, *missing_own.tolist()]
    deals = comb(len(stub), m) * factorial(m) // prod(factorial(s) for s in sizes)
    use_exact = deals <= exact_limit if exact is None else exact
    if use_exact and deals > EXACT_MAX:
        raise TooManyDeals(deals, EXACT_MAX)
    if not use_exact and samples < 1:
        raise ValueError("samples must be at least 1")

    from pokerroom.eval import equity_kernels as ek

    p, hs, bs = len(parsed), game.hand_size, game.board_size
    keys, bits = _card_arrays()
    win = np.zeros(p, dtype=np.int64)
    tie = np.zeros(p, dtype=np.int64)
    share = np.zeros(p, dtype=np.int64)
    if use_exact and bs and missing_board:  # enumerate by rank multisets, correct for flushes
        if game.high.startswith("omaha"):
            _exact_omaha_by_ranks(game, parsed, b, stub, missing_board, keys, bits, win, tie, share)
        else:
            wins, ties = _exact_by_ranks(game, parsed, b, stub, missing_board, keys, bits)
            win += wins
            tie += ties.sum(axis=1)
            share += wins * _POT + (ties[:, 2:] * (_POT // np.arange(2, p + 1))).sum(axis=1)
        n_boards = comb(len(stub), missing_board)
        if progress is not None:
            progress(n_boards, n_boards)
        return _result(game, True, n_boards, win, tie, share)
    hands_arr = np.zeros((p, hs + bs), dtype=np.int64)
    for i, h in enumerate(parsed):
        hands_arr[i, : len(h)] = [c.index for c in h]
    board_arr = np.zeros(bs, dtype=np.int64)
    board_arr[: len(b)] = [c.index for c in b]
    if use_exact:
        patterns = _patterns(sizes)
        n_combos = comb(len(stub), m)
        chunk = max(1, _CHUNK // len(patterns))
        chunks = [(s, min(chunk, n_combos - s)) for s in range(0, n_combos, chunk)]
        if bs:  # a complete board: one deal
            chunks = [(0, n_combos)]
        total = n_combos
    else:
        patterns = np.array([sorted(g for g, s in enumerate(sizes) for _ in range(s))], dtype=np.int64)
        patterns = patterns.reshape(1, m)
        if seed is None:
            seed = (rng or secrets.SystemRandom()).randrange(2**31)
        chunks = [(s, min(_CHUNK, samples - s)) for s in range(0, samples, _CHUNK)]
        total = samples
    if bs:
        board_args = _board_args(game, parsed, keys, bits)

        def run_chunk(start: npt.NDArray[np.int64], size: int, chunk_seed: np.uint64) -> int:
            kernel: Any = ek.board_games
            n: int = kernel(
                size, stub, chunk_seed, board_arr[: len(b)], missing_board, *board_args,
                game.low is not None, win, tie, share,
            )  # fmt: skip
            return n
    else:
        run_args = _run_args(game.high, game.low, hs + bs)

        def run_chunk(start: npt.NDArray[np.int64], size: int, chunk_seed: np.uint64) -> int:
            kernel: Any = ek.run
            n: int = kernel(
                use_exact, start, size, patterns, stub, size, chunk_seed,
                hands_arr, hs, missing_own, board_arr, missing_board, keys, bits,
                *run_args, game.low is not None, win, tie, share,
            )  # fmt: skip
            return n

    n_deals = 0
    done = 0
    for n, (first, size) in enumerate(chunks):
        start = _unrank(first, len(stub), m) if use_exact else np.zeros(m, dtype=np.int64)
        n_deals += run_chunk(start, size, ek.seed_state((seed or 0) * 1_000_003 + n))
        done += size
        if progress is not None:
            progress(done, total)
    return _result(game, use_exact, n_deals, win, tie, share)


def _result(
    game: EquityGame,
    exact: bool,
    deals: int,
    win: npt.NDArray[np.int64],
    tie: npt.NDArray[np.int64],
    share: npt.NDArray[np.int64],
) -> EquityResult:
    return EquityResult(
        game=game.name,
        exact=exact,
        deals=deals,
        hands=tuple(
            HandEquity(win=int(w) / deals, tie=int(t) / deals, share=int(s) / (_POT * deals))
            for w, t, s in zip(win, tie, share, strict=True)
        ),
    )
