"""Tournaments in the server: one actor per tournament, its money, its pages, and what a restart keeps."""

from pokerroom.server.tournament.actor import TournamentActor, TournamentHost

__all__ = ["TournamentActor", "TournamentHost"]
