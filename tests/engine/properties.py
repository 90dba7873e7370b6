"""Property-based tests of the hand engine (hypothesis), over every game and every structure it allows:
the machinery, shared by tests/engine/test_properties*.py (the hands of each family of games in a file of
its own, so that the test runner's workers share them out).

Hypothesis draws the table (players, seats, stacks from tiny to deep, stakes with chip units, button,
forced-bet arrangements, auto-muck, rake, cap options) and the deck, then plays a hand, drawing every
decision among the legal ones, with Rush quick folds in and out of turn. At every step:

- chips are conserved (stack + chips put in = starting stack; at the end stacks + rake = total), and the
  pots reported at the end of each round add up to what was put in;
- the decision the hand waits for is the one an independent referee (`referee.py`, written from
  RULES.md §3, §4.5, §6.2 and fed only with the event log) expects: the seat, and every betting option;
- illegal and malformed commands (wrong seat, wrong phase, amounts out of range or off the chip unit,
  cards not held, duplicates, too many, quick folds without a bet to face, non-commands) raise an
  `EngineError` with the expected stable
  `code` and leave the hand unchanged (internal state, `snapshot()`, event count);
- no event shows a hidden card to anyone who may not see it, in `view_for`, `public_view()`,
  `to_dict()` or `repr()`; errors and the hand's `repr` show none either.

At the end: the payout equals an independent reference (side pots §3.8, splits and odd chips §3.9,
hi/lo §2.7, rake §7.1), the showdown order and automatic shows follow §6.2, every winner was shown,
the same deck and commands replay to identical events, and a snapshot taken at a random point (through
JSON) restores to the same state and continues identically.

Size: bounded for CI; ``POKERROOM_SOAK=1`` runs many more examples.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.cards import Card, DeckSpec
from pokerroom.engine import (
    BetDecision,
    Betting,
    Blinds,
    BringIn,
    Call,
    Check,
    Command,
    Discard,
    DiscardDecision,
    Draw,
    DrawDecision,
    EngineError,
    Fold,
    HandComplete,
    HandState,
    ListDeck,
    Muck,
    QuickFold,
    RaiseTo,
    RakeRule,
    RunTwice,
    RunTwiceDecision,
    SeatSetup,
    Show,
    ShowDecision,
    Stakes,
    Structure,
    TimeOut,
)
from pokerroom.engine.events import (
    ActionTaken,
    CardsDealt,
    CardsShown,
    Discarded,
    Drew,
    Event,
    HandEnded,
    Mucked,
    PotAwarded,
    RunTwiceAnswered,
    StreetStarted,
)
from pokerroom.engine.snapshot import blinds_of
from pokerroom.eval import HandValue, evaluate
from pokerroom.variants import VARIANTS

from .referee import Referee, RefereeError

SOAK = os.environ.get("POKERROOM_SOAK") == "1"
EXAMPLES = 600 if SOAK else 35
CODES = {
    "engine_error",
    "config_error",
    "unknown_variant",
    "bad_command",
    "hand_over",
    "not_your_turn",
    "illegal_action",
    "amount_out_of_range",
    "not_a_chip_multiple",
    "invalid_cards",
    "bad_snapshot",
    "quick_fold_refused",
}
PROFILE = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
CHEAP = settings(PROFILE, max_examples=10 * EXAMPLES)  # for the tests that do not play whole hands
FL, PL, NL = Betting.FIXED_LIMIT, Betting.POT_LIMIT, Betting.NO_LIMIT


# ----------------------------------------------------------------------------------- the table


@dataclass
class Config:
    game: str
    structure: Structure
    stacks: dict[int, int]
    auto_muck: dict[int, bool]
    button: int | None
    blinds: Blinds | None
    rake: RakeRule | None
    cards: list[Card]
    reshuffle: list[Card]
    run_it_twice: bool = False

    @property
    def spec(self) -> DeckSpec:
        return VARIANTS[self.game].deck_for(len(self.stacks))

    def start(self) -> HandState:
        return HandState.start(
            variant=VARIANTS[self.game],
            structure=self.structure,
            seats=[SeatSetup(s, st, self.auto_muck[s]) for s, st in self.stacks.items()],
            deck=ListDeck(self.cards, self.spec, self.reshuffle),
            button=self.button,
            blinds=self.blinds,
            rake=self.rake,
            run_it_twice=self.run_it_twice,
        )

    def referee(self) -> Referee:
        v, seats = VARIANTS[self.game], list(self.stacks)
        return Referee(
            v, self.structure, seats, self.button, self.blinds, self.rake, self.auto_muck, self.run_it_twice
        )


def _stakes(draw: st.DrawFn, game: str, betting: Betting) -> Stakes:
    v = VARIANTS[game]
    chip = draw(st.sampled_from([1, 1, 5]))
    units = st.integers(1, 12)
    if v.is_stud:
        small = chip * draw(st.integers(2, 12))
        big = draw(st.sampled_from([small, 2 * small, 3 * small]))
        bring_in = chip * draw(st.integers(1, small // chip - 1))
        ante = chip * draw(st.integers(0, 3))
        return Stakes(0, 0, small, big, ante, bring_in, chip)
    ante = chip * draw(st.sampled_from([0, 0, 0, 1, 2, 12]))
    bb_ante = ante > 0 and draw(st.booleans())  # a big-blind ante: the big blind antes for the table
    if betting is FL:
        small = chip * draw(units.filter(lambda u: u >= 2))
        big = draw(st.sampled_from([small, 2 * small]))
        sb = chip * draw(st.integers(0, small // chip))
        return Stakes(sb, small, small, big, ante, 0, chip, big_blind_ante=bb_ante)
    bb = chip * draw(units)
    sb = chip * draw(st.integers(0, bb // chip))
    return Stakes(sb, bb, 0, 0, ante, 0, chip, big_blind_ante=bb_ante)


def _blinds(draw: st.DrawFn, stakes: Stakes, after_button: list[int]) -> Blinds | None:
    n = len(after_button)
    kind = draw(st.sampled_from(["default"] * 5 + ["dead_small", "straddle", "live", "returning", "bb_ante"]))
    sb, bb = stakes.small_blind, stakes.big_blind
    if n < 3 or kind == "default":
        return None
    small, big = (after_button[0], sb), (after_button[1], bb)
    other = after_button[draw(st.integers(2, n - 1))]
    if kind == "dead_small":
        return Blinds(small=None, big=big)
    if kind == "straddle":
        return Blinds(small=small, big=big, straddles=((after_button[2], 2 * bb),))
    if kind == "live":
        return Blinds(small=small, big=big, live=((other, bb),))
    if kind == "returning":  # a returning player posts the big blind live and the small blind dead
        return Blinds(small=small, big=big, live=((other, bb),), dead=((other, sb),))
    return Blinds(small=small, big=big, antes=((after_button[1], bb),))


@st.composite
def tables(draw: st.DrawFn, game: str) -> Config:
    v = VARIANTS[game]
    betting = draw(st.sampled_from(v.structures))
    n = draw(st.integers(v.min_players, v.max_players))
    seats = sorted(draw(st.lists(st.integers(1, 10), min_size=n, max_size=n, unique=True)))
    stakes = _stakes(draw, game, betting)
    unit = max(stakes.big_blind, stakes.small_bet)
    forced = stakes.ante + max(stakes.big_blind, stakes.bring_in)
    stack = st.one_of(
        st.integers(1, forced + 2 * stakes.chip_unit),  # cannot even cover the forced bets
        st.integers(1, 25 * unit),
        st.integers(25 * unit, 300 * unit),
    )
    stacks = {s: draw(stack) for s in seats}
    button = None if v.is_stud else draw(st.one_of(st.sampled_from(seats), st.integers(1, 10), st.none()))
    start_after = max(seats) if button is None else button
    after_button = [s for s in seats if s > start_after] + [s for s in seats if s <= start_after]
    blinds = None if v.is_stud else _blinds(draw, stakes, after_button)
    structure = Structure(
        betting, stakes, cap=draw(st.sampled_from([4, 4, 3, 5])), heads_up_uncapped=draw(st.booleans())
    )
    rake = draw(st.one_of(st.none(), st.builds(RakeRule, st.integers(0, 1000), st.integers(0, 30 * unit))))
    spec = v.deck_for(n)
    return Config(
        game,
        structure,
        stacks,
        {s: draw(st.booleans()) for s in seats},
        button,
        blinds,
        rake,
        list(draw(st.permutations(spec.cards()))),
        list(draw(st.permutations(spec.cards()))),
        draw(st.booleans()) if v.has_shared_board else False,  # the table allows running twice (R-RIT)
    )


# ----------------------------------------------------------------------------- hidden cards


def _token(card: Card) -> re.Pattern[str]:
    return re.compile(rf"(?<![0-9A-Za-z]){card}(?![0-9A-Za-z])")


TOKENS = {c: _token(c) for c in DeckSpec.STANDARD.cards()}


def _cards_in(value: Any) -> set[Card]:
    if isinstance(value, Card):
        return {value}
    if isinstance(value, tuple | list):
        return set().union(*(_cards_in(v) for v in value)) if value else set()
    return set()


def _event_cards(e: Event | None) -> set[Card]:
    if e is None:
        return set()
    return set().union(*(_cards_in(getattr(e, f.name)) for f in dataclasses.fields(e)))


def _hidden(e: Event) -> tuple[int | None, set[Card], bool]:
    """(owner, cards hidden from others, whether the players dealt in may see them)."""
    if isinstance(e, CardsDealt):
        return e.seat, {c for c, u in zip(e.cards, e.up, strict=True) if not u and c is not None}, False
    if isinstance(e, Drew):
        return e.seat, _cards_in(e.discarded) | _cards_in(e.received), False
    if isinstance(e, Discarded):
        return e.seat, _cards_in(e.cards), False
    if isinstance(e, Mucked):
        return e.seat, _cards_in(e.cards), True
    return None, set(), False


def check_hidden(events: Sequence[Event], seats: Sequence[int]) -> None:
    """No hidden card reaches anyone who may not see it, in any projection of the event."""
    for e in events:
        owner, hidden, players_may = _hidden(e)
        public = e.public_view()
        leaks = _event_cards(public) & hidden
        assert not leaks, f"public view of {type(e).__name__} shows hidden cards"
        text = repr(e) + json.dumps(public.to_dict() if public else None)
        assert not any(TOKENS[c].search(text) for c in hidden), f"{type(e).__name__} leaks in repr/to_dict"
        if hidden:
            assert not e.visible_to(None, False), type(e).__name__  # observers
        for viewer in seats:
            view = e.view_for(viewer, True)
            may_see = viewer == owner or players_may
            seen = _event_cards(view) & hidden
            assert seen == (hidden if may_see else set()), (type(e).__name__, viewer, owner)
        if isinstance(e, Drew) and isinstance(public, Drew):  # how many were drawn is public (R161)
            assert len(public.received) == len(e.received)
        if isinstance(e, Discarded) and isinstance(public, Discarded):  # that he discarded too (R156)
            assert len(public.cards) == len(e.cards)


def secret_cards(hand: HandState, viewer: int | None) -> set[Card]:
    """Cards that ``viewer`` may not know now: other players' face-down cards and the undealt deck."""
    known: set[Card] = set(hand.board)
    for e in hand.events:
        view = e.view_for(viewer, viewer is not None)
        known |= _event_cards(view)
    return set(hand.deck_spec.cards()) - known


