"""The room's configuration file (issue 15): every key parsed into the room, every key checked, each
problem named with its line and key path, and nothing started on a bad file."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from fractions import Fraction
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from typer.testing import CliRunner

from pokerroom.cli import app
from pokerroom.engine import Betting
from pokerroom.server.config import DEFAULT_CONFIG, ConfigInvalid, load_config, parse_config
from pokerroom.server.config.parse import (
    _POOL_KEYS,
    _RUSH_TIMING_KEYS,
    _STAKES_KEYS,
    _TABLE_KEYS,
    _TIMING_KEYS,
    SECTIONS,
)
from pokerroom.server.demo import RULES_GAMES
from pokerroom.server.schedule import _FIELDS
from pokerroom.variants import VARIANTS

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)  # a Tuesday
DOCS = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"

# A file that sets every key the room reads, each to a value other than its default.
FULL = """\
[room]
name = "Club Sofia"
play_money_on_register = false
bots_per_table = 1

[bots]
think = [0.25, 1.5]
strategies = ["caller"]

[timing]
action = 20
time_bank = 40
bank_refill = 6
refill_every = 10
sit_out_limit = 600
disconnect_grace = 90
offer_time = 25
post_prompt = 12
between_hands = 3

[[table]]
id = "nl-25"
name = "Hold'em NL 25"
game = "holdem"
betting = "NL"
stakes = { small_blind = 10, big_blind = 25, ante = 5, chip_unit = 5 }
seats = 9
buy_in = { min = 1000, max = 5000 }
rake = { percent = 4.5, cap = 300 }
currency = "EUR"
bots = 2
timing = { action = 12, between_hands = 1 }

[[table]]
id = "fl-stud"
game = "stud"
betting = "FL"
stakes = { small_bet = 20, big_bet = 40, ante = 4, bring_in = 5 }

[[table]]
id = "fl-draw"
game = "draw5"
betting = "FL"
stakes = { small_blind = 10, small_bet = 20, big_bet = 40 }

[[pool]]
id = "rush"
name = "Rush NL 6-max"
game = "holdem"
betting = "NL"
stakes = { small_blind = 10, big_blind = 20 }
table_size = 6
buy_in = { min = 800, max = 2000 }
rake = { percent = 5, cap = 60 }
currency = "PLAY"
max_entries = 3
bots = 7
bot_entries = 2
timing = { action = 10, reduced_action = 5, time_bank = 20, disconnect_grace = 60 }

[[tournament]]
id = "daily"
name = "Daily"
kind = "mtt"
game = "omaha"
betting = "PL"
buy_in = 1000
fee = 100
starting_stack = 3000
table_size = 8
min_players = 4
max_players = 90
level_minutes = 7
break_minutes = 3
start_in_minutes = 45
registration_opens = 2026-12-01T11:00:00Z
late_registration_levels = 2
guarantee = 50000
rebuy_levels = 2
add_on = true
payouts = [60, 40]
currency = "PLAY"
featured = true
ante = "big_blind"
action_seconds = 25
time_bank = 50
between_hands = 4
bots = 3

[[tournament]]
id = "sat"
kind = "mtt"
start = 2026-12-01T12:30:00Z
buy_in = 100
fee = 10
target = "daily"
seat_value = 1100
guaranteed_seats = 2

[[tournament]]
id = "free"
kind = "mtt"
start_in_minutes = 5
freeroll_pool = 2000
rush = true

[[tournament]]
id = "sng"
kind = "sng"
variant = "razz"
betting = "FL"
max_players = 6
table_size = 6
buy_in = 500

[[big_game]]
game = "omaha"
betting = "PL"
at = "19:30"
currency = "PLAY"
satellites = 2
satellites_in_minutes = [20]

[promotions]
timezone = "Europe/Sofia"
tournament_points_per_unit = 7

[[promotions.game_of_the_week]]
week = "next"
game = "stud"
betting = "FL"
mode = "standard"

[[promotions.game_of_the_week]]
week = "2026-12-01"
game = "holdem"
betting = "NL"
mode = "rush"

