"""The ``pokerroom`` command line. Each command module registers its commands on the shared app."""

from __future__ import annotations

from pokerroom.cli import admin as _admin  # noqa: F401  (registers commands)
from pokerroom.cli import backup as _backup  # noqa: F401  (registers commands)
from pokerroom.cli import cards as _cards  # noqa: F401  (registers commands)
from pokerroom.cli import cluster as _cluster  # noqa: F401  (registers commands)
from pokerroom.cli import config as _config  # noqa: F401  (registers commands)
from pokerroom.cli import equity as _equity  # noqa: F401  (registers commands)
from pokerroom.cli import integrity as _integrity  # noqa: F401  (registers commands)
from pokerroom.cli import load as _load  # noqa: F401  (registers commands)
from pokerroom.cli import replay as _replay  # noqa: F401  (registers commands)
from pokerroom.cli import serve as _serve  # noqa: F401  (registers commands)
from pokerroom.cli import stars_import as _stars_import  # noqa: F401  (registers commands)
from pokerroom.cli import store as _store  # noqa: F401  (registers commands)
from pokerroom.cli import verify as _verify  # noqa: F401  (registers commands)
from pokerroom.cli.app import app

__all__ = ["app", "main"]


def main() -> None:
    app()
