"""A fast reader for the part of TOML that PHH files use, with :mod:`tomllib` as the authority.

PHH hands are short flat tables: bare keys, strings, integers, decimals, booleans, arrays of them
(on one line or over several, with comments), and ``[N]`` tables in ``.phhs`` files. This module reads
exactly that part, with a few regular expressions instead of a general parser, and answers ``None``
for anything else: another TOML form (dotted or quoted keys, inline tables, nested arrays,
multi-line strings, underscores or exponents in numbers, fractional seconds...) or anything that is
not valid TOML. :func:`pokerroom.history.tomlio.load` then hands the text to :mod:`tomllib`, so a valid
file is never refused and a bad one gets tomllib's error, as before.

The contract, tested against tomllib (``tests/history/test_toml_subset.py``): for every text, ``read``
gives ``None`` or exactly what ``tomllib.loads(text, parse_float=Decimal)`` gives.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

__all__ = ["read"]

# Characters TOML forbids in comments and in single-line strings: ASCII controls but the tab.
_CTRL = "\\x00-\\x08\\x0a-\\x1f\\x7f"
_COMMENT = f"#[^{_CTRL}]*"
_LITERAL = f"'([^'{_CTRL}]*)'"
_ESCAPE = r'\\(?:[btnfr"\\]|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})'
_BASIC = f'"((?:[^"\\\\{_CTRL}]|{_ESCAPE})*)"'
_AFTER = r"(?=[ \t\r\n,\]#]|\Z)"  # what may follow a number, a boolean or a date
_INT = r"[+-]?(?:0|[1-9][0-9]*)"
_FLOAT = rf"{_INT}\.[0-9]+|[+-]?inf|[+-]?nan"
_HOUR = r"([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9])(?:\.([0-9]{1,6})[0-9]*)?"  # (digits past 6 dropped)
_DATE = r"([0-9]{4})-([0-9]{2})-([0-9]{2})"
_OFFSET = r"([Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"

# One scalar value; the group that matched tells its type.
_SCALAR = re.compile(
    f"{_LITERAL}"  # 1: literal string
    f"|{_BASIC}"  # 2: basic string
    f"|({_INT}){_AFTER}"  # 3: integer
    f"|({_FLOAT}){_AFTER}"  # 4: float
    f"|(true|false){_AFTER}"  # 5: boolean
    f"|{_DATE}[Tt ]{_HOUR}{_OFFSET}?{_AFTER}"  # 6-13: date-time (12: the second's fraction)
    f"|{_HOUR}{_AFTER}"  # 14-17: local time
    f"|{_DATE}{_AFTER}"  # 18-20: local date
)
# Items of arrays. A one-line array of numbers with signs or decimals is read in one step (_NUM_ARRAY);
# plain whole numbers and plain strings on one line are split without an expression (_whole_numbers,
# _plain_strings).
_LIT_ITEM = f"'[^'{_CTRL}]*'"
_BASIC_ITEM = f'"[^"\\\\{_CTRL}]*"'
_NUM_ITEM = rf"{_INT}(?:\.[0-9]+)?"


def _one_line_array(item: str) -> re.Pattern[str]:
    return re.compile(rf"\[[ \t]*(?:({item}(?:[ \t]*,[ \t]*{item})*)[ \t]*,?[ \t]*)?\]")


_NUM_ARRAY = _one_line_array(_NUM_ITEM)
# An array of plain strings (either kind) over several lines with comments (``actions`` as people write
# it), or on one line in a form the quick split refuses (a space after the "[", say): checked in one
# match, then its items are the quoted pieces outside the comments, in order. (A comment runs to the end
# of its line: possessive here, so that backtracking never ends one early.)
_GAP_FORM = rf"(?:[ \t]|\r?\n|{_COMMENT}+)*"
_STR_ITEM = f"(?:{_LIT_ITEM}|{_BASIC_ITEM})"
_STR_ARRAY = re.compile(rf"\[{_GAP_FORM}(?:{_STR_ITEM}{_GAP_FORM},{_GAP_FORM})*(?:{_STR_ITEM}{_GAP_FORM})?\]")
_STR_PIECE = re.compile(f"{_COMMENT}|'([^'{_CTRL}]*)'|\"([^\"\\\\{_CTRL}]*)\"")

_KEY = re.compile(r"[ \t]*([A-Za-z0-9_-]+)[ \t]*=[ \t]*")
_HEADER = re.compile(r"[ \t]*\[[ \t]*([A-Za-z0-9_-]+)[ \t]*\]")
_END = re.compile(rf"[ \t]*(?:{_COMMENT})?(?:\r?\n|\Z)")  # the rest of a line after a value
_GAP = re.compile(rf"(?:[ \t]|\r?\n|{_COMMENT})*")  # between the items of an array
_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}
_ESCAPE_RE = re.compile(_ESCAPE)


_CONTROL = re.compile(f"[{_CTRL}]")
_KEYS_READ: set[str] = set()  # keys the expression has read (bounded: no more are kept past the bound)
_KEYS_MAX = 1024
_KEY_WINDOW = 64  # (a longer key is read by the expression: the search for " = " stays short)
_NUMBER_START = frozenset("0123456789 \t]")  # what may follow the "[" of an array of whole numbers


class _Outside(Exception):
    """The text leaves the subset (or is not TOML): tomllib decides."""


def read(text: str, *, string_arrays: bool = True) -> dict[str, Any] | None:
    """The TOML document ``text`` as tomllib would read it (floats as ``Decimal``), or ``None``
    when the text is outside the subset this module reads. (``string_arrays=False``: arrays of strings
    over several lines are read item by item, as any other array: for the tests that hold the two
    readings equal.)"""
    try:
        return _document(text, string_arrays)
    except (_Outside, ValueError, OverflowError):  # ValueError: a date that does not exist
        return None


def _document(text: str, string_arrays: bool = True) -> dict[str, Any]:
    root: dict[str, Any] = {}
    table = root
    pos, n = 0, len(text)
    key_match, end_match, header_match, scalar_match = _KEY.match, _END.match, _HEADER.match, _SCALAR.match
    while pos < n:
        # "key = value" with a key read before (PHH files repeat a few dozen keys) is read without the
        # expression: the same key and position as its match (which would also take more spaces or tabs
        # after the "=": the expression then reads the line).
        key: str | None = None
        eq = text.find(" = ", pos, pos + _KEY_WINDOW)
        if eq > pos:
            key = text[pos:eq]
            if key in _KEYS_READ and text[eq + 3 : eq + 4] not in (" ", "\t"):
                pos = eq + 3
            else:
                key = None
        if key is None:
            m = key_match(text, pos)
            if m is not None:
                key = m.group(1)
                pos = m.end()
                if len(_KEYS_READ) < _KEYS_MAX:
                    _KEYS_READ.add(key)
        if key is not None:
            if key in table:
                raise _Outside
            if text.startswith("[", pos):
                table[key], pos = _array(text, pos, string_arrays)
            else:
                m = scalar_match(text, pos)
                if m is None:
                    raise _Outside
                table[key] = _scalar(m)
                pos = m.end()
        else:
            m = header_match(text, pos)
            if m is not None:
                name = m.group(1)
                if name in root:
                    raise _Outside
                table = root[name] = {}
                pos = m.end()
        if text.startswith("\n", pos):  # (the usual end of a line, without the expression)
            pos += 1
            continue
        end = end_match(text, pos)
        if end is None or (end.end() == pos and pos < n):
            raise _Outside
        pos = end.end()
    return root


def _whole_numbers(text: str, pos: int) -> tuple[list[Any], int] | None:
    """A one-line array of plain whole numbers (``[10000, 50, 0]``: ASCII digits without a sign or a
    leading zero, spaces and tabs around them, a comma after the last one or not), read without a
    regular expression; ``None`` for anything else, which the regular expressions then read. (Four of
    a hand's nine lines are such arrays: the expression took about twice as long.)"""
    end = text.find("]", pos)
    if end < 0:
        return None
    items = text[pos + 1 : end].split(",")
    numbers: list[Any] = []
    last = len(items) - 1
    for i, item in enumerate(items):
        digits = item.strip(" \t")
        if not digits:
            if i == last:
                break  # "[]", "[ ]" or a comma after the last number
            return None
        if not (digits.isascii() and digits.isdigit()) or (digits[0] == "0" and len(digits) > 1):
            return None
        numbers.append(int(digits))
    return numbers, end + 1


def _plain_strings(text: str, pos: int, quote: str) -> tuple[list[Any], int] | None:
    """A one-line array of plain strings in ``quote`` (``['d dh p1 AsKs', 'p2 f']``: no quote, escape or
    control character inside, separated by commas with spaces or tabs around them), read by splitting
    its line at the quotes; ``None`` for anything else, which the regular expressions then read. Every
    second piece is an item; the pieces between them must be separators, and the last one must close
    the array (whatever follows it on the line is the caller's: a quote there makes a separator wrong)."""
    eol = text.find("\n", pos)
    if eol < 0:
        eol = len(text)
    pieces = text[pos + 1 : eol].split(quote)
    n = len(pieces)  # (pieces[0] is empty: the caller saw the quote right after the "[")
    if n < 3:
        return None
    for k in range(2, n - 1, 2):
        gap = pieces[k]
        if gap != ", " and gap.strip(" \t") != ",":
            return None
    tail = pieces[n - 1].lstrip(" \t")
    if tail.startswith(","):
        tail = tail[1:].lstrip(" \t")
    if n % 2 == 0 or not tail.startswith("]"):
        return None
    end = eol - len(tail) + 1
    if not text[pos:end].isprintable():  # (printable: no control character; else look closer)
        if _CONTROL.search(text, pos, end) is not None:
            return None
    if quote == '"' and text.find("\\", pos, end) >= 0:  # an escape: the expressions read it
        return None
    return pieces[1 : n - 1 : 2], end


def _array(text: str, pos: int, string_arrays: bool = True) -> tuple[list[Any], int]:
    first = text[pos + 1 : pos + 2]
    if first in _NUMBER_START:
        whole = _whole_numbers(text, pos)
        if whole is not None:
            return whole
    elif first == "'" or first == '"':
        plain = _plain_strings(text, pos, first)
        if plain is not None:
            return plain
    m = _NUM_ARRAY.match(text, pos)
    if m is not None:
        body = m.group(1)
        if not body:
            return [], m.end()
        if "." not in body:  # whole numbers (int() allows the spaces around an item)
            return list(map(int, body.split(","))), m.end()
        return [Decimal(x.strip()) if "." in x else int(x) for x in body.split(",")], m.end()
    m = _STR_ARRAY.match(text, pos) if string_arrays else None
    if m is not None:
        strings: list[Any] = []
        for piece in _STR_PIECE.finditer(text, pos, m.end()):
            literal, basic = piece.group(1, 2)
            if literal is not None:
                strings.append(literal)
            elif basic is not None:
                strings.append(basic)
        return strings, m.end()
    items: list[Any] = []  # the general case: over several lines, comments, mixed items
    pos += 1
    gap = _GAP.match
    while True:
        pos = gap(text, pos).end()  # type: ignore[union-attr]  # (matches the empty string)
        if text.startswith("]", pos):
            return items, pos + 1
        m = _SCALAR.match(text, pos)
        if m is None:
            raise _Outside  # a nested array or inline table, or not TOML
        items.append(_scalar(m))
        pos = gap(text, m.end()).end()  # type: ignore[union-attr]
        if text.startswith(",", pos):
            pos += 1
        elif text.startswith("]", pos):
            return items, pos + 1
        else:
            raise _Outside


def _scalar(m: re.Match[str]) -> Any:
    i = m.lastindex
    if i == 1:
        return m.group(1)
    if i == 2:
        s = m.group(2)
        return _ESCAPE_RE.sub(_unescape, s) if "\\" in s else s
    if i == 3:
        return int(m.group(3))
    if i == 4:
        return Decimal(m.group(4))
    if i == 5:
        return m.group(5) == "true"
    if i is not None and i >= 18:
        return dt.date(int(m.group(18)), int(m.group(19)), int(m.group(20)))
    if i is not None and i >= 14:
        return dt.time(int(m.group(14)), int(m.group(15)), int(m.group(16)), _micro(m.group(17)))
    y, mo, d, h, mi, s, fraction, offset = m.group(6, 7, 8, 9, 10, 11, 12, 13)
    return dt.datetime(
        int(y), int(mo), int(d), int(h), int(mi), int(s), _micro(fraction), tzinfo=_zone(offset)
    )


def _micro(fraction: str | None) -> int:
    """Microseconds of a second's fraction (its first six digits, as tomllib reads it)."""
    return 0 if fraction is None else int(fraction.ljust(6, "0"))


def _zone(offset: str | None) -> dt.tzinfo | None:
    if offset is None:
        return None
    if offset in ("Z", "z"):
        return dt.UTC
    sign = -1 if offset[0] == "-" else 1
    return dt.timezone(dt.timedelta(hours=sign * int(offset[1:3]), minutes=sign * int(offset[4:6])))


def _unescape(m: re.Match[str]) -> str:
    e = m.group()
    if len(e) == 2:
        return _ESCAPES[e[1]]
    code = int(e[2:], 16)
    if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:  # not a Unicode scalar value: TOML refuses it
        raise _Outside
    return chr(code)