[[promotions.happy_hour]]
days = ["fri", "sat"]
start = "18:00"
end = "20:00"
multiplier = 1.5
"""


def test_every_key_reaches_the_room() -> None:
    room = parse_config(FULL, now=NOW, strategies=("strength", "caller"))
    assert room.name == "Club Sofia" and room.play_money_on_register is False
    assert room.bots.think == (0.25, 1.5) and room.bots.strategies == ("caller",)

    nl, stud, draw = room.tables
    assert (nl.table_id, nl.name, nl.variant, nl.betting) == (
        "nl-25",
        "Hold'em NL 25",
        "holdem",
        Betting.NO_LIMIT,
    )
    assert (nl.stakes.small_blind, nl.stakes.big_blind, nl.stakes.ante, nl.stakes.chip_unit) == (10, 25, 5, 5)
    assert (nl.seats, nl.min_buy_in, nl.max_buy_in, nl.currency) == (9, 1000, 5000, "EUR")
    assert nl.rake is not None and (nl.rake.percent_bp, nl.rake.cap) == (450, 300)
    assert (nl.timing.action, nl.timing.between_hands, nl.timing.time_bank) == (12, 1, 40)  # override + room
    t = stud.timing
    assert (t.action, t.time_bank, t.bank_refill, t.refill_every, t.sit_out_limit) == (20, 40, 6, 10, 600)
    assert (t.disconnect_grace, t.offer_time, t.post_prompt, t.between_hands) == (90, 25, 12, 3)
    assert (stud.stakes.small_bet, stud.stakes.big_bet, stud.stakes.ante, stud.stakes.bring_in) == (
        20,
        40,
        4,
        5,
    )
    assert stud.name == "7-Card Stud FL" and stud.rake is None and stud.currency == "PLAY"
    assert (draw.stakes.small_blind, draw.stakes.small_bet, draw.stakes.big_bet) == (10, 20, 40)
    assert room.bots.tables == {"nl-25": 2, "fl-stud": 1, "fl-draw": 1}  # bots_per_table is the default

    (pool,) = room.pools
    assert (pool.pool_id, pool.name, pool.table_size, pool.max_entries) == ("rush", "Rush NL 6-max", 6, 3)
    assert (pool.min_buy_in, pool.max_buy_in, pool.currency) == (800, 2000, "PLAY")
    assert pool.rake is not None and pool.rake.percent_bp == 500
    rt = pool.timing
    assert (rt.action, rt.reduced_action, rt.time_bank, rt.disconnect_grace) == (10, 5, 20, 60)
    assert room.bots.pools == {"rush": (7, 2)}

    by_id = {c.tournament_id: c for c in room.tournaments}
    d = by_id["daily"]
    assert (d.name, d.kind, d.variant, d.betting) == ("Daily", "mtt", "omaha", Betting.POT_LIMIT)
    assert (d.buy_in, d.fee, d.starting_stack, d.table_size, d.min_players, d.max_players) == (
        1000, 100, 3000, 8, 4, 90,
    )  # fmt: skip
    assert (d.level_minutes, d.break_minutes, d.late_registration_levels, d.guarantee) == (7, 3, 2, 50000)
    assert d.start_time == NOW + timedelta(minutes=45)
    assert d.registration_opens == datetime(2026, 12, 1, 11, 0, tzinfo=UTC)
    assert (d.rebuy_levels, d.add_on, d.payouts) == (2, True, (Fraction(60), Fraction(40)))
    assert (d.currency, d.featured, d.ante) == ("PLAY", True, "big_blind")
    assert (d.timing.action, d.timing.time_bank, d.timing.between_hands) == (25, 50, 4)
    s = by_id["sat"]
    assert (s.target, s.seat_value, s.guaranteed_seats) == ("daily", 1100, 2)
    assert s.start_time == datetime(2026, 12, 1, 12, 30, tzinfo=UTC)
    assert by_id["sng"].variant == "razz" and by_id["sng"].kind == "sng"  # a schedule file's "variant"
    (free,) = room.rush_tournaments
    assert free.tournament_id == "free" and free.freeroll_pool == 2000
    assert room.bots.tournaments == {"daily": 3}

    big = [c for c in room.tournaments if c.tournament_id not in ("daily", "sat", "sng")]
    target = next(c for c in big if not c.target)
    assert target.variant == "omaha" and target.betting is Betting.POT_LIMIT
    assert target.start_time is not None and target.start_time.weekday() == 6  # Sunday (R: §9.10)
    assert target.start_time.time() == time(19, 30)
    satellites = sorted(c.start_time for c in big if c.target)  # type: ignore[type-var]
    assert satellites == [
        NOW + timedelta(minutes=20),
        datetime(2026, 12, 2, 19, 30, tzinfo=UTC),
        datetime(2026, 12, 3, 19, 30, tzinfo=UTC),
    ]

    p = room.points
    assert p is not None and p.tz == ZoneInfo("Europe/Sofia") and p.tournament_points_per_unit == 7
    weeks = {monday: (g.variant, g.betting, g.mode) for monday, g in p.game_of_the_week.items()}
    assert weeks == {
        date(2026, 11, 30): ("holdem", Betting.NO_LIMIT, "rush"),
        date(2026, 12, 7): ("stud", Betting.FIXED_LIMIT, "standard"),
    }
    (hh,) = p.happy_hours
    assert (hh.days, hh.start, hh.end, hh.multiplier_pct) == (frozenset({4, 5}), time(18), time(20), 150)


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


# (the line to change, what it becomes, the key path named, a word of the message)
BAD = [
    ('name = "Club Sofia"', "name = 5", "room.name", "string"),
    (
        "play_money_on_register = false",
        'play_money_on_register = "no"',
        "room.play_money_on_register",
        "true",
    ),
    ("bots_per_table = 1", "bots_per_table = -1", "room.bots_per_table", "whole number"),
    ("think = [0.25, 1.5]", "think = [2, 1]", "bots.think", "seconds"),
    ('strategies = ["caller"]', 'strategies = ["genius"]', "bots.strategies", "caller"),
    ("action = 20", "action = 0", "timing", "positive"),
    ("time_bank = 40", "time_bank = -1", "timing.time_bank", "number"),
    ("refill_every = 10", "refill_every = 1.5", "timing.refill_every", "whole number"),
    ("between_hands = 3", 'between_hands = "soon"', "timing.between_hands", "number"),
    ('id = "nl-25"', 'id = "nl 25!"', "table[0].id", "letters"),
    (
        'game = "holdem"\nbetting = "NL"\nstakes = { small_blind = 10, big_blind = 25',
        'game = "hold"\nbetting = "NL"\nstakes = { small_blind = 10, big_blind = 25',
        "table[0].game",
        "holdem",
    ),
    (
        'id = "fl-stud"\ngame = "stud"\nbetting = "FL"',
        'id = "fl-stud"\ngame = "stud"\nbetting = "NL"',
        "table[1].betting",
        "FL",
    ),
    (
        "stakes = { small_blind = 10, big_blind = 25, ante = 5, chip_unit = 5 }",
        "stakes = { small_blind = 10, big_blind = 25.5 }",
        "table[0].stakes.big_blind",
        "whole number",
    ),
    (
        "stakes = { small_blind = 10, big_blind = 25, ante = 5, chip_unit = 5 }",
        "stakes = { small_blind = 10, big_blind = 25, rake = 5 }",
        "table[0].stakes.rake",
        "unknown key",
    ),
    ("seats = 9", "seats = 12", "table[0].seats", "seats"),
    (
        "buy_in = { min = 1000, max = 5000 }",
        "buy_in = { min = 5000, max = 1000 }",
        "table[0].buy_in",
        "maximum",
    ),
    (
        "rake = { percent = 4.5, cap = 300 }",
        "rake = { percent = 4.555, cap = 300 }",
        "table[0].rake.percent",
        "two decimals",
    ),
    ("rake = { percent = 4.5, cap = 300 }", "rake = { percent = 4.5 }", "table[0].rake.cap", "required"),
    ('currency = "EUR"', 'currency = "€"', "table[0].currency", "currency"),
    ("bots = 2", "bots = 9", "table[0].bots", "leave a seat"),
    (
        "timing = { action = 12, between_hands = 1 }",
        "timing = { action = 12, think = 1 }",
        "table[0].timing.think",
        "unknown key",
    ),
    ("table_size = 6", "table_size = 1", "pool[0].table_size", "at least 2"),
    ("max_entries = 3", "max_entries = 0", "pool[0].max_entries", "at least 1"),
    ("bot_entries = 2", "bot_entries = 5", "pool[0].bot_entries", "at most 3"),
    ("bots = 7", "bots = -7", "pool[0].bots", "whole number"),
    (
        "timing = { action = 10, reduced_action = 5",
        "timing = { action = 10, reduced_action = -5",
        "pool[0].timing.reduced_action",
        "number",
    ),
    ('kind = "mtt"\ngame = "omaha"', 'kind = "bounty"\ngame = "omaha"', "tournament[0]", "sit-and-go"),
    (
        "buy_in = 1000\nfee = 100\nstarting_stack",
        "buy_in = 10.5\nfee = 100\nstarting_stack",
        "tournament[0].buy_in",
        "whole number",
    ),
    ("starting_stack = 3000", 'starting_stack = "3000"', "tournament[0].starting_stack", "whole number"),
    ("level_minutes = 7", "level_minutes = -7", "tournament[0].level_minutes", "number"),
    ("start_in_minutes = 45", 'start_in_minutes = "soon"', "tournament[0].start_in_minutes", "number"),
    (
        "registration_opens = 2026-12-01T11:00:00Z",
        'registration_opens = "noon"',
        "tournament[0].registration_opens",
        "date",
    ),
    ("add_on = true", 'add_on = "yes"', "tournament[0].add_on", "true or false"),
    ("payouts = [60, 40]", "payouts = [60, 30]", "tournament[0]", "100"),
    ("payouts = [60, 40]", 'payouts = ["a"]', "tournament[0].payouts", "percentages"),
    ('ante = "big_blind"', 'ante = "double"', "tournament[0]", "ante"),
    ("action_seconds = 25", "action_seconds = -25", "tournament[0].action_seconds", "number"),
    ("bots = 3", "bots = true", "tournament[0].bots", "whole number"),
    ("bounty = 0", "bounty = 0", "", ""),  # placeholder replaced below
    ('target = "daily"', 'target = "weekly"', "tournament[1].target", "weekly"),
    ("rush = true", "rush = 1", "tournament[2].rush", "true or false"),
    ('variant = "razz"', 'variant = "bridge"', "tournament[3].variant", "holdem"),
    ('at = "19:30"', 'at = "half past seven"', "big_game[0].at", "time of day"),
    (
        "satellites_in_minutes = [20]",
        "satellites_in_minutes = [-20]",
        "big_game[0].satellites_in_minutes",
        "positive",
    ),
    ('timezone = "Europe/Sofia"', 'timezone = "Mars/Olympus"', "promotions.timezone", "time zone"),
    ('week = "next"', 'week = "someday"', "promotions.game_of_the_week[0].week", "this, next"),
    ('week = "2026-12-01"', 'week = "next"', "promotions.game_of_the_week[1].week", "already"),
    ('mode = "rush"', 'mode = "turbo"', "promotions.game_of_the_week[1].mode", "standard or rush"),
    (
        'days = ["fri", "sat"]',
        'days = ["friday", "someday"]',
        "promotions.happy_hour[0].days",
        "list of days",
    ),
    ("multiplier = 1.5", "multiplier = 0.5", "promotions.happy_hour[0].multiplier", "at least 1"),
]
BAD = [b for b in BAD if b[0] != "bounty = 0"]
# (``bounty`` is a field since issue 35: an unknown one is named instead)
BAD.append(('id = "sat"', 'id = "sat"\nbounty_hunter = 5', "tournament[1].bounty_hunter", "unknown field"))
BAD.append(('id = "fl-stud"', 'id = "nl-25"', "table[1].id", "used twice"))
BAD.append(("[promotions]", "[promotion]", "promotion", "unknown section"))
# issue 18: a Rush tournament has no rebuys (refused by config check, not only when the room opens it)
BAD.append(("rush = true", "rush = true\nrebuy_levels = 2", "tournament[2].rush", "no rebuys"))


@pytest.mark.parametrize(("old", "new", "path", "word"), BAD, ids=[b[2] + ":" + b[1][:20] for b in BAD])
def test_each_bad_value_is_named_with_its_line_and_key(old: str, new: str, path: str, word: str) -> None:
    assert FULL.count(old) >= 1
    text = FULL.replace(old, new, 1)
    with pytest.raises(ConfigInvalid) as caught:
        parse_config(text, source="club.toml", now=NOW, strategies=("strength", "caller"))
    problems = caught.value.problems
    assert any(p.path == path and word in p.message for p in problems), [str(p) for p in problems]
    (problem,) = [p for p in problems if p.path == path and word in p.message]
    # the line is the changed line (or, for a missing key, its table's line; an inline table's line)
    changed = text.splitlines()[problem.line - 1]
    key = path.rsplit(".", 1)[-1].split("[")[0]
    assert key in changed or "[" in changed or new.splitlines()[0] in changed, (problem.line, changed)
    assert str(problem).startswith(f"club.toml:{problem.line}: {path}: ")


def test_every_problem_is_reported_at_once_in_line_order() -> None:
    text = FULL.replace("bots_per_table = 1", "bots_per_table = -1").replace(
        "max_entries = 3", "max_entries = 0"
    )
    text = text.replace('at = "19:30"', 'at = "late"')
    with pytest.raises(ConfigInvalid) as caught:
        parse_config(text, now=NOW, strategies=("strength", "caller"))
    paths = [p.path for p in caught.value.problems]
    assert paths == ["room.bots_per_table", "pool[0].max_entries", "big_game[0].at"]
    lines = [p.line for p in caught.value.problems]
    assert lines == sorted(lines)
    assert lines[0] == _line_of(text, "bots_per_table = -1")
    assert lines[1] == _line_of(text, "max_entries = 0")


def test_a_file_that_is_not_toml_names_its_line() -> None:
    text = FULL.replace("seats = 9", "seats = = 9")
    with pytest.raises(ConfigInvalid) as caught:
        parse_config(text, now=NOW)
    (problem,) = caught.value.problems
    assert problem.line == _line_of(text, "seats = = 9")


def test_the_shipped_room_is_the_whole_programme() -> None:
    """Issue 15 §2: every game and structure of RULES.md, Rush pools, a sit-and-go at each speed, the
    Game of the Week with its satellite and guaranteed tournament, a freeroll, a rebuy tournament with an
    add-on, the Big Game and its satellites, a Rush tournament, all within minutes of the start."""
    from pokerroom.bots.strategies import STRATEGIES

    room = load_config(None, now=NOW, strategies=tuple(STRATEGIES))
    played = {(t.variant, t.betting) for t in room.tables}
    every = {(name, b) for name in RULES_GAMES for b in VARIANTS[name].structures}
    assert played == every
    assert room.pools and all(room.bots.tables[t.table_id] < t.seats for t in room.tables)
    sngs = [c for c in room.tournaments if c.kind == "sng" and not c.mix]
    assert sorted(c.level_minutes for c in sngs) == [3, 5, 10]  # hyper, turbo, normal (R219)
    assert any(c.mix == "horse" and c.kind == "sng" for c in room.tournaments)  # issue 36: mixed (R251)
    mtts = [c for c in room.tournaments + room.rush_tournaments if c.kind == "mtt"]
    assert any(c.freeroll_pool for c in mtts) and any(c.rebuy_levels and c.add_on for c in mtts)
    assert any(c.guarantee and c.featured for c in mtts)
    gotw = next(c for c in mtts if c.guarantee and c.featured)
    assert any(c.target == gotw.tournament_id for c in mtts)
    big = [c for c in mtts if c.start_time and c.start_time.weekday() == 6 and not c.target]
    assert big and any(c.target == big[0].tournament_id for c in mtts)
    assert room.rush_tournaments
    soon = [c for c in mtts if c.start_time and c.start_time - NOW <= timedelta(minutes=30)]
    assert len(soon) >= 3
    assert room.points is not None and room.points.game_of_the_week and room.points.happy_hours
    # bots: every sit-and-go has bots and a free seat; the Rush pool can form two tables
    assert all(0 < room.bots.tournaments[c.tournament_id] < c.max_players for c in sngs)
    n, entries = room.bots.pools["rush-holdem-nl-6max"]
    assert n * entries >= 12


def test_docs_describe_every_key() -> None:
    text = DOCS.read_text()
    keys = (
        set(SECTIONS) | set(_TABLE_KEYS) | set(_POOL_KEYS) | set(_STAKES_KEYS) | set(_TIMING_KEYS)
        | set(_RUSH_TIMING_KEYS) | (_FIELDS - {"name", "start_time"})
        | {"start", "start_in_minutes", "rush", "bots"}
        | {"action_seconds", "play_money_on_register", "bots_per_table", "think", "strategies", "min", "max"}
        | {"percent", "cap", "at", "satellites", "satellites_in_minutes", "timezone", "week", "mode", "days"}
        | {"tournament_points_per_unit", "game_of_the_week", "happy_hour", "multiplier", "end"}
    )  # fmt: skip
    missing = sorted(k for k in keys if not re.search(rf"`\[*{re.escape(k)}\]*`", text))
    assert missing == []


def test_config_check_reports_problems_and_starts_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "club.toml"
    bad.write_text(FULL.replace("seats = 9", "seats = 12"))
    result = CliRunner().invoke(app, ["config", "check", str(bad)])
    assert result.exit_code == 1
    line = _line_of(bad.read_text(), "seats = 12")
    assert f"club.toml:{line}: table[0].seats" in result.output
    good = CliRunner().invoke(app, ["config", "check", str(DEFAULT_CONFIG)])
    assert good.exit_code == 0 and "OK" in good.output
    missing = CliRunner().invoke(app, ["config", "check", str(tmp_path / "none.toml")])
    assert missing.exit_code == 1 and "none.toml:1: (file)" in missing.output


def test_serve_with_a_bad_file_starts_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "club.toml"
    bad.write_text(FULL.replace("bots = 7", "bots = -7"))
    db = tmp_path / "room.db"
    result = CliRunner().invoke(
        app, ["serve", "--config", str(bad), "--database", f"sqlite:///{db}", "--port", "0", "--no-open"]
    )
    assert result.exit_code != 0
    assert "pool[0].bots" in result.output
    assert not db.exists()
