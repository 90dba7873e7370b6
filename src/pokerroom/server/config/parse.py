"""A room's configuration file (TOML): its tables, Rush pools, tournaments, promotions, clocks and bots.

Every key is checked, and every problem of the file is reported at once with its line and the key's path
(``room.toml:42: table[3].stakes.big_blind: must be a positive whole number``); a file with a problem
starts nothing. docs/configuration.md describes every key; ``src/pokerroom/server/config/room.toml`` is
the room ``pokerroom serve`` opens by default and an example to copy.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from pathlib import PurePath
from typing import Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pokerroom.engine import Betting, ConfigError, RakeRule, Stakes
from pokerroom.rooms import Discipline, HappyHour, PointsPolicy, TableConfig, Timing
from pokerroom.rooms.mixes import MIXES, Mix
from pokerroom.rooms.points import week_start
from pokerroom.rooms.rush_rules import PoolConfig, RushTiming
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.rooms.tournament.promotions import big_game_of_the_week, big_game_satellite
from pokerroom.rooms.tournament.recurring import Recurrence, occurrences
from pokerroom.rooms.tournament.rush import check_rush_config
from pokerroom.server.config.cluster import CLUSTER_KEYS, BusConfig
from pokerroom.server.config.locate import dotted, locate
from pokerroom.server.config.recurring import parse_recurring
from pokerroom.server.integrity.settings import IntegritySettings
from pokerroom.server.mail import MailSettings, mail_settings
from pokerroom.server.schedule import ScheduleError, tournament_from_dict
from pokerroom.store.api_keys import ApiKeyPolicy
from pokerroom.store.currencies import is_room_currency_code
from pokerroom.variants import VARIANTS

__all__ = [
    "BotPlan",
    "ConfigInvalid",
    "ConfigProblem",
    "RoomConfig",
    "game_from_fields",
    "parse_config",
    "promotions_from_fields",
]

Path = tuple[str | int, ...]
T = TypeVar("T")
_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
_DAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
SECTIONS = (
    "room",
    "timing",
    "bots",
    "table",
    "pool",
    "tournament",
    "recurring",
    "big_game",
    "promotions",
    "cluster",
    "integrity",
    "mail",
    "responsible_gaming",
    "operator_api",
    "fairness",
)


@dataclass(frozen=True)
class ConfigProblem:
    source: str
    line: int
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.path}: {self.message}"


class ConfigInvalid(ValueError):
    """A configuration file with problems; ``problems`` lists each (line, key path, what is wrong)."""

    def __init__(self, problems: list[ConfigProblem]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


@dataclass(frozen=True)
class BotPlan:
    """The room's own bots: how many sit at each table, play each pool (and with how many entries each),
    register for each tournament (or sit-and-go series), and how long they think."""

    tables: Mapping[str, int] = field(default_factory=dict)
    pools: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    tournaments: Mapping[str, int] = field(default_factory=dict)
    think: tuple[float, float] = (0.5, 2.0)
    strategies: tuple[str, ...] = ("strength", "caller", "random")

    @property
    def total(self) -> int:
        return (
            sum(self.tables.values())
            + sum(n for n, _ in self.pools.values())
            + sum(self.tournaments.values())
        )


@dataclass(frozen=True)
class RoomConfig:
    name: str
    tables: tuple[TableConfig, ...]
    pools: tuple[PoolConfig, ...]
    tournaments: tuple[TournamentConfig, ...]
    rush_tournaments: tuple[TournamentConfig, ...]
    points: PointsPolicy | None
    play_money_on_register: bool
    bots: BotPlan
    source: str
    demo_account: bool = False  # [room] demo_account: make or reset demo / play-poker-for-fun at start
    currencies: tuple[str, ...] = ("PLAY",)  # [room] currencies: PLAY and the configured ones (issue 29)
    payments: str = "manual"  # [room] payments: the cashier's payment provider, "manual" or "test"
    cluster: BusConfig = field(default_factory=BusConfig)  # [cluster]: how a node reaches the bus
    integrity: IntegritySettings = field(default_factory=IntegritySettings)  # [integrity]: issue 30
    operator_api: ApiKeyPolicy = field(default_factory=ApiKeyPolicy)  # [operator_api]: issue 29
    mail: MailSettings | None = None  # [mail]: the SMTP server for reset codes (issue 29; None: no e-mail)
    gaming_cooling_hours: int = 24  # [responsible_gaming] cooling_hours (issue 29)
    fairness_open_stub: bool = False  # [fairness] open_stub (issue 34, docs/fairness.md)
    # [[recurring]]: series of scheduled tournaments (issue 35), each with whether it is a Rush one; their
    # occurrences due within the horizon are in ``tournaments`` / ``rush_tournaments`` too
    recurring: tuple[tuple[Recurrence, bool], ...] = ()


class _Reader:
    """Collects every problem of a file; each checker returns a value or None (and adds a problem)."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.problems: list[ConfigProblem] = []

    def problem(self, path: Path, message: str) -> None:
        self.problems.append(ConfigProblem(self.source, locate(self.text, path), dotted(path), message))

    def table(
        self, data: Any, path: Path, known: tuple[str, ...], required: tuple[str, ...] = ()
    ) -> dict[str, Any]:
        if not isinstance(data, dict):
            self.problem(path, "must be a table")
            return {}
        for key in data:
            if key not in known:
                self.problem((*path, key), f"unknown key (known: {', '.join(known)})")
        for key in required:
            if key not in data:
                self.problem((*path, key), "is required")
        return data

    def integer(self, data: Mapping[str, Any], key: str, path: Path, default: int, low: int = 0) -> int:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            self.problem((*path, key), f"must be a whole number of at least {low}")
            return default
        return value

    def number(
        self, data: Mapping[str, Any], key: str, path: Path, default: float, low: float = 0.0
    ) -> float:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or value < low:
            self.problem((*path, key), f"must be a number of at least {low:g}")
            return default
        return float(value)

    def string(self, data: Mapping[str, Any], key: str, path: Path, default: str = "") -> str:
        value = data.get(key, default)
        if not isinstance(value, str):
            self.problem((*path, key), "must be a string")
            return default
        return value

    def boolean(self, data: Mapping[str, Any], key: str, path: Path, default: bool) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            self.problem((*path, key), "must be true or false")
            return default
        return value

    def ident(self, data: Mapping[str, Any], path: Path) -> str | None:
        value = data.get("id")
        if not isinstance(value, str) or not _ID.match(value):
            self.problem((*path, "id"), "must be 1-40 letters, digits, '-' or '_'")
            return None
        return value

    def game(self, data: Mapping[str, Any], path: Path) -> tuple[str, Betting] | None:
        game = data.get("game")
        if not isinstance(game, str) or game not in VARIANTS:
            self.problem((*path, "game"), f"must be one of {', '.join(sorted(VARIANTS))}")
            return None
        raw = data.get("betting", VARIANTS[game].default_structure.value)
        try:
            betting = Betting(str(raw).upper())
        except ValueError:
            self.problem((*path, "betting"), "must be FL, PL or NL")
            return None
        if betting not in VARIANTS[game].structures:
            allowed = ", ".join(b.value for b in VARIANTS[game].structures)
            self.problem((*path, "betting"), f"{VARIANTS[game].name} is played {allowed}")
            return None
        return game, betting

    def attempt(self, path: Path, build: Callable[[], T], data: Mapping[str, Any] | None = None) -> T | None:
        """Build a rooms configuration; its own check's message becomes a problem at ``path``, or at the
        key of ``data`` the message is about (its line is the one to fix)."""
        try:
            return build()
        except (ConfigError, ScheduleError, TypeError, ValueError) as exc:
            message = str(exc)
            key = next(
                (k for word, k in _HINTS if word in message.lower() and data is not None and k in data), None
            )
            self.problem((*path, key) if key else path, message)
            return None


