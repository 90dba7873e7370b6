"""The Typer application; command modules register themselves on :data:`app`."""

from __future__ import annotations

import typer

from pokerroom import __version__

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
