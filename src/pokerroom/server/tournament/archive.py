"""Tournaments that ended before the room last started: the lobby's "finished" list and their pages come
from the store (the tournament's row, its entries' finishing places, its payout table), since their actors
lived in memory. Read once at start-up; a tournament that ends while the room runs is shown by its actor.
An occurrence of a recurring series from an earlier day is not among the settings (they hold the due
ones): its configuration is its series' on the date its id names (``past_occurrence``, issue 35).

Each entry's deal at the final table (RULES.md §11.3) comes from the store too (``tournament_entries.deal``,
written in the step that paid it): the standings' ``deal`` after a restart is what it was before, and the
operator's deal switch (``tournament_switches``) is the summary's ``deals``. What the store does not keep
is not shown: the tables, the clock and per-player prize amounts (those are in each player's ledger
history)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.tournament.recovery import config_for
from pokerroom.server.tournament.recurring import Series, past_occurrence
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
        # (an interrupted tournament's players still holding chips have no place: by chips, after them)
        held = sorted((e for e in rec.entries if e.place is None), key=lambda e: (-(e.stack or 0), e.name))
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
                    "stack": 0 if e.place is not None else e.stack or 0,
                    "place": e.place,
                    "table": None,
                    "deal": e.deal or 0,  # paid by a deal at the final table (stored: a restart keeps it)
                }
                for e in [*placed, *held]
            ],
            "tables": [],
            "hand_for_hand": False,
            "prizes": [],
            "tickets": [],
            "level": None,
            "archived": True,
        }


async def load_archive(
    store: Store,
    settings: dict[str, tuple[TournamentConfig, bool]],
    limit: int = 50,
    recurring: Series = (),
) -> dict[str, ArchivedTournament]:
    """The last ``limit`` finished or cancelled tournaments whose configuration is still known (from the
    settings, or kept with an admin's request, or the room's ``recurring`` series: an occurrence of an
    earlier day, which the settings' due occurrences no longer hold), by id."""
    out: dict[str, ArchivedTournament] = {}
    records = await store.tournaments.finished(limit)
    switches = await store.tournaments.deal_switches([rec.id for rec in records])  # (the operator's word)
    for rec in records:
        found = config_for(rec, settings) or past_occurrence(recurring, rec.id)
        if found is not None:
            cfg = found[0] if rec.id not in switches else replace(found[0], deals=switches[rec.id])
            out[rec.id] = ArchivedTournament(cfg, rec)
    return out