# ------------------------------------------------------------------------------------------ sections

# A rooms check's message names what it is about: the key of the table or pool whose line to point at.
_HINTS = (
    ("round_hands", "round_hands"),
    ("dealer's choice", "dealers_choice"),
    ("mix", "mix"),
    ("straddle", "straddle"),
    ("bomb pot ante", "bomb_pot_ante"),
    ("bomb pot", "bomb_pot_every"),
    ("run twice", "run_it_twice"),
    ("seats", "seats"),
    ("buy-in", "buy_in"),
    ("currency", "currency"),
    ("rake", "rake"),
    ("blind", "stakes"),
    ("bet", "stakes"),
    ("ante", "stakes"),
    ("stakes", "stakes"),
    ("chip unit", "stakes"),
)

_TIMING_KEYS = tuple(f.name for f in fields(Timing))
_RUSH_TIMING_KEYS = tuple(f.name for f in fields(RushTiming))
_STAKES_KEYS = ("small_blind", "big_blind", "small_bet", "big_bet", "ante", "bring_in", "chip_unit")
_TABLE_KEYS = (
    "id",
    "name",
    "game",
    "betting",
    "stakes",
    "seats",
    "buy_in",
    "rake",
    "currency",
    "bots",
    "timing",
    "run_it_twice",
    "straddle",
    "bomb_pot_every",
    "bomb_pot_ante",
    "mix",
    "round_hands",
    "dealers_choice",
)
_POOL_KEYS = (
    "id", "name", "game", "betting", "stakes", "table_size", "buy_in", "rake", "currency", "max_entries",
    "bots", "bot_entries", "timing",
)  # fmt: skip


