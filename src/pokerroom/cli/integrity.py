"""``pokerroom integrity report``: the detectors of issue 30 over the stored hands (so far the bots
spotted by their timing, chip dumping, soft play and collusive betting: docs/integrity.md)."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import typer

from pokerroom.cli.app import app
from pokerroom.history import HistoryError, read_phh
from pokerroom.server.integrity.dumping import MIN_Z, DumpingFinding, dumping_findings
from pokerroom.server.integrity.softplay import SoftPlayFinding, softplay_findings
from pokerroom.server.integrity.timing import MAX_CV, MIN_DECISIONS, Decision, TimingFinding, timing_findings
from pokerroom.server.integrity.whipsaw import WhipsawFinding, whipsaw_findings
from pokerroom.store import Store
from pokerroom.store.db import Database

integrity_app = typer.Typer(help="Game integrity: what the stored hands show.", no_args_is_help=True)
app.add_typer(integrity_app, name="integrity")


_SINCE = typer.Option(None, "--since", help="Read the hands started since (UTC): not --days.")
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
    as_json: bool = typer.Option(False, "--json", help="One JSON document instead of text."),
    evidence: Path | None = _EVIDENCE,
) -> None:
    """Bots by timing: each player with enough decisions in the cash and Rush hands of the period, his
    decision times' median and spread, flagged when they hardly vary or are nearly all instant. Chip
    dumping: each pair (giver -> taker) with suspect decisions in the cash, Rush and tournament hands of
    the period (strong hands folded to the taker's bets, his all-ins called with hopeless ones), flagged
    when they stand out from the giver's play against others and the chips went the taker's way. Soft
    play: pairs who bet or raise against each other heads-up far less than their own styles predict.
    Collusive betting: pairs who raise a third player out between them more often than their own
    re-raise rates predict. Exit 1 when a player or a pair is flagged."""

    async def run() -> tuple[list[TimingFinding], dict[int, str], list[DumpingFinding], int]:
        store = Store(Database(url, schema=schema))
        try:
            start = since.replace(tzinfo=UTC) if since else datetime.now(UTC) - timedelta(days=days)
            times = await store.hand_times.decisions(since=start)
            made = {p: [Decision(h, s) for h, s in rows] for p, rows in times.items()}
            found = timing_findings(made, min_decisions=min_decisions, max_cv=max_cv)
            names = {f.player_id: (await store.accounts.get(f.player_id)).name for f in found}
            parsed = []
            for hand_id, text in await store.audit_hands.since(start):
                try:
                    parsed.append((hand_id, read_phh(text)))
                    texts[hand_id] = text
                except HistoryError:
                    unread.append(hand_id)
            soft.extend(softplay_findings(parsed))
            whip.extend(whipsaw_findings(parsed))
            return found, names, dumping_findings(parsed, min_z=min_z), len(parsed)
        finally:
            await store.close()

    unread: list[str] = []
    texts: dict[str, str] = {}
    soft: list[SoftPlayFinding] = []
    whip: list[WhipsawFinding] = []
    found, names, dumping, hands = asyncio.run(run())
    soft_flagged = [f for f in soft if f.flagged]
    whip_flagged = [f for f in whip if f.flagged]
    flagged = [f for f in found if f.flagged]
    dumped = [d for d in dumping if d.flagged]
    if evidence is not None:  # the operator's own directory: audit copies, every hole card in them
        evidence.mkdir(parents=True, exist_ok=True)
        evident = {h for d in dumped for h in d.hands}
        evident |= {h for x in soft_flagged for h in x.hands} | {h for x in whip_flagged for h in x.hands}
        for hand_id in evident:
            safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in hand_id)
            (evidence / f"{safe}.phh").write_text(texts[hand_id], encoding="utf-8")
    if as_json:
        rows = [{**f.to_dict(), "name": names[f.player_id]} for f in found]
        document = {
            "bots_by_timing": rows,
            "chip_dumping": [d.to_dict() for d in dumping],
            "soft_play": [f.to_dict() for f in soft],
            "collusive_betting": [f.to_dict() for f in whip],
            "hands_read": hands,
            "hands_unreadable": unread,
            "flagged": len(flagged) + len(dumped) + len(soft_flagged) + len(whip_flagged),
        }
        typer.echo(json.dumps(document, indent=2))
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
        typer.echo(f"soft play: {len(soft)} pairs met heads-up, {len(soft_flagged)} flagged")
        for sp in soft_flagged or soft[:10]:
            mark = "FLAGGED" if sp.flagged else "ok"
            typer.echo(
                f"  {mark:7} {sp.a} + {sp.b}: {sp.aggressive} bets or raises in {sp.spots} heads-up spots"
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
                f"  {mark:7} {w.a} + {w.b}: {w.whipsaws} of {w.chances} chances (expected {w.expected:.1f}),"
                f" z {w.z:.1f}, raised out {', '.join(w.victims[:5])}; hands {', '.join(w.hands[:10])}"
            )
    if flagged or dumped or soft_flagged or whip_flagged:
        raise typer.Exit(1)
