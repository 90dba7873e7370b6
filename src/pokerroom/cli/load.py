"""``pokerroom loadtest``: N bot clients in their own processes against a server on 127.0.0.1."""

from __future__ import annotations

import typer

from pokerroom.cli.app import app


def _think(text: str) -> tuple[float, float]:
    lo, _, hi = text.partition("-")
    try:
        low, high = float(lo), float(hi or lo)
    except ValueError:
        raise typer.BadParameter("think is MIN-MAX seconds, for example 0.5-2") from None
    if not 0 <= low <= high:
        raise typer.BadParameter("think is MIN-MAX seconds with 0 <= MIN <= MAX")
    return low, high


@app.command("loadtest")
def loadtest_command(
    players: int = typer.Option(600, min=2, help="How many bot players."),
    duration: float = typer.Option(60.0, min=1, help="Seconds measured (after a warm-up)."),
    think: str = typer.Option("0.5-2", help="Bots think MIN-MAX seconds before acting."),
    url: str = typer.Option(None, help="A running room (default: start one on 127.0.0.1)."),
    processes: int = typer.Option(None, help="Bot processes (default: one per 500 bots)."),
    warmup: float = typer.Option(None, help="Least seconds to connect and sit (then until all sit)."),
    json_out: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
    mix: str = typer.Option(
        "", help="Mixed tables of this mix (horse, 8game, ha): hands and actions per game (RULES.md §11.1)."
    ),
    cluster: str | None = typer.Option(
        None,
        "--cluster",
        help="Serve the tables from a cluster instead of one process: the NATS URL (docs/cluster.md).",
    ),
    hosts: int = typer.Option(1, min=1, help="With --cluster: table hosts."),
    gateways: int = typer.Option(1, min=1, help="With --cluster: gateways (the bots are spread over them)."),
    database: str = typer.Option(
        "postgresql+asyncpg://postgres@127.0.0.1:5432/test",
        "--database",
        help="With --cluster: the PostgreSQL database (a fresh schema is made and dropped).",
    ),
) -> None:
    """Load test: hands per second, action-to-broadcast latency (p50, p99), errors and the server's CPU per
    action (benchmarks/load.py)."""
    from pokerroom.bots.load import LoadCluster, report_json, run_load

    nodes = LoadCluster(database, cluster, hosts=hosts, gateways=gateways) if cluster else None
    if mix:
        from pokerroom.rooms.mixes import MIXES

        if mix not in MIXES or url or cluster:
            raise typer.BadParameter(
                f"--mix is one of {', '.join(MIXES)}, in a room of its own (no --url/--cluster)"
            )
    report = run_load(
        players, duration, _think(think), url=url, processes=processes, warmup=warmup, cluster=nodes, mix=mix
    )
    typer.echo(report_json(report) if json_out else report.text())
