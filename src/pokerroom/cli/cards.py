"""Card commands."""

from __future__ import annotations

import typer

from pokerroom.cards import DeckSpec, format_cards, shuffled_deck
from pokerroom.cli.app import app


@app.command()
def shuffle(deck: int = typer.Option(52, help="Deck size: 52, 36 (6..A) or 32 (7..A).")) -> None:
    """Print a freshly shuffled deck (secrets.SystemRandom)."""
    try:
        spec = DeckSpec(deck)
    except ValueError:
        raise typer.BadParameter("deck must be 52, 36 or 32") from None
    typer.echo(format_cards(shuffled_deck(spec)))
