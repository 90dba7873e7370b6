"""The ``pokerroom`` command line."""

from __future__ import annotations

import typer

from pokerroom import __version__
from pokerroom.cards import DeckSpec, format_cards, shuffled_deck

app = typer.Typer(help="pokerroom: an open online poker room.", no_args_is_help=True)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"pokerroom {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """pokerroom: an open online poker room."""


@app.command()
def shuffle(deck: int = typer.Option(52, help="Deck size: 52, 36 (6..A) or 32 (7..A).")) -> None:
    """Print a freshly shuffled deck (secrets.SystemRandom)."""
    try:
        spec = DeckSpec(deck)
    except ValueError:
        raise typer.BadParameter("deck must be 52, 36 or 32") from None
    typer.echo(format_cards(shuffled_deck(spec)))


def main() -> None:
    app()
