"""Random finished hands of every game and structure, for the history tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from pokerroom.engine import Betting, HandState, ListDeck, RakeRule, SeatSetup, Structure
from pokerroom.variants import VARIANTS

from ..engine.helpers import default_stakes, random_command

CASES = [(code, b) for code, v in VARIANTS.items() for b in v.structures]
CASE_IDS = [f"{g}-{b.value}" for g, b in CASES]


def random_hands(
    game: str, betting: Betting, count: int, seed: str = "", run_it_twice: bool = False
) -> Iterator[HandState]:
    v = VARIANTS[game]
    rng = random.Random(f"{game}{betting}{seed}")
    for _ in range(count):
        n = rng.randint(v.min_players, v.max_players)
        seats = sorted(rng.sample(range(1, 11), n))
        stacks = {s: rng.choice([30, 150, 1000, 5000, rng.randint(1, 20000)]) for s in seats}
        hand = HandState.start(
            variant=v,
            structure=Structure(betting, default_stakes(game, betting)),
            seats=[SeatSetup(s, st, rng.random() < 0.7) for s, st in stacks.items()],
            deck=ListDeck.shuffled(v.deck_for(n), rng),
            button=rng.choice(seats),
            rake=RakeRule(500, 300) if rng.random() < 0.3 else None,
            run_it_twice=run_it_twice,
        )
        while not hand.is_over:
            hand.apply(random_command(hand, rng))
        yield hand


def corrupt(text: str, rng: random.Random, alphabet: str, edits: int = 1) -> str:
    """``text`` with ``edits`` random edits, each a character of ``alphabet`` put in place of one, a
    character dropped, or one of ``alphabet`` inserted (for the tests that feed damaged histories in)."""
    chars = list(text)
    for _ in range(edits):
        i = rng.randrange(len(chars))
        op = rng.random()
        if op < 0.4:
            chars[i] = rng.choice(alphabet)
        elif op < 0.7:
            del chars[i]
        else:
            chars.insert(i, rng.choice(alphabet))
    return "".join(chars)