def _timing(r: _Reader, data: Any, path: Path, base: Timing) -> Timing:
    d = r.table(data, path, _TIMING_KEYS)
    values: dict[str, Any] = {
        k: r.number(d, k, path, getattr(base, k)) for k in _TIMING_KEYS if k in d and k != "refill_every"
    }
    if "refill_every" in d:
        values["refill_every"] = r.integer(d, "refill_every", path, base.refill_every, 1)
    return r.attempt(path, lambda: replace(base, **values)) or base


def _stakes(r: _Reader, data: Any, path: Path, game: str, betting: Betting) -> Stakes | None:
    d = r.table(data, path, _STAKES_KEYS)
    if not d:
        return None
    v = {k: r.integer(d, k, path, 0) for k in _STAKES_KEYS if k in d}
    unit = v.get("chip_unit", 1) or 1
    if VARIANTS[game].is_stud:
        if "small_bet" not in v:
            r.problem((*path, "small_bet"), "stud stakes need a small bet")
            return None
        return r.attempt(
            path,
            lambda: Stakes.fixed_limit(
                v["small_bet"],
                v.get("big_bet"),
                ante=v.get("ante", 0),
                bring_in=v.get("bring_in"),
                chip_unit=unit,
                blinds=False,
            ),
        )
    fixed = betting is Betting.FIXED_LIMIT and "small_bet" in v
    if not fixed and "big_blind" not in v:
        r.problem((*path, "big_blind"), "blind games need a big blind")
        return None
    if betting is Betting.FIXED_LIMIT:  # the small bet, or the big blind as the small bet
        small_bet = v["small_bet"] if fixed else v["big_blind"]
        return r.attempt(
            path,
            lambda: Stakes.fixed_limit(
                small_bet,
                v.get("big_bet"),
                small_blind=v.get("small_blind"),
                ante=v.get("ante", 0),
                chip_unit=unit,
            ),
        )
    return r.attempt(
        path,
        lambda: Stakes.blinds(v.get("small_blind"), v["big_blind"], ante=v.get("ante", 0), chip_unit=unit),
    )


def _limits(r: _Reader, data: Mapping[str, Any], path: Path) -> tuple[int, int]:
    if "buy_in" not in data:
        return 0, 0
    d = r.table(data["buy_in"], (*path, "buy_in"), ("min", "max"))
    return r.integer(d, "min", (*path, "buy_in"), 0), r.integer(d, "max", (*path, "buy_in"), 0)


def _rake(r: _Reader, data: Mapping[str, Any], path: Path) -> RakeRule | None:
    if "rake" not in data:
        return None
    where = (*path, "rake")
    d = r.table(data["rake"], where, ("percent", "cap"), ("percent", "cap"))
    percent = r.number(d, "percent", where, 0.0)
    bp = round(percent * 100)
    if abs(bp - percent * 100) > 1e-6:
        r.problem((*where, "percent"), "has at most two decimals (basis points)")
    return r.attempt(where, lambda: RakeRule(bp, r.integer(d, "cap", where, 0)))


def _mix(r: _Reader, d: Mapping[str, Any], path: Path) -> Mix | None:
    code = r.string(d, "mix", path, "")
    if code not in MIXES:
        r.problem((*path, "mix"), f"is one of {', '.join(MIXES)}")
        return None
    return MIXES[code]


