"""PHH's TOML strings (history/tomlio.py): whatever a string holds (a name with quotes or backslashes, a
control character), the written text reads back as the same string, and plain strings are written as
they are."""

from __future__ import annotations

import tomllib

from hypothesis import given
from hypothesis import strategies as st

from pokerroom.history.tomlio import _ESCAPES, format_value


@given(st.text())
def test_every_string_reads_back_unchanged(s: str) -> None:
    assert tomllib.loads(f"x = {format_value(s)}")["x"] == s


def test_escapes_and_plain_strings() -> None:
    assert format_value("Jo Bloggs") == '"Jo Bloggs"'
    assert format_value('a"b\\c') == '"a\\"b\\\\c"'
    assert format_value("l1\nl2\tx") == '"l1\\nl2\\tx"'
    assert format_value("\x00\x1f\x7f") == '"\\u0000\\u001F\\u007F"'


@given(st.text(alphabet=st.sampled_from('ab"\\{}:,\n\x7f')))
def test_quotes_and_backslashes_are_written_as_every_escape_is(s: str) -> None:
    """A string with quotes and backslashes and no control character (a deck proof's JSON) takes a
    quicker path; its text is exactly the one the general escaping writes (stored histories compare
    byte for byte)."""
    assert format_value(s) == '"' + s.translate(_ESCAPES) + '"'
