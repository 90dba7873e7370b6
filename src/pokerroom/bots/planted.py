"""Planted scenarios for the integrity detectors (issue 30): a field of honest bots with one or more that
play with machine timing (a fixed wait before every action), seeded, for the detector's tests and its
benchmark. The honest bots think as the room's own bots do (a uniform wait in ``HONEST_THINK``); the
planted ones wait ``MACHINE_THINK`` every time."""

from __future__ import annotations

import random
from dataclasses import dataclass

__all__ = ["HONEST_THINK", "MACHINE_THINK", "Planted", "timing_field"]

HONEST_THINK = (0.5, 2.0)  # the room's bots (BotClient's default)
MACHINE_THINK = (1.0, 1.0)  # a program that waits one second, always


@dataclass(frozen=True)
class Planted:
    name: str
    think: tuple[float, float]
    machine: bool  # planted: the detector should flag it


def timing_field(honest: int, machines: int, *, seed: int, prefix: str = "plant") -> list[Planted]:
    """``honest + machines`` players in a seeded order (the planted ones among the others)."""
    field = [Planted("", HONEST_THINK, False) for _ in range(honest)]
    field += [Planted("", MACHINE_THINK, True) for _ in range(machines)]
    random.Random(seed).shuffle(field)
    return [Planted(f"{prefix}{i + 1}", p.think, p.machine) for i, p in enumerate(field)]
