"""Differential tests against PokerKit 0.7 (a test-only dependency): the same deck, the same decisions,
the same finishing stacks.

How it works. Our engine deals from a seeded deck; every card it deals (hole, board, draws) is dealt to
the same player in PokerKit by hand, so both play the same cards. At every betting decision both engines
must ask the same player; their legal options are compared, and the decision is drawn from the options
both allow. Every difference in the options must be one of the documented differences below, or the
test fails. At the end PokerKit's stacks must equal what PokerKit's own payout rules give for our hand
(:func:`pokerkit_payout`, which re-derives PokerKit's pots from our contributions and our hand values):
this checks our betting, contributions, uncalled bets, side-pot levels and hand evaluation against
PokerKit, while keeping the documented payout differences explicit.

Game definitions. Where PokerKit ships the game (`STOCK`), its own definition is used, with only the
documented adjustments; otherwise the definition is built from our catalog entry (`generic_streets`),
and `test_generic_definitions_match_stock` checks that builder against every stock game.

Documented differences (configured around or asserted, never skipped silently):

- FL preflop cap: RULES §3.3 counts the big blind as the first of four bets; PokerKit allows four raises
  after it. The stock definitions get a preflop count of 3 (`test_documented_fl_preflop_cap`).
- FL heads-up cap: our cash tables lift the cap heads-up (R58); PokerKit never does. The diff plays
  ``Structure(heads_up_uncapped=False)`` (`test_documented_fl_heads_up_cap`).
- FL short all-ins: RULES §3.6 half-bet rule (raise to B + U; an all-in of half a bet or more reopens);
  PokerKit raises to H + U and reopens only on full raises. Option differences in a round with a short
  all-in wager are accepted as ``fl_half_bet_rule``.
- 7-Card Stud open pair on 4th street (R121): PokerKit has no big-bet option (``pk_no_open_pair``).
- Raising when no other player can put in more than the current bet (the others are all-in or can
  only call all-in for less): we refuse only when every other player is all-in (RULES §3.1), PokerKit
  also in the second case; the excess of such a raise comes back uncalled (§3.7), so it is
  stack-neutral (``pk_no_pointless_raise``).
- Odd chips: RULES §3.9 gives leftover units one at a time per pot; PokerKit gives a pot's whole
  remainder to its first winner, and merges pots once losing hands are killed
  (`test_documented_odd_chips`).
- Short forced bets: RULES §3.6 keeps the level at the full big blind; PokerKit only at what was posted
  (`test_documented_short_big_blind`). The diff gives every player more than the forced bets.
- Burns: RULES §1.1 burns no card in draw rounds; PokerKit does (cards are dealt by hand, so it does not
  matter). Stud with 8 players is not compared: with the stub exhausted RULES §5.7 deals one community
  card, PokerKit re-deals mucked cards.

PokerKit bugs found (each pinned by a test on the minimal example, so a fix in PokerKit shows up):

- `FixedLimitOmahaHoldemHighLowSplitEightOrBetter` plays pot limit (known); the diff uses fixed limit.
- An all-in for less than a full raise reopens the betting to players who already acted when nobody has
  made a full bet or raise in the round yet (preflop the big blind is not counted):
  `test_pokerkit_bug_short_all_in_reopens` (``pk_short_all_in_reopens`` in the diff).
- Hi/lo: a side pot whose contestants have no qualifying low is still halved when another pot has a
  low, and its low half is shared by all its contestants: `test_pokerkit_bug_hi_lo_side_pot`.

Not compared (PokerKit has no equivalent): Irish, SOKO, 5-Card Draw 7-A.
"""

from __future__ import annotations

import dataclasses
import os
import random
import warnings
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import version
from typing import Any

import pytest

from pokerroom.cards import Card
from pokerroom.engine import (
    BetDecision,
    Betting,
    BringIn,
    Call,
    Check,
    Command,
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
)
from pokerroom.engine.events import (
    ActionTaken,
    BoardDealt,
    Burned,
    CardsDealt,
    Drew,
    Event,
    Posted,
    PotAwarded,
    RoundEnded,
    StreetStarted,
)
from pokerroom.eval import HandValue, evaluate
from pokerroom.variants import VARIANTS

from .helpers import start

if os.environ.get("CI") == "true":
    import pokerkit as pk
else:
    pk = pytest.importorskip("pokerkit", reason="pokerkit (test extra) is not installed")

if not version("pokerkit").startswith("0.7."):
    pytest.skip(
        f"these tests are written for PokerKit 0.7, not {version('pokerkit')}", allow_module_level=True
    )

