"""RULES.md §9, R221 and R231 on a tournament director with an injected random source: the start of a
multi-table tournament (random buttons, equal stacks) and a freeroll played to the end."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta

from pokerroom.rooms.tournament import (
    Finished,
    TournamentBuyIn,
    TournamentConfig,
    TournamentDirector,
    TournamentOverlay,
    TournamentPrize,
    TournamentTicket,
)

from .tourney_driver import Field, check_end, play

T0 = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
START = T0 + timedelta(hours=1)


def _started(seed: int, players: int = 20) -> TournamentDirector:
    cfg = TournamentConfig("mtt", "MTT", kind="mtt", buy_in=1000, fee=100, start_time=START, table_size=9)
    d = TournamentDirector(cfg, random.Random(seed))
    for i in range(players):
        d.register(f"p{i}", f"P{i}", T0)
    d.tick(START)
    assert d.status == "running"
    return d


def _chips(d: TournamentDirector) -> int:
    """Every chip at the tables: the players' stacks and what is in the pots."""
    total = 0
    for t in d.tables.values():
        assert t.hand is not None
        total += sum(t.hand.stacks().values()) + t.hand.pot_total()
    return total


def test_r221_every_table_starts_with_a_random_button_and_equal_stacks() -> None:
    """R221: Tournament start: each table's button is at a random seat; all players have equal stacks."""
    # Where the button is among each table's players (0: the lowest occupied seat): the players sit at
    # random seats, so a button always on, say, the lowest occupied seat would still move around the
    # seat numbers; its place among the occupied seats shows whether the button itself is drawn.
    places: dict[int, Counter[int]] = {}
    for seed in range(30):
        d = _started(seed)
        assert sorted(len(t.seats) for t in d.tables.values()) == [6, 7, 7]  # 20 players, 9-max: 3 tables
        for number, t in d.tables.items():
            hand = t.hand
            assert hand is not None and hand.button in t.seats  # a dealt hand, the button on a player
            places.setdefault(number, Counter())[sorted(t.seats).index(hand.button)] += 1
            # Every player starts his first hand with the starting stack (the blinds come out of it).
            assert {p.starting_stack for p in hand.players.values()} == {1500}
            assert set(hand.players) == set(t.seats)
        assert {e.stack for e in d.entrants.values()} == {1500}
        assert _chips(d) == 20 * 1500
        # The same seed gives the same buttons: they come from the injected random source.
        again = _started(seed)
        assert {n: t.hand.button for n, t in again.tables.items() if t.hand} == {
            n: t.hand.button for n, t in d.tables.items() if t.hand
        }
    for number, seen in places.items():
        # 30 starts of each table: the button lands on many different players' seats, none of them always.
        assert len(seen) >= 4, (number, seen)
        assert max(seen.values()) <= 15, (number, seen)


def test_r231_a_freeroll_costs_nothing_and_pays_its_pool_in_money() -> None:
    """R231: Freeroll: buy-in 0, real-money prizes."""
    cfg = TournamentConfig(
        "free", "Freeroll", kind="sng", max_players=3, freeroll_pool=5_000, currency="EUR", table_size=3
    )
    assert cfg.is_freeroll and cfg.buy_in == 0 and cfg.fee == 0
    d = TournamentDirector(cfg, random.Random(7))
    before: list[object] = []
    for p in ("ann", "bob", "cid"):
        before += d.register(p, p, T0)
    buy_ins = [x for x in before if isinstance(x, TournamentBuyIn)]
    assert [(x.player, x.prize, x.fee) for x in buy_ins] == [("ann", 0, 0), ("bob", 0, 0), ("cid", 0, 0)]
    assert d.status == "running"  # the sit-and-go started with its last (free) registration
    run = play(d, T0, random.Random(3), Field(), before)
    check_end(run)
    assert d.status == "finished" and sum(isinstance(x, Finished) for x in run.out) == 1
    # The house puts the whole pool in (the players put in nothing) ...
    assert [x.amount for x in run.out if isinstance(x, TournamentOverlay)] == [5_000]
    assert d.contributions == 0 and d.pool == 5_000
    # ... and it is paid out as money to the places (3 entrants: 65 % and 35 %), not as tickets.
    prizes = sorted((x.place, x.amount) for x in run.out if isinstance(x, TournamentPrize))
    assert prizes == [(1, 3_250), (2, 1_750)]
    assert not [x for x in run.out if isinstance(x, TournamentTicket)]
    winners = {x.player: x.place for x in run.out if isinstance(x, TournamentPrize)}
    assert winners == {p: e.place for p, e in d.entrants.items() if e.place in (1, 2)}
