"""The small part of TOML that PHH needs: reading with exact decimals, writing flat tables.

Reading uses :mod:`tomllib` with floats parsed as :class:`~decimal.Decimal`, so ``0.1`` stays exact;
the TOML that PHH files use is read first by :mod:`pokerroom.history.toml_subset` (about three times
faster), which gives way to tomllib for anything else, so the result and the errors are tomllib's.
Writing supports strings, booleans, integers, decimals, times, aware date-times and flat arrays of
them; a hand is one flat table, so it can be put under a ``[N]`` header of a ``.phhs`` file unchanged.
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from pokerroom.history import toml_subset
from pokerroom.history.errors import PhhSyntaxError

__all__ = ["TomlValue", "dump_table", "format_value", "load"]

TomlValue = str | bool | int | Decimal | dt.datetime | dt.time | Sequence[Any]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_LINE = re.compile(r"at line (\d+)")


def load(text: str) -> dict[str, Any]:
    """Parse TOML text; a syntax error becomes :class:`PhhSyntaxError` with its line."""
    if not isinstance(text, str):
        raise PhhSyntaxError("a hand history must be text")
    fast = toml_subset.read(text)
    if fast is not None:
        return fast
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        m = _LINE.search(str(exc))
        reason = str(exc).split(" (at ")[0]
        line = int(m.group(1)) if m else None
        if m is None and "end of document" in str(exc):
            line = text.rstrip().count("\n") + 1
        raise PhhSyntaxError(f"not valid TOML: {reason}", line=line) from None


_ESCAPES = {ord('"'): '\\"', ord("\\"): "\\\\", ord("\n"): "\\n", ord("\t"): "\\t"}
_ESCAPES.update({c: f"\\u{c:04X}" for c in (*range(0x20), 0x7F) if c not in _ESCAPES})
_NEEDS_ESCAPE = re.compile('["\\\\\x00-\x1f\x7f]')
_CONTROL = re.compile("[\x00-\x1f\x7f]")


def _string(s: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    if _NEEDS_ESCAPE.search(s) is None:  # (nearly every string: names, cards, actions)
        return f'"{s}"'
    if _CONTROL.search(s) is None:  # only quotes and backslashes (a deck proof's JSON): the same text
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'  # as translate, ten times faster
    return '"' + s.translate(_ESCAPES) + '"'


def _decimal(d: Decimal) -> str:
    if d == d.to_integral_value():
        return str(int(d))
    text = format(d.normalize(), "f")
    return text


def format_value(value: Any) -> str:
    """One TOML value (inline)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        return _decimal(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, dt.datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError("date-times must be aware")
        return value.isoformat()
    if isinstance(value, dt.time):
        return value.replace(tzinfo=None).isoformat()
    if isinstance(value, Sequence):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def dump_table(fields: Sequence[tuple[str, Any]]) -> str:
    """A flat TOML table, one ``key = value`` per line; ``actions`` arrays get one item per line."""
    lines: list[str] = []
    for key, value in fields:
        name = key if _BARE_KEY.fullmatch(key) else _string(key)
        if (
            isinstance(value, list | tuple)
            and value
            and all(isinstance(v, str) for v in value)
            and (len(value) > 4)
        ):
            lines.append(f"{name} = [")
            lines.extend(f"  {_string(v)}," for v in value)
            lines.append("]")
        else:
            lines.append(f"{name} = {format_value(value)}")
    return "\n".join(lines) + "\n"