SOAK = os.environ.get("POKERROOM_SOAK") == "1"
HANDS_PER_CASE = 1500 if SOAK else 50

FL, PL, NL = Betting.FIXED_LIMIT, Betting.POT_LIMIT, Betting.NO_LIMIT
A = pk.Automation
AUTOMATIONS = (
    A.ANTE_POSTING,
    A.BET_COLLECTION,
    A.BLIND_OR_STRADDLE_POSTING,
    A.RUNOUT_COUNT_SELECTION,
    A.HOLE_CARDS_SHOWING_OR_MUCKING,
    A.HAND_KILLING,
    A.CHIPS_PUSHING,
    A.CHIPS_PULLING,
)
PK_BETTING = {
    FL: pk.BettingStructure.FIXED_LIMIT,
    PL: pk.BettingStructure.POT_LIMIT,
    NL: pk.BettingStructure.NO_LIMIT,
}
PK_HANDS: dict[str, Any] = {
    "high": pk.StandardHighHand,
    "omaha_high": pk.OmahaHoldemHand,
    "omaha_eight_low": pk.OmahaEightOrBetterLowHand,
    "eight_low": pk.EightOrBetterLowHand,
    "ace5_low": pk.RegularLowHand,
    "deuce7_low": pk.StandardLowHand,
    "badugi": pk.BadugiHand,
    "short_deck_6a": pk.ShortDeckHoldemHand,
}

# Stakes of the diff: FL 20/40 (stud: ante 5, bring-in 5), PL/NL blinds 5/10 (short deck: ante 2).
SMALL_BET, BIG_BET, ANTE, BRING_IN, SB, BB = 20, 40, 5, 5, 5, 10


def stakes_for(game: str, betting: Betting) -> Stakes:
    v = VARIANTS[game]
    if v.is_stud:
        return Stakes.fixed_limit(SMALL_BET, BIG_BET, ante=ANTE, bring_in=BRING_IN, blinds=False)
    if betting is FL:
        return Stakes.fixed_limit(SMALL_BET, BIG_BET)
    return Stakes.blinds(SB, BB, ante=2 if game == "shortdeck" else 0)