# ------------------------------------------------------------------------------ state checks


def fingerprint(hand: HandState) -> tuple[Any, ...]:
    """Everything an illegal command could have changed."""
    return (
        tuple(dataclasses.astuple(p) for p in hand.players.values()),
        dataclasses.astuple(hand.rnd),
        hand.phase,
        hand.to_act,
        hand.street,
        tuple(hand.board),
        hand.deck.remaining(),
        tuple(hand.discards),
        hand.exposed,
        tuple(hand.pots),
        hand.rake,
        hand.runs,
        tuple(hand.board2),
        len(hand.events),
        len(hand.commands),
        hand.pending,
    )


def check_step(hand: HandState, ref: Referee, cfg: Config) -> None:
    total = sum(cfg.stacks.values())
    stacks, paid = hand.stacks(), hand.contributions()
    assert stacks == ref.stack and paid == ref.paid
    assert all(v >= 0 for v in stacks.values()) and all(v >= 0 for v in paid.values())
    if hand.is_over:
        assert sum(stacks.values()) + hand.rake == total
        return
    assert all(stacks[s] + paid[s] == cfg.stacks[s] for s in cfg.stacks)  # nothing won before the end
    assert hand.pot_total() == sum(paid.values())
    p, want = hand.pending, ref.expect()
    assert not any(TOKENS[c].search(json.dumps(p.to_dict())) for c in hand.deck_spec.cards())
    if isinstance(p, BetDecision):
        player = hand.players[p.seat]
        assert not player.folded and not player.all_in
        got = (p.seat, p.fold, p.check, p.call, p.bring_in, p.raise_kind, p.min_to, p.max_to, p.choices)
        expected = (
            want.seat,
            want.fold,
            want.check,
            want.call,
            want.bring_in,
            want.raise_kind,
            want.min_to,
            want.max_to,
            want.choices,
        )
        assert want.kind == "bet" and got == expected, f"engine {p}, rules {want}"
        assert p.stack == ref.stack[p.seat] and p.bet == ref.bet[p.seat]
        assert p.to_call == max(0, ref.level - ref.bet[p.seat])
    elif isinstance(p, DrawDecision):
        assert want.kind == "draw" and p.seat == want.seat, f"engine {p}, rules {want}"
        assert p.max_discard == VARIANTS[cfg.game].max_draw
    elif isinstance(p, DiscardDecision):
        assert want.kind == "discard" and p.seats == want.seats, f"engine {p}, rules {want}"
    elif isinstance(p, RunTwiceDecision):
        assert want.kind == "run_twice" and p.seats == want.seats, f"engine {p}, rules {want}"
    elif isinstance(p, ShowDecision):
        assert want.kind == "show", f"engine {p}, rules {want}"
        assert not cfg.auto_muck[p.seat]  # only players who turned auto-muck off are asked
    else:
        raise AssertionError(f"unexpected pending {p!r}")


