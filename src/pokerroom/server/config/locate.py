"""The line of a key in a TOML text, for errors that name it (``room.toml:42: table[3].stakes: ...``).

``tomllib`` gives values, not positions. A path such as ``("table", 2, "stakes", "big_blind")`` is found
the way a reader would find it: the third ``[[table]]`` header, then, inside its block, the line that sets
``stakes`` (an inline table on that line holds ``big_blind`` too) or a ``[table.stakes]`` header and its
``big_blind =`` line. When a key is not found (it is missing), the line of the nearest enclosing thing is
given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["dotted", "locate"]

Path = Sequence[str | int]


def dotted(path: Path) -> str:
    """``table[2].stakes.big_blind`` (entries of an array counted from 0, as in the file)."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out or "(file)"


def _header(line: str) -> str | None:
    m = re.match(r"^\s*\[\[?\s*([A-Za-z0-9_.\-\" ]+?)\s*\]\]?\s*(#.*)?$", line)
    return m.group(1).replace('"', "").replace(" ", "") if m else None


def _sets(line: str, key: str) -> bool:
    return (
        re.match(rf'^\s*"?{re.escape(key)}"?\s*=', line) is not None
        or re.search(rf'[{{,]\s*"?{re.escape(key)}"?\s*=', line) is not None
    )


def locate(text: str, path: Path) -> int:
    """The 1-based line that best matches ``path`` (1 when nothing does)."""
    lines = text.split("\n")
    start, end = 0, len(lines)
    section = ""
    i = 0
    best = 1
    parts = list(path)
    while i < len(parts):
        part = parts[i]
        if isinstance(part, int):
            i += 1
            continue
        name = f"{section}.{part}" if section else part
        after = parts[i + 1] if i + 1 < len(parts) else None
        count = after if isinstance(after, int) else None
        # an array of tables / a table: its header line within the current block
        headers = [n for n in range(start, end) if _header(lines[n]) == name]
        if headers:
            pick = headers[count] if count is not None and count < len(headers) else headers[0]
            nxt = next(
                (
                    n
                    for n in range(pick + 1, end)
                    if (h := _header(lines[n])) is not None and not h.startswith(name + ".")
                ),
                end,
            )
            start, end, section = pick + 1, nxt, name
            best = pick + 1
            i += 2 if count is not None else 1
            continue
        # a key set in the current block (an inline table on its line holds the rest of the path)
        found = next(
            (n for n in range(start, end) if _header(lines[n]) is None and _sets(lines[n], part)), None
        )
        if found is None:
            return best
        best = found + 1
        rest = [p for p in parts[i + 1 :] if isinstance(p, str)]
        if rest and "{" in lines[found]:
            return best
        start, end = found, found + 1
        i += 1
    return best
