"""``pokerroom replay PATH...``: replay PHH hand histories through the engine."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any

import typer

from pokerroom.cli.app import app
from pokerroom.history import HistoryError, PhhHand, Replay, read_phh, read_phhs, replay

_SUFFIXES = (".phh", ".phhs")


def _files(paths: list[Path]) -> Iterator[tuple[str, Path]]:
    """(display path, file): a file as given, or every .phh/.phhs under a folder, sorted."""
    for path in paths:
        if path.is_dir():
            for f in sorted(p for p in path.rglob("*") if p.suffix in _SUFFIXES and p.is_file()):
                yield str(path / f.relative_to(path)), f
        else:
            yield str(path), path


def _units(values: tuple[int, ...] | None, scale: int) -> list[Any] | None:
    if values is None:
        return None
    out: list[Any] = []
    for v in values:
        d = Decimal(v) / scale
        out.append(int(d) if d == d.to_integral_value() else float(d))
    return out


def _hands(path: Path) -> Iterator[tuple[int, PhhHand | HistoryError]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        yield 0, HistoryError(f"cannot read the file: {type(exc).__name__}")
        return
    try:
        if path.suffix == ".phhs":
            yield from read_phhs(text)
        else:
            yield 0, read_phh(text)
    except HistoryError as exc:
        yield 0, exc


@app.command("replay")
def replay_command(
    paths: Annotated[
        list[Path], typer.Argument(help="PHH files (.phh, .phhs) or folders, searched recursively.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON line per hand.")] = False,
    verify: Annotated[
        bool, typer.Option("--verify", help="Compare with the files' finishing_stacks.")
    ] = False,
) -> None:
    """Replay hand histories through the engine and print each hand's outcome.

    Exit status: 1 if any hand fails to read or replay, or (with --verify) finishes with stacks other
    than its file's finishing_stacks; 2 if no hand history was found.
    """
    failures = 0
    hands = 0
    for shown, path in _files(paths):
        for index, item in _hands(path):
            hands += 1
            result: Replay | None = None
            error: HistoryError | None = item if isinstance(item, HistoryError) else None
            if isinstance(item, PhhHand):
                try:
                    result = replay(item)
                except HistoryError as exc:
                    error = exc
            hand = item if isinstance(item, PhhHand) else None
            matches = result.matches if result is not None else None
            if error is not None or (verify and matches is False):
                failures += 1
            record: dict[str, Any] = {
                "path": shown,
                "index": index,
                "variant": hand.variant.code if hand else None,
                "betting": hand.betting.value if hand else None,
                "finishing_stacks": _units(result.finishing_stacks, hand.scale) if result and hand else None,
                "expected": _units(hand.finishing_stacks, hand.scale) if hand else None,
                "matches": matches,
                "complete": result.complete if result else None,
                "notes": result.notes if result else [],
                "error": error.to_dict() if error else None,
            }
            if as_json:
                typer.echo(json.dumps(record))
            else:
                typer.echo(_line(record, verify))
    if hands == 0:
        typer.echo("no hand histories found", err=True)
        raise typer.Exit(2)
    if not as_json:
        typer.echo(f"{hands} hand(s), {failures} failed")
    if failures:
        raise typer.Exit(1)


def _line(r: dict[str, Any], verify: bool) -> str:
    where = f"{r['path']}" + (f" [{r['index']}]" if r["index"] else "")
    if r["error"]:
        return f"{where}: ERROR {r['error']['code']}: {r['error']['message']}"
    status = ""
    if r["matches"] is True:
        status = " ok"
    elif r["matches"] is False:
        status = f" MISMATCH (expected {r['expected']})"
    elif verify:
        status = " (no finishing_stacks to verify)"
    state = "" if r["complete"] else " (incomplete hand)"
    notes = "".join(f"\n    note: {n}" for n in r["notes"])
    return f"{where}: {r['variant']} {r['betting']} -> {r['finishing_stacks']}{state}{status}{notes}"