# -------------------------------------------------------------------------------- illegal input


def _others(hand: HandState, allowed: Sequence[int]) -> list[int]:
    return [s for s in hand.order if s not in allowed] + [0, -1, 11, 99]


def may_quick_fold(ref: Referee, seat: int) -> bool:
    """Rush quick fold (RULES §8.5): a player still betting who faces a real bet and has to act on it."""
    if ref.expect().kind != "bet" or seat in ref.folded or seat in ref.quick or ref.stack[seat] == 0:
        return False
    facing = max(ref.bet[s] for s in ref.order if s != seat) > ref.bet[seat]
    return facing and ref.needs_action(seat)


def illegal_commands(hand: HandState, ref: Referee, rng: random.Random) -> list[tuple[Any, str]]:
    """Commands that must be refused now, with the code they must be refused with."""
    p = hand.pending
    out: list[tuple[Any, str]] = [(x, "bad_command") for x in ("fold", None, {"type": "fold"})]
    if isinstance(p, HandComplete):
        seat = rng.choice(hand.order)
        return out + [(c, "hand_over") for c in (Fold(seat), QuickFold(seat), Show(seat), Draw(seat))]
    out += [(QuickFold(s), "quick_fold_refused") for s in hand.order if not may_quick_fold(ref, s)]
    # The one statement of the rule (HandState.verify_quick_fold) agrees with the referee for every seat.
    assert [s for s in hand.order if hand.can_quick_fold(s)] == [
        s for s in hand.order if may_quick_fold(ref, s)
    ]
    out.append((QuickFold(rng.choice(_others(hand, hand.order))), "not_your_turn"))
    waiting = hand.waiting_for()
    for seat in rng.sample(_others(hand, waiting), 2):
        out.append((rng.choice([Fold, Check, Call, TimeOut, Show, BringIn])(seat), "not_your_turn"))
        out.append((RaiseTo(seat, 10**6), "not_your_turn"))
    seat = rng.choice(waiting)
    hole = list(hand.hole_cards(seat))
    chip = hand.structure.stakes.chip_unit
    out.append((RunTwice(seat, "yes"), "bad_command"))  # type: ignore[arg-type]
    if not isinstance(p, RunTwiceDecision):
        out.append((RunTwice(seat, True), "illegal_action"))
    if isinstance(p, BetDecision):
        out += [(Draw(seat, ()), "illegal_action"), (Discard(seat, ()), "illegal_action")]
        out += [(Show(seat), "illegal_action"), (Muck(seat), "illegal_action")]
        if not p.check:
            out.append((Check(seat), "illegal_action"))
        if not p.call:
            out.append((Call(seat), "illegal_action"))
        if not p.bring_in:
            out.append((BringIn(seat), "illegal_action"))
        if not p.fold:
            out.append((Fold(seat), "illegal_action"))
        out += [(RaiseTo(seat, 2.5), "bad_command"), (RaiseTo(seat, True), "bad_command")]  # type: ignore[arg-type]
        if not p.raise_kind:
            out.append((RaiseTo(seat, p.bet + p.stack), "illegal_action"))
        else:
            for amount in (p.min_to - 1, -chip, p.max_to + 1):
                out.append((RaiseTo(seat, amount), "amount_out_of_range"))
            if p.choices:
                off = [a for a in range(p.min_to, p.max_to + 1) if a not in p.choices]
                if off:
                    out.append((RaiseTo(seat, rng.choice(off)), "amount_out_of_range"))
            elif chip > 1:
                off = [a for a in range(p.min_to, p.max_to) if a % chip and a != p.bet + p.stack]
                if off:
                    out.append((RaiseTo(seat, rng.choice(off)), "not_a_chip_multiple"))
        return out
    not_held = [c for c in DeckSpec.STANDARD.cards() if c not in hole]
    wrong_phase = [Fold(seat), Check(seat), Call(seat), RaiseTo(seat, 10), BringIn(seat)]
    if isinstance(p, DrawDecision):
        out += [(c, "illegal_action") for c in (*wrong_phase, Discard(seat, tuple(hole[:2])), Show(seat))]
        out.append((Draw(seat, (rng.choice(not_held),)), "invalid_cards"))
        out.append((Draw(seat, (hole[0], hole[0])), "invalid_cards"))
        out.append((Draw(seat, tuple(hole) + tuple(not_held[:1])), "invalid_cards"))
        out.append((Draw(seat, ("As",)), "invalid_cards"))  # type: ignore[arg-type]
    elif isinstance(p, DiscardDecision):
        out += [(c, "illegal_action") for c in (*wrong_phase, Draw(seat, ()), Show(seat))]
        for cards in ((hole[0],), tuple(hole[:3]), (hole[0], hole[0]), (hole[0], rng.choice(not_held))):
            out.append((Discard(seat, cards), "invalid_cards"))
    elif isinstance(p, ShowDecision):
        out += [(c, "illegal_action") for c in (*wrong_phase, Draw(seat, ()), Discard(seat, ()))]
    elif isinstance(p, RunTwiceDecision):
        out += [(c, "illegal_action") for c in (*wrong_phase, Draw(seat, ()), Discard(seat, ()), Show(seat))]
    return out


