"""Collusion by shared cards found in the hands (issue 30, item 2; docs/integrity.md).

Two players who tell each other their hole cards play on knowledge no honest player has. The audit copy
of a hand has every hole card, so the room can test what no player can: whether A's decisions depend on
B's *private* cards. An honest A cannot know them, so once what A sees is held fixed (his own cards, the
street, what B has shown by his actions) his choices are independent of them; a colluder's are not.

- **An observation** of A about B is a decision of A (fold, check or call, bet or raise) in a hold'em
  hand both were dealt, while B is still in the hand and has shown nothing of his cards by betting: he
  has not acted yet in the hand (the blinds are forced, not chosen), or has only checked. A decision after
  B called or raised is not used: what B's action tells A, and the price it set, would tie A's choice to
  B's cards for an honest A as well.
- **B's cards are strong** when their share of the pot against one random hand, on the board of the
  moment, is at least ``STRONG`` (0.6: about the best fifth of the starting hands).
- **The stratum** of an observation is what A knows that drives his choice: the street, the bucket of his
  own cards' share against a random hand (tenths) and B's posture on this street (checked before A, or
  yet to act: a check on an earlier street does not count, since a player left to act behind A weighs on
  A's choice). A tight player folds more and a maniac raises more whatever B holds: within a stratum
  their choices do not move with B's cards.
- **Two tells**, each a Cochran-Mantel-Haenszel test of the association, within strata, between B's
  strong cards and A's choice (the z of the excess of A's choices with B strong over what the strata's
  margins predict):

  * **fold**: A's decisions facing a bet: did he fold? (a colluder leaves the pot to a strong partner);
  * **squeeze**: A's decisions not folded, with a raise open and a third player in the hand: did he bet
    or raise? (a colluder raises a third player out when his partner is strong).

  Each tell is scored per direction (A about B, B about A) and for the pair (both summed): six z-scores
  a pair, the pair's score their highest.
- **Flagged** when that z is at least the threshold: the normal quantile of ``ALPHA`` (0.01) shared over
  every test of the report (six a pair tested: a Bonferroni correction, so that an honest field of any
  size flags about one pair in a hundred reports), and at least ``MIN_Z``; and the tell was seen at least
  ``MIN_SUPPORT`` times (decisions of that choice with the partner strong), ``MIN_EXCESS`` more than
  expected.

Pure: parsed hands in, findings out; the shares are sampled with a generator seeded by the hand, the
player and the street (the same hands give the same score). Hold'em only (two hole cards, a full deck):
other games are not read."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from statistics import NormalDist

from pokerroom.eval.fast import rank7_function
from pokerroom.history import PhhHand
from pokerroom.server.integrity.softplay import decisions_of

__all__ = [
    "ALPHA",
    "MIN_SUPPORT",
    "MIN_Z",
    "STRONG",
    "CardShareFinding",
    "Observation",
    "Tell",
    "cardshare_findings",
    "observations_of",
    "share_vs_random",
    "threshold",
]

STRONG = 0.6  # B's share against a random hand from which his cards are "strong"
BUCKETS = 10  # A's own share against a random hand, in tenths: the strata
ALPHA = 0.01  # the chance that an honest field's report flags a pair, shared over all its tests
MIN_Z = 3.5  # ... and never a lower threshold than this
MIN_SUPPORT = 5  # decisions of the tell's choice with the partner strong
MIN_EXCESS = 3.0  # ... this many more than the strata predict
SAMPLES = 64  # deals a share is sampled on (after the flop; the starting hands are tabled once)
PREFLOP_SAMPLES = 1000
EVIDENCE = 30  # supporting hands kept a finding
GAMES = ("holdem",)  # the variants read (two hole cards from a full deck)
NOT_ACTED, CHECKED = 0, 1  # B's posture (a call or a raise: no observation)
TESTS_PER_PAIR = 6  # two tells, each A about B, B about A and the pair


# ------------------------------------------------------------------------------------------- strength


def _seed(key: str) -> int:
    return sum(ord(c) * (i + 1) for i, c in enumerate(key)) % (2**31)


def _sample(rng: random.Random, population: Sequence[int], k: int) -> list[int]:
    """``rng.sample(population, k)``, the same items from the same generator's bits, drawn as CPython's
    ``random.Random.sample`` draws them (a small sample: picks kept in a set; a large one: from a pool),
    without its checks and calls: the shares' sampling was most of this detector's time (issue 30, "A
    day of a 1,000-table room"). :data:`_EXACT` (checked at import) says the running Python draws so;
    if not, ``rng.sample`` is used."""
    n = len(population)
    bits_of = rng.getrandbits
    setsize = 21
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    out = []
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            m = n - i
            bits = m.bit_length()
            j = bits_of(bits)
            while j >= m:
                j = bits_of(bits)
            out.append(pool[j])
            pool[j] = pool[m - 1]
        return out
    bits = n.bit_length()
    picked: list[int] = []
    for _ in range(k):
        j = bits_of(bits)
        while j >= n or j in picked:
            j = bits_of(bits)
        picked.append(j)
        out.append(population[j])
    return out


_EXACT = all(
    _sample(random.Random(seed), range(n), k) == random.Random(seed).sample(range(n), k)
    for seed in range(4)
    for n, k in ((50, 2), (47, 4), (45, 5), (50, 7), (20, 3), (3, 3))
)


def _sampled(hole: Sequence[int], board: Sequence[int], samples: int, rng: random.Random) -> float:
    rank = rank7_function("high")
    deck = [c for c in range(52) if c not in hole and c not in board]
    need = 5 - len(board)
    a, b = hole
    total = 0.0
    n, k = len(deck), 2 + need
    if _EXACT and n > 21 and k <= 5:  # the common case, :func:`_sample`'s first way inlined (the same draws)
        bits, get = n.bit_length(), rng.getrandbits
        for _ in range(samples):
            picked: list[int] = []
            for _ in range(k):
                j = get(bits)
                while j >= n or j in picked:
                    j = get(bits)
                picked.append(j)
            full = [*board, *[deck[j] for j in picked[2:]]]
            mine = rank(a, b, *full)
            his = rank(deck[picked[0]], deck[picked[1]], *full)
            total += 1.0 if mine > his else 0.5 if mine == his else 0.0
        return total / samples
    for _ in range(samples):
        drawn = _sample(rng, deck, k) if _EXACT else rng.sample(deck, k)
        full = [*board, *drawn[2:]]
        mine = rank(a, b, *full)
        his = rank(drawn[0], drawn[1], *full)
        total += 1.0 if mine > his else 0.5 if mine == his else 0.0
    return total / samples


@cache
def _preflop(high: int, low: int, suited: bool) -> float:
    """A starting hand's share against one random hand (by ranks and suitedness: 169 of them), tabled."""
    a, b = high * 4, low * 4 + (0 if suited else 1)
    return _sampled((a, b), (), PREFLOP_SAMPLES, random.Random(high * 100 + low * 2 + suited))


def share_vs_random(hole: Sequence[int], board: Sequence[int], key: str) -> float:
    """The share of the pot of two hole cards (card indices) against one random hand, on ``board`` (0, 3,
    4 or 5 cards) run out at random; seeded by ``key`` (the same key, the same number)."""
    if not board:
        r1, r2 = hole[0] >> 2, hole[1] >> 2
        return _preflop(max(r1, r2), min(r1, r2), (hole[0] & 3) == (hole[1] & 3) and r1 != r2)
    return _sampled(hole, board, SAMPLES, random.Random(_seed(key)))


# ------------------------------------------------------------------------------------ the observations


@dataclass(frozen=True)
class Observation:
    """A decision of ``actor`` while ``partner`` was in the hand and had shown nothing by betting."""

    hand_id: str
    actor: str
    partner: str
    street: int
    own: float  # the actor's share against a random hand
    posture: int  # the partner's on this street: NOT_ACTED (yet to act, or only checked before) or CHECKED
    strong: bool  # the partner's cards (share against a random hand >= STRONG)
    partner_share: float
    verb: str  # "f" | "cc" | "cbr"
    facing: bool  # a bet to call: folding was a choice
    squeeze: bool  # not folded, a raise open, a third player in the hand

    @property
    def stratum(self) -> tuple[int, int, int]:
        return self.street, min(BUCKETS - 1, int(self.own * BUCKETS)), self.posture


def observations_of(hand_id: str, hand: PhhHand) -> Iterator[Observation]:
    """Each decision of a player about each other player still in and silent (see the module), in a
    hold'em hand whose hole cards are all known. The betting is walked by softplay's ``decisions_of``;
    the cards dealt before each decision are read alongside."""
    if hand.variant.code not in GAMES:
        return
    n = hand.player_count
    names = hand.players if len(hand.players) == n else tuple(f"p{i + 1}" for i in range(n))
    seat = {name: i for i, name in enumerate(names)}
    hole: list[list[int]] = [[] for _ in range(n)]
    board: list[int] = []
    posture = [NOT_ACTED] * n  # in the hand: a call or a raise ends the observations of a player
    now = [NOT_ACTED] * n  # on this street: the stratum's posture (checked before A, or yet to act)
    street = 0
    shares: dict[tuple[int, int], float] = {}
    actions = iter(hand.actions)

    def share(p: int) -> float:
        key = (p, street)
        if key not in shares:
            shares[key] = share_vs_random(hole[p], board, f"{hand_id}:{names[p]}:{street}")
        return shares[key]

    for d in decisions_of(hand_id, hand):
        for a in actions:  # the cards dealt up to this decision
            if a.index == d.index:
                break
            if a.verb == "dh" and a.actor is not None:
                hole[a.actor - 1] += [c.index for c in a.cards if c is not None]
            elif a.verb == "db":
                board += [c.index for c in a.cards if c is not None]
        if d.street != street:
            street, now = d.street, [NOT_ACTED] * n
        p = seat[d.actor]
        if len(hole[p]) == 2 and len(board) in (0, 3, 4, 5):
            for other in d.live:
                q = seat[other]
                if q == p or posture[q] > CHECKED or len(hole[q]) != 2:
                    continue
                theirs = share(q)
                yield Observation(
                    hand_id,
                    d.actor,
                    other,
                    street,
                    share(p),
                    now[q],
                    theirs >= STRONG,
                    theirs,
                    d.verb,
                    d.owed > 0,
                    d.verb != "f" and d.can_raise and len(d.live) >= 3,
                )
        if d.verb == "cc" and d.owed == 0:
            posture[p] = max(posture[p], CHECKED)
            now[p] = CHECKED
        elif d.verb != "f":  # a call or a raise: what it tells is public
            posture[p] = 2


# ------------------------------------------------------------------------------------------ the tests


@dataclass
class _Strata:
    """2x2 tables by stratum: [exposed and chose, exposed, chose, all]."""

    cells: dict[tuple[int, ...], list[int]] = field(default_factory=dict)

    def add(self, stratum: tuple[int, ...], strong: bool, chose: bool) -> None:
        c = self.cells.setdefault(stratum, [0, 0, 0, 0])
        c[0] += strong and chose
        c[1] += strong
        c[2] += chose
        c[3] += 1

    def merged(self, other: _Strata) -> _Strata:
        """Both tables together, each stratum kept apart (one player's style is not the other's)."""
        cells = {(0, *k): v for k, v in self.cells.items()} | {(1, *k): v for k, v in other.cells.items()}
        return _Strata(cells)

    def cmh(self) -> Tell:
        """The Cochran-Mantel-Haenszel statistic: observed, expected and z of "chose with the partner
        strong" summed over the strata (a stratum of one decision says nothing)."""
        seen = exp = var = 0.0
        n = 0
        for a, n1, m1, t in self.cells.values():
            n += t
            if t < 2:
                continue
            seen += a
            exp += n1 * m1 / t
            var += n1 * (t - n1) * m1 * (t - m1) / (t * t * (t - 1))
        z = (seen - exp) / math.sqrt(var) if var > 0 else 0.0
        return Tell(n, int(seen), exp, z)


@dataclass(frozen=True)
class Tell:
    decisions: int
    seen: int  # the tell's choice with the partner strong
    expected: float
    z: float

    def to_dict(self) -> dict[str, object]:
        return {"decisions": self.decisions, "seen": self.seen, "expected": round(self.expected, 2),
                "z": round(self.z, 2)}  # fmt: skip


@dataclass(frozen=True)
class CardShareFinding:
    a: str
    b: str
    decisions: int  # observations, both directions
    z: float  # the highest of the six
    tell: str  # which: "fold" or "squeeze", and whose ("a", "b" or "pair")
    threshold: float
    tells: dict[str, Tell]  # "fold a", "fold b", "fold pair", "squeeze a", ... ("a": a's decisions)
    flagged: bool
    hands: tuple[str, ...]  # of the decisions that show the tell (the evidence)

    def to_dict(self) -> dict[str, object]:
        return {
            "players": [self.a, self.b],
            "decisions": self.decisions,
            "z": round(self.z, 2),
            "tell": self.tell,
            "threshold_z": round(self.threshold, 2),
            "tells": {k: v.to_dict() for k, v in self.tells.items()},
            "flagged": self.flagged,
            "hands": list(self.hands),
        }


def threshold(tests: int, *, alpha: float = ALPHA, min_z: float = MIN_Z) -> float:
    """The z a test must reach when ``tests`` are made: ``alpha`` shared among them, at least ``min_z``."""
    return max(min_z, NormalDist().inv_cdf(1 - alpha / max(1, tests)))


def cardshare_findings(
    hands: Iterable[tuple[str, PhhHand]],
    *,
    alpha: float = ALPHA,
    min_z: float = MIN_Z,
    min_support: int = MIN_SUPPORT,
    min_decisions: int = 20,
) -> list[CardShareFinding]:
    """One finding per pair with at least ``min_decisions`` observations, the flagged first, then by z."""
    fold: dict[tuple[str, str], _Strata] = {}  # (actor, partner)
    squeeze: dict[tuple[str, str], _Strata] = {}
    count: dict[tuple[str, str], int] = {}
    evidence: dict[tuple[str, str, str], list[tuple[float, str]]] = {}  # (tell, actor, partner)
    for hand_id, hand in hands:
        for o in observations_of(hand_id, hand):
            key = (o.actor, o.partner)
            count[key] = count.get(key, 0) + 1
            if o.facing:
                fold.setdefault(key, _Strata()).add(o.stratum, o.strong, o.verb == "f")
                if o.strong and o.verb == "f":  # the strongest folds first
                    evidence.setdefault(("fold", *key), []).append((-o.own, hand_id))
            if o.squeeze:
                squeeze.setdefault(key, _Strata()).add(o.stratum, o.strong, o.verb == "cbr")
                if o.strong and o.verb == "cbr":  # the weakest raises first
                    evidence.setdefault(("squeeze", *key), []).append((o.own, hand_id))
    pairs = sorted({tuple(sorted(k)) for k in count})
    tested = [(a, b) for a, b in pairs if count.get((a, b), 0) + count.get((b, a), 0) >= min_decisions]
    bar = threshold(TESTS_PER_PAIR * len(tested), alpha=alpha, min_z=min_z)
    out = []
    for a, b in tested:
        tells: dict[str, Tell] = {}
        for name, table in (("fold", fold), ("squeeze", squeeze)):
            ab, ba = table.get((a, b), _Strata()), table.get((b, a), _Strata())
            tells[f"{name} a"] = ab.cmh()
            tells[f"{name} b"] = ba.cmh()
            tells[f"{name} pair"] = ab.merged(ba).cmh()
        # The pair's tell: the highest z among those seen often enough to flag (a higher z on a tell seen
        # too rarely must not hide one that flags), else the highest z, for the report.
        supported = [
            k
            for k in tells
            if tells[k].seen >= min_support and tells[k].seen - tells[k].expected >= MIN_EXCESS
        ]
        best = max(supported or tells, key=lambda k: (tells[k].z, k))
        t = tells[best]
        flagged = bool(supported) and t.z >= bar
        kind, whose = best.split()
        actors = {"a": [(a, b)], "b": [(b, a)], "pair": [(a, b), (b, a)]}[whose]
        found = sorted(x for actor, partner in actors for x in evidence.get((kind, actor, partner), []))
        hands_ = tuple(dict.fromkeys(h for _, h in found))[:EVIDENCE]
        n = count.get((a, b), 0) + count.get((b, a), 0)
        out.append(CardShareFinding(a, b, n, t.z, best, bar, tells, flagged, hands_))
    out.sort(key=lambda f: (not f.flagged, -f.z, f.a, f.b))
    return out
