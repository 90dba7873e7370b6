"""Mixed-game tournaments (issue 36 item 1, issue 35 item 7; RULES.md §11.1): one game of the mix per
level at every table (R251), each level carrying every game's stakes (R249), the button kept through the
stud levels (R247), the configuration's checks, and a property test: random mixed tournaments conserve
chips, finish, pay their pool, and never deal a hand in another game than the level's."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.engine import Betting, ConfigError
from pokerroom.rooms.config import Timing
from pokerroom.rooms.mixes import MIXES, MixGame, game_stakes
from pokerroom.rooms.tournament import (
    BlindLevel,
    TableHandEnded,
    TournamentConfig,
    TournamentDirector,
    TournamentTable,
)
from pokerroom.rooms.tournament.mixed import level_game, level_mix_game, mixed_level_view
from pokerroom.rooms.tournament.rush import check_rush_config
from pokerroom.rooms.tournament.table import TPlayer
from pokerroom.rooms.tournament.view import level_view, tournament_table_view
from pokerroom.server.schedule import ScheduleError, tournament_from_dict
from pokerroom.variants import get_variant

from .tourney_driver import Field, check_end, play

T0 = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
FL, PL, NL = Betting.FIXED_LIMIT, Betting.POT_LIMIT, Betting.NO_LIMIT


def horse(**kw: Any) -> TournamentConfig:
    base: dict[str, Any] = {"kind": "sng", "max_players": 12, "table_size": 6, "mix": "horse", "buy_in": 100}
    return TournamentConfig("mixed", "H.O.R.S.E.", **{**base, **kw})


# ------------------------------------------------------------------------------------ the rotation


def test_r251_level_one_plays_the_first_game_level_two_the_second_and_round_again() -> None:
    """R251: level 1 in the mix's first game, level 2 in its second, ..., then the first again."""
    mix = MIXES["horse"]
    games = [level_mix_game(mix, n) for n in range(1, 12)]
    assert [g.variant for g in games] == ["holdem", "omaha8", "razz", "stud", "stud8"] * 2 + ["holdem"]
    assert all(g.betting is FL for g in games)
    eight = [level_mix_game(MIXES["8game"], n) for n in range(1, 9)]
    assert (eight[6].variant, eight[6].betting, eight[7].variant, eight[7].betting) == (
        "holdem",
        NL,
        "omaha",
        PL,
    )
    with pytest.raises(ConfigError):
        level_mix_game(mix, 0)


def test_r249_every_level_carries_every_games_stakes() -> None:
    """R249 at a tournament level: the level's big blind is the small bet (level 4: 50/100 -> $100/$200
    limit); limit hold'em and Omaha hi/lo post 50/100, NL hold'em and PL Omaha blinds 25/50, the stud
    games ante 20 and bring in 25."""
    cfg = TournamentConfig("e", "8-Game", kind="sng", max_players=6, table_size=6, mix="8game")
    by_game: dict[tuple[str, Betting], Any] = {}
    for n in range(1, 9):  # levels 1-8 of the 8-game rotation, each at level 4's blinds
        level = BlindLevel(4, 50, 100, 0)
        game = level_mix_game(MIXES["8game"], n)
        by_game[(game.variant, game.betting)] = game_stakes(game, level.big_blind, 2 * level.big_blind)
    holdem = by_game[("holdem", FL)]
    assert (holdem.small_blind, holdem.big_blind, holdem.small_bet, holdem.big_bet) == (50, 100, 100, 200)
    assert by_game[("omaha8", FL)].big_blind == 100
    nl = by_game[("holdem", NL)]
    assert (nl.small_blind, nl.big_blind) == (25, 50)
    plo = by_game[("omaha", PL)]
    assert (plo.small_blind, plo.big_blind) == (25, 50)
    for stud in ("razz", "stud", "stud8"):
        s = by_game[(stud, FL)]
        assert (s.ante, s.bring_in, s.small_bet, s.big_bet) == (20, 25, 100, 200)
    # the director's own question gives the same: level 4 of 8-game (50/100) is its razz level
    g = level_game(cfg, BlindLevel.default(4))
    assert (g.variant, g.betting, g.stakes) == ("razz", FL, by_game[("razz", FL)])
    # a single-game tournament is unchanged: its level's own stakes
    plain = TournamentConfig("p", "NL", kind="sng", max_players=6, table_size=6)
    assert level_game(plain, BlindLevel.default(4)).stakes.big_blind == 100