def _cash_table(
    r: _Reader, data: Any, path: Path, timing: Timing, bots: int
) -> tuple[TableConfig, int] | None:
    mixed = isinstance(data, Mapping) and "mix" in data  # RULES.md §11.1: a mix instead of a game
    d = r.table(data, path, _TABLE_KEYS, ("id", "mix", "stakes") if mixed else ("id", "game", "stakes"))
    tid = r.ident(d, path)
    mix = _mix(r, d, path) if mixed else None
    game = (mix.games[0].variant, mix.games[0].betting) if mix else r.game(d, path) if "game" in d else None
    if game is None:
        return None
    # a mix's stakes are its small bet and big bet, as a limit hold'em table's (every game's derive from them)
    stakes = _stakes(
        r, d.get("stakes"), (*path, "stakes"), *(("holdem", Betting.FIXED_LIMIT) if mix else game)
    )
    lo, hi = _limits(r, d, path)
    rake = _rake(r, d, path)
    most = min(g.spec.max_players for g in mix.games) if mix else VARIANTS[game[0]].max_players
    seats = r.integer(d, "seats", path, min(6, most), 2)
    table_timing = _timing(r, d["timing"], (*path, "timing"), timing) if "timing" in d else timing
    name = r.string(d, "name", path, mix.name if mix else f"{VARIANTS[game[0]].name} {game[1].value}")
    round_hands = r.integer(d, "round_hands", path, 0)
    choice = r.boolean(d, "dealers_choice", path, False)
    currency = _currency(r, d, path)
    n_bots = r.integer(d, "bots", path, bots)
    twice = r.boolean(d, "run_it_twice", path, False)
    straddle = r.string(d, "straddle", path, "off")  # RULES.md §11.2: off, utg or mississippi
    bomb_every = r.integer(d, "bomb_pot_every", path, 0)
    bomb_ante = r.integer(d, "bomb_pot_ante", path, 0)
    if stakes is None or tid is None:
        return None
    cfg = r.attempt(
        path,
        lambda: replace(
            TableConfig(
                tid, name, game[0], game[1], stakes, seats, lo, hi, rake, table_timing, currency, twice
            ),
            straddle=straddle,
            bomb_pot_every=bomb_every,
            bomb_pot_ante=bomb_ante,
            mix=mix.code if mix else "",
            round_hands=round_hands,
            dealers_choice=choice,
        ),
        d,
    )
    if cfg is not None and n_bots >= cfg.seats:
        r.problem((*path, "bots"), f"leave a seat for the players: at most {cfg.seats - 1} bots")
    return (cfg, n_bots) if cfg is not None else None


def _pool(r: _Reader, data: Any, path: Path) -> tuple[PoolConfig, int, int] | None:
    d = r.table(data, path, _POOL_KEYS, ("id", "game", "stakes"))
    pid = r.ident(d, path)
    game = r.game(d, path) if "game" in d else None
    if game is None:
        return None
    stakes = _stakes(r, d.get("stakes"), (*path, "stakes"), *game)
    lo, hi = _limits(r, d, path)
    rake = _rake(r, d, path)
    timing = RushTiming()
    if "timing" in d:
        t = r.table(d["timing"], (*path, "timing"), _RUSH_TIMING_KEYS)
        values = {
            k: r.number(t, k, (*path, "timing"), getattr(timing, k)) for k in _RUSH_TIMING_KEYS if k in t
        }
        timing = r.attempt((*path, "timing"), lambda: RushTiming(**values)) or timing
    size = r.integer(d, "table_size", path, 6, 2)
    name = r.string(d, "name", path, f"Rush {VARIANTS[game[0]].name} {game[1].value}")
    currency = _currency(r, d, path)
    entries = r.integer(d, "max_entries", path, 4, 1)
    bots, bot_entries = r.integer(d, "bots", path, 0), r.integer(d, "bot_entries", path, 1, 1)
    if stakes is None or pid is None:
        return None
    cfg = r.attempt(
        path,
        lambda: PoolConfig(
            pid, name, game[0], game[1], stakes, size, lo, hi, rake, timing, currency, entries
        ),
        d,
    )
    if cfg is not None and bot_entries > cfg.max_entries:
        r.problem((*path, "bot_entries"), f"at most {cfg.max_entries} entries per player in this pool")
    return (cfg, bots, bot_entries) if cfg is not None else None


def _tournament(
    r: _Reader, data: Any, path: Path, now: datetime
) -> tuple[TournamentConfig, bool, int] | None:
    if not isinstance(data, dict):
        r.problem(path, "must be a table")
        return None
    d = dict(data)
    rush = d.pop("rush", False)
    bots = d.pop("bots", 0)
    if not isinstance(rush, bool):
        r.problem((*path, "rush"), "must be true or false")
        return None
    if isinstance(bots, bool) or not isinstance(bots, int) or bots < 0:
        r.problem((*path, "bots"), "must be a whole number of at least 0")
        return None
    if "game" in d and "variant" not in d:  # the word of tables and pools (a schedule file's variant too)
        d["variant"] = d.pop("game")
    if "variant" in d and d["variant"] not in VARIANTS:
        r.problem(
            (*path, "game" if "game" in data else "variant"), f"must be one of {', '.join(sorted(VARIANTS))}"
        )
        return None
    try:
        cfg = tournament_from_dict(d, now)
    except ScheduleError as exc:
        key = "game" if exc.key == "variant" else exc.key
        r.problem((*path, key) if key else path, str(exc).split(": ", 1)[-1])
        return None
    if not is_room_currency_code(cfg.currency):
        r.problem((*path, "currency"), _CURRENCY_WORDS)
        return None
    if cfg.kind == "sng" and bots >= cfg.max_players:
        r.problem((*path, "bots"), f"leave a seat for the players: at most {cfg.max_players - 1} bots")
    if rush:
        try:
            check_rush_config(cfg)
        except ConfigError as exc:
            r.problem((*path, "rush"), str(exc).split(": ", 1)[-1])
            return None
    return cfg, rush, bots


