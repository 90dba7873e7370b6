"""Shared helpers for engine tests: building hands from literal decks and playing random legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence

from pokerroom.cards import DeckSpec
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
    Fold,
    HandState,
    ListDeck,
    Muck,
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
from pokerroom.variants import get_variant


def start(
    game: str,
    betting: Betting,
    stakes: Stakes,
    stacks: Sequence[int] | dict[int, int],
    deck: str = "",
    *,
    button: int | None = None,
    blinds: Blinds | None = None,
    rake: RakeRule | None = None,
    auto_muck: bool = True,
    heads_up_uncapped: bool = True,
    spec: DeckSpec | None = None,
    run_it_twice: bool = False,
) -> HandState:
    """A hand with a literal deck: ``deck`` lists the cards in the order they are taken (burns included)."""
    v = get_variant(game)
    seat_stacks = stacks if isinstance(stacks, dict) else {i + 1: s for i, s in enumerate(stacks)}
    deck_spec = spec or v.deck_for(len(seat_stacks))
    return HandState.start(
        variant=v,
        structure=Structure(betting, stakes, heads_up_uncapped=heads_up_uncapped),
        seats=[SeatSetup(s, st, auto_muck) for s, st in seat_stacks.items()],
        deck=ListDeck.from_text(deck, deck_spec),
        button=button,
        blinds=blinds,
        rake=rake,
        run_it_twice=run_it_twice,
    )


def random_command(hand: HandState, rng: random.Random) -> Command:
    """A random legal command for whatever the hand is waiting for."""
    p = hand.pending
    if isinstance(p, BetDecision):
        opts: list[Command] = [TimeOut(p.seat)]
        if p.fold:
            opts.append(Fold(p.seat))
        if p.check:
            opts.append(Check(p.seat))
        if p.call:
            opts.append(Call(p.seat))
        if p.bring_in:
            opts.append(BringIn(p.seat))
        if p.raise_kind:
            amounts = list(p.choices) or [p.min_to, p.max_to, rng.randint(p.min_to, p.max_to)]
            chip = hand.structure.stakes.chip_unit
            legal = [a for a in amounts if p.allows(a, chip)]
            if legal:
                opts.append(RaiseTo(p.seat, rng.choice(legal)))
        return rng.choice(opts)
    if isinstance(p, DrawDecision):
        hole = hand.hole_cards(p.seat)
        k = rng.randint(0, min(p.max_discard, len(hole)))
        return Draw(p.seat, tuple(rng.sample(hole, k)))
    if isinstance(p, DiscardDecision):
        seat = rng.choice(p.seats)
        if rng.random() < 0.2:
            return TimeOut(seat)
        return Discard(seat, tuple(rng.sample(hand.hole_cards(seat), p.count)))
    if isinstance(p, ShowDecision):
        return rng.choice([Show(p.seat), Muck(p.seat), TimeOut(p.seat)])
    if isinstance(p, RunTwiceDecision):
        seat = rng.choice(p.seats)
        return rng.choice([RunTwice(seat, True), RunTwice(seat, True), RunTwice(seat, False), TimeOut(seat)])
    raise AssertionError("the hand is over")


def default_stakes(game: str, betting: Betting) -> Stakes:
    if get_variant(game).is_stud:
        return Stakes.fixed_limit(200, 400, ante=40, bring_in=50, blinds=False)
    if betting is Betting.FIXED_LIMIT:
        return Stakes.fixed_limit(200, 400)
    return Stakes.blinds(100, 200)
