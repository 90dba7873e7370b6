"""Where a bot's strategy decides: a light one (caller, random) at once on the bot's event loop, a heavy
one (equity sampling) on a worker thread so that the loop keeps serving the process's other bots; a
strategy that does not say is taken for heavy."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from pokerroom.bots.strategies import STRATEGIES, BotView, decide

pytestmark = pytest.mark.asyncio

VIEW = BotView(
    variant="holdem",
    betting="NL",
    seat=1,
    hole=["As", "Kd"],
    board=[],
    decision={"kind": "bet", "fold": True, "call": True, "raise": True, "min_to": 4, "max_to": 100},
)


class _Recorder:
    """Wraps a strategy and records the thread it decided on."""

    def __init__(self, inner: Any, heavy: bool | None) -> None:
        self.inner = inner
        self.name = inner.name
        if heavy is not None:
            self.heavy = heavy
        self.thread: int | None = None

    def decide(self, view: BotView, rng: random.Random) -> dict[str, Any]:
        self.thread = threading.get_ident()
        return dict(self.inner.decide(view, rng))


@pytest.mark.parametrize("name", sorted(STRATEGIES))
async def test_each_strategy_decides_where_its_weight_says(name: str) -> None:
    strategy = STRATEGIES[name]()
    recorder = _Recorder(strategy, strategy.heavy)
    action = await decide(recorder, VIEW, random.Random(1))
    assert action["type"] in ("fold", "call", "raise_to")
    on_loop = recorder.thread == threading.get_ident()
    assert on_loop is (not strategy.heavy)
    assert strategy.heavy is (name == "strength")


async def test_a_strategy_that_does_not_say_decides_on_a_worker_thread() -> None:
    recorder = _Recorder(STRATEGIES["caller"](), None)
    assert not hasattr(recorder, "heavy")
    await decide(recorder, VIEW, random.Random(1))
    assert recorder.thread is not None and recorder.thread != threading.get_ident()