def _big_game(r: _Reader, data: Any, path: Path, now: datetime) -> list[TournamentConfig]:
    d = r.table(data, path, ("game", "betting", "at", "currency", "satellites", "satellites_in_minutes"))
    game = r.game(
        {"game": d.get("game", "holdem"), **({"betting": d["betting"]} if "betting" in d else {})}, path
    )
    if game is None:
        return []
    try:
        at = time.fromisoformat(r.string(d, "at", path, "18:00"))
    except ValueError:
        r.problem((*path, "at"), "must be a time of day, e.g. 18:00")
        return []
    currency = _currency(r, d, path)
    target = big_game_of_the_week(now, game[0], game[1], at=at, currency=currency)
    out = [target]
    starts: list[datetime] = []
    for n in range(1, r.integer(d, "satellites", path, 0) + 1):
        starts.append(datetime.combine(now.date() + timedelta(days=n), at, tzinfo=UTC))
    minutes = d.get("satellites_in_minutes", [])
    if not isinstance(minutes, list) or not all(isinstance(m, int | float) and m > 0 for m in minutes):
        r.problem((*path, "satellites_in_minutes"), "must be a list of positive numbers of minutes")
        minutes = []
    starts += [now + timedelta(minutes=float(m)) for m in minutes]
    assert target.start_time is not None
    for n, start in enumerate(sorted(s for s in starts if s < target.start_time), start=1):
        out.append(big_game_satellite(target, start, n))
    return out


def _points(r: _Reader, data: Any, now: datetime) -> PointsPolicy | None:
    path: Path = ("promotions",)
    d = r.table(data, path, ("timezone", "tournament_points_per_unit", "game_of_the_week", "happy_hour"))
    tz: tzinfo = UTC
    if "timezone" in d:
        try:
            tz = ZoneInfo(r.string(d, "timezone", path, "UTC"))
        except (ZoneInfoNotFoundError, ValueError):
            r.problem((*path, "timezone"), "must be a time zone name such as Europe/Sofia")
    weeks: dict[date, Discipline] = {}
    for i, g in enumerate(d.get("game_of_the_week", [])):
        where = (*path, "game_of_the_week", i)
        gd = r.table(g, where, ("week", "game", "betting", "mode"), ("week", "game"))
        game = r.game(gd, where) if "game" in gd else None
        week = r.string(gd, "week", where, "this")
        mode = r.string(gd, "mode", where, "standard")
        if mode not in ("standard", "rush"):
            r.problem((*where, "mode"), "must be standard or rush")
        monday = _week(week, now, tz)
        if monday is None:
            r.problem((*where, "week"), "must be this, next, or a date (YYYY-MM-DD) in the week")
        elif game is not None:
            if monday in weeks:
                r.problem((*where, "week"), "that week has a Game of the Week already")
            weeks[monday] = Discipline(game[0], game[1], mode)
    hours: list[HappyHour] = []
    for i, h in enumerate(d.get("happy_hour", [])):
        where = (*path, "happy_hour", i)
        hd = r.table(h, where, ("days", "start", "end", "multiplier"), ("start", "end"))
        days = hd.get("days", list(_DAYS))
        if not isinstance(days, list) or not all(isinstance(x, str) and x.lower()[:3] in _DAYS for x in days):
            r.problem((*where, "days"), "must be a list of days: mon, tue, wed, thu, fri, sat, sun")
            days = []
        try:
            start, end = time.fromisoformat(str(hd.get("start"))), time.fromisoformat(str(hd.get("end")))
        except ValueError:
            r.problem(where, "start and end are times of day, e.g. 18:00 and 20:00")
            continue
        multiplier = r.number(hd, "multiplier", where, 2.0, 1.0)
        hours.append(
            HappyHour(frozenset(_DAYS[x.lower()[:3]] for x in days), start, end, round(multiplier * 100))
        )
    per_unit = r.integer(d, "tournament_points_per_unit", path, 10)
    return r.attempt(path, lambda: PointsPolicy(tz, weeks, tuple(hours), per_unit))


