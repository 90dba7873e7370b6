"""``pokerroom integrity report``: the detectors of issue 30 over the stored hands (the bots spotted by
their timing and by their sessions and hours, chip dumping, soft play, collusive betting, and Rush pairs
dealt in together more often than chance: docs/integrity.md)."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import typer

from pokerroom.cli.app import app
from pokerroom.server.integrity.dumping import MIN_Z
from pokerroom.server.integrity.report import Report, ReportOptions, brief_document, run_report
from pokerroom.server.integrity.rush import ALPHA, MIN_RATIO, WINDOW
from pokerroom.server.integrity.timing import MAX_CV, MAX_DAY, MAX_SESSION, MIN_DECISIONS, SESSION_BREAK
from pokerroom.store import Store
from pokerroom.store.db import Database

integrity_app = typer.Typer(help="Game integrity: what the stored hands show.", no_args_is_help=True)
app.add_typer(integrity_app, name="integrity")


_SINCE = typer.Option(None, "--since", help="Read the hands started since (UTC): not --days.")
_BREAK = typer.Option(
    SESSION_BREAK.total_seconds() / 60,
    "--session-break",
    min=1.0,
    help="Sessions: a pause this long (minutes) ends one.",
)
_MAX_SESSION = typer.Option(
    MAX_SESSION.total_seconds() / 3600, "--max-session-hours", min=0.1, help="Sessions: flag a longer one."
)
_MAX_DAY = typer.Option(
    MAX_DAY.total_seconds() / 3600,
    "--max-day-hours",
    min=0.1,
    help="Sessions: flag more play in one day (UTC).",
)
_WINDOW = typer.Option(
    WINDOW.total_seconds() / 60, "--rush-window", min=0.1, help="Rush: minutes a window of the pool's mix."
)
_ALPHA = typer.Option(
    ALPHA,
    "--rush-alpha",
    min=0.0,
    max=1.0,
    help="Rush: flag a pair whose chance, over the pool's pairs, is below.",
)
_RATIO = typer.Option(
    MIN_RATIO,
    "--rush-min-ratio",
    min=1.0,
    help="Rush: flag a pair together at least this many times as expected.",
)
_CONSOLE = typer.Option(
    False,
    "--console",
    help="With --json: the console's form (each list of findings cut to 200 flagged rows and the ten"
    " highest others, without session lists; section_counts gives the counts before the cut).",
)
_EVIDENCE = typer.Option(
    None, "--evidence", help="Write the audit PHH of each flagged pair's hands into this directory."
)


@integrity_app.command("report")
def report(
    url: str | None = typer.Option(None, "--url", help="Database URL (default: $POKERROOM_DATABASE_URL)."),
    schema: str | None = typer.Option(None, "--schema", help="PostgreSQL schema."),
    days: float = typer.Option(1.0, "--days", min=0.01, help="Read the hands started in the last DAYS days."),
    since: datetime | None = _SINCE,
    min_decisions: int = typer.Option(MIN_DECISIONS, "--min-decisions", min=2),
    max_cv: float = typer.Option(MAX_CV, "--max-cv", min=0.0),
    min_z: float = typer.Option(MIN_Z, "--min-z", min=0.0, help="Chip dumping: the z-score to flag."),
    session_break: float = _BREAK,
    max_session_hours: float = _MAX_SESSION,
    max_day_hours: float = _MAX_DAY,
    rush_window: float = _WINDOW,
    rush_alpha: float = _ALPHA,
    rush_min_ratio: float = _RATIO,
    as_json: bool = typer.Option(False, "--json", help="One JSON document instead of text."),
    evidence: Path | None = _EVIDENCE,
    console: bool = _CONSOLE,
) -> None:
    """Bots by timing: each player with enough decisions in the cash and Rush hands of the period, his
    decision times' median and spread, flagged when they hardly vary or are nearly all instant. Chip
    dumping: each pair (giver -> taker) with suspect decisions in the cash, Rush and tournament hands of
    the period (strong hands folded to the taker's bets, his all-ins called with hopeless ones), flagged
    when they stand out from the giver's play against others and the chips went the taker's way. Soft
    play: pairs who bet or raise against each other heads-up far less than their own styles predict.
    Collusive betting: pairs who raise a third player out between them more often than their own
    re-raise rates predict. Sessions: each player's sessions (hands with no pause of --session-break),
    flagged for one longer than --max-session-hours or more than --max-day-hours in a day. Rush: pairs
    dealt in together in a pool more often than the pool's mix predicts. Shared cards: pairs where one's
    decisions follow the other's hidden cards (hold'em). Groups: the players linked by the flagged pairs
    of every pair detector, flagged when three or more. Exit 1 when a player, a pair or a group is
    flagged."""

    async def run() -> Report:
        store = Store(Database(url, schema=schema))
        try:
            start = since.replace(tzinfo=UTC) if since else datetime.now(UTC) - timedelta(days=days)
            options = ReportOptions(
                min_decisions=min_decisions,
                max_cv=max_cv,
                min_z=min_z,
                session_break=timedelta(minutes=session_break),
                max_session=timedelta(hours=max_session_hours),
                max_day=timedelta(hours=max_day_hours),
                rush_window=timedelta(minutes=rush_window),
                rush_alpha=rush_alpha,
                rush_min_ratio=rush_min_ratio,
            )
            return await run_report(store, start, options=options, evidence=evidence is not None)
        finally:
            await store.close()

    r = asyncio.run(run())
    names, texts, unread, hands = r.names, r.texts, r.unread, r.hands_read
    found, dumping, soft, whip, sessions, rush = r.timing, r.dumping, r.soft, r.whip, r.sessions, r.rush
    soft_flagged = [f for f in soft if f.flagged]
    whip_flagged = [f for f in whip if f.flagged]
    flagged = [f for f in found if f.flagged]
    dumped = [d for d in dumping if d.flagged]
    long_flagged = [f for f in sessions if f.flagged]
    rush_flagged = [x for x in rush if x.flagged]
    if evidence is not None:  # the operator's own directory: audit copies, every hole card in them
        evidence.mkdir(parents=True, exist_ok=True)
        for hand_id, text in texts.items():  # the flagged pairs' hands (Rush hands with audit copies)
            safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in hand_id)
            (evidence / f"{safe}.phh").write_text(text, encoding="utf-8")
    if as_json:
        document = r.document()
        typer.echo(json.dumps(brief_document(document) if console else document, indent=2))
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
        typer.echo(
            f"chip dumping: {hands} hands read ({len(unread)} unreadable), {len(dumping)} pairs with"
            f" suspect decisions, {len(dumped)} flagged"
        )
        for d in dumped or dumping[:20]:
            mark = "FLAGGED" if d.flagged else "ok"
            typer.echo(
                f"  {mark:7} {d.giver} -> {d.taker}: {d.suspect} suspect of {d.faced} decisions"
                f" (expected {d.expected:.1f}), z {d.z:.1f}, {d.flow_bb:+.0f} bb to the taker"
                f" in {d.shared_hands} hands together; hands {', '.join(d.hands[:10])}"
            )
        typer.echo(f"soft play: {len(soft)} pairs met with a bet or raise open, {len(soft_flagged)} flagged")
        for sp in soft_flagged or soft[:10]:
            mark = "FLAGGED" if sp.flagged else "ok"
            typer.echo(
                f"  {mark:7} {sp.a} + {sp.b}: {sp.aggressive} bets or raises in {sp.spots} spots"
                f" ({sp.multiway_spots} of them multiway, {sp.multiway_raises} raised)"
                f" (expected {sp.expected:.1f}: {sp.a} {sp.aggressive_ab}/{sp.spots_ab}, {sp.b}"
                f" {sp.aggressive_ba}/{sp.spots_ba}), z {sp.z:.1f};"
                f" checked down in {', '.join(sp.hands[:10])}"
            )
        typer.echo(
            f"collusive betting: {len(whip)} pairs raised a third player out, {len(whip_flagged)} flagged"
        )
        for w in whip_flagged or whip[:10]:
            mark = "FLAGGED" if w.flagged else "ok"
            typer.echo(
                f"  {mark:7} {w.a} + {w.b}: {w.reraises} re-raises of {w.chances} chances (expected"
                f" {w.expected:.1f}), {w.whipsaws} raised a third out, z {w.z:.1f}, raised out"
                f" {', '.join(w.victims[:5])}; hands {', '.join(w.hands[:10])}"
            )
        typer.echo(
            f"bots by sessions: {len(sessions)} players, {len(long_flagged)} flagged"
            f" (a break is {session_break:g} min; flagged over {max_session_hours:g} h a session"
            f" or {max_day_hours:g} h a day)"
        )
        for sf in long_flagged or sessions[:10]:
            mark = "FLAGGED" if sf.flagged else "ok"
            busiest = max((h for _, h in sf.hours_by_day), default=0.0)
            typer.echo(
                f"  {mark:7} {names[sf.player_id]:20} {sf.hands:6} hands in {len(sf.sessions)} sessions,"
                f" longest {sf.longest.length.total_seconds() / 3600:.1f} h, at most {busiest:.1f} h a day"
                + (f"; {sf.reason}" if sf.flagged else "")
            )
        typer.echo(
            f"rush: {r.rush_hands} pool hands read, {len(rush)} pairs dealt in together,"
            f" {len(rush_flagged)} flagged"
        )
        for x in rush_flagged or rush[:10]:
            mark = "FLAGGED" if x.flagged else "ok"
            typer.echo(
                f"  {mark:7} {names[x.a]} + {names[x.b]} in {x.pool_id}: {x.together} hands together"
                f" (expected {x.expected:.1f} of {x.hands_a} and {x.hands_b} hands), z {x.z:.1f},"
                f" p {x.p:.2g} over {x.pairs} pairs; hands {', '.join(x.hands[:10])}"
            )
        _shared_and_groups(r)
    if flagged or dumped or soft_flagged or whip_flagged or long_flagged or rush_flagged or r.flagged:
        raise typer.Exit(1)


def _shared_and_groups(r: Report) -> None:
    """The text of the shared-cards score and of the groups (server/integrity/cardshare.py, groups.py)."""
    share = [x for x in r.share if x.flagged]
    typer.echo(f"shared cards: {len(r.share)} pairs tested, {len(share)} flagged")
    for x in share or r.share[:10]:
        mark = "FLAGGED" if x.flagged else "ok"
        t = x.tells[x.tell]
        typer.echo(
            f"  {mark:7} {x.a} + {x.b}: {x.decisions} decisions, tell {x.tell}: {t.seen} with the partner"
            f" strong (expected {t.expected:.1f}), z {x.z:.1f} (flagged from {x.threshold:.1f});"
            f" hands {', '.join(x.hands[:10])}"
        )
    big = [g for g in r.groups if g.flagged]
    typer.echo(f"groups: {len(r.groups)} groups of players linked by flagged pairs, {len(big)} of 3 or more")
    for g in r.groups:
        links = "; ".join(f"{a} + {b} ({', '.join(ds)})" for a, b, ds in g.links)
        typer.echo(f"  {'FLAGGED' if g.flagged else 'pair':7} {', '.join(g.players)}: {links}")
