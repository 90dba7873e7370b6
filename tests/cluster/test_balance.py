"""Issue 37, item 1: hosts share the work by load, and the moves that get them there always stop
(server/cluster/balance.py). Pure: the live behaviour is in test_spread.py."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.server.cluster.balance import MAX_MOVES, drain_plan, plan_moves

hosts = st.lists(st.sampled_from(["h1", "h2", "h3", "h4"]), min_size=2, max_size=4, unique=True)


@st.composite
def rooms(draw: st.DrawFn) -> dict[str, dict[str, int]]:
    """Every host's weights: resources numbered across the room, weights 1 (an empty table) to 10."""
    names = draw(hosts)
    loads: dict[str, dict[str, int]] = {}
    n = 0
    for host in names:
        loads[host] = {}
        for w in draw(st.lists(st.integers(1, 10), max_size=12)):
            n += 1
            loads[host][f"table:t{n}"] = w
    return loads


def _round(loads: dict[str, dict[str, int]]) -> int:
    """One round: every host plans (only the most loaded one may move); the moves are applied."""
    moved = 0
    for host in sorted(loads):
        for m in plan_moves(host, loads, dict(loads[host])):
            weight = loads[host].pop(m.resource)
            loads[m.to][m.resource] = weight
            moved += 1
    return moved


def _squares(loads: dict[str, dict[str, int]]) -> int:
    return sum(sum(w.values()) ** 2 for w in loads.values())


@given(rooms())
def test_only_the_most_loaded_host_moves_and_each_move_brings_the_two_closer(
    loads: dict[str, dict[str, int]],
) -> None:
    totals = {h: sum(w.values()) for h, w in loads.items()}
    top = max(totals.values())
    leader = min(h for h, t in totals.items() if t == top)
    for host in loads:
        moves = plan_moves(host, loads, dict(loads[host]))
        if host != leader:
            assert moves == []
            continue
        assert len(moves) <= MAX_MOVES
        assert len({m.resource for m in moves}) == len(moves)
        running = dict(totals)
        for m in moves:
            assert m.to != host and m.resource in loads[host]
            gap = running[host] - running[m.to]
            assert 0 < m.weight < gap  # the pair ends closer than it was
            running[host] -= m.weight
            running[m.to] += m.weight


@settings(max_examples=200)
@given(rooms())
def test_the_moves_stop_with_the_room_balanced(loads: dict[str, dict[str, int]]) -> None:
    resources_before = sorted(r for w in loads.values() for r in w)
    before = _squares(loads)
    for _ in range(1000):
        squares = _squares(loads)
        if _round(loads) == 0:
            break
        assert _squares(loads) < squares  # every round of moves lowers the sum of squares
    else:
        raise AssertionError("the moves never stop")
    assert sorted(r for w in loads.values() for r in w) == resources_before  # nothing lost or doubled
    assert _squares(loads) <= before
    totals = {h: sum(w.values()) for h, w in loads.items()}
    top = max(totals.values())
    leader = min(h for h, t in totals.items() if t == top)
    low = min(totals.values())
    # at rest: no table of the most loaded host would bring it closer to the least loaded one
    assert all(w >= top - low for w in loads[leader].values())


def test_a_host_that_joins_an_even_room_gets_its_share_in_two_rounds() -> None:
    loads: dict[str, dict[str, int]] = {"h1": {f"table:t{i}": 1 for i in range(12)}, "h2": {}}
    assert _round(loads) == MAX_MOVES
    _round(loads)
    assert {h: len(w) for h, w in loads.items()} == {"h1": 6, "h2": 6}
    assert _round(loads) == 0  # and then it rests


def test_moves_wait_for_those_in_flight() -> None:
    loads = {"h1": {"table:a": 1, "table:b": 1, "table:c": 1}, "h2": {}}
    assert plan_moves("h1", loads, dict(loads["h1"]), in_flight=1) == []
    assert plan_moves("h1", {"h1": loads["h1"]}, dict(loads["h1"])) == []  # alone: nowhere to go


def test_a_draining_host_hands_everything_out_to_the_least_loaded() -> None:
    loads = {"h1": {"table:a": 7, "table:b": 1, "pool:p": 5}, "h2": {"table:x": 3}, "h3": {"table:y": 4}}
    moves = drain_plan("h1", loads, loads["h1"])
    assert [(m.resource, m.to) for m in moves] == [("table:a", "h2"), ("pool:p", "h3"), ("table:b", "h3")]
    assert drain_plan("h1", {"h1": loads["h1"]}, loads["h1"]) == []  # nobody to take it
