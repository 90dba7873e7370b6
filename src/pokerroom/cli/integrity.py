"""``pokerroom integrity report``: the detectors of issue 30 over the stored hands (so far the bots
spotted by their timing: docs/integrity.md)."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

import typer

from pokerroom.cli.app import app
from pokerroom.server.integrity.timing import MAX_CV, MIN_DECISIONS, Decision, TimingFinding, timing_findings
from pokerroom.store import Store
from pokerroom.store.db import Database

integrity_app = typer.Typer(help="Game integrity: what the stored hands show.", no_args_is_help=True)
app.add_typer(integrity_app, name="integrity")


_SINCE = typer.Option(None, "--since", help="Read the hands started since (UTC): not --days.")


@integrity_app.command("report")
def report(
    url: str | None = typer.Option(None, "--url", help="Database URL (default: $POKERROOM_DATABASE_URL)."),
    schema: str | None = typer.Option(None, "--schema", help="PostgreSQL schema."),
    days: float = typer.Option(1.0, "--days", min=0.01, help="Read the hands started in the last DAYS days."),
    since: datetime | None = _SINCE,
    min_decisions: int = typer.Option(MIN_DECISIONS, "--min-decisions", min=2),
    max_cv: float = typer.Option(MAX_CV, "--max-cv", min=0.0),
    as_json: bool = typer.Option(False, "--json", help="One JSON document instead of text."),
) -> None:
    """Bots by timing: each player with enough decisions in the cash and Rush hands of the period, his
    decision times' median and spread, flagged when they hardly vary or are nearly all instant. Exit 1
    when a player is flagged."""

    async def run() -> tuple[list[TimingFinding], dict[int, str]]:
        store = Store(Database(url, schema=schema))
        try:
            start = since.replace(tzinfo=UTC) if since else datetime.now(UTC) - timedelta(days=days)
            times = await store.hand_times.decisions(since=start)
            made = {p: [Decision(h, s) for h, s in rows] for p, rows in times.items()}
            found = timing_findings(made, min_decisions=min_decisions, max_cv=max_cv)
            names = {f.player_id: (await store.accounts.get(f.player_id)).name for f in found}
            return found, names
        finally:
            await store.close()

    found, names = asyncio.run(run())
    flagged = [f for f in found if f.flagged]
    if as_json:
        rows = [{**f.to_dict(), "name": names[f.player_id]} for f in found]
        typer.echo(json.dumps({"bots_by_timing": rows, "flagged": len(flagged)}, indent=2))
    else:
        typer.echo(
            f"bots by timing: {len(found)} players with {min_decisions}+ decisions, {len(flagged)} flagged"
        )
        for f in found:
            mark = "FLAGGED" if f.flagged else "ok"
            line = (
                f"  {mark:7} {names[f.player_id]:20} {f.decisions:6} decisions"
                f"  median {f.median:.2f}s  cv {f.cv:.3f}"
            )
            typer.echo(line + (f"  {f.reason}; hands {', '.join(f.hands[:3])}" if f.flagged else ""))
    if flagged:
        raise typer.Exit(1)
