"""Collusive betting (whipsaw) found in the hands (issue 30, item 2; docs/integrity.md).

Two colluders raise a third player out between them: A bets or raises, B re-raises over him, and a third
player, still in the hand when B re-raised, folds on that street. An honest player squeezes too, so the
measure is B's own style: a **chance** of ``B`` over ``A`` is a decision of B facing a bet or raise
whose last maker is A, with at least one third player still in the hand (not folded) and a
raise open to B. It is a **whipsaw** when B raised and a third player then folded on that street.

For an ordered pair (A's bet, B's re-raise) the expected whipsaws are B's chances over A times B's whipsaw
rate on his chances over everybody else (drawn toward the room's rate when they are few; at least
``BASE_FLOOR``), with the spread of dumping.py (the pair's binomial one plus the baseline's uncertainty).
Colluders take turns, so the **pair** (unordered) is scored: both directions summed, a z-score of the
excess. A pair is **flagged** when they made at least ``MIN_WHIPSAWS`` whipsaws together and z is at
least ``MIN_Z`` (3).

Pure: parsed hands in, findings out (:func:`softplay.decisions_of` walks the hands)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from pokerroom.history import PhhHand
from pokerroom.server.integrity.softplay import decisions_of

__all__ = ["MIN_WHIPSAWS", "MIN_Z", "WhipsawFinding", "whipsaw_findings"]

MIN_WHIPSAWS = 3
MIN_Z = 3.0
BASE_FLOOR = 0.02
MAX_RATE = 0.98
PRIOR_WEIGHT = 10


@dataclass
class _Chances:
    chances: int = 0
    whipsaws: int = 0
    hands: list[str] = field(default_factory=list)  # of the whipsaws


@dataclass(frozen=True)
class WhipsawFinding:
    a: str
    b: str
    chances: int  # both directions
    whipsaws: int
    expected: float
    z: float
    victims: tuple[str, ...]  # the players raised out, most often first
    flagged: bool
    hands: tuple[str, ...]  # the hands of the whipsaws (the evidence)

    def to_dict(self) -> dict[str, object]:
        return {
            "players": [self.a, self.b],
            "chances": self.chances,
            "whipsaws": self.whipsaws,
            "expected": round(self.expected, 2),
            "z": round(self.z, 2),
            "victims": list(self.victims),
            "flagged": self.flagged,
            "hands": list(self.hands),
        }


def _chances_of(hand_id: str, hand: PhhHand) -> list[tuple[str, str, bool, tuple[str, ...]]]:
    """(bettor, re-raiser's candidate, whipsaw, players raised out) for each chance of the hand."""
    ds = list(decisions_of(hand_id, hand))
    out: list[tuple[str, str, bool, tuple[str, ...]]] = []
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
        out.append((d.aggressor, d.actor, bool(out_), out_))
    return out


def whipsaw_findings(
    hands: Iterable[tuple[str, PhhHand]], *, min_whipsaws: int = MIN_WHIPSAWS, min_z: float = MIN_Z
) -> list[WhipsawFinding]:
    """One finding per pair with at least one whipsaw, the flagged first, then by z."""
    pairs: dict[tuple[str, str], _Chances] = {}  # (bettor, re-raiser)
    raised_out: dict[frozenset[str], dict[str, int]] = {}
    for hand_id, hand in hands:
        for bettor, raiser, whip, out_ in _chances_of(hand_id, hand):
            st = pairs.setdefault((bettor, raiser), _Chances())
            st.chances += 1
            if whip:
                st.whipsaws += 1
                if hand_id not in st.hands:
                    st.hands.append(hand_id)
                count = raised_out.setdefault(frozenset((bettor, raiser)), {})
                for p in out_:
                    count[p] = count.get(p, 0) + 1
    raiser_n: dict[str, int] = {}
    raiser_k: dict[str, int] = {}
    for (_, r), st in pairs.items():
        raiser_n[r] = raiser_n.get(r, 0) + st.chances
        raiser_k[r] = raiser_k.get(r, 0) + st.whipsaws
    room_n, room_k = sum(raiser_n.values()), sum(raiser_k.values())

    def direction(bettor: str, raiser: str) -> tuple[int, int, float, float]:
        st = pairs.get((bettor, raiser))
        if st is None:
            return 0, 0, 0.0, 0.0
        n, k = st.chances, st.whipsaws
        prior = (room_k - k) / (room_n - n) if room_n > n else MAX_RATE
        own_n, own_k = raiser_n[raiser] - n, raiser_k[raiser] - k
        rate = (own_k + PRIOR_WEIGHT * prior) / (own_n + PRIOR_WEIGHT)
        rate = min(MAX_RATE, max(BASE_FLOOR, rate))
        return n, k, rate * n, rate * (1 - rate) * (n + n * n / (own_n + PRIOR_WEIGHT))

    out = []
    for key, count in raised_out.items():
        a, b = sorted(key)
        n1, k1, e1, v1 = direction(a, b)
        n2, k2, e2, v2 = direction(b, a)
        n, k, e, v = n1 + n2, k1 + k2, e1 + e2, v1 + v2
        z = (k - e) / math.sqrt(v) if v > 0 else 0.0
        hands_ = [*pairs.get((a, b), _Chances()).hands, *pairs.get((b, a), _Chances()).hands]
        who = tuple(sorted(count, key=lambda p: (-count[p], p)))
        flagged = k >= min_whipsaws and z >= min_z
        out.append(WhipsawFinding(a, b, n, k, e, z, who, flagged, tuple(dict.fromkeys(hands_))))
    out.sort(key=lambda f: (not f.flagged, -f.z, f.a, f.b))
    return out
