"""Tournaments: the director's pure rules (RULES.md §9)."""

from pokerroom.rooms.tournament.bounty import TournamentBounty
from pokerroom.rooms.tournament.config import (
    TournamentBuyIn,
    TournamentConfig,
    TournamentDealPaid,
    TournamentOverlay,
    TournamentPoints,
    TournamentPrize,
    TournamentRefund,
    TournamentShare,
    TournamentTicket,
)
from pokerroom.rooms.tournament.director import Entrant, Finished, PlayerMoved, TournamentDirector
from pokerroom.rooms.tournament.rush import RushTournamentDirector, rush_table_size
from pokerroom.rooms.tournament.structure import SPEEDS, BlindLevel, Schedule, level_stakes
from pokerroom.rooms.tournament.table import TableHandEnded, TournamentTable

__all__ = [
    "SPEEDS",
    "BlindLevel",
    "Entrant",
    "Finished",
    "PlayerMoved",
    "RushTournamentDirector",
    "Schedule",
    "TableHandEnded",
    "TournamentBounty",
    "TournamentBuyIn",
    "TournamentConfig",
    "TournamentDealPaid",
    "TournamentDirector",
    "TournamentOverlay",
    "TournamentPoints",
    "TournamentPrize",
    "TournamentRefund",
    "TournamentShare",
    "TournamentTable",
    "TournamentTicket",
    "level_stakes",
    "rush_table_size",
]