def _stock(game: str, betting: Betting) -> Any:
    """PokerKit's own definition of a game, where it has one (stakes as in :func:`stakes_for`)."""
    blinds = (SB, BB) if betting is not FL else (SMALL_BET // 2, SMALL_BET)
    table: dict[tuple[str, Betting], Callable[[], Any]] = {
        ("holdem", FL): lambda: pk.FixedLimitTexasHoldem((), True, 0, blinds, SMALL_BET, BIG_BET),
        ("holdem", NL): lambda: pk.NoLimitTexasHoldem((), True, 0, blinds, BB),
        ("omaha", PL): lambda: pk.PotLimitOmahaHoldem((), True, 0, blinds, BB),
        ("omaha8", FL): lambda: pk.FixedLimitOmahaHoldemHighLowSplitEightOrBetter(
            (), True, 0, blinds, SMALL_BET, BIG_BET
        ),
        ("stud", FL): lambda: pk.FixedLimitSevenCardStud((), True, ANTE, BRING_IN, SMALL_BET, BIG_BET),
        ("stud8", FL): lambda: pk.FixedLimitSevenCardStudHighLowSplitEightOrBetter(
            (), True, ANTE, BRING_IN, SMALL_BET, BIG_BET
        ),
        ("razz", FL): lambda: pk.FixedLimitRazz((), True, ANTE, BRING_IN, SMALL_BET, BIG_BET),
        ("deuce7_triple", FL): lambda: pk.FixedLimitDeuceToSevenLowballTripleDraw(
            (), True, 0, blinds, SMALL_BET, BIG_BET
        ),
        ("deuce7_single", NL): lambda: pk.NoLimitDeuceToSevenLowballSingleDraw((), True, 0, blinds, BB),
        ("badugi", FL): lambda: pk.FixedLimitBadugi((), True, 0, blinds, SMALL_BET, BIG_BET),
        ("shortdeck", NL): lambda: pk.NoLimitShortDeckHoldem((), True, 2, blinds, BB),
    }
    make = table.get((game, betting))
    return make() if make else None


STOCK = {
    ("holdem", FL),
    ("holdem", NL),
    ("omaha", PL),
    ("omaha8", FL),
    ("stud", FL),
    ("stud8", FL),
    ("razz", FL),
    ("deuce7_triple", FL),
    ("deuce7_single", NL),
    ("badugi", FL),
    ("shortdeck", NL),
}
GENERIC = {
    ("holdem", PL),
    ("omaha", FL),
    ("omaha", NL),
    ("omaha5", PL),
    ("omaha6", PL),
    ("omaha8", PL),
    ("omaha8", NL),
    ("omaha8_5", PL),
    ("stud5", FL),
    ("deuce7_triple", NL),
    ("deuce7_triple", PL),
    ("deuce7_single", FL),
    ("deuce7_single", PL),
    ("draw5", FL),
    ("draw5", PL),
    ("draw5", NL),
}
CASES = sorted(STOCK | GENERIC, key=lambda c: (c[0], c[1].value))


def generic_streets(game: str, structure: Structure) -> tuple[Any, ...]:
    """PokerKit streets built from our catalog entry (for games PokerKit does not ship)."""
    v = VARIANTS[game]
    stakes = structure.stakes
    out = []
    for i, s in enumerate(v.streets):
        if structure.betting is FL:
            amount = stakes.big_bet if s.big_bet else stakes.small_bet
            # RULES §3.3: preflop the big blind is the first of the `cap` bets.
            count: int | None = structure.cap - 1 if i == 0 and not v.is_stud else structure.cap
        else:
            amount, count = structure.min_bet, None
        if not v.is_stud:
            opening = pk.Opening.POSITION
        elif i == 0:
            opening = pk.Opening.HIGH_CARD if v.bring_in_highest else pk.Opening.LOW_CARD
        else:
            opening = pk.Opening.LOW_HAND if v.bring_in_highest else pk.Opening.HIGH_HAND
        out.append(pk.Street(s.burn, tuple(s.deal), s.board, s.draw, opening, amount, count))
    return tuple(out)


def pokerkit_definition(game: str, structure: Structure) -> tuple[Any, tuple[Any, ...], Any, Any]:
    """(deck, hand types, streets, betting structure) for PokerKit, with the documented adjustments."""
    stock = _stock(game, structure.betting)
    v = VARIANTS[game]
    if stock is None:
        hands = (PK_HANDS[v.high],) + ((PK_HANDS[v.low],) if v.low else ())
        deck = pk.Deck.SHORT_DECK_HOLDEM if v.deck.size == 36 else pk.Deck.STANDARD
        return deck, hands, generic_streets(game, structure), PK_BETTING[structure.betting]
    streets = tuple(stock.streets)
    betting = type(stock).betting_structure
    if structure.betting is FL and not v.is_stud:
        streets = (dataclasses.replace(streets[0], max_completion_betting_or_raising_count=3), *streets[1:])
    if game == "omaha8" and structure.betting is FL:  # PokerKit bug: its FL Omaha hi/lo plays PL
        assert betting is pk.BettingStructure.POT_LIMIT
        betting = pk.BettingStructure.FIXED_LIMIT
        streets = tuple(
            dataclasses.replace(s, max_completion_betting_or_raising_count=3 if i == 0 else 4)
            for i, s in enumerate(streets)
        )
    return stock.deck, tuple(stock.hand_types), streets, betting


def pk_card(card: Card) -> Any:
    text = str(card)
    return pk.Card(pk.Rank(text[0]), pk.Suit(text[1]))


# ------------------------------------------------------------------------------------- the payout


def pokerkit_payout(hand: HandState, order: list[int]) -> dict[int, int]:
    """The stacks PokerKit ends with for our hand, from our contributions and hand values.

    PokerKit kills every hand that cannot win anything, builds pots from the contribution levels among
    the remaining players (merging neighbours with the same players), splits a pot between the hand
    types that any remaining player holds (remainder to the high half) and gives each part's whole
    remainder to its first winner. A part with no hand of its type among the pot's players goes to all
    of them (the hi/lo side-pot bug).
    """
    paid = hand.contributions()
    stacks = {s: hand.players[s].starting_stack - paid[s] for s in order}
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    if not any(a.description for a in awards):  # uncontested: all to the last player
        for a in awards:
            for w, share in zip(a.winners, a.shares, strict=True):
                stacks[w] += share + a.rake
        return stacks
    alive = {w for a in awards for w in a.winners}
    v = hand.variant
    rule = v.rule_for(hand.deck_spec)
    high: dict[int, HandValue | None] = {s: evaluate(rule, hand.hole_cards(s), hand.board) for s in alive}
    types = [high]
    if v.low:
        low: dict[int, HandValue | None] = {}
        for s in alive:
            value = evaluate(v.low, hand.hole_cards(s), hand.board)
            low[s] = value if value else None
        if any(x is not None for x in low.values()):
            types.append(low)
    pots: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for level in sorted(set(paid.values())):
        amount = sum(min(c, level) - min(c, previous) for c in paid.values())
        players = tuple(s for s in order if s in alive and paid[s] >= level)
        while pots and pots[-1][1] == players:
            amount += pots.pop()[0]
        if amount:
            pots.append((amount, players))
        previous = level
    for amount, players in pots:
        q, r = divmod(amount, len(types))
        for k, values in enumerate(types):
            part = q + (r if k == 0 else 0)
            present = [x for s in players if (x := values[s]) is not None]
            best = max(present) if present else None
            winners = [s for s in players if values[s] == best]
            share, rest = divmod(part, len(winners))
            for i, w in enumerate(winners):
                stacks[w] += share + (rest if i == 0 else 0)
    return stacks


# ------------------------------------------------------------------------------------- the driver


class Unexplained(AssertionError):
    """The engines disagree in a way no documented difference explains."""


@dataclass
class Stats:
    hands: int = 0
    showdowns: int = 0
    all_ins: int = 0
    side_pots: int = 0
    split_pots: int = 0
    draws: int = 0
    option_differences: Counter[str] = field(default_factory=Counter)
    payout_differences: Counter[str] = field(default_factory=Counter)


def _round_events(hand: HandState) -> list[Event]:
    out: list[Event] = []
    for e in reversed(hand.events):
        if isinstance(e, RoundEnded | StreetStarted):
            break
        out.append(e)
    return out[::-1]


def _pk_raise_refusal(state: Any) -> str:
    try:
        state._verify_completion_betting_or_raising()
    except ValueError as exc:
        return str(exc)
    return ""


class Duel:
    """One hand played by both engines with the same cards and the same decisions."""

    def __init__(
        self,
        game: str,
        structure: Structure,
        stacks: dict[int, int],
        deck: ListDeck,
        button: int,
        auto_muck: dict[int, bool] | None = None,
    ) -> None:
        v = VARIANTS[game]
        self.betting = structure.betting
        self.hand = HandState.start(
            variant=v,
            structure=structure,
            seats=[SeatSetup(s, st, (auto_muck or {}).get(s, True)) for s, st in stacks.items()],
            deck=deck,
            button=button,
        )
        # PokerKit index 0 is the first seat after the button (stud: the lowest seat).
        self.order = list(self.hand._after(None if v.is_stud else button))
        pk_deck, hands, streets, pk_betting = pokerkit_definition(game, structure)
        stakes = structure.stakes
        self.pk = pk.State(
            AUTOMATIONS,
            pk_deck,
            hands,
            streets,
            pk_betting,
            True,
            stakes.ante,
            0 if v.is_stud else (stakes.small_blind, stakes.big_blind),
            stakes.bring_in if v.is_stud else 0,
            [stacks[s] for s in self.order],
            len(stacks),
            mode=pk.Mode.CASH_GAME,
        )
        self.pk.deck_cards = deque(pk_card(c) for c in deck.order())
        self._seen = 0
        self._hole: dict[int, deque[Card]] = {s: deque() for s in stacks}
        self._board: deque[Card] = deque()
        self._burns = 0
        self.sync_cards()

    def index(self, seat: int) -> int:
        return self.order.index(seat)

    def sync_cards(self) -> None:
        """Give PokerKit every card our engine has dealt since the last call, to the same players."""
        for e in self.hand.events[self._seen :]:
            if isinstance(e, CardsDealt):
                self._hole[e.seat].extend(c for c in e.cards if c is not None)
            elif isinstance(e, Drew):
                self._hole[e.seat].extend(c for c in e.received if c is not None)
            elif isinstance(e, BoardDealt):
                self._board.extend(e.cards)
            elif isinstance(e, Burned):
                self._burns += 1
        self._seen = len(self.hand.events)
        state = self.pk
        progress = True
        while progress:
            progress = False
            if state.can_burn_card():
                # Our burn is the next card of the deck; where we burn none (draw rounds, a short stud
                # stub), PokerKit burns an unknown card.
                if self._burns and state.deck_cards:
                    self._burns -= 1
                    state.burn_card(state.deck_cards[0])
                else:
                    state.burn_card("??")
                progress = True
            if state.can_deal_hole():
                for i, seat in enumerate(self.order):
                    while self._hole[seat] and state.can_deal_hole(player_index=i):
                        state.deal_hole([pk_card(self._hole[seat].popleft())], player_index=i)
                        progress = True
            if state.can_deal_board() and self._board:
                count = state.board_dealing_count
                assert count is not None  # (PokerKit says how many when it can deal the board)
                state.deal_board([pk_card(self._board.popleft()) for _ in range(count)])
                progress = True

    # ------------------------------------------------------------------------------ decisions

    def check_actor(self) -> None:
        p = self.hand.pending
        if isinstance(p, BetDecision):
            actor = self.pk.actor_index
        elif isinstance(p, DrawDecision):
            actor = self.pk.stand_patter_or_discarder_index
        else:
            return
        if actor is None or self.order[actor] != p.seat:
            who = None if actor is None else self.order[actor]
            raise Unexplained(f"we wait for seat {p.seat}, PokerKit for seat {who}")

    def ours(self) -> dict[str, Any]:
        d = self.hand.pending
        assert isinstance(d, BetDecision)
        raises: tuple[int, ...] = ()
        if d.raise_kind:
            raises = d.choices if d.choices else (d.min_to, d.max_to)
        return {"fold": d.fold, "check": d.check, "call": d.call, "bring_in": d.bring_in, "raise": raises}

    def theirs(self) -> dict[str, Any]:
        s = self.pk
        raises: tuple[int | None, ...] = ()
        low = s.min_completion_betting_or_raising_to_amount
        if low is not None:
            high = s.max_completion_betting_or_raising_to_amount
            raises = (low,) if self.betting is FL else (low, high)
        if s.bring_in_status:  # must bring in or complete
            bring_in = s.effective_bring_in_amount
            return {"fold": False, "check": False, "call": 0, "bring_in": bring_in, "raise": raises}
        call = s.checking_or_calling_amount or 0
        # PokerKit refuses a fold that costs nothing only in tournaments; a cash table allows it, as we do.
        return {"fold": True, "check": call == 0, "call": call, "bring_in": 0, "raise": raises}

    def explain(self, ours: dict[str, Any], theirs: dict[str, Any]) -> str | None:
        """Which documented difference explains different options (None: none does)."""
        if {k for k in ours if ours[k] != theirs[k]} != {"raise"}:
            return None
        hand, rnd = self.hand, self.hand.rnd
        d = hand.pending
        assert isinstance(d, BetDecision)
        pointless = _pk_raise_refusal(self.pk).startswith("There is no reason")
        others = [p for p in hand.players.values() if p.seat != d.seat and not p.folded]
        nobody_can_call = all(p.bet + p.stack <= rnd.level for p in others)
        if ours["raise"] and not theirs["raise"] and pointless and nobody_can_call:
            return "pk_no_pointless_raise"
        events = _round_events(hand)
        if self.betting is FL:
            street = hand.variant.streets[hand.street]
            if street.open_pair and rnd.big_unit and set(theirs["raise"]) < set(ours["raise"]):
                return "pk_no_open_pair"
            level = 0
            for e in events:
                if isinstance(e, Posted) and e.what in ("small_blind", "big_blind"):
                    level = max(level, e.amount)
                elif isinstance(e, ActionTaken):
                    full = level + rnd.unit
                    if e.all_in and e.action in ("bet", "raise", "complete") and e.total < full:
                        return "fl_half_bet_rule"
                    level = max(level, e.total)
            return None
        actions = [e for e in events if isinstance(e, ActionTaken)]
        acted = any(e.seat == d.seat and e.action != "fold" for e in actions)
        full_wager = any(not e.all_in and e.action in ("bet", "raise") for e in actions)
        if theirs["raise"] and not ours["raise"] and acted and not full_wager:
            return "pk_short_all_in_reopens"
        return None

    def apply(self, command: Command) -> None:
        """Apply a command to our hand and the same decision to PokerKit's."""
        self.check_actor()
        self.hand.apply(command)
        state = self.pk
        if isinstance(command, Fold):
            state.fold()
        elif isinstance(command, Check | Call):
            state.check_or_call()
        elif isinstance(command, BringIn):
            state.post_bring_in()
        elif isinstance(command, RaiseTo):
            state.complete_bet_or_raise_to(command.amount)
        elif isinstance(command, Draw):
            state.stand_pat_or_discard([pk_card(c) for c in command.discard])
        # Show and Muck change no stack (cards speak, RULES §6.3); PokerKit shows or mucks by itself.
        self.sync_cards()

    def payouts(self) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
        """(our stacks, PokerKit's stacks, what PokerKit's payout rules give for our hand)."""
        if self.pk.status:
            raise Unexplained("our hand is over, PokerKit's is not")
        theirs = dict(zip(self.order, (int(x) for x in self.pk.stacks), strict=True))
        return self.hand.stacks(), theirs, pokerkit_payout(self.hand, self.order)


def random_duel(game: str, betting: Betting, seed: int, stats: Stats) -> None:
    """A random hand in both engines; decisions are drawn from the options both allow."""
    rng = random.Random(f"{game}-{betting.value}-{seed}")
    v = VARIANTS[game]
    n = rng.randint(2, 7 if v.is_stud else v.max_players)
    stakes = stakes_for(game, betting)
    forced = stakes.ante + max(stakes.big_blind, stakes.bring_in)
    seats = sorted(rng.sample(range(1, 11), n))
    stacks = {
        s: rng.choice([forced + rng.randint(1, 3 * SMALL_BET), rng.randint(forced + 1, 3000), 1000])
        for s in seats
    }
    structure = Structure(betting, stakes, heads_up_uncapped=False)
    deck = ListDeck.shuffled(v.deck_for(n), rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns about cards it did not choose itself
        duel = Duel(game, structure, stacks, deck, rng.choice(seats), {s: rng.random() < 0.5 for s in seats})
        hand = duel.hand
        while not hand.is_over:
            p = hand.pending
            if isinstance(p, BetDecision):
                duel.apply(_common_decision(duel, rng, stats))
            elif isinstance(p, DrawDecision):
                hole = hand.hole_cards(p.seat)
                cards = tuple(rng.sample(hole, rng.randint(0, min(p.max_discard, len(hole)))))
                duel.apply(Draw(p.seat, cards))
                stats.draws += 1
            elif isinstance(p, ShowDecision):
                duel.apply(rng.choice([Show(p.seat), Muck(p.seat)]))
            else:
                raise Unexplained(f"unexpected decision {p!r}")
        ours, theirs, expected = duel.payouts()
    if theirs != expected:
        raise Unexplained(f"PokerKit stacks {theirs}, expected {expected} (ours {ours})")
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    if expected != ours:
        whole = any(a.half == "" for a in awards) and any(a.half == "low" for a in awards)
        stats.payout_differences["hi_lo_side_pot" if whole else "odd_chips"] += 1
    stats.hands += 1
    stats.showdowns += any(a.description for a in awards)
    stats.all_ins += any(p.all_in for p in hand.players.values())
    stats.side_pots += any(a.pot > 0 for a in awards)
    stats.split_pots += any(len(a.winners) > 1 for a in awards)


def _common_decision(duel: Duel, rng: random.Random, stats: Stats) -> Command:
    d = duel.hand.pending
    assert isinstance(d, BetDecision)
    duel.check_actor()
    ours, theirs = duel.ours(), duel.theirs()
    if ours != theirs:
        why = duel.explain(ours, theirs)
        if why is None:
            raise Unexplained(f"seat {d.seat}: our options {ours}, PokerKit's {theirs}")
        stats.option_differences[why] += 1
    choices: list[Command] = []
    if ours["fold"] and theirs["fold"] and not ours["check"]:
        choices.append(Fold(d.seat))
    if ours["check"] and theirs["check"]:
        choices.append(Check(d.seat))
    if ours["call"] and ours["call"] == theirs["call"]:
        choices.append(Call(d.seat))
    if ours["bring_in"] and ours["bring_in"] == theirs["bring_in"]:
        choices.append(BringIn(d.seat))
    amounts: list[int] = []
    if ours["raise"] and theirs["raise"]:
        if duel.betting is FL:
            amounts = sorted(set(ours["raise"]) & set(theirs["raise"]))
        else:
            lo, hi = max(ours["raise"][0], theirs["raise"][0]), min(ours["raise"][1], theirs["raise"][1])
            if lo <= hi:
                amounts = [lo, hi, rng.randint(lo, hi)]
    if amounts:
        choices += [RaiseTo(d.seat, rng.choice(amounts)) for _ in range(2)]
    if not choices:
        raise Unexplained(f"no action both engines allow: ours {ours}, PokerKit's {theirs}")
    return rng.choice(choices)


# ------------------------------------------------------------------------------------- the tests


@pytest.mark.slow
@pytest.mark.parametrize(("game", "betting"), CASES, ids=[f"{g}-{b.value}" for g, b in CASES])
def test_same_stacks_as_pokerkit(game: str, betting: Betting) -> None:
    """Random hands: same actor, same options (or a documented difference), same finishing stacks."""
    stats = Stats()
    for seed in range(HANDS_PER_CASE):
        try:
            random_duel(game, betting, seed, stats)
        except Unexplained as exc:
            raise AssertionError(f"{game} {betting.value} seed {seed}: {exc}") from None
    assert stats.hands == HANDS_PER_CASE
    # The hands must reach the interesting places, or the comparison proves little.
    assert stats.showdowns >= HANDS_PER_CASE // 5, stats
    assert stats.all_ins >= HANDS_PER_CASE // 5, stats
    assert stats.showdowns < stats.hands, stats  # some hands end on folds
    if VARIANTS[game].is_draw:
        assert stats.draws > 0


def test_generic_definitions_match_stock() -> None:
    """The street builder used for games PokerKit does not ship gives PokerKit's own definition for the
    games it does ship, up to the documented differences (FL preflop cap, burns in draw rounds)."""
    for game, betting in sorted(STOCK, key=lambda c: (c[0], c[1].value)):
        structure = Structure(betting, stakes_for(game, betting))
        stock = _stock(game, betting)
        v = VARIANTS[game]
        generic = generic_streets(game, structure)
        assert len(generic) == len(stock.streets), game
        for i, (ours, theirs) in enumerate(zip(generic, stock.streets, strict=True)):
            expected = theirs
            if game == "omaha8":  # PokerKit's FL Omaha hi/lo plays pot limit (no cap)
                assert theirs.max_completion_betting_or_raising_count is None
                expected = dataclasses.replace(expected, max_completion_betting_or_raising_count=4)
            if betting is FL and i == 0 and not v.is_stud:  # RULES §3.3: the big blind is a bet
                assert expected.max_completion_betting_or_raising_count == 4
                expected = dataclasses.replace(expected, max_completion_betting_or_raising_count=3)
            if theirs.draw_status:  # RULES §1.1: no burn in draw rounds
                assert theirs.card_burning_status
                expected = dataclasses.replace(expected, card_burning_status=False)
            assert ours == expected, (game, i)
        hands = (PK_HANDS[v.high],) + ((PK_HANDS[v.low],) if v.low else ())
        assert hands == tuple(stock.hand_types), game
        assert {c.rank.value + c.suit.value for c in stock.deck} == {str(c) for c in v.deck.cards()}, game


def test_pokerkit_bug_fl_omaha_hi_lo_plays_pot_limit() -> None:
    """PokerKit 0.7's fixed-limit Omaha hi/lo class is pot limit; the diff plays it fixed limit."""
    cls = pk.FixedLimitOmahaHoldemHighLowSplitEightOrBetter
    assert cls.betting_structure is pk.BettingStructure.POT_LIMIT, "fixed in PokerKit: use the stock class"


def _pk_state(cls: Any, *args: Any) -> Any:
    automations = (*AUTOMATIONS, A.CARD_BURNING, A.HOLE_DEALING, A.BOARD_DEALING)
    return cls.create_state(automations, True, *args, mode=pk.Mode.CASH_GAME)


def test_documented_fl_preflop_cap() -> None:
    """RULES §3.3 (R57): preflop the big blind is the first of the four bets, so three raises cap it.
    PokerKit's stock fixed-limit hold'em allows a fourth raise."""
    hand = start("holdem", FL, Stakes.fixed_limit(2, 4), [100, 100, 100], button=3)
    for amount in (4, 6, 8):
        d = hand.pending
        assert isinstance(d, BetDecision) and d.choices == (amount,)
        hand.apply(RaiseTo(d.seat, amount))
    d = hand.pending
    assert isinstance(d, BetDecision) and d.raise_kind == "" and d.call > 0
    state = _pk_state(pk.FixedLimitTexasHoldem, 0, (1, 2), 2, 4, (100, 100, 100), 3)
    for amount in (4, 6, 8):
        state.complete_bet_or_raise_to(amount)
    assert state.can_complete_bet_or_raise_to(10)  # a fifth bet


def test_documented_fl_heads_up_cap() -> None:
    """R58: at a cash table a round that starts heads-up has no cap; PokerKit always caps (as our
    tournaments do, R59, which is how the diff plays fixed limit)."""
    for uncapped in (True, False):
        hand = start("holdem", FL, Stakes.fixed_limit(2, 4), [100, 100], button=1, heads_up_uncapped=uncapped)
        for amount in (4, 6, 8):
            d = hand.pending
            assert isinstance(d, BetDecision)
            hand.apply(RaiseTo(d.seat, amount))
        d = hand.pending
        assert isinstance(d, BetDecision) and d.choices == ((10,) if uncapped else ())
    state = _pk_state(pk.FixedLimitTexasHoldem, 0, (1, 2), 2, 4, (100, 100), 2)
    for amount in (4, 6, 8, 10):
        state.complete_bet_or_raise_to(amount)
    assert not state.can_complete_bet_or_raise_to()


def test_documented_short_big_blind() -> None:
    """RULES §3.6: a big blind posted all-in for less leaves the level at the full big blind; PokerKit
    lowers it to what was posted."""
    hand = start("holdem", NL, Stakes.blinds(5, 10), {1: 100, 2: 100, 3: 7}, button=1)
    d = hand.pending
    assert isinstance(d, BetDecision) and d.seat == 1 and d.call == 10 and d.min_to == 20
    state = _pk_state(pk.NoLimitTexasHoldem, 0, (5, 10), 10, (100, 7, 100), 3)
    assert state.checking_or_calling_amount == 7
    assert state.min_completion_betting_or_raising_to_amount == 17


def _scripted(
    game: str, structure: Structure, stacks: dict[int, int], deck: str, button: int, script: str
) -> Duel:
    """Play ``script`` ("seat action [amount]; ...") in both engines."""
    v = VARIANTS[game]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        duel = Duel(game, structure, stacks, ListDeck.from_text(deck, v.deck_for(len(stacks))), button)
        for step in filter(None, (s.strip() for s in script.split(";"))):
            seat_text, action, *rest = step.split()
            seat = int(seat_text)
            simple = {"fold": Fold, "check": Check, "call": Call}
            command: Command = RaiseTo(seat, int(rest[0])) if rest else simple[action](seat)
            duel.apply(command)
    return duel


def test_documented_odd_chips() -> None:
    """RULES §3.9 (R88): leftover units of a split go one at a time from the first seat left of the
    button; PokerKit gives the whole remainder to the first winner. Three players play a royal flush
    board for a pot of 35: ours 12/12/11, PokerKit 13/11/11."""
    deck = "2c 3c 4c 5c  2d 3d 4d 5d  6h  Ah Kh Qh  7h Jh  8h Th"
    stacks = {1: 100, 2: 100, 3: 100, 4: 100}
    duel = _scripted(
        "holdem", Structure(NL, Stakes.blinds(5, 10)), stacks, deck, 4, "3 call; 4 call; 1 fold; 2 check"
    )
    hand = duel.hand
    while not hand.is_over:
        d = hand.pending
        assert isinstance(d, BetDecision)
        duel.apply(Check(d.seat))
    ours, theirs, expected = duel.payouts()
    assert ours == {1: 95, 2: 102, 3: 102, 4: 101}
    assert theirs == expected == {1: 95, 2: 103, 3: 101, 4: 101}


def test_pokerkit_bug_short_all_in_reopens() -> None:
    """RULES §3.6: an all-in of less than a full raise does not reopen the betting to players who have
    already acted. Blinds 5/10: the button and the small blind limp, the big blind goes all-in to 17
    (+7). The button may only call or fold; PokerKit lets him raise (to 27 or more), because no full
    bet or raise has been counted in the round yet (it does not count the big blind)."""
    deck = "2c 3c 4c 5c 2d 3d"
    duel = _scripted(
        "holdem",
        Structure(NL, Stakes.blinds(5, 10)),
        {1: 500, 2: 500, 3: 17},
        deck,
        1,
        "1 call; 2 call; 3 raise 17",
    )
    d = duel.hand.pending
    assert isinstance(d, BetDecision) and d.seat == 1 and d.call == 7 and d.raise_kind == ""
    assert duel.pk.actor_index == duel.index(1)
    assert duel.pk.min_completion_betting_or_raising_to_amount == 27  # the bug


def test_pokerkit_bug_hi_lo_side_pot() -> None:
    """RULES §2.7: each pot is split hi/lo among its own contestants; without a qualifying low among them
    the high hand scoops. Omaha hi/lo, PL 5/10: seat 3 (all-in 30) has the only low, seat 4 (all-in 100)
    the best high, seat 1 covers everyone and wins the top side pot after seat 2 folds. The middle side
    pot (210, seats 4 and 1) belongs to seat 4; PokerKit halves it and shares the low half (105) between
    seats 1 and 4, although neither has a low."""
    deck = "Qs Ts Ad Kh  Qd Tc 2d Qh  Jh 7d 9c Jd  Js 6d 9h Jc  2c 4c 5d 8h  3c Kc  3d Ks"
    script = "3 raise 30; 4 raise 100; 1 call; 2 raise 300; 1 raise 600; 2 fold"
    duel = _scripted(
        "omaha8", Structure(PL, Stakes.blinds(5, 10)), {1: 1000, 2: 1000, 3: 30, 4: 100}, deck, 4, script
    )
    assert duel.hand.is_over
    ours, theirs, expected = duel.payouts()
    # main pot 120: high 60 to seat 4, low 60 to seat 3; side pot 210 to seat 4; top pot 400 to seat 1
    assert ours == {1: 1000 - 300 + 400, 2: 1000 - 300, 3: 60, 4: 60 + 210}
    assert theirs == expected
    assert theirs == {1: 1000 - 300 + 400 + 53, 2: 700, 3: 60, 4: 60 + 105 + 52}  # the bug