def check_illegal(hand: HandState, ref: Referee, rng: random.Random) -> None:
    before, snap, count = fingerprint(hand), hand.snapshot(), len(hand.events)
    secrets: dict[int | None, set[Card]] = {}
    for command, code in illegal_commands(hand, ref, rng):
        with pytest.raises(EngineError) as info:
            hand.apply(command)
        err = info.value
        assert err.code == code, (command, err.code, str(err))
        assert type(err).code in CODES
        data = json.loads(json.dumps(err.to_dict()))
        assert data["code"] == code
        seat = getattr(command, "seat", None)
        viewer = seat if isinstance(seat, int) and seat in hand.players else None
        if viewer not in secrets:
            secrets[viewer] = secret_cards(hand, viewer)
        named = set(getattr(command, "discard", ()) or getattr(command, "cards", ()))
        hidden = secrets[viewer] - named
        assert not any(TOKENS[c].search(str(err)) for c in hidden), "an error names a hidden card"
        assert fingerprint(hand) == before, f"{command!r} changed the hand"
    assert hand.snapshot() == snap and len(hand.events) == count


# --------------------------------------------------------------------------------- the end


def _values(
    hand: HandState, seat: int, board: Sequence[Card] | None = None
) -> tuple[HandValue, HandValue | None]:
    v = hand.variant
    board = hand.board if board is None else board
    high = evaluate(v.rule_for(hand.deck_spec), hand.hole_cards(seat), board)
    low = evaluate(v.low, hand.hole_cards(seat), board) if v.low else None
    return high, (low if low else None)


