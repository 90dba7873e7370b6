"""Tournaments that ended before the room last started: the lobby's "finished" list and their pages come
from the store (the tournament's row, its entries' finishing places, its payout table), since their actors
lived in memory. Read once at start-up; a tournament that ends while the room runs is shown by its actor.

What the store does not keep is not shown: the tables, the clock and per-player prize amounts (those are
in each player's ledger history)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.tournament.recovery import config_for
from pokerroom.server.tournament.views import tournament_structure, tournament_summary
from pokerroom.store import Store, StoredTournament

__all__ = ["ArchivedTournament", "load_archive"]


@dataclass(frozen=True)
class ArchivedTournament:
    config: TournamentConfig
    record: StoredTournament

    def summary(self) -> dict[str, Any]:
        rec = self.record
        return tournament_summary(self.config, rec.id, rec.status, len(rec.entries), 0, sum(rec.prizes))

    def details(self) -> dict[str, Any]:
        rec = self.record
        placed = sorted((e for e in rec.entries if e.place is not None), key=lambda e: (e.place, e.name))
        return {
            "summary": self.summary(),
            "structure": tournament_structure(self.config),
            "entrants": [{"player": str(e.player_id), "name": e.name, "entry": e.entry} for e in rec.entries],
            "payouts": [{"place": i, "amount": a} for i, a in enumerate(rec.prizes, start=1)],
            "seats_won": 0,
            "standings": [
                {
                    "player": str(e.player_id),
                    "name": e.name,
                    "entry": e.entry,  # re-entries (R261) numbered
                    "stack": 0,
                    "place": e.place,
                    "table": None,
                }
                for e in placed
            ],
            "tables": [],
            "hand_for_hand": False,
            "prizes": [],
            "tickets": [],
            "level": None,
            "archived": True,
        }


async def load_archive(
    store: Store, settings: dict[str, tuple[TournamentConfig, bool]], limit: int = 50
) -> dict[str, ArchivedTournament]:
    """The last ``limit`` finished or cancelled tournaments whose configuration is still known (from the
    settings, or kept with an admin's request), by id."""
    out: dict[str, ArchivedTournament] = {}
    for rec in await store.tournaments.finished(limit):
        found = config_for(rec, settings)
        if found is not None:
            out[rec.id] = ArchivedTournament(found[0], rec)
    return out
