"""A room's configuration file: ``pokerroom serve --config room.toml``, ``pokerroom config check``.

See docs/configuration.md for every key; ``room.toml`` beside this module is the room ``pokerroom serve``
opens when given no file (every game and structure, Rush pools, sit-and-gos at each speed, a Game of the
Week with its satellites and guaranteed tournaments, a freeroll, a rebuy tournament, the Big Game and its
satellites, a Rush tournament), and an example to copy.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from pathlib import Path

from pokerroom.server.config.parse import BotPlan, ConfigInvalid, ConfigProblem, RoomConfig, parse_config

__all__ = [
    "DEFAULT_CONFIG",
    "BotPlan",
    "ConfigInvalid",
    "ConfigProblem",
    "RoomConfig",
    "load_config",
    "parse_config",
]

DEFAULT_CONFIG = Path(__file__).resolve().parent / "room.toml"


def load_config(
    path: str | Path | None = None,
    *,
    now: datetime | None = None,
    strategies: Collection[str] = ("strength", "caller", "random"),
) -> RoomConfig:
    """The room of a configuration file (the shipped default without one); :class:`ConfigInvalid` lists
    every problem with its line."""
    file = Path(path) if path is not None else DEFAULT_CONFIG
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigInvalid([ConfigProblem(str(file), 1, "(file)", exc.strerror or str(exc))]) from None
    return parse_config(
        text, source=str(path) if path is not None else file.name, now=now, strategies=strategies
    )
