"""A seeded corpus of stored hands for the integrity report at scale (issue 30; benchmarks/integrity_scale.py,
tests/server/test_integrity_report_stream.py): written straight into a SQLite database of the room's own
schema, the rows the report reads: each hand (started, ended, its pool for a Rush table), its seats, its
journal of commands (the decision times) and its audit history as the room writes it (every card, the
sealed deck proof with its salts and seed part, table, time and names).

Tables of 6-max no-limit hold'em (most), 9-max no-limit hold'em, pot-limit Omaha and fixed-limit stud, each
hand played by the engine with a simple style per player (how loose, how aggressive, a crude strength of
his cards and noise: a field for the detectors' costs, not a model of good play); a tenth of the tables
are Rush pools' tables. Players come and go: a seat changes hands every ``SEAT_CHANGE`` hands or so."""

from __future__ import annotations

import json
import random
import sqlite3
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pokerroom.cards import Card
from pokerroom.engine import (
    BetDecision,
    Betting,
    BringIn,
    Call,
    Check,
    Fold,
    HandState,
    ListDeck,
    Muck,
    RaiseTo,
    SeatSetup,
    Show,
    ShowDecision,
    Stakes,
    Structure,
)
from pokerroom.history import DeckProof, HandContext, write_phh
from pokerroom.history.deckproof import SeedPart
from pokerroom.store.db import Database
from pokerroom.variants import VARIANTS

__all__ = ["DAY_HANDS", "START", "fill", "hands_of", "upgrade"]

DAY_HANDS = 1_700_000  # a day of a 1,000-table room
START = datetime(2026, 12, 1, tzinfo=UTC)
HAND_SECONDS = 50  # a table deals about 70 hands an hour: 1,700 a day
SEAT_CHANGE = 40  # hands: on average a seat changes hands this often
STACK = 200  # big blinds


@dataclass(frozen=True)
class Game:
    code: str
    betting: Betting
    seats: int
    share: float  # of the tables


GAMES = (
    Game("holdem", Betting.NO_LIMIT, 6, 0.70),
    Game("holdem", Betting.NO_LIMIT, 9, 0.10),
    Game("omaha", Betting.POT_LIMIT, 6, 0.15),
    Game("stud", Betting.FIXED_LIMIT, 8, 0.05),
)


@dataclass(frozen=True)
class Style:
    loose: float  # the weakest strength he plays on with
    aggressive: float  # the chance he bets or raises with a playable hand


def _stakes(game: Game) -> Stakes:
    if game.code == "stud":
        return Stakes.fixed_limit(2, 4, ante=1, bring_in=1, blinds=False)
    if game.betting is Betting.FIXED_LIMIT:
        return Stakes.fixed_limit(2, 4)
    return Stakes.blinds(1, 2)


def _strength(cards: list[Card], rng: random.Random) -> float:
    """A crude strength in [0, 1]: high ranks, pairs and suits, with noise (a style, not a solver)."""
    ranks = sorted((c.rank.value if hasattr(c.rank, "value") else int(c.rank) for c in cards), reverse=True)
    top = ranks[:2]
    s = (sum(top) / 28.0) * 0.6
    if len(set(ranks)) < len(ranks):
        s += 0.3
    if len({c.suit for c in cards[:2]}) == 1:
        s += 0.05
    return max(0.0, min(1.0, s + rng.gauss(0, 0.12)))


def _play(hand: HandState, styles: dict[int, Style], rng: random.Random) -> list[tuple[str, int]]:
    """Play the hand to its end; the commands (type, seat) in order."""
    done: list[tuple[str, int]] = []
    strength: dict[int, float] = {}
    while not hand.is_over:
        p = hand.pending
        if isinstance(p, BetDecision):
            st = styles[p.seat]
            if p.seat not in strength:
                strength[p.seat] = _strength(list(hand.hole_cards(p.seat)), rng)
            s = strength[p.seat] + rng.gauss(0, 0.05)
            if p.bring_in:
                hand.apply(BringIn(p.seat))
                done.append(("bring_in", p.seat))
                continue
            facing = bool(p.call)
            if facing and s < st.loose + 0.1 * rng.random():
                hand.apply(Fold(p.seat))
                done.append(("fold", p.seat))
            elif p.raise_kind and s > st.loose and rng.random() < st.aggressive * s:
                span = max(0, p.max_to - p.min_to)
                amount = (
                    p.min_to + int(span * min(1.0, rng.random() ** 3))
                    if not p.choices
                    else rng.choice(p.choices)
                )
                hand.apply(RaiseTo(p.seat, amount))
                done.append(("raise", p.seat))
            elif facing:
                hand.apply(Call(p.seat))
                done.append(("call", p.seat))
            else:
                hand.apply(Check(p.seat))
                done.append(("check", p.seat))
        elif isinstance(p, ShowDecision):
            hand.apply(Show(p.seat) if rng.random() < 0.7 else Muck(p.seat))
            done.append(("show", p.seat))
        else:  # no draw games in this corpus
            raise RuntimeError(f"unexpected decision {p!r}")
    return done


def _salt(rng: random.Random) -> str:
    return f"{rng.getrandbits(128):032x}"


def _hex(rng: random.Random) -> str:
    return f"{rng.getrandbits(256):064x}"


@dataclass
class Table:
    id: str
    game: Game
    pool: str | None
    seats: list[int]  # player ids, by seat
    button: int = 1


def _sql_time(t: datetime) -> str:
    return t.replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S.%f")


@dataclass(frozen=True)
class Stored:
    """The rows of one hand."""

    hand: tuple[str, str, str, str, str, str, str | None]  # id, table, game, started, ended, root, pool
    seats: list[tuple[str, int, int, int, int]]  # hand, seat, player, session, stack
    commands: list[tuple[str, int, str, str]]  # hand, seq, command, recorded
    text: str  # the audit history
    stored_at: str