def test_the_table_and_the_lobby_show_the_game_now_and_next() -> None:
    view = mixed_level_view(horse(), 5)
    assert view is not None
    assert (view["name"], view["game_label"], view["next_label"]) == (
        "H.O.R.S.E.",
        "FL 7-Card Stud Hi/Lo",
        "FL Texas Hold'em",
    )
    assert view["index"] == 4 and len(view["games"]) == 5
    assert mixed_level_view(TournamentConfig("p", "NL", kind="sng", max_players=6, table_size=6), 1) is None


# ------------------------------------------------------------------------------------ configuration


def test_a_mix_is_configured_by_its_code_and_checked() -> None:
    cfg = tournament_from_dict({"id": "h", "kind": "sng", "max_players": 6, "table_size": 6, "mix": "horse"})
    assert (cfg.mix, cfg.variant, cfg.betting) == ("horse", "holdem", FL)  # variant/betting: the first game's
    with pytest.raises(ScheduleError, match="mix is one of"):
        tournament_from_dict({"id": "h", "kind": "sng", "max_players": 6, "table_size": 6, "mix": "hose"})
    with pytest.raises(ScheduleError, match="seats"):  # stud is in the mix: 8 seats at most
        tournament_from_dict({"id": "h", "kind": "sng", "max_players": 9, "table_size": 9, "mix": "horse"})
    with pytest.raises(ScheduleError, match="not a game"):  # a mix or a game, not both
        tournament_from_dict({"id": "h", "kind": "sng", "max_players": 6, "mix": "horse", "variant": "stud"})
    with pytest.raises(ScheduleError, match="per_player"):
        tournament_from_dict({"id": "h", "kind": "sng", "max_players": 6, "mix": "ha", "ante": "big_blind"})
    ha = tournament_from_dict({"id": "h", "kind": "sng", "max_players": 9, "table_size": 9, "mix": "ha"})
    assert ha.table_size == 9  # NL hold'em and PL Omaha: up to 10 seats
    with pytest.raises(ConfigError, match="one game"):
        check_rush_config(ha)


# ------------------------------------------------------------------------------------ the director


def test_r251_every_table_deals_the_levels_game_and_the_view_follows() -> None:
    """R251 with two tables: level 1's hands are all hold'em, level 2's all Omaha hi/lo, at both tables;
    the table's snapshot names the game of the level, and of the hand in progress while it lasts."""
    cfg = horse(level_minutes=1.0)
    d = TournamentDirector(cfg, random.Random(3))
    out: list[object] = []
    for i in range(12):
        out += d.register(f"p{i}", f"p{i}", T0)
    run = play(d, T0, random.Random(4), Field(shove=0.2, max_steps=60), out)
    ended = [x for x in run.out if isinstance(x, TableHandEnded)]
    assert {x.number for x in ended} == {1, 2}
    seen: Counter[tuple[int, int]] = Counter()
    for x in ended:
        assert x.started_at is not None and d.schedule is not None
        level = d.schedule.level(x.started_at)
        game = level_mix_game(MIXES["horse"], level)
        assert (x.hand.variant, x.hand.structure.betting) == (get_variant(game.variant), game.betting)
        seen[(level, x.number)] += 1
    assert seen[(1, 1)] and seen[(1, 2)] and seen[(2, 1)] and seen[(2, 2)]
    now = T0 + timedelta(seconds=3 * 60 + 30)  # level 4: 7-card stud
    lv = level_view(d, now)
    assert lv is not None and lv["ante"] == 100 // 5 and lv["small_bet"] == 100
    number = next(iter(d.tables))
    table = d.tables[number]
    view = tournament_table_view(d, number, None, now)
    assert view is not None
    mix = view["tournament"]["mix"]
    assert (mix["game"], mix["next_game"]) == ("stud", "stud8")
    if not table.in_hand:
        assert view["variant"] == "stud"


