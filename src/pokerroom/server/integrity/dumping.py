"""Chip dumping found in the hands (issue 30, item 2; docs/integrity.md).

A dumper passes chips to a partner: he folds a strong hand to the partner's bet, or calls the partner's
all-in with a hopeless one. The audit copy of a hand (its full PHH) has every hole card, so each such
decision can be judged by the giver's real share of the pot against the taker's real cards at that moment
(:class:`Shares`: exact after the flop in heads-up hold'em, seeded deals before it and in other games:
the same hands give the same score).

A *chance* is a decision of the giver with a strong hand facing the taker's bet (suspect: he folded) with
at least ``MIN_STAKE_BB`` big blinds of his own in the pot beyond the forced bets (a fold passes on only
what the folder put in: a blind folded to a raise, or a limp, gives next to nothing, and an honest player
squeezed between two raises, or one who folds every hand he cannot re-raise, folds strong hands with
nothing of his own in), and not squeezed (the taker's raise was not over a third player's bet or raise on
that street: a player caught between two raisers folds strong hands to whichever raised last, and the
chips go to whoever of the two wins), or with a hopeless one facing his all-in (suspect: he called),
where the price of a call (its share of the pot he can win: a bet beyond what his call matches goes back
uncalled) is at least ``MARGIN`` below (above) his share: folding then gives up, calling throws away, a
quarter of the pot or more in expectation. (A fold of a strong hand to an overbet is no chance: the price
is near the share.) Counting only chances takes the taker's range out (a maniac's opponents hold the
better hand more often, whoever they are). Honest players take some chances too (a fold to a scary board,
a loose call), but against everybody alike. So the score of an ordered pair (giver -> taker) compares the
giver's suspect decisions among his chances against this taker with the higher of two rates: the giver's
own against everybody else, and everybody else's against the taker (each drawn toward the rest of the
room's rate when it rests on few chances): a z-score of the excess, whose spread counts the baseline's
own uncertainty (a rate seen on a dozen chances is no exact prediction: taking it as one flagged a timid
honest player facing a maniac). Each kind of chance (a strong fold, a hopeless call) is measured against
the same kind only, and never against the giver's decisions with any hand: how often a player folds
trash, or calls all-ins, says nothing of how often he folds strong hands (the first version of this score
mixed them, and a dumper who folds his weak hands to everyone, as the planted one does, was expected to
fold nearly every strong hand too).
A pair is **flagged** when

- the giver made at least ``MIN_SUSPECT`` suspect decisions against the taker (fewer is chance);
- their z-score is at least ``MIN_Z`` (3: about one honest pair in 700 by chance alone);
- he took at least ``MIN_TAKEN`` (95 %) of his chances against the taker: the size of the excess, not
  only its certainty. A dumper gives whenever he can; over thousands of hands a z-score also finds an
  honest player who folds strong hands to one opponent somewhat more often than to others (a timid
  player facing a maniac, 53 of 58 where his style predicts 36; one squeezed between a raise and a
  re-raise, 29 of 32), and those decline some of their chances;
- the chips that went from the giver to the taker in the hands of those decisions, less those that
  went back in the hands of the taker's suspect decisions against the giver, are at least
  ``MIN_FLOW_BB`` big blinds (an honest pair's flows roughly cancel; a dump that moves nothing is not
  one). ``shared_hands`` and the flow over all their hands are reported beside it, not scored: a
  showdown swings that by hundreds of big blinds.

Pure: it takes parsed hands and returns findings; reading the store is the caller's part."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pokerroom.cards import Card
from pokerroom.eval import EQUITY_GAMES, EvalError, equity
from pokerroom.eval.fast import rank7_function
from pokerroom.history import PhhHand

__all__ = ["DumpingFinding", "PairStats", "Shares", "Suspect", "dumping_findings", "suspects_of"]

STRONG = 0.6  # a fold with at least this share of the pot against the taker's real cards gives chips away
HOPELESS = 0.2  # a call of an all-in with at most this share throws chips away
MARGIN = 0.25  # ... and only when the price of a call (its share of the pot after it) is this far from it
MIN_SUSPECT = 3
MIN_Z = 3.0
MIN_TAKEN = 0.95  # the share of his chances against the taker the giver took (a dumper takes them all)
MIN_FLOW_BB = 10.0
BASE_FLOOR = 0.02  # the least suspect rate assumed of a giver (few decisions against others say little)
PRIOR_WEIGHT = 10  # chances: a rate from fewer leans toward the rest of the room's rate
MAX_RATE = 0.99
MIN_STAKE_BB = 2.0  # a fold is a chance only with this much of his own chips in the pot (over a limp)
SAMPLES = 200  # Monte Carlo deals per judged decision in the games without an exact path below
EXACT_DEALS = 20_000  # ... which are enumerated instead when there are at most this many (a late street)
PREFLOP_SAMPLES = 1000  # hold'em heads-up before the flop: seeded deals of the matchup (its suits relabelled)

_GAMES = {"holdem": "holdem", "irish": "holdem", "shortdeck": "shortdeck", "omaha": "omaha",
          "omaha5": "omaha5", "omaha6": "omaha6", "omaha8": "omaha8", "omaha8_5": "omaha8_5",
          "stud": "stud", "stud8": "stud8", "razz": "razz", "stud5": "stud5", "soko": "soko",
          "deuce7_triple": "deuce7", "deuce7_single": "deuce7", "draw5": "draw", "draw7a": "draw7a",
          "badugi": "badugi"}  # fmt: skip


@dataclass(frozen=True)
class Suspect:
    """A decision of ``giver`` facing ``taker``'s bet or raise. A *chance* to give him chips when the hand
    was strong facing a bet (suspect if he folded) or hopeless facing an all-in (suspect if he called)."""

    hand_id: str
    giver: str
    taker: str
    kind: str  # "fold" (facing a bet) | "call" (facing an all-in): what would give chips away
    share: float | None  # the giver's share of the pot against the taker's cards (None: not judged)
    chance: bool  # strong facing a bet, or hopeless facing an all-in (the price far from the share)
    took: bool  # he folded (facing a bet), or called (facing an all-in)
    price: float = 0.0  # the share of the pot a call would have paid for
    stake: int = 0  # his own chips in the pot before the decision, beyond the forced bets (blinds, antes)
    squeezed: bool = False  # the taker's raise was over a third player's bet or raise on this street

    @property
    def suspect(self) -> bool:
        return self.chance and self.took


@dataclass
class PairStats:
    faced: int = 0  # the giver's chances (strong hands facing the taker's bets, hopeless facing his all-ins)
    suspect: int = 0
    hands: list[str] = field(default_factory=list)  # the hands of the suspect decisions
    kinds: list[str] = field(default_factory=list)  # of each chance: "fold" or "call"
    taken: list[bool] = field(default_factory=list)  # of each chance: suspect or not

    def by_kind(self) -> list[tuple[str, int, int]]:
        """(kind, chances, suspect) for each kind of chance the pair had."""
        pairs = list(zip(self.kinds, self.taken, strict=True))
        return [
            (kind, self.kinds.count(kind), sum(t for k, t in pairs if k == kind))
            for kind in sorted(set(self.kinds))
        ]


@dataclass(frozen=True)
class DumpingFinding:
    giver: str
    taker: str
    faced: int
    suspect: int
    expected: float  # suspect decisions the giver's rate against others predicts
    z: float
    flow_bb: float  # net chips giver -> taker in the suspect hands (less the reverse), in big blinds
    shared_hands: int
    flagged: bool
    hands: tuple[str, ...]  # the hands of the suspect decisions (the evidence)
    own: int = 0  # the giver's chances against the other players: what his own style is known from

    def to_dict(self) -> dict[str, object]:
        return {
            "giver": self.giver,
            "taker": self.taker,
            "faced": self.faced,
            "suspect": self.suspect,
            "expected": round(self.expected, 2),
            "z": round(self.z, 2),
            "flow_bb": round(self.flow_bb, 1),
            "shared_hands": self.shared_hands,
            "flagged": self.flagged,
            "hands": list(self.hands),
            "own_chances": self.own,
        }


def _big_blind(hand: PhhHand) -> int:
    return max((*hand.blinds_or_straddles, hand.small_bet, hand.bring_in, hand.min_bet, 1))


class Shares:
    """The giver's share of the pot against the taker's real cards at a decision, for one run of the score.

    Heads-up hold'em (two hole cards each), the most of a room's hands, has its own exact paths: on the
    river one comparison, on the turn every river card (:func:`pokerroom.eval.fast.rank7_function`), on
    the flop :func:`pokerroom.eval.equity`'s enumeration of the 990 boards; before the flop (1.7 million
    boards: the enumeration costs ten times a flop's) ``PREFLOP_SAMPLES`` Monte Carlo deals of the
    matchup with its suits relabelled in a fixed way, seeded by it and remembered for the run (the same
    matchup up to its suits gives the same number, whatever the hand). Other games: ``equity`` (exact when
    the deals are at most ``EXACT_DEALS``, else ``SAMPLES`` deals seeded by the decision: enumerating
    the million deals of an early street, as ``equity`` does by itself, cost 5-8 ms a decision, about
    two thirds of a day's report). The same hands always give the same shares."""

    def __init__(self) -> None:
        self._preflop: dict[tuple[int, ...], float] = {}
        self._rank7 = rank7_function("high")

    def share(
        self, hand: PhhHand, mine: Sequence[Card], his: Sequence[Card], board: Sequence[Card], key: str
    ) -> float | None:
        code = hand.variant.code
        game = _GAMES.get(code) or (code if code in EQUITY_GAMES else None)
        if game is None or not mine or not his:
            return None
        if game == "holdem" and len(mine) == 2 and len(his) == 2:
            if not board:
                return self._preflop_share(mine, his)
            if len(board) == 5:
                return self._showdown(mine, his, board)
            if len(board) == 4:
                used = {c.index for c in (*mine, *his, *board)}
                return sum(self._showdown(mine, his, board, r) for r in range(52) if r not in used) / (
                    52 - len(used)
                )
        seed = sum(ord(c) * (i + 1) for i, c in enumerate(key)) % (2**31)
        try:
            cards = [list(mine), list(his)]
            result = equity(game, cards, list(board), samples=SAMPLES, seed=seed, exact_limit=EXACT_DEALS)
        except (EvalError, ValueError):
            return None
        return float(result.hands[0].share)

    def _showdown(
        self, mine: Sequence[Card], his: Sequence[Card], board: Sequence[Card], river: int = -1
    ) -> float:
        b = [c.index for c in board] + ([river] if river >= 0 else [])
        a, h = self._rank7(mine[0].index, mine[1].index, *b), self._rank7(his[0].index, his[1].index, *b)
        return 1.0 if a > h else 0.5 if a == h else 0.0

    def _preflop_share(self, mine: Sequence[Card], his: Sequence[Card]) -> float:
        key = _matchup(mine, his)
        got = self._preflop.get(key)
        if got is None:
            seed = sum(x * 52**i for i, x in enumerate(key)) % (2**31)
            canon = [Card.from_index(x) for x in key]
            result = equity(
                "holdem", [canon[:2], canon[2:]], [], exact=False, samples=PREFLOP_SAMPLES, seed=seed
            )
            got = self._preflop[key] = float(result.hands[0].share)
        return got


def _orders(cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """A hand's two cards from the higher rank; a pair both ways."""
    hi, lo = sorted(cards, key=lambda c: -c.rank)
    return [(hi, lo), (lo, hi)] if hi.rank == lo.rank else [(hi, lo)]


def _matchup(mine: Sequence[Card], his: Sequence[Card]) -> tuple[int, ...]:
    """The four cards' indices with the suits renamed in the order they first appear (each hand from its
    higher card), the least of the ways a pair can be ordered: one key for a matchup and every relabelling
    of its suits (AsKh against QsQd is AdKc against QdQh)."""
    keys = []
    for m in _orders(mine):
        for h in _orders(his):
            suits: dict[int, int] = {}
            keys.append(tuple(c.rank * 4 + suits.setdefault(c.suit, len(suits)) for c in (*m, *h)))
    return min(keys)


def suspects_of(hand_id: str, hand: PhhHand, shares: Shares | None = None) -> list[Suspect]:
    """Each decision in the hand of a player facing another's bet or raise: a chance to give chips away
    (strong facing a bet with his own chips in the pot, hopeless facing an all-in, judged against the
    other's real cards) or not. The share is computed only where a chance is possible (``None`` where it
    is not: a price too far from any share, or a fold with none of his own chips at stake)."""
    shares = shares or Shares()
    n = hand.player_count
    names = hand.players if len(hand.players) == n else tuple(f"p{i + 1}" for i in range(n))
    stack = [s - a for s, a in zip(hand.starting_stacks, hand.antes or (0,) * n, strict=False)]
    bet = list(hand.blinds_or_straddles or (0,) * n)[:n] + [0] * max(0, n - len(hand.blinds_or_straddles))
    stack = [s - b for s, b in zip(stack, bet, strict=True)]
    pot = sum(hand.starting_stacks) - sum(stack)
    stake = [0] * n  # each player's own chips put in by calls, bets and raises (not the forced bets)
    min_stake = MIN_STAKE_BB * _big_blind(hand)
    hole: list[list[Card]] = [[] for _ in range(n)]
    board: list[Card] = []
    aggressor: int | None = None
    before: int | None = None  # the bettor the aggressor raised over, on this street
    betting = False
    out: list[Suspect] = []
    for a in hand.actions:
        if a.verb in ("dh", "db", "sd") and betting:  # a new street
            bet, aggressor, before, betting = [0] * n, None, None, False
        if a.verb == "dh" and a.actor is not None:
            hole[a.actor - 1] += [c for c in a.cards if c is not None]
        elif a.verb == "db":
            board += [c for c in a.cards if c is not None]
        elif a.verb == "sd" and a.actor is not None and a.cards:
            p = a.actor - 1
            gone = set(a.cards)
            hole[p] = [c for c in hole[p] if c not in gone]
        if a.actor is None or a.verb not in ("f", "cc", "cbr"):
            continue
        betting = True
        p = a.actor - 1
        top = max(bet)
        facing = aggressor is not None and aggressor != p and top > bet[p]
        if facing and aggressor is not None:
            t = aggressor
            owed = min(stack[p], top - bet[p])
            # the pot he can win: a bet beyond what his call matches goes back to its owner uncalled
            level = bet[p] + owed
            contested = pot - sum(max(0, b - level) for b in bet)
            price = owed / (contested + owed)  # the share of the pot that a call pays for
            key = f"{hand_id}:{a.index}"
            if stack[t] == 0:  # facing an all-in: a chance when hopeless
                share = shares.share(hand, hole[p], hole[t], board, key) if price >= MARGIN else None
                chance = share is not None and share <= HOPELESS and price - share >= MARGIN
                out.append(
                    Suspect(
                        hand_id, names[p], names[t], "call", share, chance, a.verb == "cc", price, stake[p]
                    )
                )
            else:  # facing a bet: a chance when strong, with his own chips at stake, not squeezed
                squeezed = before is not None and before != p
                judged = price <= 1 - MARGIN and stake[p] >= min_stake and not squeezed
                share = shares.share(hand, hole[p], hole[t], board, key) if judged else None
                chance = share is not None and share >= STRONG and share - price >= MARGIN
                took = a.verb == "f"
                out.append(
                    Suspect(
                        hand_id, names[p], names[t], "fold", share, chance, took, price, stake[p], squeezed
                    )
                )
        if a.verb == "cc":
            paid = min(stack[p], top - bet[p])
            bet[p] += paid
            stack[p] -= paid
            stake[p] += paid
            pot += paid
        elif a.verb == "cbr" and a.amount is not None:
            paid = min(stack[p], max(0, a.amount - bet[p]))
            bet[p] += paid
            stack[p] -= paid
            stake[p] += paid
            pot += paid
            before, aggressor = aggressor, p
    return out


def flows_of(hand: PhhHand) -> dict[tuple[str, str], float]:
    """Chips (in big blinds) from each loser to each winner of the hand, a loser's loss shared among the
    winners in proportion to their gains."""
    if hand.finishing_stacks is None:
        return {}
    n = hand.player_count
    names = hand.players if len(hand.players) == n else tuple(f"p{i + 1}" for i in range(n))
    net = [f - s for f, s in zip(hand.finishing_stacks, hand.starting_stacks, strict=True)]
    won = sum(x for x in net if x > 0)
    if won <= 0:
        return {}
    bb = _big_blind(hand)
    return {
        (names[g], names[t]): -net[g] * net[t] / won / bb
        for g in range(n)
        for t in range(n)
        if net[g] < 0 and net[t] > 0
    }


def _rate(suspect: int, faced: int, prior: float) -> float:
    """A suspect rate from ``faced`` decisions, drawn toward ``prior`` when they are few."""
    return (suspect + PRIOR_WEIGHT * prior) / (faced + PRIOR_WEIGHT)


def dumping_findings(
    hands: Iterable[tuple[str, PhhHand]],
    *,
    min_suspect: int = MIN_SUSPECT,
    min_z: float = MIN_Z,
    min_flow_bb: float = MIN_FLOW_BB,
    min_taken: float = MIN_TAKEN,
) -> list[DumpingFinding]:
    """One finding per ordered pair with at least one suspect decision, the flagged first, then by z."""
    pairs: dict[tuple[str, str], PairStats] = {}
    flow: dict[tuple[str, str], float] = {}  # in the hands of the giver's suspect decisions
    shared: dict[frozenset[str], int] = {}
    shares = Shares()
    for hand_id, hand in hands:
        moved = flows_of(hand)
        for s in suspects_of(hand_id, hand, shares):
            if not s.chance:
                continue
            key = (s.giver, s.taker)
            st = pairs.setdefault(key, PairStats())
            st.faced += 1
            st.kinds.append(s.kind)
            st.taken.append(s.suspect)
            if s.suspect:
                st.suspect += 1
                if hand_id not in st.hands:
                    st.hands.append(hand_id)
                    flow[key] = flow.get(key, 0.0) + moved.get(key, 0.0)
        names = set(hand.players)
        for a in names:
            for b in names:
                if a < b:
                    shared[frozenset((a, b))] = shared.get(frozenset((a, b)), 0) + 1
    everyone: dict[str, list[int]] = {}  # kind -> [chances, suspect], the whole room
    given: dict[tuple[str, str], list[int]] = {}  # (giver, kind) -> [chances, suspect], against everybody
    taken: dict[tuple[str, str], list[int]] = {}  # (taker, kind) -> [chances, suspect], from everybody
    for (giver, taker), st in pairs.items():
        for kind, n, k in st.by_kind():
            for tot in (everyone.setdefault(kind, [0, 0]), given.setdefault((giver, kind), [0, 0]),
                        taken.setdefault((taker, kind), [0, 0])):  # fmt: skip
                tot[0] += n
                tot[1] += k
    own_chances: dict[str, int] = {}
    for (giver, _), st in pairs.items():
        own_chances[giver] = own_chances.get(giver, 0) + st.faced
    all_n = sum(n for n, _ in everyone.values())
    all_k = sum(k for _, k in everyone.values())
    out = []
    for (giver, taker), st in pairs.items():
        if st.suspect == 0:
            continue
        expected = variance = 0.0
        for kind, n, k in st.by_kind():
            room_n, room_k = everyone[kind]
            # the rest of the room's rate of this kind, drawn toward its rate of all kinds (with no
            # chance at all outside the pair there is no baseline: nothing is unexpected)
            rest = (all_k - st.suspect) / (all_n - st.faced) if all_n > st.faced else MAX_RATE
            prior = _rate(room_k - k, room_n - n, rest)
            g_n, g_k = given[(giver, kind)]
            t_n, t_k = taken[(taker, kind)]
            # the higher of two baselines: his chances of this kind against the others, and the others'
            # chances of this kind against the taker; each with the chances it rests on
            rate, weight = max(
                (_rate(g_k - k, g_n - n, prior), g_n - n + PRIOR_WEIGHT),
                (_rate(t_k - k, t_n - n, prior), t_n - n + PRIOR_WEIGHT),
            )
            rate = min(MAX_RATE, max(BASE_FLOOR, rate))
            expected += rate * n
            # the pair's own binomial spread, and the baseline's: a rate measured on few chances is
            # uncertain, and a timid player's high rate from a dozen folds is no proof of a low one
            variance += rate * (1 - rate) * (n + n * n / weight)
        z = (st.suspect - expected) / math.sqrt(variance)
        net = flow.get((giver, taker), 0.0) - flow.get((taker, giver), 0.0)
        own = own_chances.get(giver, 0) - st.faced  # his chances against everybody else, of any kind
        flagged = (
            st.suspect >= min_suspect
            and z >= min_z
            and st.suspect >= min_taken * st.faced
            and net >= min_flow_bb
        )
        together = shared.get(frozenset((giver, taker)), 0)
        out.append(
            DumpingFinding(
                giver, taker, st.faced, st.suspect, expected, z, net, together, flagged, tuple(st.hands), own
            )
        )
    out.sort(key=lambda f: (not f.flagged, -f.z, f.giver, f.taker))
    return out
