"""How a cluster's hosts share the work by load (docs/cluster.md, "Placement"): pure functions, no I/O.

Each resource a host runs has a weight: a cash table ``1 +`` its seated players, a Rush pool ``1 +`` its
entries, a tournament ``1 +`` the players still in (an empty table still costs its clock and its lobby
row; every seated player adds his decisions). Every host publishes its weights in its directory, so each
host sees every host's load.

A host moves work only when it is the most loaded host of the cluster (ties: the smallest id), so two
hosts never both hand work to the same idle one; it moves cash tables only (between hands, nothing voided:
a pool or a tournament has no moment when all its hands are over, so it stays where it runs until its
host drains), each to the least loaded host, and only a move that leaves the two hosts closer than
before (a table of weight ``w`` moves only when the gap is more than ``w``). The sum of the squares of
the loads falls with every move, so the moves stop: the room never churns. A table that moved recently
stays where it is (the caller leaves it out of ``movable``), and a host keeps at most a few moves in
flight.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["MAX_MOVES", "Move", "drain_plan", "plan_moves"]

MAX_MOVES = 4  # moves a host has in flight at most


@dataclass(frozen=True)
class Move:
    resource: str
    to: str
    weight: int


def _totals(loads: Mapping[str, Mapping[str, int]]) -> dict[str, int]:
    return {host: sum(weights.values()) for host, weights in loads.items()}


def plan_moves(
    me: str,
    loads: Mapping[str, Mapping[str, int]],
    movable: Mapping[str, int],
    *,
    in_flight: int = 0,
    limit: int = MAX_MOVES,
) -> list[Move]:
    """The tables ``me`` should hand over now: ``loads`` is every live host's weights (``me`` included),
    ``movable`` the tables of ``me`` that may move (resource -> weight), ``in_flight`` the moves of ``me``
    not finished yet (none are planned until they are: the loads would not show them)."""
    totals = _totals(loads)
    if me not in totals or len(totals) < 2 or in_flight:
        return []
    top = max(totals.values())
    if me != min(h for h, t in totals.items() if t == top):  # (only the most loaded host moves work)
        return []
    left = dict(movable)
    moves: list[Move] = []
    while left and len(moves) < limit:
        target = min((h for h in totals if h != me), key=lambda h: (totals[h], h))
        gap = totals[me] - totals[target]
        fits = [(r, w) for r, w in left.items() if 0 < w < gap]
        if not fits:
            break
        resource, weight = min(fits, key=lambda rw: (abs(gap - 2 * rw[1]), rw[0]))
        del left[resource]
        totals[me] -= weight
        totals[target] += weight
        moves.append(Move(resource, target, weight))
    return moves


def drain_plan(me: str, loads: Mapping[str, Mapping[str, int]], leaving: Mapping[str, int]) -> list[Move]:
    """Where each of ``leaving`` (resource -> weight) goes when ``me`` drains: the heaviest first, each to
    the least loaded of the other hosts at that moment. Empty when no other host is alive."""
    totals = {h: t for h, t in _totals(loads).items() if h != me}
    moves: list[Move] = []
    if not totals:
        return moves
    for resource, weight in sorted(leaving.items(), key=lambda rw: (-rw[1], rw[0])):
        target = min(totals, key=lambda h: (totals[h], h))
        totals[target] += weight
        moves.append(Move(resource, target, weight))
    return moves
