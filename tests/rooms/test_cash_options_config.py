"""The configuration file's keys of RULES.md §11.2 (docs/configuration.md): ``straddle``, ``bomb_pot_every``
and ``bomb_pot_ante`` of a ``[[table]]``, off by default; a bad value is named with its key."""

from __future__ import annotations

import pytest

from pokerroom.server.config import ConfigInvalid, parse_config

TABLE = """
[[table]]
id = "club"
game = "holdem"
betting = "NL"
seats = 6
"""


def test_the_options_are_off_by_default() -> None:
    (cfg,) = parse_config(TABLE + "stakes = { big_blind = 200 }\n").tables
    assert (cfg.straddle, cfg.bomb_pot_every, cfg.bomb_pot_ante) == ("off", 0, 0)


def test_the_options_are_read_per_table() -> None:
    text = (
        TABLE
        + "stakes = { big_blind = 200 }\n"
        + 'straddle = "mississippi"\nbomb_pot_every = 12\nbomb_pot_ante = 500\n'
    )
    (cfg,) = parse_config(text).tables
    assert (cfg.straddle, cfg.bomb_pot_every, cfg.bomb_ante) == ("mississippi", 12, 500)


@pytest.mark.parametrize(
    ("extra", "key"),
    [
        ('straddle = "always"', "straddle"),
        ('straddle = "utg"', "straddle"),  # at a table of two seats: never heads-up (R253)
        ("bomb_pot_every = -3", "bomb_pot_every"),
        ("bomb_pot_ante = 400", "bomb_pot_ante"),  # an ante without bomb pots
        (
            "bomb_pot_every = 10\nbomb_pot_ante = 5\nstakes = { big_blind = 200, chip_unit = 10 }",
            "bomb_pot_ante",
        ),
    ],
)
def test_a_bad_option_is_named_with_its_key(extra: str, key: str) -> None:
    text = TABLE + ("" if "stakes" in extra else "stakes = { big_blind = 200 }\n") + extra + "\n"
    if extra == 'straddle = "utg"':
        text = text.replace("seats = 6", "seats = 2")
    with pytest.raises(ConfigInvalid) as caught:
        parse_config(text)
    assert any(p.path.endswith(f".{key}") for p in caught.value.problems), caught.value.problems


MIXED = """
[[table]]
id = "horse"
mix = "horse"
stakes = { small_bet = 200, big_bet = 400 }
"""


def test_a_mixed_table_is_a_mix_and_its_small_and_big_bet() -> None:
    """RULES.md §11.1: ``mix`` instead of ``game``; rounds of the seats' number of hands unless
    ``round_hands`` says otherwise; the name defaults to the mix's."""
    (cfg,) = parse_config(MIXED).tables
    assert (cfg.mix, cfg.variant, cfg.betting.value, cfg.name) == ("horse", "holdem", "FL", "H.O.R.S.E.")
    assert (cfg.seats, cfg.hands_per_round) == (6, 6)
    assert [g.variant for g in cfg.games] == ["holdem", "omaha8", "razz", "stud", "stud8"]
    (cfg,) = parse_config(MIXED.replace('"horse"\nstakes', '"ha"\nround_hands = 9\nstakes')).tables
    assert (cfg.mix, cfg.variant, cfg.betting.value, cfg.hands_per_round) == ("ha", "holdem", "NL", 9)
    assert cfg.games[0].stakes.big_blind == 100  # big blind = small bet / 2 (R249)


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ('mix = "horse"', 'mix = "hose"', "mix"),
        ("stakes = {", "seats = 9\nstakes = {", "seats"),  # stud is played by 8 at most
        ("stakes = {", 'straddle = "utg"\nstakes = {', "straddle"),
        ("stakes = {", "round_hands = -2\nstakes = {", "round_hands"),
    ],
)
def test_a_bad_mixed_table_is_named_with_its_key(old: str, new: str, key: str) -> None:
    with pytest.raises(ConfigInvalid) as caught:
        parse_config(MIXED.replace(old, new))
    assert any(p.path.endswith(f".{key}") for p in caught.value.problems), caught.value.problems


def test_dealers_choice_is_read_and_needs_a_mix() -> None:
    (cfg,) = parse_config(MIXED + "dealers_choice = true\n").tables
    assert cfg.dealers_choice and cfg.timing.choose_game == 15
    with pytest.raises(ConfigInvalid) as caught:
        parse_config(TABLE + "stakes = { big_blind = 200 }\ndealers_choice = true\n")
    assert any(p.path.endswith(".dealers_choice") for p in caught.value.problems), caught.value.problems
