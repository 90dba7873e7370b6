"""RULES.md §5.0 and §10 R171, R242: how many players the engine deals to in the Omaha games.

Refusing a seat at a table is the table layer's job (``rooms``); the engine's part is that
``VariantSpec.check_players`` (and so ``HandState.start``) refuses to deal to too many players, and that
the catalog states the table sizes. The stud (R113, R239) and draw (R166) limits are tested with those
games.
"""

from __future__ import annotations

import pytest

from pokerroom.engine import Betting, ConfigError, Stakes
from pokerroom.variants import get_variant

from .helpers import start

PL = Betting.POT_LIMIT
STAKES = Stakes.blinds(50, 100)


def test_r171_six_card_omaha_tables_of_two_or_six_five_card_omaha_at_most_six() -> None:
    omaha6, omaha5 = get_variant("omaha6"), get_variant("omaha5")
    assert omaha6.table_sizes == (2, 6)
    assert (omaha6.min_players, omaha6.max_players) == (2, 6)
    assert omaha5.max_players == 6
    for game in ("omaha6", "omaha5"):
        for n in (2, 6):
            assert len(start(game, PL, STAKES, [10_000] * n).players) == n
        with pytest.raises(ConfigError):
            start(game, PL, STAKES, [10_000] * 7)


def test_r242_omaha_hi_lo_ten_players_allowed_eleventh_refused() -> None:
    v = get_variant("omaha8")
    v.check_players(10)
    with pytest.raises(ConfigError):
        v.check_players(11)
    hand = start("omaha8", Betting.FIXED_LIMIT, Stakes.fixed_limit(200, 400), [10_000] * 10)
    assert all(len(hand.hole_cards(s)) == 4 for s in range(1, 11))
    with pytest.raises(ConfigError):
        start("omaha8", Betting.FIXED_LIMIT, Stakes.fixed_limit(200, 400), [10_000] * 11)
