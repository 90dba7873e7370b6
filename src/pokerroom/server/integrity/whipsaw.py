"""Collusive betting (whipsaw) found in the hands (issue 30, item 2; docs/integrity.md).

Two colluders raise a third player out between them: A bets or raises, B re-raises over him, and a third
player, still in the hand when B re-raised, folds on that street. An honest player squeezes too, so the
measure is B's own style: a **chance** of ``B`` over ``A`` is a decision of B facing a bet or raise
whose last maker is A, with at least one third player still in the hand (not folded) and a
raise open to B. It is a **re-raise** when B raised, a **whipsaw** when a third player then folded on
that street.

For an ordered pair (A's bet, B's re-raise) the expected re-raises are B's chances over A times B's
re-raise rate on his chances over everybody else (drawn toward the room's rate when they are few; at least
``BASE_FLOOR``), with the spread of dumping.py (the pair's binomial one plus the baseline's uncertainty).
How far a rate from few chances is drawn, and toward what, is read off the room (:func:`_room_prior`): the
mean of its players' own rates, weighted as much as the spread between players allows (empirical Bayes: a
beta prior by moments). Players differ a lot (a calling station never re-raises, a maniac re-raises a third
of the time), so a player seen on a dozen chances against others is barely known, and a pair of maniacs at
one table who mostly face each other's bets is no evidence of a pair (with a fixed weight of ten chances
toward the room's rate, mostly the calling stations' chances, such pairs were one honest player in ten of a
48-player field). A room with fewer than ``MIN_PLAYERS`` players seen on ``MIN_BASE`` chances each keeps
the fixed weight ``PRIOR_WEIGHT`` toward its chances' rate.
The re-raises are scored, not the whipsaws: whether the third player folds is his own decision, not the
pair's. Colluders take turns, so the **pair** (unordered) is scored: both directions summed, the exact
chance of at least their re-raises (each direction beta-binomial: :func:`_upper_tail`) given as a z. A
pair is **flagged** when they made at least ``MIN_WHIPSAWS`` whipsaws together and z reaches the normal
quantile of ``ALPHA`` shared over the pairs tested (those with ``MIN_WHIPSAWS`` whipsaws; at least
``MIN_Z``): a day of a big room tests hundreds of thousands of pairs. Flagged pairs are taken out of the
others' scores (see :func:`whipsaw_findings`).

Pure: parsed hands in, findings out (:func:`softplay.decisions_of` walks the hands)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from pokerroom.history import PhhHand
from pokerroom.server.integrity.cardshare import threshold
from pokerroom.server.integrity.softplay import decisions_of, z_of

__all__ = ["ALPHA", "MIN_WHIPSAWS", "MIN_Z", "WhipsawFinding", "whipsaw_findings"]

MIN_WHIPSAWS = 3
MIN_Z = 3.0  # the least threshold of a pair's z ...
ALPHA = 0.01  # ... which is the normal quantile of this chance shared over the pairs the report tests
BASE_FLOOR = 0.02
MAX_RATE = 0.98
PRIOR_WEIGHT = 10  # chances: the prior's weight when the room is too small to measure it
MIN_BASE = 20  # chances against others: a player whose own rate says something of the room's spread
MIN_PLAYERS = 8  # ... and how many such players it takes to measure the spread
MAX_WEIGHT = 1000  # chances: the prior's weight when the players hardly differ


@dataclass
class _Chances:
    chances: int = 0
    reraises: int = 0
    whipsaws: int = 0
    hands: list[str] = field(default_factory=list)  # of the whipsaws


@dataclass(frozen=True)
class _Direction:
    """B's chances over A's bets: ``k`` re-raises of ``n``, against a rate known as if from ``weight``
    chances (his own against others and the prior's)."""

    n: int
    k: int
    rate: float
    weight: float

    @property
    def expected(self) -> float:
        return self.rate * self.n

    @property
    def variance(self) -> float:  # the binomial spread and the rate's own uncertainty (beta-binomial)
        return self.rate * (1 - self.rate) * (self.n + self.n * self.n / self.weight)


@dataclass(frozen=True)
class WhipsawFinding:
    a: str
    b: str
    chances: int  # both directions
    whipsaws: int  # re-raises after which a third player folded
    expected: float  # re-raises
    z: float
    victims: tuple[str, ...]  # the players raised out, most often first
    flagged: bool
    hands: tuple[str, ...]  # the hands of the whipsaws (the evidence)
    reraises: int = 0  # both directions: the score's count
    threshold: float = MIN_Z  # the z it had to reach (the report's tests share ``ALPHA``)

    def to_dict(self) -> dict[str, object]:
        return {
            "players": [self.a, self.b],
            "chances": self.chances,
            "reraises": self.reraises,
            "whipsaws": self.whipsaws,
            "expected": round(self.expected, 2),
            "z": round(self.z, 2),
            "victims": list(self.victims),
            "flagged": self.flagged,
            "hands": list(self.hands),
            "threshold_z": round(self.threshold, 2),
        }


_Chance = tuple[str, str, bool, tuple[str, ...], tuple[str, ...]]


def _chances_of(hand_id: str, hand: PhhHand) -> list[_Chance]:
    """(bettor, re-raiser's candidate, he re-raised, players raised out, the third players in the hand) for
    each chance of the hand."""
    ds = list(decisions_of(hand_id, hand))
    out: list[_Chance] = []
    for i, d in enumerate(ds):
        if d.aggressor is None or d.aggressor == d.actor or not d.can_raise:
            continue
        thirds = [p for p in d.live if p not in (d.actor, d.aggressor)]
        if not thirds:
            continue
        out_: tuple[str, ...] = ()
        if d.verb == "cbr":
            later = [x for x in ds[i + 1 :] if x.street == d.street]
            out_ = tuple(dict.fromkeys(x.actor for x in later if x.verb == "f" and x.actor in thirds))
        out.append((d.aggressor, d.actor, d.verb == "cbr", out_, tuple(thirds)))
    return out


def whipsaw_findings(
    hands: Iterable[tuple[str, PhhHand]],
    *,
    min_whipsaws: int = MIN_WHIPSAWS,
    min_z: float = MIN_Z,
    alpha: float = ALPHA,
) -> list[WhipsawFinding]:
    """One finding per pair with at least one whipsaw, the flagged first, then by z.

    Pairs found colluding are taken out of the others' scores: the pairs are flagged one at a time, the
    highest score first, and then a chance with a partner of the bettor or of the re-raiser still in the
    hand is not scored for them (with his partner in the hand a colluder plays as the pair: a Whipsawer
    folds a pot his partner opened when another player re-raises it, a chip dumper raises into others for
    his partner to re-raise), nor is a pair's play together anybody's ordinary play (the baselines leave
    it out). A pair that is no longer flagged once a higher one is taken out is dropped from the partners
    (for good) and the scores taken again."""
    chances = [(hand_id, c) for hand_id, hand in hands for c in _chances_of(hand_id, hand)]
    partners: set[frozenset[str]] = set()
    dropped: set[frozenset[str]] = set()
    while True:
        found = _score(chances, partners, min_whipsaws, min_z, alpha)
        flagged = [frozenset((f.a, f.b)) for f in found if f.flagged]
        stale = partners - set(flagged)
        if stale:
            partners -= stale
            dropped |= stale
            continue
        new = next((k for k in flagged if k not in partners and k not in dropped), None)
        if new is None:
            return found
        partners.add(new)


def _score(
    chances: list[tuple[str, _Chance]],
    partners: set[frozenset[str]],
    min_whipsaws: int,
    min_z: float,
    alpha: float,
) -> list[WhipsawFinding]:
    pairs: dict[tuple[str, str], _Chances] = {}  # (bettor, re-raiser)
    raised_out: dict[frozenset[str], dict[str, int]] = {}
    for hand_id, (bettor, raiser, reraised, out_, thirds) in chances:
        pair = frozenset((bettor, raiser))
        if any(frozenset((bettor, t)) in partners or frozenset((raiser, t)) in partners for t in thirds):
            continue  # with his partner in the hand, a colluder plays as the pair, not on his own
        st = pairs.setdefault((bettor, raiser), _Chances())
        st.chances += 1
        st.reraises += reraised
        if out_:
            st.whipsaws += 1
            if hand_id not in st.hands:
                st.hands.append(hand_id)
            count = raised_out.setdefault(pair, {})
            for p in out_:
                count[p] = count.get(p, 0) + 1
    raiser_n: dict[str, int] = {}
    raiser_k: dict[str, int] = {}
    for (b, r), st in pairs.items():
        if frozenset((b, r)) in partners:  # a colluder's play with his partner is not his ordinary play
            continue
        raiser_n[r] = raiser_n.get(r, 0) + st.chances
        raiser_k[r] = raiser_k.get(r, 0) + st.reraises
    room_n, room_k = sum(raiser_n.values()), sum(raiser_k.values())
    room = _room_prior(raiser_n, raiser_k)

    def direction(bettor: str, raiser: str) -> _Direction:
        st = pairs.get((bettor, raiser))
        if st is None:
            return _Direction(0, 0, 0.0, 1.0)
        n, k = st.chances, st.reraises
        counted_n, counted_k = (0, 0) if frozenset((bettor, raiser)) in partners else (n, k)
        if room is not None:
            prior, weight = room
        else:
            prior = (room_k - counted_k) / (room_n - counted_n) if room_n > counted_n else MAX_RATE
            weight = PRIOR_WEIGHT
        own_n = raiser_n.get(raiser, 0) - counted_n
        own_k = raiser_k.get(raiser, 0) - counted_k
        rate = (own_k + weight * prior) / (own_n + weight)
        return _Direction(n, k, min(MAX_RATE, max(BASE_FLOOR, rate)), own_n + weight)

    rows = []
    for key, count in raised_out.items():
        a, b = sorted(key)
        ab, ba = pairs.get((a, b), _Chances()), pairs.get((b, a), _Chances())
        rows.append((a, b, count, ab, ba, direction(a, b), direction(b, a)))
    tested = sum(ab.whipsaws + ba.whipsaws >= min_whipsaws for _, _, _, ab, ba, _, _ in rows)
    bar = threshold(tested, alpha=alpha, min_z=min_z)
    out = []
    for a, b, count, ab, ba, d1, d2 in rows:
        n, k, e = d1.n + d2.n, d1.k + d2.k, d1.expected + d2.expected
        whips = ab.whipsaws + ba.whipsaws
        if k > e:  # the exact chance of the excess (a normal approximation overstates a few chances)
            z = z_of(_upper_tail(k, (d1, d2)))
        else:
            v = d1.variance + d2.variance
            z = (k - e) / math.sqrt(v) if v > 0 else 0.0
        who = tuple(sorted(count, key=lambda p: (-count[p], p)))
        flagged = whips >= min_whipsaws and z >= bar
        hands_ = tuple(dict.fromkeys([*ab.hands, *ba.hands]))
        out.append(WhipsawFinding(a, b, n, whips, e, z, who, flagged, hands_, k, bar))
    out.sort(key=lambda f: (not f.flagged, -f.z, f.a, f.b))
    return out


def _room_prior(raiser_n: dict[str, int], raiser_k: dict[str, int]) -> tuple[float, float] | None:
    """(mean, weight in chances) of the beta prior of a player's re-raise rate, by moments over the players
    seen on at least ``MIN_BASE`` chances: the mean of their rates, and the spread between them beyond the
    binomial noise of each rate. ``None`` when fewer than ``MIN_PLAYERS`` players are seen so well."""
    rates = [(raiser_k[p] / n, n) for p, n in raiser_n.items() if n >= MIN_BASE]
    if len(rates) < MIN_PLAYERS:
        return None
    mean = sum(r for r, _ in rates) / len(rates)
    mean = min(MAX_RATE, max(BASE_FLOOR, mean))
    spread = sum((r - mean) ** 2 for r, _ in rates) / (len(rates) - 1)
    noise = sum(mean * (1 - mean) / n for _, n in rates) / len(rates)
    between = spread - noise
    if between <= 0:
        return mean, MAX_WEIGHT
    return mean, min(MAX_WEIGHT, max(1.0, mean * (1 - mean) / between - 1))


def _log_pmf(n: int, a: float, b: float) -> list[float]:
    """The beta-binomial distribution of re-raises in ``n`` chances at a rate known as beta(a, b): the log
    chance of each count."""
    lg = math.lgamma
    base = lg(n + 1) + lg(a + b) - lg(a) - lg(b) - lg(n + a + b)
    return [base - lg(x + 1) - lg(n - x + 1) + lg(x + a) + lg(n - x + b) for x in range(n + 1)]


def _upper_tail(k: int, directions: Iterable[_Direction]) -> float:
    """The chance of at least ``k`` re-raises in both directions together, each direction's count
    beta-binomial (its rate uncertain as far as its weight says): exact, for every pair with more
    re-raises than expected (a normal approximation overstates the excess of a handful of chances)."""
    dist = np.ones(1)
    for d in directions:
        if d.n:
            pmf = np.exp(np.array(_log_pmf(d.n, d.rate * d.weight, (1 - d.rate) * d.weight)))
            dist = np.convolve(dist, pmf)
    return min(1.0, float(dist[k:].sum()))
