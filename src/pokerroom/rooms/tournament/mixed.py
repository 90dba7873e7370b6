"""Mixed-game tournaments (RULES.md §11.1, R251): one game of the mix per level, at every table together.

Pure. A tournament whose ``mix`` names a mix of :mod:`pokerroom.rooms.mixes` plays level 1 in the mix's
first game, level 2 in its second, ... and round again after the last. Every level carries every game's
stakes: the level's big blind is the mix's small bet and twice it the big bet (as a limit tournament's
level, §9.4); limit games bet them (the flop and draw games post big blind = small bet), the big-bet games
play big blind = small bet / 2, and stud games ante small bet / 5 and bring in small bet / 4
(:func:`pokerroom.rooms.mixes.game_stakes`, R249). A hand is dealt in the game of the level in force when
it starts and finishes in it, whatever the clock does meanwhile.

A single-game tournament goes through the same functions (its one game at every level), so the director
and the views ask one question: :func:`level_game`.
"""

from __future__ import annotations

from typing import Any, Protocol

from pokerroom.engine import Betting, ConfigError, VariantSpec
from pokerroom.rooms.mixes import Mix, MixGame, TableGame, game_stakes, get_mix
from pokerroom.rooms.tournament.structure import BlindLevel, level_stakes


class TournamentConfig(Protocol):
    """What these rules read of a tournament's configuration (config.py's ``TournamentConfig``, which
    calls :func:`check_mixed`: a protocol keeps the two modules out of an import cycle)."""

    @property
    def mix(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def betting(self) -> Betting: ...
    @property
    def ante(self) -> str: ...
    @property
    def table_size(self) -> int: ...
    @property
    def spec(self) -> VariantSpec: ...


__all__ = ["check_mixed", "level_game", "level_mix_game", "mix_of", "mixed_level_view"]


def mix_of(config: TournamentConfig) -> Mix | None:
    """The tournament's mix, or None for a single-game tournament."""
    return get_mix(config.mix) if config.mix else None


def level_mix_game(mix: Mix, level: int) -> MixGame:
    """The game of level ``level`` (1, 2, ...): the mix's games in order, cyclically (R251)."""
    if level < 1:
        raise ConfigError("levels are numbered from 1")
    return mix.games[(level - 1) % len(mix.games)]


def level_game(config: TournamentConfig, level: BlindLevel) -> TableGame:
    """The game, structure and stakes of a hand dealt during ``level`` (R251, R249)."""
    mix = mix_of(config)
    if mix is None:
        stakes = level_stakes(level, config.betting, config.spec.is_stud, config.ante)
        return TableGame(config.variant, config.betting, stakes)
    game = level_mix_game(mix, level.number)
    return TableGame(game.variant, game.betting, game_stakes(game, level.big_blind, 2 * level.big_blind))


def check_mixed(config: TournamentConfig) -> None:
    """A mixed tournament's own checks (``TournamentConfig`` calls it): a known mix, a table size every
    game of it can be dealt at, and antes per player (the big-blind ante has no meaning in stud levels)."""
    mix = get_mix(config.mix)
    for g in mix.games:
        spec = g.spec
        if not spec.min_players <= config.table_size <= spec.max_players:
            raise ConfigError(
                f"{mix.name} tables have {max(g.spec.min_players for g in mix.games)} to "
                f"{min(g.spec.max_players for g in mix.games)} seats ({spec.name} is in the mix)"
            )
    if config.ante != "per_player":
        raise ConfigError("a mixed tournament posts its stud antes per player: ante = 'per_player'")


def mixed_level_view(config: TournamentConfig, level: int) -> dict[str, Any] | None:
    """What the table and the lobby show of a mixed tournament's rotation at ``level``: the mix, the game
    now and the game of the next level (None for a single-game tournament)."""
    mix = mix_of(config)
    if mix is None:
        return None
    now, nxt = level_mix_game(mix, level), level_mix_game(mix, level + 1)
    return {
        "code": mix.code,
        "name": mix.name,
        "game": now.variant,
        "betting": now.betting.value,
        "game_label": now.label,
        "next_game": nxt.variant,
        "next_betting": nxt.betting.value,
        "next_label": nxt.label,
        "index": (level - 1) % len(mix.games),
        "games": [
            {"variant": g.variant, "betting": g.betting.value, "label": g.label, "name": g.spec.name}
            for g in mix.games
        ],
    }
