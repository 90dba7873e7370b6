"""Whole hands of the stud games (7-card stud, hi/lo, razz, 5-card stud, SOKO):
properties.py plays them and checks every property at every step."""

from __future__ import annotations

from pokerroom.variants import VARIANTS

from .properties import GAMES, hand_properties_test

test_hand_properties = hand_properties_test([g for g in GAMES if VARIANTS[g].is_stud])
