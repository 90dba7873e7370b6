"""Random legal play in every game and structure: the hand always finishes and conserves chips."""

from __future__ import annotations

import random

import pytest

from pokerroom.engine import HandState, ListDeck, SeatSetup, Structure
from pokerroom.variants import VARIANTS

from .helpers import default_stakes, random_command

CASES = [(code, b) for code, v in VARIANTS.items() for b in v.structures]


@pytest.mark.parametrize(("game", "betting"), CASES, ids=[f"{g}-{b.value}" for g, b in CASES])
def test_random_hands_finish_and_conserve_chips(game: str, betting: object) -> None:
    v = VARIANTS[game]
    rng = random.Random(f"{game}{betting}")
    for _ in range(40):
        n = rng.randint(v.min_players, v.max_players)
        seats = sorted(rng.sample(range(1, 11), n))
        stacks = {s: rng.choice([30, 150, 1000, 5000, rng.randint(1, 20000)]) for s in seats}
        hand = HandState.start(
            variant=v,
            structure=Structure(betting, default_stakes(game, betting)),  # type: ignore[arg-type]
            seats=[SeatSetup(s, st, rng.random() < 0.7) for s, st in stacks.items()],
            deck=ListDeck.shuffled(v.deck_for(n), rng),
            button=rng.choice(seats),
        )
        while not hand.is_over:
            hand.apply(random_command(hand, rng))
            assert all(p.stack >= 0 for p in hand.players.values())
            if not hand.is_over:
                assert sum(p.stack + p.paid for p in hand.players.values()) == sum(stacks.values())
        assert sum(hand.stacks().values()) + hand.rake == sum(stacks.values())
