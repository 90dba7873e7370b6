"""Issue 31: the lifetime statistics' queries (store/mystats.py) on SQLite and PostgreSQL: the hands
without figures (own copies and copies written later), the sums by game and stakes, the graph and the
sessions, computed by the database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from pokerroom.store import Store
from pokerroom.store.errors import InvalidStatsFilter
from pokerroom.store.mystats import FIGURES, MyStats, StatsFilter, epoch, graph_of, sessions_of
from tests.server.test_my_stats import EXPECTED, SUBJECT_SEAT, _hand, store_hand

from .storehelpers import PASSWORD

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _row(hand_id: str, minutes: int, net: int, **extra: Any) -> dict[str, Any]:
    return {
        "hand_id": hand_id,
        "kind": "cash",
        "ended_s": epoch(T0) + 60 * minutes,
        "game": "holdem",
        "betting": "NL",
        "currency": "PLAY",
        "stakes": "1/2",
        "readable": 1,
        "net": net,
        **dict.fromkeys(FIGURES, 0),
        **extra,
    }


@pytest.mark.asyncio
async def test_sums_graph_and_sessions(store: Store) -> None:
    me = (await store.accounts.register("alice", PASSWORD)).id
    other = (await store.accounts.register("bobby", PASSWORD)).id
    stats = MyStats(store.db)
    await stats.save(
        me,
        [
            _row("a", 0, 10, vpip=1, pfr=1),
            _row("b", 20, -4, vpip=1, three_bet_chance=1),
            _row("c", 100, 7, saw_second=1, showdown=1, won_showdown=1),
            _row("d", 101, 5, stakes="2/4"),
            _row("e", 102, 100, currency="CHIPS", kind="tournament"),
            {**_row("f", 103, 0), "readable": 0, "game": "", "betting": "", "currency": "", "stakes": ""},
        ],
    )
    await stats.save(other, [_row("a", 0, -10)])
    await stats.save(me, [_row("a", 0, 999)])  # (a second request's copy: the first is kept)

    assert await stats.currencies(me, StatsFilter()) == {"PLAY": 4, "CHIPS": 1, "": 1}
    play = StatsFilter(currency="PLAY")
    rows = {r["stakes"]: r for r in await stats.breakdown(me, play)}
    assert (rows["1/2"]["hands"], rows["1/2"]["net"], rows["1/2"]["vpip"], rows["1/2"]["pfr"]) == (
        3,
        13,
        2,
        1,
    )
    assert (rows["1/2"]["won_showdown"], rows["2/4"]["hands"], rows["2/4"]["net"]) == (1, 1, 5)
    series = await stats.series(me, play)
    assert [net for _, net in series] == [10, -4, 7, 5]
    assert [(n, cum) for n, _, cum in graph_of(series, 400)] == [(1, 10), (2, 6), (3, 13), (4, 18)]
    assert [(n, cum) for n, _, cum in graph_of(series, 2)] == [(1, 10), (2, 6), (4, 18)]
    sessions = sessions_of(series, 30 * 60)
    assert [(s["hands"], s["net"], s["end"] - s["start"]) for s in sessions] == [(2, 6, 1200), (2, 12, 60)]
    assert [s["hands"] for s in sessions_of(series, 10 * 60)] == [1, 1, 2]
    since = StatsFilter(currency="PLAY", since=epoch(T0 + timedelta(minutes=100)))
    assert sum(r["hands"] for r in await stats.breakdown(me, since)) == 2
    assert await stats.breakdown(other, play) == [
        {
            **{k: rows["1/2"][k] for k in ("kind", "game", "betting", "currency", "stakes")},
            "hands": 1,
            "net": -10,
            **dict.fromkeys(FIGURES, 0),
            "first": epoch(T0),
            "last": epoch(T0),
        }
    ]


@pytest.mark.asyncio
async def test_hands_without_figures_come_from_the_players_own_copy_or_the_audit_copy_and_his_seat(
    store: Store,
) -> None:
    ids = [(await store.accounts.register(n, PASSWORD)).id for n in ("alice", "bobby", "carol")]
    for pid in ids:
        await store.ledger.play_money_top_up(pid, idempotency_key=f"seed-{pid}")
    for i in (0, 3):  # H1 with every copy written, H4 with the copies written later
        seat = SUBJECT_SEAT[i]
        others = iter(ids[1:])
        players = {s: ids[0] if s == seat else next(others) for s in (1, 2, 3)}
        await store_hand(store, f"h{i + 1}", _hand(i), players, T0 + timedelta(minutes=i), later=i == 3)
    stats = MyStats(store.db)
    todo, count = await stats.unfigured(ids[0], 1)
    assert count == 2 and [u.hand_id for u in todo] == ["h1"]
    assert todo[0].seat is None and todo[0].text is not None and "_viewer" in todo[0].text
    todo, count = await stats.unfigured(ids[0], 10)
    assert [(u.hand_id, u.seat) for u in todo] == [("h1", None), ("h4", SUBJECT_SEAT[3])]
    assert todo[1].text is not None and "_viewer" not in todo[1].text  # the audit copy, read server side
    assert "actions" not in repr(todo[1]) and todo[1].text[:40] not in repr(todo)  # never in a log line
    await stats.save(ids[0], [_row("h1", 0, EXPECTED[0]["net"])])
    todo, count = await stats.unfigured(ids[0], 10)
    assert count == 1 and [u.hand_id for u in todo] == ["h4"]
    assert (await stats.unfigured(ids[1], 10))[1] == 2  # bobby's are his own
    assert await stats.pending(ids[0]) == 1


@pytest.mark.parametrize(
    ("f", "field"),
    [
        (StatsFilter(game="chess"), "game"),
        (StatsFilter(kind="rush"), "kind"),
        (StatsFilter(currency="eur"), "currency"),
        (StatsFilter(stakes="1/2; drop"), "stakes"),
        (StatsFilter(since=10, until=10), "to"),
    ],
)
def test_bad_filters(f: StatsFilter, field: str) -> None:
    with pytest.raises(InvalidStatsFilter) as e:
        f.checked(("holdem", "stud"))
    assert e.value.field == field and e.value.code == "invalid_filter"
