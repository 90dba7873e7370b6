"""Whole hands of the draw games (5-card draw, 7-A, 2-7 single and triple draw, badugi):
properties.py plays them and checks every property at every step."""

from __future__ import annotations

from pokerroom.variants import VARIANTS

from .properties import GAMES, hand_properties_test

test_hand_properties = hand_properties_test([g for g in GAMES if VARIANTS[g].is_draw])
