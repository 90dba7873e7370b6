"""Breaking and balancing tables (RULES.md §9.5, TDA practice), as pure decisions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pokerroom.cards import RandomSource

__all__ = [
    "balance_move",
    "bb_seat_for_newcomer",
    "mover_blind_game",
    "mover_stud",
    "seats_for_broken_table",
    "table_to_break",
]


def table_to_break(counts: Mapping[int, int], table_size: int) -> int | None:
    """As soon as the remaining players fit at one table fewer, the highest-numbered table is broken
    (R237: three 9-max tables with 18 players -> table 3)."""
    if len(counts) < 2:
        return None
    if sum(counts.values()) <= (len(counts) - 1) * table_size:
        return max(counts)
    return None


def balance_move(counts: Mapping[int, int], source: int | None = None) -> tuple[int, int] | None:
    """(from, to) while a table has two or more players more than the smallest (R236). ``source`` is the
    table that has just finished a hand (players move only between hands at the source table); without
    it, the lowest-numbered largest table. The lowest-numbered smallest table receives."""
    if len(counts) < 2:
        return None
    small = min(counts.values())
    src = source if source is not None else min(t for t, n in counts.items() if n == max(counts.values()))
    if counts[src] - small < 2:
        return None
    dst = min(t for t, n in counts.items() if n == small)
    return src, dst


def _clockwise(seats: Sequence[int], after: int) -> list[int]:
    ordered = sorted(seats)
    return [s for s in ordered if s > after] + [s for s in ordered if s <= after]


def mover_blind_game(occupied: Sequence[int], last_bb: int | None) -> int:
    """The player due to post the big blind next at the source table: the first occupied seat clockwise
    after the last big blind."""
    if last_bb is None:
        return min(occupied)
    return _clockwise(occupied, last_bb)[0]


def bb_seat_for_newcomer(empty: Sequence[int], last_bb: int | None) -> int:
    """The worst position at the target table: the empty seat the big blind reaches first, never the
    small-blind seat of the next hand (the last big blind's own seat, if it is empty now)."""
    candidates = [s for s in empty if s != last_bb] or list(empty)
    if last_bb is None:
        return min(candidates)
    return _clockwise(candidates, last_bb)[0]


def mover_stud(source_occupied: Sequence[int], target_vacated: int) -> int:
    """Stud: the player in the same seat number at the source table as the short table's most recently
    vacated seat, or the next occupied seat clockwise if that seat is empty."""
    if target_vacated in source_occupied:
        return target_vacated
    return _clockwise(source_occupied, target_vacated)[0]


def seats_for_broken_table(
    players: Sequence[str], empty: Mapping[int, Sequence[int]], counts: Mapping[int, int], rng: RandomSource
) -> dict[str, tuple[int, int]]:
    """Random empty seats at the other tables for the players of a broken table, shortest tables first."""
    free = {t: list(seats) for t, seats in empty.items()}
    sizes = dict(counts)
    order = list(players)
    for i in range(len(order) - 1, 0, -1):
        j = rng.randrange(i + 1)
        order[i], order[j] = order[j], order[i]
    out: dict[str, tuple[int, int]] = {}
    for player in order:
        open_tables = [t for t in free if free[t]]
        if not open_tables:
            raise ValueError("not enough empty seats for a broken table")
        smallest = min(sizes[t] for t in open_tables)
        table = min(t for t in open_tables if sizes[t] == smallest)
        seat = free[table].pop(rng.randrange(len(free[table])))
        sizes[table] += 1
        out[player] = (table, seat)
    return out
