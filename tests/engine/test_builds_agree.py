"""The compiled engine and its sources play the same hands identically (docs/engine-speed.md).

The same seeded random hands of every game and structure, with illegal and malformed commands mixed
in, are played by the compiled modules in this process and by the sources in a child process
(``POKERROOM_PURE=1``). Every event, every pending decision, every error code and every snapshot must
be the same.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pokerroom.engine import (
    BUILD,
    Command,
    EngineError,
    Fold,
    HandState,
    ListDeck,
    RaiseTo,
    SeatSetup,
    Structure,
)
from pokerroom.variants import VARIANTS

from ..builds import assert_builds_agree, transcript_from_source
from .helpers import default_stakes, random_command

CASES = [(code, b) for code, v in VARIANTS.items() for b in v.structures]
HANDS = 20


def _noise(hand: HandState, rng: random.Random) -> Command:
    """A command that is probably illegal now: a wrong seat, an odd amount, a float, a bool."""
    seat = rng.choice([*hand.order, 99])
    return rng.choice(
        [
            Fold(seat),
            RaiseTo(seat, rng.randint(-5, 50_000)),
            RaiseTo(seat, 2.5),  # type: ignore[arg-type]
            RaiseTo(True, 10),
        ]
    )


def transcript() -> list[Any]:
    """Everything observable of the seeded hands, as plain data."""
    out: list[Any] = []
    for game, betting in CASES:
        v = VARIANTS[game]
        rng = random.Random(f"agree-{game}-{betting.value}")
        for _ in range(HANDS):
            n = rng.randint(v.min_players, v.max_players)
            seats = sorted(rng.sample(range(1, 11), n))
            hand = HandState.start(
                variant=v,
                structure=Structure(betting, default_stakes(game, betting)),
                seats=[SeatSetup(s, rng.choice([30, 150, 1000, rng.randint(1, 20000)])) for s in seats],
                deck=ListDeck.shuffled(v.deck_for(n), rng),
                button=rng.choice(seats),
            )
            while not hand.is_over:
                out.append(hand.pending.to_dict())
                if rng.random() < 0.3:
                    try:
                        hand.apply(_noise(hand, rng))
                        out.append("accepted")
                    except EngineError as exc:
                        out.append(exc.code)
                    continue
                hand.apply(random_command(hand, rng))
            out.append([e.to_dict() for e in hand.events])
            out.append(hand.snapshot())
            out.append(sorted(hand.stacks().items()))
    return out


@pytest.mark.skipif(BUILD != "mypyc", reason="the engine runs from source here: there is one build only")
def test_the_compiled_engine_and_its_sources_play_alike() -> None:
    from_source = transcript_from_source("tests.engine.test_builds_agree")
    assert_builds_agree(transcript(), from_source)