def _pay_pot(
    low_rule: str | None,
    amount: int,
    contenders: list[int],
    values: dict[int, tuple[HandValue, HandValue | None]],
    won: dict[int, int],
) -> None:
    """One pot (or one run's half of it): best high, hi/lo halves (§2.7), odd chips (§3.9)."""
    best = max(values[s][0] for s in contenders)
    high = [s for s in contenders if values[s][0] == best]
    lows = [s for s in contenders if values[s][1] is not None]
    if low_rule and lows:
        best_low = max(x for s in lows if (x := values[s][1]) is not None)
        low = [s for s in lows if values[s][1] == best_low]
        low_half = amount // 2
        parts = [(amount - low_half, high), (low_half, low)]
    else:
        parts = [(amount, high)]
    for part, winners in parts:
        for seat, share in _split(part, winners).items():
            won[seat] += share


def _split(amount: int, winners: list[int]) -> dict[int, int]:
    base, extra = divmod(amount, len(winners))
    return {w: base + (1 if i < extra else 0) for i, w in enumerate(winners)}


def check_payout(hand: HandState, ref: Referee, cfg: Config) -> None:
    """Final stacks and rake against RULES §3.7-§3.9, §2.7 and §7.1, computed here from scratch."""
    v = hand.variant
    paid, total = ref.paid, sum(ref.paid.values())
    started = {s: cfg.stacks[s] - paid[s] for s in cfg.stacks}
    reached = any(isinstance(e, StreetStarted) for e in hand.events)  # no flop, no drop (§7.1)
    rake = min(cfg.rake.cap, total * cfg.rake.percent_bp // 10_000) if cfg.rake and reached else 0
    active = ref.active()
    won = dict.fromkeys(cfg.stacks, 0)
    if len(active) == 1:
        won[active[0]] = total - rake
    else:
        pots = ref.pots()
        got = [(p.amount, p.eligible) for p in hand.pots]
        assert got == pots, f"pots {got}, rules {pots} (contributions {paid})"
        amounts = [a for a, _ in pots]
        takes = [rake * a // total for a in amounts] if total else [0] * len(amounts)
        takes[0] += rake - sum(takes)
        order = ref.after(ref.button)  # odd chips from the first seat left of the button (stud: seat 1)
        runs: list[tuple[Sequence[Card], list[int]]]  # (board, amount of each pot) of each run
        net = [a - take for a, take in zip(amounts, takes, strict=True)]
        if ref.runs == 2:  # R-RIT: each pot halved, the odd chip to run 1, each half on its own board
            assert hand.boards == (tuple(ref.board_of_run(1)), tuple(ref.board_of_run(2)))
            assert len(hand.board2) == len(hand.board) == ref.board_cards
            halves = [(a + 1) // 2 for a in net]
            second = [a - h for a, h in zip(net, halves, strict=True)]
            runs = [(ref.board_of_run(1), halves), (ref.board_of_run(2), second)]
        else:
            runs = [(hand.board, net)]
        for board, amounts_now in runs:
            values = {s: _values(hand, s, board) for s in active}
            for (_, eligible), amount in zip(pots, amounts_now, strict=True):
                _pay_pot(v.low, amount, [s for s in order if s in eligible], values, won)
    assert hand.rake == rake

    assert hand.stacks() == {s: started[s] + won[s] for s in cfg.stacks}
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert sum(a.amount + a.rake for a in awards) == total
    assert {a.run for a in awards} == ({1, 2} if ref.runs == 2 else {0})
    assert all(sum(a.shares) == a.amount and a.shares for a in awards)
    end = hand.events[-1]
    assert isinstance(end, HandEnded) and end.rake == rake
    assert dict(zip(end.seats, end.stacks, strict=True)) == hand.stacks()
    assert all(n == hand.stacks()[s] - cfg.stacks[s] for s, n in zip(end.seats, end.net, strict=True))


def check_showdown(hand: HandState, ref: Referee, cfg: Config) -> None:
    """RULES §6.2-§6.3: order of showing, automatic shows, and every winner shown."""
    active = ref.active()
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    revealed = {e.seat for e in hand.events if isinstance(e, CardsShown | Mucked)}
    assert not revealed & ref.folded, "a folded hand was revealed (R184)"
    if len(active) == 1:
        assert not ref.showdown and all(not a.description for a in awards)
        return
    shown = {s for s, ok in ref.showdown if ok} | ref.exposed
    assert all(w in shown for a in awards for w in a.winners), "a winning hand was not shown"
    if ref.exposed:  # all-in: every active hand face up, nobody mucks (§6.5)
        assert ref.exposed == set(active) and not ref.showdown
        return
    first = ref.first_shower()
    expected = [first] + [s for s in ref.after(first) if s in active and s != first]
    assert [s for s, _ in ref.showdown] == expected
    assert ref.showdown[0][1], "the first player to show must show"
    pots = ref.pots()
    best_high: dict[int, HandValue] = {}
    best_low: dict[int, HandValue] = {}
    for i, (seat, ok) in enumerate(ref.showdown):
        high, low = _values(hand, seat)
        must = i == 0
        for k, (_, eligible) in enumerate(pots):
            if seat in eligible:
                must |= k not in best_high or high >= best_high[k]
                must |= low is not None and (k not in best_low or low >= best_low[k])
        if must:
            assert ok, f"seat {seat} had to be shown automatically"
        elif cfg.auto_muck[seat]:
            assert not ok, f"seat {seat} (auto-muck) should have been mucked"
        if ok:
            for k, (_, eligible) in enumerate(pots):
                if seat in eligible:
                    best_high[k] = max(best_high.get(k, high), high)
                    if low is not None:
                        best_low[k] = max(best_low.get(k, low), low)


def _views(hand: HandState) -> list[dict[str, Any]]:
    return [e.to_dict() for e in hand.events]


def check_replay(hand: HandState, cfg: Config) -> None:
    """Determinism: the same deck and commands give identical events. The events also survive pickling
    (the last-hands window keeps finished hands' events pickled) field for field and type for type."""
    again = cfg.start()
    for command in hand.commands:
        again.apply(command)
    assert again.events == hand.events and _views(again) == _views(hand)
    assert again.stacks() == hand.stacks()
    assert blinds_of(hand) == hand.snapshot()["blinds"]
    unpickled = pickle.loads(pickle.dumps(tuple(hand.events), protocol=pickle.HIGHEST_PROTOCOL))
    assert [type(e) for e in unpickled] == [type(e) for e in hand.events]
    assert list(unpickled) == hand.events and [e.to_dict() for e in unpickled] == _views(hand)


# --------------------------------------------------------------------------------- the play


def _choose(hand: HandState, data: st.DataObject) -> Command:
    """A legal command; calls and checks are likelier than folds and all-ins, so hands go the distance."""
    p = hand.pending
    if isinstance(p, BetDecision):
        options: list[Command] = []
        passive = Call(p.seat) if p.call else Check(p.seat) if p.check else BringIn(p.seat)
        options += [passive] * 4
        if p.bring_in:
            options.append(BringIn(p.seat))
        if p.raise_kind:
            amounts = list(p.choices) or [p.min_to, p.max_to]
            if not p.choices and p.max_to > p.min_to:
                chip = hand.structure.stakes.chip_unit
                middle = data.draw(st.integers(p.min_to, p.max_to))
                amounts.append(middle if p.allows(middle, chip) else p.min_to)
            options += [RaiseTo(p.seat, a) for a in amounts]
        if p.fold:
            options.append(Fold(p.seat))
        options.append(TimeOut(p.seat))
        return data.draw(st.sampled_from(options))
    if isinstance(p, DrawDecision):
        hole = hand.hole_cards(p.seat)
        keep = data.draw(st.lists(st.booleans(), min_size=len(hole), max_size=len(hole)))
        discard = tuple(c for c, k in zip(hole, keep, strict=True) if not k)[: p.max_discard]
        return data.draw(st.sampled_from([Draw(p.seat, discard), TimeOut(p.seat)]))
    if isinstance(p, DiscardDecision):
        seat = data.draw(st.sampled_from(p.seats))
        cards = tuple(data.draw(st.permutations(hand.hole_cards(seat)))[: p.count])
        return data.draw(st.sampled_from([Discard(seat, cards), TimeOut(seat)]))
    if isinstance(p, RunTwiceDecision):  # mostly yes, so that boards are run twice often
        seat = data.draw(st.sampled_from(p.seats))
        yes = RunTwice(seat, True)
        return data.draw(st.sampled_from([yes] * 6 + [RunTwice(seat, False), TimeOut(seat)]))
    assert isinstance(p, ShowDecision)
    return data.draw(st.sampled_from([Show(p.seat), Muck(p.seat), TimeOut(p.seat)]))


def _check_timeout(before: Any, command: Command, new: list[Event]) -> None:
    """TimeOut: check if free, else fold; the bring-in is posted; a draw stands pat; show-or-muck mucks."""
    if not isinstance(command, TimeOut):
        return
    first = new[0]
    if isinstance(before, BetDecision):
        action = "bring_in" if before.bring_in else "check" if before.check else "fold"
        assert isinstance(first, ActionTaken) and first.action == action
    elif isinstance(before, DrawDecision):
        assert isinstance(first, Drew) and first.discarded == ()
    elif isinstance(before, ShowDecision):
        assert isinstance(first, Mucked)
    elif isinstance(before, DiscardDecision):
        assert isinstance(first, Discarded) and len(first.cards) == before.count
    elif isinstance(before, RunTwiceDecision):  # a timeout answers no (R-RIT)
        assert isinstance(first, RunTwiceAnswered) and not first.agree


def play(cfg: Config, data: st.DataObject) -> None:
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    hand = cfg.start()
    ref = cfg.referee()
    seats = list(cfg.stacks)
    ref.feed(hand.events)
    check_hidden(hand.events, seats)
    snap_at = data.draw(st.integers(0, 40))
    restored: tuple[int, HandState] | None = None
    steps = 0
    while True:
        check_step(hand, ref, cfg)
        check_illegal(hand, ref, rng)
        if steps == snap_at:
            snapshot = json.loads(json.dumps(hand.snapshot()))
            again = HandState.restore(snapshot)
            assert fingerprint(again) == fingerprint(hand) and again.events == hand.events
            restored = (len(hand.commands), again)
        if hand.is_over:
            break
        if isinstance(hand.pending, BetDecision) and data.draw(st.integers(0, 7)) == 0:
            others = [s for s in hand.order if s != hand.pending.seat and may_quick_fold(ref, s)]
            if others:  # a Rush quick fold out of turn: nothing shows until the action reaches him (R204)
                seat = data.draw(st.sampled_from(others))
                assert hand.apply(QuickFold(seat)) == []
                ref.quick.add(seat)
                check_step(hand, ref, cfg)
                continue
        command = _choose(hand, data)
        if isinstance(hand.pending, BetDecision) and may_quick_fold(ref, hand.pending.seat):
            command = data.draw(st.sampled_from([command] * 7 + [QuickFold(hand.pending.seat)]))
        before = hand.pending
        mark = len(hand.events)
        new = hand.apply(command)
        assert new and new == hand.events[mark:]
        _check_timeout(before, command, new)
        ref.feed(new)
        check_hidden(new, seats)
        steps += 1
        assert steps < 1000
    assert isinstance(hand.pending, HandComplete) and ref.expect().kind == "done"
    assert "Card(" not in repr(hand) and not any(TOKENS[c].search(repr(hand)) for c in hand.deck_spec.cards())
    check_payout(hand, ref, cfg)
    check_showdown(hand, ref, cfg)
    check_replay(hand, cfg)
    if restored is not None:
        k, again = restored
        for command in hand.commands[k:]:
            again.apply(command)
        assert again.events == hand.events


GAMES = sorted(VARIANTS)


def hand_properties_test(family: Sequence[str]) -> Callable[..., None]:
    """The test of whole hands of each game of ``family``, for a test file to bind to a ``test_`` name:
    hypothesis draws the table and every decision, and :func:`play` checks every property."""

    @pytest.mark.slow
    @pytest.mark.parametrize("game", family)
    @PROFILE
    @given(data=st.data())
    def test_hand_properties(game: str, data: st.DataObject) -> None:
        cfg = data.draw(tables(game))
        try:
            play(cfg, data)
        except RefereeError as exc:
            raise AssertionError(f"the engine broke a rule: {exc}") from None

    test: Callable[..., None] = test_hand_properties  # the decorators leave it typed Any
    return test