def hands_of(tables: int, hands: int, players: int, seed: int) -> Iterator[Stored]:
    """The rows of each hand, in time order."""
    rng = random.Random(seed)
    styles = {
        p: Style(loose=rng.uniform(0.25, 0.6), aggressive=rng.uniform(0.15, 0.7))
        for p in range(1, players + 1)
    }
    weights = [g.share for g in GAMES]
    room: list[Table] = []
    for t in range(tables):
        game = rng.choices(GAMES, weights)[0]
        pool = f"rush-{t % 3}" if game.code == "holdem" and game.seats == 6 and t % 10 == 0 else None
        room.append(Table(f"t{t:04d}", game, pool, rng.sample(range(1, players + 1), game.seats)))
    per_table = max(1, hands // tables)
    step = timedelta(seconds=HAND_SECONDS)
    n = 0
    for k in range(per_table):
        for t, table in enumerate(room):
            if n >= hands:
                return
            n += 1
            game = table.game
            seated = set(table.seats)
            for i in range(len(table.seats)):  # players come and go
                if rng.random() < 1 / SEAT_CHANGE:
                    new = rng.randint(1, players)
                    if new not in seated:
                        seated.discard(table.seats[i])
                        table.seats[i] = new
                        seated.add(new)
            v = VARIANTS[game.code]
            nseats = len(table.seats)
            spec = v.deck_for(nseats)
            cards = list(spec.cards())
            rng.shuffle(cards)
            seats = [SeatSetup(s, STACK * 2) for s in range(1, nseats + 1)]
            table.button = table.button % nseats + 1
            hand_id = f"{table.id}-{k:05d}"
            hand = HandState.start(
                variant=v,
                structure=Structure(game.betting, _stakes(game)),
                seats=seats,
                deck=ListDeck(cards, spec),
                button=table.button,
                hand_id=hand_id,
            )
            by_seat = {s: table.seats[s - 1] for s in range(1, nseats + 1)}
            commands = _play(hand, {s: styles[p] for s, p in by_seat.items()}, rng)
            started = (
                START
                + step * k
                + timedelta(seconds=t * HAND_SECONDS / len(room), microseconds=rng.randrange(10**6))
            )
            seed_part = SeedPart(_hex(rng), tuple((s, _hex(rng), "server") for s in range(nseats)), _hex(rng))
            proof = DeckProof.seal(cards, None, salt=lambda: _salt(rng), seed=seed_part)
            ctx = HandContext(
                proof=proof,
                hand_id=hand_id,
                table=table.id,
                time=started,
                players={s: f"player{p}" for s, p in by_seat.items()},
                seat_count=nseats,
            )
            text = write_phh(hand, viewer=None, context=ctx)
            at = started
            rows = []
            for seq, (kind, seat) in enumerate(commands):
                at += timedelta(seconds=rng.uniform(0.4, 4.0))
                rows.append((hand_id, seq, json.dumps({"type": kind, "seat": seat}), _sql_time(at)))
            yield Stored(
                (hand_id, table.id, game.code, _sql_time(started), _sql_time(at), proof.root, table.pool),
                [(hand_id, s, p, 1, STACK * 2) for s, p in by_seat.items()],
                rows,
                text,
                _sql_time(at),
            )


async def upgrade(path: Path) -> None:
    """A new SQLite database of the room's schema at ``path``."""
    if path.exists():
        path.unlink()
    db = Database(f"sqlite+aiosqlite:///{path}")
    try:
        await db.upgrade()
    finally:
        await db.dispose()


def fill(path: Path, tables: int, hands: int, players: int, seed: int, *, quiet: bool = False) -> int:
    """Generate the corpus into the database :func:`upgrade` made (the hands it holds)."""
    con = sqlite3.connect(path)
    con.execute("PRAGMA foreign_keys=OFF")
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=OFF")
    now = _sql_time(START)
    con.executemany(
        "INSERT INTO players (id, name, name_key, password_hash, role, failed_logins, created_at, kind)"
        " VALUES (?, ?, ?, '', 'player', 0, ?, 'player')",
        [(p, f"player{p}", f"player{p}", now) for p in range(1, players + 1)],
    )
    begun = time.perf_counter()
    batch: list[Stored] = []

    def flush() -> None:
        con.executemany(
            "INSERT INTO hands (id, table_id, game, currency, status, started_at, ended_at,"
            " deck_commitment, start_fingerprint, pool_id) VALUES (?, ?, ?, 'PLAY', 'ended', ?, ?, ?, '', ?)",
            [x.hand for x in batch],
        )
        con.executemany(
            "INSERT INTO hand_seats (hand_id, seat, player_id, session_id, stack) VALUES (?, ?, ?, ?, ?)",
            [r for x in batch for r in x.seats],
        )
        con.executemany(
            "INSERT INTO hand_commands (hand_id, seq, command, recorded_at) VALUES (?, ?, ?, ?)",
            [r for x in batch for r in x.commands],
        )
        con.executemany(
            "INSERT INTO hand_histories (hand_id, full_phh, stored_at) VALUES (?, ?, ?)",
            [(x.hand[0], x.text, x.stored_at) for x in batch],
        )
        con.commit()
        batch.clear()

    done = 0
    for rows in hands_of(tables, hands, players, seed):
        batch.append(rows)
        done += 1
        if len(batch) >= 2000:
            flush()
            if not quiet:
                print(f"  {done} hands, {time.perf_counter() - begun:.0f} s", file=sys.stderr, flush=True)
    flush()
    con.close()
    return done