def test_r247_the_button_stays_through_the_stud_levels_and_moves_on_after() -> None:
    """R247 at a tournament table: hold'em hands move the button; the stud hands leave it where it was;
    the first blind-game hand after them has it on the next seat."""
    table = TournamentTable("b", 1, 6, get_variant("holdem"), FL, Timing(), random.Random(5))
    for seat in range(1, 5):
        table.add(TPlayer(f"p{seat}", f"p{seat}", seat, 10_000, 0.0), moved=False)
    holdem, stud = (get_variant("holdem"), FL), (get_variant("stud"), FL)
    lim = game_stakes(MixGame("holdem", FL), 20, 40)
    stud_stakes = game_stakes(MixGame("stud", FL), 20, 40)

    def deal(game: Any, stakes: Any, n: int) -> None:
        table.start_hand(T0, stakes, f"h{n}", game)
        assert table.hand is not None and table.hand.variant is game[0]
        table.void_hand()  # the stacks as they were: only the button matters here

    deal(holdem, lim, 1)
    assert table.positions is not None
    first = table.positions.button
    deal(holdem, lim, 2)
    button = table.positions.button
    assert button == first % 4 + 1
    for n in range(3, 6):
        deal(stud, stud_stakes, n)
        assert table.positions.button == button
    deal(holdem, lim, 6)
    assert table.positions.button == button % 4 + 1


# ------------------------------------------------------------------------------------ property


@st.composite
def mixed_tournaments(draw: st.DrawFn) -> tuple[TournamentConfig, int, Field]:
    mix = draw(st.sampled_from(sorted(MIXES)))
    players = draw(st.integers(2, 24))
    sng = players <= 10 and draw(st.booleans())
    most = min(g.spec.max_players for g in MIXES[mix].games)  # (8-game's triple draw: 6 seats)
    kw: dict[str, Any] = {
        "mix": mix,
        "kind": "sng" if sng else "mtt",
        "table_size": draw(st.sampled_from([s for s in (2, 6, 8, 9, 10) if s <= most])),
        "level_minutes": draw(st.sampled_from([0.5, 1.0, 3.0])),
        "break_minutes": draw(st.sampled_from([0.0, 5.0])),
        "starting_stack": draw(st.sampled_from([500, 1500])),
        "buy_in": 100,
    }
    if sng:
        kw["max_players"] = players
    else:
        kw["start_time"] = T0
    if draw(st.booleans()):
        kw["bounty"] = 50
    cfg = TournamentConfig("mixprop", "Mixed", **kw)
    return (
        cfg,
        players,
        Field(shove=draw(st.sampled_from([0.3, 0.8])), step=draw(st.sampled_from([2.0, 5.0]))),
    )


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_tournaments(), st.integers(0, 2**32 - 1))
def test_a_mixed_tournament_conserves_chips_and_deals_each_level_in_its_game(
    case: tuple[TournamentConfig, int, Field], seed: int
) -> None:
    """Random mixed tournaments played to the end: chips conserved after every step, the pool paid
    exactly (tourney_driver's checks), and every hand dealt in the game and stakes of the level in force
    when it started (R251, R249)."""
    cfg, players, f = case
    d = TournamentDirector(cfg, random.Random(seed))
    before = T0 - timedelta(minutes=1)
    registered: list[object] = []
    for i in range(players):
        registered += d.register(f"p{i}", f"p{i}", before)
    run = play(d, cfg.start_time or before, random.Random(seed + 1), f, registered)
    check_end(run)
    mix = MIXES[cfg.mix]
    hands = [x for x in run.out if isinstance(x, TableHandEnded)]
    assert hands
    for x in hands:
        assert x.started_at is not None and d.schedule is not None
        level = BlindLevel.default(d.schedule.level(x.started_at))
        game = level_mix_game(mix, level.number)
        assert x.hand.variant is get_variant(game.variant), (level.number, x.hand.variant.name)
        assert x.hand.structure.betting is game.betting
        assert x.hand.structure.stakes == game_stakes(game, level.big_blind, 2 * level.big_blind)
        assert sum(x.starting.values()) == sum(x.stacks[p] for p in x.starting), "a hand moves chips only"
