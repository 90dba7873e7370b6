"""``pokerroom import FILE``: PokerStars-format histories (every game we export) into PHH, each hand replayed
and checked."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pokerroom.cli.app import app
from pokerroom.history import HistoryError, read_phh, replay, write_phhs
from pokerroom.history.stars_import import read_pokerstars


@app.command("import")
def import_command(
    file: Annotated[
        Path,
        typer.Argument(
            help="A PokerStars-format hand history file (any game: hold'em, Omaha, stud, razz, draw)."
        ),
    ],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the hands here (.phhs); default: stdout.")
    ] = None,
) -> None:
    """Read PokerStars-format histories (ours and other rooms', every game we export) into PHH.

    Every hand is replayed through the engine and its finishing stacks compared with the chips the text
    says; the report goes to stderr (to stdout with --output). Exit status: 1 if a hand cannot be read
    or replayed, or ends with other chips than its text (a raked hand: see docs/history.md); 2 if the
    file holds no hand.
    """
    try:
        text = file.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        typer.echo(f"cannot read {file}: {type(exc).__name__}", err=True)
        raise typer.Exit(2) from None
    results = read_pokerstars(text)
    if not results:
        typer.echo("no PokerStars hand found", err=True)
        raise typer.Exit(2)
    to_stderr = output is None
    hands: list[str] = []
    failures = 0
    for number, item in results:
        if isinstance(item, HistoryError):
            failures += 1
            typer.echo(f"hand #{number}: ERROR {item.code}: {item}", err=to_stderr)
            continue
        try:
            result = replay(read_phh(item))
        except HistoryError as exc:
            failures += 1
            typer.echo(f"hand #{number}: ERROR {exc.code}: {exc}", err=to_stderr)
            continue
        hands.append(item)
        if result.matches is False:
            failures += 1
            typer.echo(f"hand #{number}: replayed to other chips than the text's", err=to_stderr)
        else:
            typer.echo(f"hand #{number}: ok", err=to_stderr)
    phhs = write_phhs(hands) if hands else ""
    if output is None:
        typer.echo(phhs, nl=False)
    else:
        output.write_text(phhs, encoding="utf-8")
    typer.echo(f"{len(results)} hand(s), {len(hands)} written, {failures} failed", err=to_stderr)
    if failures:
        raise typer.Exit(1)