def _week(word: str, now: datetime, tz: tzinfo) -> date | None:
    this = week_start(now, tz)
    if word == "this":
        return this
    if word == "next":
        return this + timedelta(days=7)
    try:
        return week_start(datetime.combine(date.fromisoformat(word), time(12), tzinfo=tz), tz)
    except ValueError:
        return None


# ---------------------------------------------------------------------------------------- the file


def parse_config(
    text: str,
    *,
    source: str = "room.toml",
    now: datetime | None = None,
    strategies: Collection[str] = ("strength", "caller", "random"),
) -> RoomConfig:
    """The room a configuration text describes; raises :class:`ConfigInvalid` listing every problem.
    Times given relative to the start (``start_in_minutes``, ``satellites_in_minutes``, ``week =
    "this"``) are counted from ``now``; ``strategies`` are the bots' strategy names (the bots package)."""
    now = now or datetime.now(UTC)
    r = _Reader(text, source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ConfigInvalid(
            [ConfigProblem(source, int(m.group(1)) if m else 1, "(file)", str(exc))]
        ) from None
    for key in data:
        if key not in SECTIONS:
            r.problem((key,), f"unknown section (known: {', '.join(SECTIONS)})")
    room = r.table(
        data.get("room", {}),
        ("room",),
        ("name", "play_money_on_register", "bots_per_table", "demo_account", "currencies", "payments"),
    )
    name = r.string(room, "name", ("room",), "pokerroom")
    play_money = r.boolean(room, "play_money_on_register", ("room",), True)
    demo = r.boolean(room, "demo_account", ("room",), False)
    currencies = _currencies(r, room)
    payments = r.string(room, "payments", ("room",), "manual")
    if payments not in ("manual", "test"):
        r.problem(("room", "payments"), 'must be "manual" or "test" (docs/cashier.md)')
    timing = _timing(r, data["timing"], ("timing",), Timing()) if "timing" in data else Timing()
    bots_cfg = r.table(data.get("bots", {}), ("bots",), ("think", "strategies"))
    think = bots_cfg.get("think", [0.5, 2.0])
    if not (
        isinstance(think, list) and len(think) == 2 and all(isinstance(x, int | float) for x in think)
    ) or not (0 <= think[0] <= think[1]):
        r.problem(("bots", "think"), "must be [least, most] seconds")
        think = [0.5, 2.0]
    chosen = bots_cfg.get("strategies", list(strategies))
    if not isinstance(chosen, list) or not chosen or not all(s in strategies for s in chosen):
        r.problem(("bots", "strategies"), f"must be a list of: {', '.join(strategies)}")
        chosen = list(strategies)
    default_bots = r.integer(room, "bots_per_table", ("room",), 0)
    tables, table_bots = [], {}
    for i, t in enumerate(_array(r, data, "table")):
        got = _cash_table(r, t, ("table", i), timing, default_bots)
        if got is not None:
            tables.append(got[0])
            table_bots[got[0].table_id] = got[1]
    pools, pool_bots = [], {}
    for i, p in enumerate(_array(r, data, "pool")):
        got_pool = _pool(r, p, ("pool", i))
        if got_pool is not None:
            pools.append(got_pool[0])
            pool_bots[got_pool[0].pool_id] = (got_pool[1], got_pool[2])
    standard: list[TournamentConfig] = []
    rush: list[TournamentConfig] = []
    t_bots: dict[str, int] = {}
    t_ids: list[tuple[Path, str]] = []
    for i, t in enumerate(_array(r, data, "tournament")):
        got_t = _tournament(r, t, ("tournament", i), now)
        if got_t is not None:
            (rush if got_t[1] else standard).append(got_t[0])
            t_ids.append((("tournament", i, "id"), got_t[0].tournament_id))
            if got_t[2]:
                t_bots[got_t[0].tournament_id] = got_t[2]
    recurring: list[tuple[Recurrence, bool]] = []
    for i, t in enumerate(_array(r, data, "recurring")):  # issue 35: each due occurrence a tournament
        got_r = parse_recurring(r, t, ("recurring", i), now, _tournament)
        if got_r is not None:
            recurring.append(got_r[:2])
            t_ids.append((("recurring", i, "id"), got_r[0].series))
            for occurrence in occurrences(got_r[0], now):
                (rush if got_r[1] else standard).append(occurrence)
                if got_r[2]:
                    t_bots[occurrence.tournament_id] = got_r[2]
    for i, g in enumerate(_array(r, data, "big_game")):
        standard += _big_game(r, g, ("big_game", i), now)
    _unique(
        r,
        [(("table", i, "id"), c.table_id) for i, c in enumerate(tables)]
        + [(("pool", i, "id"), p.pool_id) for i, p in enumerate(pools)],
    )
    named = {x for _, x in t_ids}
    big: list[tuple[Path, str]] = [
        (("big_game",), c.tournament_id) for c in standard if c.tournament_id not in named
    ]
    _unique(r, t_ids + big)
    _targets(r, t_ids, standard + rush)
    points = _points(r, data["promotions"], now) if "promotions" in data else None
    cluster = _cluster(r, data.get("cluster", {}), source)
    integrity = _integrity(r, data.get("integrity", {}))
    operator_api = _operator_api(r, data.get("operator_api", {}))
    gaming = r.table(data.get("responsible_gaming", {}), ("responsible_gaming",), ("cooling_hours",))
    cooling = r.integer(gaming, "cooling_hours", ("responsible_gaming",), 24, 1)
    fairness = r.table(data.get("fairness", {}), ("fairness",), ("open_stub",))
    open_stub = r.boolean(fairness, "open_stub", ("fairness",), False)
    mail = _mail(r, data["mail"], source) if "mail" in data else None
    if r.problems:
        raise ConfigInvalid(sorted(r.problems, key=lambda p: p.line))
    return RoomConfig(
        name=name,
        tables=tuple(tables),
        pools=tuple(pools),
        tournaments=tuple(standard),
        rush_tournaments=tuple(rush),
        points=points,
        play_money_on_register=play_money,
        demo_account=demo,
        currencies=currencies,
        payments=payments,
        bots=BotPlan(table_bots, pool_bots, t_bots, (float(think[0]), float(think[1])), tuple(chosen)),
        source=source,
        cluster=cluster,
        integrity=integrity,
        operator_api=operator_api,
        gaming_cooling_hours=cooling,
        fairness_open_stub=open_stub,
        mail=mail,
        recurring=tuple(recurring),
    )


_CURRENCY_WORDS = "must be an ISO 4217 currency code in capitals (EUR, USD, GBP ...) or PLAY"


def _currency(r: _Reader, d: Mapping[str, Any], path: Path) -> str:
    """A table's, pool's or tournament's ``currency``: ISO 4217 or PLAY (issue 29)."""
    currency = r.string(d, "currency", path, "PLAY")
    if not is_room_currency_code(currency):
        r.problem((*path, "currency"), _CURRENCY_WORDS)
        return "PLAY"
    return currency


def _currencies(r: _Reader, room: Mapping[str, Any]) -> tuple[str, ...]:
    """``[room] currencies``: the room's money besides play money, e.g. ``["EUR"]`` (PLAY always first)."""
    value = room.get("currencies", [])
    out = ["PLAY"]
    if not isinstance(value, list):
        r.problem(("room", "currencies"), 'must be a list of currency codes, e.g. ["EUR"]')
        return tuple(out)
    for i, code in enumerate(value):
        if not is_room_currency_code(code):
            r.problem(("room", "currencies", i), _CURRENCY_WORDS)
        elif code not in out:
            out.append(code)
    return tuple(out)


def _operator_api(r: _Reader, data: Any) -> ApiKeyPolicy:
    """``[operator_api]``: calls a second per key (``rate``) in bursts of ``burst``; how many seconds a
    sign-on link works (``sso_seconds``, 10-600)."""
    path: Path = ("operator_api",)
    section = r.table(data, path, ("rate", "burst", "sso_seconds"))
    default = ApiKeyPolicy()
    rate = r.number(section, "rate", path, default.rate, 0.01)
    burst = r.integer(section, "burst", path, int(default.burst), 1)
    sso = r.integer(section, "sso_seconds", path, default.sso_seconds, 10)
    if sso > 600:
        r.problem((*path, "sso_seconds"), "must be at most 600 (a sign-on link is short-lived)")
        sso = default.sso_seconds
    return ApiKeyPolicy(rate=rate, burst=float(burst), sso_seconds=sso)


def _integrity(r: _Reader, data: Any) -> IntegritySettings:
    """``[integrity]``: keep linked players apart (``separate_linked_players``), how many days a login
    is kept (``login_history_days``) and a chat line (``chat_log_days``, 0: for ever)."""
    path: Path = ("integrity",)
    section = r.table(data, path, ("separate_linked_players", "login_history_days", "chat_log_days"))
    default = IntegritySettings()
    return IntegritySettings(
        separate_linked=r.boolean(section, "separate_linked_players", path, default.separate_linked),
        login_history_days=r.integer(section, "login_history_days", path, default.login_history_days, 1),
        chat_log_days=r.integer(section, "chat_log_days", path, default.chat_log_days, 0),
    )


def _mail(r: _Reader, data: Any, source: str) -> MailSettings | None:
    """``[mail]``: the SMTP server e-mail resets go through (server/mail.py checks its keys)."""
    settings, problems = mail_settings(data, str(PurePath(source).parent))
    for key, message in problems:
        r.problem(("mail", key) if key else ("mail",), message)
    return settings


def _cluster(r: _Reader, data: Any, source: str) -> BusConfig:
    """``[cluster]``: the bus's authority, this node's certificate and key (``{node}``: its id), or
    ``insecure``; the three files go together."""
    path: Path = ("cluster",)
    section = r.table(data, path, CLUSTER_KEYS)
    files = {k: r.string(section, k, path) or None for k in ("ca", "cert", "key")}
    given = [k for k, v in files.items() if v is not None]
    if given and len(given) < 3:
        missing = next(k for k, v in files.items() if v is None)
        r.problem((*path, given[0]), f"ca, cert and key go together ({missing} is missing)")
    insecure = r.boolean(section, "insecure", path, False)
    if insecure and given:
        r.problem((*path, "insecure"), "an open bus has no ca, cert or key")
    base = str(PurePath(source).parent)
    return BusConfig(files["ca"], files["cert"], files["key"], insecure=insecure, base=base)


def game_from_fields(kind: str, data: Any, *, timing: Timing | None = None) -> TableConfig | PoolConfig:
    """One ``[[table]]`` (``kind`` "table") or ``[[pool]]`` given as its fields (the console's form), with
    the file's checks; raises :class:`ConfigInvalid` naming each problem by its key path."""
    r = _Reader("", "console")
    got: tuple[Any, ...] | None
    if kind == "table":
        got = _cash_table(r, data, ("table",), timing or Timing(), 0)
    elif kind == "pool":
        got = _pool(r, data, ("pool",))
    else:
        raise ValueError(f"unknown kind {kind!r}")
    if r.problems or got is None:
        raise ConfigInvalid(r.problems or [ConfigProblem("console", 1, kind, "is not valid")])
    cfg: TableConfig | PoolConfig = got[0]
    return cfg


def recurring_from_fields(data: Any, *, now: datetime | None = None) -> tuple[Recurrence, bool]:
    """One ``[[recurring]]`` given as its fields (the console's form), with the file's checks: the
    series and whether it is a Rush one; raises :class:`ConfigInvalid` naming each problem by its key
    path."""
    r = _Reader("", "console")
    got = parse_recurring(r, data, ("recurring",), now or datetime.now(UTC), _tournament)
    if r.problems or got is None:
        raise ConfigInvalid(r.problems or [ConfigProblem("console", 1, "recurring", "is not valid")])
    return got[0], got[1]


def promotions_from_fields(data: Any, *, now: datetime | None = None) -> PointsPolicy:
    """The ``[promotions]`` of a configuration file given as its fields (the console's form), with the
    file's checks; raises :class:`ConfigInvalid` naming each problem by its key path."""
    r = _Reader("", "console")
    policy = _points(r, data, now or datetime.now(UTC))
    if r.problems or policy is None:
        raise ConfigInvalid(r.problems or [ConfigProblem("console", 1, "promotions", "is not valid")])
    return policy


def _array(r: _Reader, data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        r.problem((key,), f"must be an array of tables: [[{key}]]")
        return []
    return value


def _targets(r: _Reader, ids: Sequence[tuple[Path, str]], tournaments: Sequence[TournamentConfig]) -> None:
    """A satellite's target is a tournament of the file."""
    known = {c.tournament_id for c in tournaments}
    where = dict((x, path) for path, x in ids)
    for c in tournaments:
        if c.target and c.target not in known and c.tournament_id in where:
            r.problem((*where[c.tournament_id][:2], "target"), f"no tournament has the id {c.target!r}")


def _unique(r: _Reader, ids: Sequence[tuple[Path, str]]) -> None:
    seen: set[str] = set()
    for path, x in ids:
        if x in seen:
            r.problem(path, f"the id {x!r} is used twice")
        seen.add(x)
