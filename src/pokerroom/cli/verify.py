"""``pokerroom verify HAND.phh``: check a hand's deck proof (docs/fairness.md): a player's copy (his
openings under the root), or the audit copy (the auditor's full opening: every position and the seeds)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from pokerroom.cli.app import app
from pokerroom.history import HistoryError, PhhHand, Verdict, read_phh, read_phhs, verify_hand


def _hands(path: Path) -> list[tuple[int, PhhHand | HistoryError]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [(0, HistoryError(f"cannot read the file: {type(exc).__name__}"))]
    try:
        return read_phhs(text) if path.suffix == ".phhs" else [(0, read_phh(text))]
    except HistoryError as exc:
        return [(0, exc)]


@app.command("verify")
def verify_command(
    paths: Annotated[list[Path], typer.Argument(help="Hand histories (.phh, .phhs) with a deck proof.")],
    commitment: Annotated[
        str | None,
        typer.Option(help="The commitment you saw when the hand started (a .phh file of one hand)."),
    ] = None,
    contribution: Annotated[
        str | None,
        typer.Option(help="The seed contribution your client sent for the hand (64 hex digits)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON line per hand.")] = False,
) -> None:
    """Check that each card the history shows was committed at its position under the root published at
    the hand's start, and dealt in the dealing order; for the audit copy (the full opening) also that the
    deck is the one the committed server seed and the players' contributions give. Prints OK, or exactly
    what differs.

    Exit status: 0 when every hand verifies; 1 when any does not (or cannot be read); 2 when no hand was
    found.
    """
    hands = failures = 0
    for path in paths:
        for index, item in _hands(path):
            hands += 1
            where = f"{path}" + (f" [{index}]" if index else "")
            if isinstance(item, HistoryError):
                verdict = Verdict("", ok=False, problems=[f"the history cannot be read: {item}"])
            else:
                verdict = verify_hand(item, commitment=commitment, contribution=contribution)
            failures += not verdict.ok
            if as_json:
                typer.echo(json.dumps({"path": str(path), "index": index, **verdict.to_dict()}))
            else:
                typer.echo(_text(where, verdict))
    if hands == 0:
        typer.echo("no hand histories found", err=True)
        raise typer.Exit(2)
    if failures:
        raise typer.Exit(1)


def _text(where: str, v: Verdict) -> str:
    hand = f" hand {v.hand_id}" if v.hand_id else ""
    if v.ok:
        head = (
            f"{where}:{hand} OK: the proof hashes to its commitment {v.commitment}, and the {v.checked} "
            "card(s) of the history were dealt from their committed positions in order"
        )
    else:
        head = f"{where}:{hand} FAILED"
    lines = [head]
    lines += [f"    differs: {p}" for p in v.problems]
    lines += [f"    note: {n}" for n in v.notes]
    return "\n".join(lines)
