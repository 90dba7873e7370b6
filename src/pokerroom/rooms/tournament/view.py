"""What a viewer sees of a tournament table (the ``snapshot`` of kind ``tournament``) and the level clock."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pokerroom.rooms.tournament.director import TournamentDirector
from pokerroom.rooms.tournament.mixed import level_game, mixed_level_view
from pokerroom.rooms.view import seat_view, table_state

__all__ = ["level_view", "tournament_table_view"]


def level_view(director: TournamentDirector, now: datetime) -> dict[str, Any] | None:
    """The level in force, its stakes, and the time to the next level and break (None before the start)."""
    d = director
    if d.schedule is None:
        return None
    level = d.level(now)
    st = level_game(d.config, level).stakes  # a mixed tournament: the stakes of the level's game (R251)
    nxt = d.schedule.next_level_at(now)
    brk = d.schedule.next_break(now)
    return {
        "number": level.number,
        "small_blind": st.small_blind,
        "big_blind": st.big_blind,
        "ante": st.ante,
        "small_bet": st.small_bet,
        "big_bet": st.big_bet,
        "next_level_in": max(0.0, (nxt - now).total_seconds()),
        "next_break_in": max(0.0, (brk - now).total_seconds()) if brk is not None else None,
        "in_break": d.schedule.in_break(now),
    }


def tournament_table_view(
    director: TournamentDirector, number: int, viewer: str | None, now: datetime
) -> dict[str, Any] | None:
    """Table ``number`` of the tournament as ``viewer`` (a player id, or None) sees it; None when the
    table is closed (broken up, or the tournament is over)."""
    table = director.tables.get(number)
    if table is None:
        return None
    cfg = director.config
    you = table.seat_of(viewer) if viewer is not None else None
    dealt = you if you is not None and table.in_hand and you in table.hand_players else None
    level = director.level(now)
    game = level_game(cfg, level)  # the game of the next hand; a hand in progress keeps its own (R251)
    spec, betting, stakes = game.spec, game.betting, game.stakes
    if table.in_hand and table.hand is not None:
        spec, betting, stakes = table.variant, table.betting, table.hand.structure.stakes
    return table_state(
        kind="tournament",
        table_id=table.tid,
        name=f"{cfg.name} - table {number}",
        spec=spec,
        betting=betting,
        currency=cfg.currency,
        stakes=stakes,
        seats=table.size,
        players={
            str(s): seat_view(
                p.player, p.name, p.stack, "sitting_out" if p.sitting_out else "playing", (), p.time_bank
            )
            for s, p in sorted(table.seats.items())
        },
        you=you,
        button=table.positions.button if table.positions is not None else None,
        hand=table.hand,
        dealt=dealt,
        clocks=table.clocks,
        now=now,
        tournament={
            "tournament": director.tid,
            "number": number,
            "level": level_view(director, now),
            # a mixed tournament (RULES.md §11.1): the mix, the game of this level and of the next
            **({"mix": mixed_level_view(cfg, level.number)} if cfg.mix else {}),
            **(
                {"bounties": {str(s): director.entrants[p.player].bounty for s, p in table.seats.items()}}
                if cfg.bounty
                else {}
            ),
        },
    )
