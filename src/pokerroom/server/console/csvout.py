"""CSV downloads of the console (reports, the audit log)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from fastapi.responses import Response

__all__ = ["csv_response", "csv_text"]

_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """A text cell that a spreadsheet would run as a formula gets a leading quote (CSV injection); numbers
    stay numbers."""
    if isinstance(value, str) and value.startswith(_FORMULA):
        return "'" + value
    return value


def csv_text(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_cell(v) for v in row])
    return out.getvalue()


def csv_response(filename: str, header: Sequence[str], rows: Iterable[Sequence[object]]) -> Response:
    return Response(
        csv_text(header, rows),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
