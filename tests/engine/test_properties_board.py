"""Whole hands of hold'em, Irish, Omaha (4, 5 and 6 cards, high and hi/lo) and short deck:
properties.py plays them and checks every property at every step."""

from __future__ import annotations

from pokerroom.variants import VARIANTS

from .properties import GAMES, hand_properties_test

test_hand_properties = hand_properties_test(
    [g for g in GAMES if not VARIANTS[g].is_stud and not VARIANTS[g].is_draw]
)
