"""``pokerroom equity``: win / tie / pot share of two or more hands."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn
from rich.table import Table

from pokerroom.cards import NotationError, format_cards, parse_cards
from pokerroom.cli.app import app
from pokerroom.eval import EQUITY_GAMES, EvalError, equity
from pokerroom.eval.equity import DEFAULT_SAMPLES

_GAMES = ", ".join(EQUITY_GAMES)


@app.command(name="equity")
def equity_command(
    hands: Annotated[
        list[str], typer.Argument(help="Two or more hands, e.g. AhKh QsQd (stud: known cards).")
    ],
    board: str = typer.Option("", "--board", "-b", help="Board cards, e.g. 'Ah 7c 2d'."),
    dead: str = typer.Option("", "--dead", "-d", help="Dead (exposed, out of play) cards."),
    game: str = typer.Option("holdem", "--game", "-g", help=f"Game ({_GAMES}) or a ranking rule name."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    samples: int = typer.Option(DEFAULT_SAMPLES, "--samples", "-n", help="Monte Carlo deals when not exact."),
    seed: int | None = typer.Option(None, "--seed", help="Seed for Monte Carlo (default: system random)."),
    exact: bool | None = typer.Option(
        None, "--exact/--monte-carlo", help="Force enumeration or sampling (default: exact when feasible)."
    ),
) -> None:
    """Equity of hands: exact enumeration when feasible, Monte Carlo otherwise."""
    console = Console(stderr=True)
    try:
        parsed = [parse_cards(h) for h in hands]
        with Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            TaskProgressColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
            disable=as_json or not console.is_terminal,
        ) as bar:
            task = bar.add_task(f"{game} equity", total=None)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            result = equity(
                game, parsed, board, dead, exact=exact, samples=samples, seed=seed, progress=progress
            )
    except (EvalError, NotationError) as err:
        code = getattr(err, "code", "error")
        if as_json:
            typer.echo(json.dumps({"error": code, "message": str(err)}))
        else:
            console.print(f"[red]error[/red] ({code}): {err}")
        raise typer.Exit(2) from None
    out: dict[str, Any] = result.as_dict()
    for entry, cards in zip(out["hands"], parsed, strict=True):
        entry["cards"] = format_cards(cards, sep="")
    out["board"] = format_cards(parse_cards(board), sep="")
    if as_json:
        typer.echo(json.dumps(out))
        return
    how = "exact" if result.exact else "Monte Carlo"
    table = Table()
    for col in ("hand", "win", "tie", "equity"):
        table.add_column(col, justify="left" if col == "hand" else "right")
    for entry in out["hands"]:
        table.add_row(entry["cards"], f"{entry['win']:.2%}", f"{entry['tie']:.2%}", f"{entry['share']:.2%}")
    out_console = Console()
    out_console.print(f"{result.game} equity: {how}, {result.deals:,} deals")
    out_console.print(table)
