"""Soft play found in the hands (issue 30, item 2; docs/integrity.md).

Two soft-playing friends do not bet or raise against each other: left alone in a pot, they check it down,
and with others in the pot they do not raise each other's bets, while they bet and raise against
everybody else. A passive player checks against everybody, so the measure is each player's own style: an
**aggression spot** of ``player`` against ``other`` is a decision of ``player`` (a fold, check/call or
bet/raise) with a bet or raise open to him (he had chips beyond the call, and someone was not all in) of
one of two kinds: **heads-up**, ``other`` the only opponent left in the hand (aggressive when he bet or
raised), or **multiway**, facing a bet or raise whose last maker is ``other`` with a third player still in
the hand (aggressive when he raised).

A player's aggression depends on the spot as much as on the opponent, so each spot is of a **kind**: heads-up
or multiway; the betting round (the first, second, third, or any later); what the round holds before
him (he is the first to decide, others checked or called the blinds, one bet or raise, two or more); and
whether he owes a call. For an ordered pair (player -> other), in each kind of spot the player's
aggressive decisions in all his spots of that kind are shared out at random over those spots: the
number against the other is hypergeometric, its mean **what his style predicts** (his spots against
the other times his rate over all his spots of that kind). A kind with no spot against anybody else
predicts what he did (no measure of his style there). Left out of the multiway kinds: the one opponent
(not the other scored) whose bets he raised most beyond his rate, when that is beyond chance (z of
``MIN_Z``, two proportions): a colluder's re-raises over his partner's bets (a whipsaw or chip-dumping
pair) do not set his style against the others.

Soft play is mutual, so the **pair** (unordered) is scored: both directions' and kinds' aggressive
decisions summed, against the predictions summed; the z-score of the *shortfall* (the normal
approximation; for a pair that passes the rules below on it with at most ``EXACT_UP_TO`` bets and raises
against each other, the exact chance of so few, the hypergeometric counts summed, as a normal deviate).
A pair is **flagged** when

- they had at least ``MIN_SPOTS`` spots against each other (both directions together);
- the z-score of the shortfall is at least ``MIN_Z`` (3);
- they bet or raised at each other at most ``MAX_SHARE`` (half) of what their styles predict (how a hand
  went so far, the board and the cards shape aggression against one opponent and another somewhat:
  with enough hands a small shortfall is beyond chance without being soft play);
- each of the two was less aggressive against the other than his own style predicts (one timid player
  facing a bully is not a soft-playing pair: the bully bets).

Pure: parsed hands in, findings out; reading the store is the caller's part."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from statistics import NormalDist

from pokerroom.history import PhhHand

__all__ = [
    "MAX_SHARE",
    "MIN_SPOTS",
    "MIN_Z",
    "Decision",
    "SoftPlayFinding",
    "decisions_of",
    "softplay_findings",
    "z_of",
]

MIN_SPOTS = 12
MIN_Z = 3.0
MAX_SHARE = 0.5  # flagged only when they bet or raised at most this share of what their styles predict
MAX_Z = 38.0  # beyond it a chance is below what a float holds
EXACT_UP_TO = 200  # bets and raises against each other up to which the z is the exact one (beyond, normal)


@dataclass(frozen=True)
class Decision:
    """One betting decision of a hand, with the state it was taken in."""

    hand_id: str
    street: int  # 0 the first betting round, then one more each time cards are dealt
    actor: str
    verb: str  # "f" | "cc" | "cbr"
    live: tuple[str, ...]  # the players not folded before this decision (the actor among them)
    can_raise: bool  # a bet or raise was open: chips beyond the call, and someone left to face it
    aggressor: str | None  # the last to bet or raise on this street before this decision
    index: int  # of the action in the hand
    owed: int = 0  # the chips he had to put in to call (0: he could check)


def decisions_of(hand_id: str, hand: PhhHand) -> Iterator[Decision]:
    """Each betting decision of the hand in order (all games: blinds, antes and bring-ins counted)."""
    n = hand.player_count
    names = hand.players if len(hand.players) == n else tuple(f"p{i + 1}" for i in range(n))
    stack = [s - a for s, a in zip(hand.starting_stacks, hand.antes or (0,) * n, strict=False)]
    stack += [0] * (n - len(stack))
    bet = list(hand.blinds_or_straddles or (0,) * n)[:n] + [0] * max(0, n - len(hand.blinds_or_straddles))
    stack = [s - b for s, b in zip(stack, bet, strict=True)]
    folded = [False] * n
    live = tuple(names)  # the players not folded, kept as they fold
    street = 0
    top = max(bet, default=0)  # the highest bet of the round
    aggressor: int | None = None
    betting = False
    for a in hand.actions:
        verb = a.verb
        if verb in ("dh", "db", "sd") and betting:  # a new street
            bet, top, aggressor, betting, street = [0] * n, 0, None, False, street + 1
        if a.actor is None or verb not in ("f", "cc", "cbr"):
            continue
        betting = True
        p = a.actor - 1
        owed = max(0, top - bet[p])
        can_raise = stack[p] > owed and any(stack[q] > 0 for q in range(n) if q != p and not folded[q])
        yield Decision(
            hand_id,
            street,
            names[p],
            verb,
            live,
            can_raise,
            names[aggressor] if aggressor is not None else None,
            a.index,
            owed,
        )
        if verb == "f":
            folded[p] = True
            live = tuple(names[q] for q in range(n) if not folded[q])
        elif verb == "cc":
            paid = min(stack[p], owed)
            bet[p] += paid
            stack[p] -= paid
        elif verb == "cbr" and a.amount is not None:
            paid = min(stack[p], max(0, a.amount - bet[p]))
            bet[p] += paid
            stack[p] -= paid
            top = max(top, bet[p])
            aggressor = p


HEADS_UP = "heads-up"
MULTIWAY = "multiway"
LAST_STREET = 3  # streets from the fourth betting round on are one kind of spot (the river in hold'em)
FIRST, CHECKED_TO, BET, RAISED = 0, 1, 2, 3  # what the round holds before the spot (_spots_of)

Cell = tuple[str, int, int, bool]  # the kind of spot: (kind, street, what the round holds, a call owed)


@dataclass
class _Spots:
    spots: int = 0
    aggressive: int = 0


@dataclass
class _Pair:
    """What ``player`` did against ``other``: his spots and aggressive decisions in each kind of spot."""

    cells: dict[Cell, _Spots] = field(default_factory=dict)
    multiway: _Spots = field(default_factory=_Spots)  # the multiway kinds together
    hands: list[str] = field(default_factory=list)  # hands with spots and no aggression of either at other


@dataclass(frozen=True)
class SoftPlayFinding:
    a: str
    b: str
    spots: int  # both directions, both kinds
    aggressive: int
    expected: float
    z: float  # of the shortfall: high is soft
    spots_ab: int  # a's spots against b
    aggressive_ab: int
    expected_ab: float
    spots_ba: int
    aggressive_ba: int
    expected_ba: float
    flagged: bool
    hands: tuple[str, ...]  # hands where they met and neither bet or raised at the other (the evidence)
    multiway_spots: int = 0  # of ``spots``: a bet or raise of the other faced with a third player in
    multiway_raises: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "players": [self.a, self.b],
            "spots": self.spots,
            "aggressive": self.aggressive,
            "multiway_spots": self.multiway_spots,
            "multiway_raises": self.multiway_raises,
            "expected": round(self.expected, 2),
            "z": round(self.z, 2),
            "directions": [
                _direction(self.a, self.b, self.spots_ab, self.aggressive_ab, self.expected_ab),
                _direction(self.b, self.a, self.spots_ba, self.aggressive_ba, self.expected_ba),
            ],
            "flagged": self.flagged,
            "hands": list(self.hands),
        }


def _direction(player: str, against: str, spots: int, aggressive: int, expected: float) -> dict[str, object]:
    return {
        "player": player,
        "against": against,
        "spots": spots,
        "aggressive": aggressive,
        "expected": round(expected, 2),
    }


def _spots_of(hands: Iterable[tuple[str, PhhHand]]) -> dict[tuple[str, str], _Pair]:
    """(player, other) -> his spots against the other, by kind of spot, and the evidence hands.

    A decision is an aggression spot against one other player when a bet or raise was open to him, and
    that other was his only opponent left (heads-up) or made the bet or raise he faces with a third player
    in (multiway). Its kind: heads-up or multiway, the round (at most ``LAST_STREET``), what the round
    holds (``FIRST``: he is the first to decide; ``CHECKED_TO``: others checked or called the blinds;
    ``BET``: one bet or raise; ``RAISED``: two or more) and, heads-up, whether he owes a call."""
    counts: dict[
        tuple[str, str, Cell], list[int]
    ] = {}  # (player, other, kind of spot) -> [spots, aggressive]
    evidence: dict[tuple[str, str], list[str]] = {}
    for hand_id, hand in hands:
        seen: dict[tuple[str, str], bool] = {}  # (player, other) -> he was aggressive at him in this hand
        street, made, acted = -1, 0, False
        for d in decisions_of(hand_id, hand):
            if d.street != street:
                street, made, acted = d.street, 0, False
            aggressive = d.verb == "cbr"
            held = (CHECKED_TO if acted else FIRST) if made == 0 else (BET if made == 1 else RAISED)
            made += aggressive
            acted = True
            if not d.can_raise:
                continue
            live, actor = d.live, d.actor
            if len(live) == 2:
                other = live[0] if live[1] == actor else live[1]
                cell = (HEADS_UP, street if street < LAST_STREET else LAST_STREET, held, d.owed > 0)
            elif d.aggressor is not None and d.aggressor != actor:
                other = d.aggressor
                cell = (MULTIWAY, street if street < LAST_STREET else LAST_STREET, held, True)
            else:
                continue
            c = counts.get((actor, other, cell))
            if c is None:
                counts[(actor, other, cell)] = [1, int(aggressive)]
            else:
                c[0] += 1
                c[1] += aggressive
            key = (actor, other)
            if aggressive or key not in seen:
                seen[key] = aggressive or seen.get(key, False)
        for (p, o), aggressive in seen.items():
            if not aggressive and not seen.get((o, p), False) and (p < o or (o, p) not in seen):
                evidence.setdefault((p, o), []).append(hand_id)  # one entry per hand for the pair
    pairs: dict[tuple[str, str], _Pair] = {}
    for (p, o, cell), (n, k) in counts.items():
        pair = pairs.get((p, o))
        if pair is None:
            pair = pairs[(p, o)] = _Pair(hands=evidence.get((p, o), []))
        pair.cells[cell] = _Spots(n, k)
        if cell[0] == MULTIWAY:
            pair.multiway.spots += n
            pair.multiway.aggressive += k
    return pairs


def _excess_candidates(pairs: dict[tuple[str, str], _Pair]) -> dict[str, list[tuple[str, _Spots]]]:
    """player -> his two opponents whose bets he raised most beyond his multiway rate (their spots), and
    his multiway spots against everybody under the key of no opponent ("")."""
    mine: dict[str, _Spots] = {}
    for (p, _), pair in pairs.items():
        t = pair.multiway
        m = mine.setdefault(p, _Spots())
        m.spots += t.spots
        m.aggressive += t.aggressive
    ranked: dict[str, list[tuple[float, str, _Spots]]] = {}
    for (p, o), pair in pairs.items():
        t = pair.multiway
        if t.spots == 0:
            continue
        rate = mine[p].aggressive / mine[p].spots
        top = ranked.setdefault(p, [])
        top.append((t.aggressive - rate * t.spots, o, t))
        top.sort(key=lambda x: -x[0])
        del top[2:]
    return {p: [("", mine[p])] + [(o, t) for _, o, t in ranked.get(p, [])] for p in mine}


def _left_out(candidates: list[tuple[str, _Spots]] | None, o: str, against_o: _Spots) -> str | None:
    """The opponent (not ``o``) whose bets the player raised most beyond his multiway rate, when that is
    beyond chance: his rate over that opponent's bets above his rate over everybody else's but ``o``'s
    by ``MIN_Z`` (two proportions' z, the pooled rate's spread). A colluder's re-raises over his
    partner's bets (a whipsaw or chip-dumping pair) are no measure of his raises over the others' bets,
    so they do not set the style he is measured by against ``o``."""
    if not candidates:
        return None
    mine = candidates[0][1]
    for x, t in candidates[1:]:
        if x == o:
            continue
        rest_n = mine.spots - t.spots - against_o.spots
        rest_k = mine.aggressive - t.aggressive - against_o.aggressive
        if rest_n <= 0:
            return None
        pooled = (t.aggressive + rest_k) / (t.spots + rest_n)
        spread = math.sqrt(pooled * (1 - pooled) * (1 / t.spots + 1 / rest_n))
        beyond = spread > 0 and t.aggressive / t.spots - rest_k / rest_n >= MIN_Z * spread
        return x if beyond else None
    return None


def softplay_findings(
    hands: Iterable[tuple[str, PhhHand]], *, min_spots: int = MIN_SPOTS, min_z: float = MIN_Z
) -> list[SoftPlayFinding]:
    """One finding per pair of players with an aggression spot against each other (heads-up, or a bet of
    the other faced with others in the hand), the flagged first, then by z."""
    pairs = _spots_of(hands)
    mine: dict[tuple[str, Cell], _Spots] = {}  # (player, kind of spot): his spots against everybody
    for (p, _), pair in pairs.items():
        for cell, st in pair.cells.items():
            m = mine.get((p, cell))
            if m is None:
                m = mine[(p, cell)] = _Spots()
            m.spots += st.spots
            m.aggressive += st.aggressive
    candidates = _excess_candidates(pairs)

    def direction(p: str, o: str) -> tuple[int, int, float, float, list[_Stratum]]:
        """(spots, aggressive, expected, variance, strata) of ``p`` against ``o``: in each kind of spot,
        his aggressive decisions in all his spots of that kind shared out at random over those spots (the
        ones against ``o`` and those against the rest), the hypergeometric mean and variance of his
        against ``o``."""
        pair = pairs.get((p, o))
        if pair is None:
            return 0, 0, 0.0, 0.0, []
        spots = aggressive = 0
        expected = variance = 0.0
        strata = []
        x = _left_out(candidates.get(p), o, pair.multiway)
        excess = pairs[(p, x)].cells if x is not None else {}
        for cell, st in pair.cells.items():
            n, k = st.spots, st.aggressive
            spots += n
            aggressive += k
            m = mine[(p, cell)]
            all_n, all_k = m.spots, m.aggressive
            if cell[0] == MULTIWAY and cell in excess:  # his play against one opponent does not set his style
                all_n -= excess[cell].spots
                all_k -= excess[cell].aggressive
            # no spot of this kind against anybody else: no measure of his style, his own decisions expected
            expected += all_k * n / all_n
            if all_n > n:
                variance += all_k * (all_n - all_k) * n * (all_n - n) / (all_n * all_n * (all_n - 1))
                strata.append((all_n, all_k, n))
            else:
                strata.append((n, k, n))
        return spots, aggressive, expected, variance, strata

    out = []
    done: set[frozenset[str]] = set()
    for p, o in pairs:
        key = frozenset((p, o))
        if key in done:
            continue
        done.add(key)
        a, b = sorted((p, o))
        n1, k1, e1, v1, s1 = direction(a, b)
        n2, k2, e2, v2, s2 = direction(b, a)
        n, k, e, v = n1 + n2, k1 + k2, e1 + e2, v1 + v2
        if n == 0:
            continue
        z = (e - k) / math.sqrt(v) if v > 0 else 0.0
        both_soft = n1 > 0 and n2 > 0 and k1 < e1 and k2 < e2
        if n >= min_spots and z >= min_z and both_soft and k <= MAX_SHARE * e and k <= EXACT_UP_TO:
            z = z_of(_lower_tail(s1 + s2, k))  # the normal approximation checked exactly
        flagged = n >= min_spots and z >= min_z and both_soft and k <= MAX_SHARE * e
        evidence = tuple(dict.fromkeys(h for who in ((a, b), (b, a)) for h in pairs.get(who, _Pair()).hands))
        multi = [pairs[who].multiway for who in ((a, b), (b, a)) if who in pairs]
        out.append(
            SoftPlayFinding(
                a, b, n, k, e, z, n1, k1, e1, n2, k2, e2, flagged, evidence,
                sum(m.spots for m in multi), sum(m.aggressive for m in multi),
            )
        )  # fmt: skip
    out.sort(key=lambda f: (not f.flagged, -f.z, f.a, f.b))
    return out


_Stratum = tuple[int, int, int]  # (his spots of a kind, his aggressive decisions in them, those against o)


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def _lower_tail(strata: list[_Stratum], observed: int) -> float:
    """The chance of ``observed`` or fewer aggressive decisions against the other in all the strata
    together, each stratum's count hypergeometric (his aggressive decisions of that kind dealt at random
    over his spots of that kind): the exact distribution of the sum, up to ``observed``."""
    dist = [1.0] + [0.0] * observed  # P(sum = j), j = 0..observed
    for total, aggressive, drawn in strata:
        lo = max(0, drawn - (total - aggressive))
        hi = min(drawn, aggressive, observed)
        if lo > observed:
            return 0.0
        base = _log_comb(total, drawn)
        pmf = [
            math.exp(_log_comb(aggressive, j) + _log_comb(total - aggressive, drawn - j) - base)
            for j in range(lo, hi + 1)
        ]
        new = [0.0] * (observed + 1)
        for i, pi in enumerate(dist):
            if pi == 0.0:
                continue
            for j, pj in enumerate(pmf, start=lo):
                if i + j > observed:
                    break
                new[i + j] += pi * pj
        dist = new
    return min(1.0, sum(dist))


def z_of(p: float) -> float:
    """The normal deviate with ``p`` beyond it (a chance so small a float cannot hold it: ``MAX_Z``)."""
    if p <= 0.0:
        return MAX_Z
    if p >= 0.5:
        return 0.0
    return min(MAX_Z, -NormalDist().inv_cdf(p))
