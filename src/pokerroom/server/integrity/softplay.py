"""Soft play found in the hands (issue 30, item 2; docs/integrity.md).

Two soft-playing friends do not bet or raise against each other: left alone in a pot, they check it down,
and with others in the pot they do not raise each other's bets, while they bet and raise against
everybody else. A passive player checks against everybody, so the measure is each player's own style: an
**aggression spot** of ``player`` against ``other`` is a decision of ``player`` (a fold, check/call or
bet/raise) with a bet or raise open to him (he had chips beyond the call, and someone was not all in) of
one of two kinds: **heads-up**, ``other`` the only opponent left in the hand (aggressive when he bet or
raised), or **multiway**, facing a bet or raise whose last maker is ``other`` with a third player still in
the hand (aggressive when he raised).

For an ordered pair (player -> other) the expected aggressive decisions of each kind are the player's
spots of that kind against the other times his rate in spots of that kind against everybody else (drawn
toward the room's rate when those spots are few; at least ``BASE_FLOOR``; multiway, leaving out the one
opponent whose bets he raised far beyond it, as a colluder does his partner's). The spread is the
binomial one of the pair's spots plus the uncertainty of a rate measured on few spots (as in dumping.py).
Soft play is mutual, so the **pair** (unordered) is scored: both directions' and kinds' aggressive
decisions summed, against the expectations summed, a z-score of the *shortfall*. A pair is **flagged**
when

- they had at least ``MIN_SPOTS`` spots against each other (both directions together);
- the z-score of the shortfall is at least ``MIN_Z`` (3);
- each of the two was less aggressive against the other than his own rate predicts (one timid player
  facing a bully is not a soft-playing pair: the bully bets).

Pure: parsed hands in, findings out; reading the store is the caller's part."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from pokerroom.history import PhhHand

__all__ = ["MIN_SPOTS", "MIN_Z", "Decision", "SoftPlayFinding", "decisions_of", "softplay_findings"]

MIN_SPOTS = 12
MIN_Z = 3.0
BASE_FLOOR = 0.02
MAX_RATE = 0.98
PRIOR_WEIGHT = 10  # spots: a rate from fewer leans toward the room's rate


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
    street = 0
    aggressor: int | None = None
    betting = False
    for a in hand.actions:
        if a.verb in ("dh", "db", "sd") and betting:  # a new street
            bet, aggressor, betting, street = [0] * n, None, False, street + 1
        if a.actor is None or a.verb not in ("f", "cc", "cbr"):
            continue
        betting = True
        p = a.actor - 1
        owed = max(0, max(bet) - bet[p])
        others_with_chips = any(stack[q] > 0 for q in range(n) if q != p and not folded[q])
        live = tuple(names[q] for q in range(n) if not folded[q])
        yield Decision(
            hand_id,
            street,
            names[p],
            a.verb,
            live,
            stack[p] > owed and others_with_chips,
            names[aggressor] if aggressor is not None else None,
            a.index,
            owed,
        )
        if a.verb == "f":
            folded[p] = True
        elif a.verb == "cc":
            paid = min(stack[p], owed)
            bet[p] += paid
            stack[p] -= paid
        elif a.verb == "cbr" and a.amount is not None:
            paid = min(stack[p], max(0, a.amount - bet[p]))
            bet[p] += paid
            stack[p] -= paid
            aggressor = p


HEADS_UP = "heads-up"
MULTIWAY = "multiway"


@dataclass
class _Spots:
    spots: int = 0
    aggressive: int = 0
    hands: list[str] = field(default_factory=list)  # hands with spots and no aggression of this player


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


def _rate(k: int, n: int, prior: float) -> float:
    return (k + PRIOR_WEIGHT * prior) / (n + PRIOR_WEIGHT)


def _spot(d: Decision) -> tuple[str, str] | None:
    """(the other, the kind) when the decision is an aggression spot against one other player."""
    if not d.can_raise:
        return None
    if len(d.live) == 2:
        return (d.live[0] if d.live[1] == d.actor else d.live[1]), HEADS_UP
    if d.aggressor is not None and d.aggressor != d.actor:
        return d.aggressor, MULTIWAY
    return None


def softplay_findings(
    hands: Iterable[tuple[str, PhhHand]], *, min_spots: int = MIN_SPOTS, min_z: float = MIN_Z
) -> list[SoftPlayFinding]:
    """One finding per pair of players with an aggression spot against each other (heads-up, or a bet of
    the other faced with others in the hand), the flagged first, then by z."""
    pairs: dict[tuple[str, str, str], _Spots] = {}  # (player, other, kind)
    for hand_id, hand in hands:
        seen: dict[tuple[str, str], bool] = {}  # (player, other) -> he was aggressive at him in this hand
        for d in decisions_of(hand_id, hand):
            spot = _spot(d)
            if spot is None:
                continue
            other, kind = spot
            st = pairs.setdefault((d.actor, other, kind), _Spots())
            st.spots += 1
            aggressive = d.verb == "cbr"
            st.aggressive += aggressive
            seen[(d.actor, other)] = seen.get((d.actor, other), False) or aggressive
        for (p, o), aggressive in seen.items():
            if not aggressive and not seen.get((o, p), False) and (p < o or (o, p) not in seen):
                kind = HEADS_UP if (p, o, HEADS_UP) in pairs else MULTIWAY  # one entry per hand for the pair
                pairs.setdefault((p, o, kind), _Spots()).hands.append(hand_id)
    player_n: dict[tuple[str, str], int] = {}  # (player, kind): his spots against everybody
    player_k: dict[tuple[str, str], int] = {}
    room_n: dict[str, int] = {}
    room_k: dict[str, int] = {}
    for (p, _, kind), st in pairs.items():
        player_n[(p, kind)] = player_n.get((p, kind), 0) + st.spots
        player_k[(p, kind)] = player_k.get((p, kind), 0) + st.aggressive
        room_n[kind] = room_n.get(kind, 0) + st.spots
        room_k[kind] = room_k.get(kind, 0) + st.aggressive

    # (player, multiway) -> (the opponent, spots, raises) whose bets he raised most beyond his rate, when
    # that is beyond chance (z of MIN_Z against his rate against the rest): a colluder's re-raises over
    # his partner's bets (a whipsaw or chip-dumping pair) are no measure of his raises over the others'
    top_excess: dict[tuple[str, str], tuple[str, int, int]] = {}
    for (p, o, kind), st in pairs.items():
        if kind != MULTIWAY:  # heads-up, his bets are at that one opponent: what is measured
            continue
        rate = player_k[(p, kind)] / player_n[(p, kind)]
        best = top_excess.get((p, kind))
        if best is None or st.aggressive - rate * st.spots > best[2] - rate * best[1]:
            top_excess[(p, kind)] = (o, st.spots, st.aggressive)
    for (p, kind), (_, n, k) in list(top_excess.items()):  # kept only when far beyond his rate elsewhere
        rest_n = player_n[(p, kind)] - n
        rest = min(MAX_RATE, max(BASE_FLOOR, (player_k[(p, kind)] - k) / rest_n if rest_n else MAX_RATE))
        if k - n * rest < MIN_Z * math.sqrt(n * rest * (1 - rest)):
            del top_excess[(p, kind)]

    def direction(p: str, o: str) -> tuple[int, int, float, float]:
        """(spots, aggressive, expected, variance) of ``p`` against ``o``, both kinds: each kind's spots
        times his own rate of that kind against everybody else but ``o`` (and, multiway, but the
        opponent whose bets he raised far beyond that rate)."""
        spots = aggressive = 0
        expected = variance = 0.0
        for kind in (HEADS_UP, MULTIWAY):
            st = pairs.get((p, o, kind))
            if st is None or st.spots == 0:
                continue
            n, k = st.spots, st.aggressive
            rest_n, rest_k = room_n[kind] - n, room_k[kind] - k
            prior = rest_k / rest_n if rest_n > 0 else 0.0
            own_n, own_k = player_n[(p, kind)] - n, player_k[(p, kind)] - k
            top = top_excess.get((p, kind))
            if top is not None and top[0] != o:  # his play against one opponent does not set his style
                own_n, own_k = own_n - top[1], own_k - top[2]
            rate = min(MAX_RATE, max(BASE_FLOOR, _rate(own_k, own_n, prior)))
            weight = own_n + PRIOR_WEIGHT
            spots += n
            aggressive += k
            expected += rate * n
            variance += rate * (1 - rate) * (n + n * n / weight)
        return spots, aggressive, expected, variance

    out = []
    done: set[frozenset[str]] = set()
    for p, o, _ in pairs:
        key = frozenset((p, o))
        if key in done:
            continue
        done.add(key)
        a, b = sorted((p, o))
        n1, k1, e1, v1 = direction(a, b)
        n2, k2, e2, v2 = direction(b, a)
        n, k, e, v = n1 + n2, k1 + k2, e1 + e2, v1 + v2
        if n == 0:
            continue
        z = (e - k) / math.sqrt(v) if v > 0 else 0.0
        both_soft = n1 > 0 and n2 > 0 and k1 < e1 and k2 < e2
        flagged = n >= min_spots and z >= min_z and both_soft
        evidence = tuple(
            dict.fromkeys(
                h
                for kind in (HEADS_UP, MULTIWAY)
                for who in ((a, b), (b, a))
                for h in pairs.get((*who, kind), _Spots()).hands
            )
        )
        multi = [pairs.get((*who, MULTIWAY), _Spots()) for who in ((a, b), (b, a))]
        out.append(
            SoftPlayFinding(
                a, b, n, k, e, z, n1, k1, e1, n2, k2, e2, flagged, evidence,
                sum(m.spots for m in multi), sum(m.aggressive for m in multi),
            )
        )  # fmt: skip
    out.sort(key=lambda f: (not f.flagged, -f.z, f.a, f.b))
    return out
