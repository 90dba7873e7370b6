"""Hand-made audit histories for the integrity detectors' tests (server/integrity/): three-handed no-limit
hold'em, blinds 1/2, stacks 200; p1 the small blind, p2 the big blind, p3 the button, first to act
preflop. A history may stop after any action: the detectors read decisions, not results."""

from __future__ import annotations

from collections.abc import Sequence


def three_handed(
    names: Sequence[str], holes: Sequence[str], actions: Sequence[str], *, finishing: bool = False
) -> str:
    """The PHH text of a hand among ``names`` (p1, p2, p3) dealt ``holes`` (as "AsAh", in that order), then
    ``actions``; ``finishing``: with the starting stacks as its finishing stacks too."""
    lines = [f'"d dh p{i + 1} {h}"' for i, h in enumerate(holes)] + [f'"{a}"' for a in actions]
    return "\n".join(
        [
            'variant = "NT"',
            "antes = [0, 0, 0]",
            "blinds_or_straddles = [1, 2, 0]",
            "min_bet = 2",
            "starting_stacks = [200, 200, 200]",
            f"actions = [{', '.join(lines)}]",
            f'players = ["{names[0]}", "{names[1]}", "{names[2]}"]',
            *(["finishing_stacks = [200, 200, 200]"] if finishing else []),
        ]
    )
