"""Issue 30, item 2: groups larger than pairs (server/integrity/groups.py). The flagged pairs of every pair
detector joined into groups (connected components), each with its links and the detectors that flagged
each; in the report (``--json`` and text) and in the console's form of it (a section like the others)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from pokerroom.cli.integrity import _shared_and_groups
from pokerroom.server.console.findings import sections_of
from pokerroom.server.integrity.groups import MIN_GROUP, Link, groups_of
from pokerroom.server.integrity.report import Report, ReportOptions, brief_document


def test_links_are_joined_into_connected_groups() -> None:
    links = [
        Link("b", "a", "chip_dumping", ("h1", "h2")),
        Link("b", "c", "shared_cards", ("h3",)),
        Link("a", "b", "soft_play", ("h2", "h4")),  # the same pair by a second detector
        Link("x", "y", "collusive_betting", ("h9",)),
        Link("z", "z", "soft_play"),  # (no pair)
    ]
    ring, pair = groups_of(links)
    assert ring.players == ("a", "b", "c") and ring.flagged and len(ring.players) >= MIN_GROUP
    assert ring.links == (("a", "b", ("chip_dumping", "soft_play")), ("b", "c", ("shared_cards",)))
    assert ring.detectors == ("chip_dumping", "shared_cards", "soft_play")
    assert ring.hands == ("h1", "h2", "h4", "h3")  # each once, link by link
    assert pair.players == ("x", "y") and not pair.flagged  # a pair is its detector's flag, not a group's
    assert ring.to_dict() == {
        "players": ["a", "b", "c"],
        "size": 3,
        "links": [
            {"players": ["a", "b"], "detectors": ["chip_dumping", "soft_play"]},
            {"players": ["b", "c"], "detectors": ["shared_cards"]},
        ],
        "detectors": ["chip_dumping", "shared_cards", "soft_play"],
        "flagged": True,
        "hands": ["h1", "h2", "h4", "h3"],
    }
    assert groups_of([]) == []


def test_a_chain_joins_however_the_links_come() -> None:
    # a chain of five given in an order where two separate groups form first and are joined last
    order = [("a", "b"), ("d", "e"), ("c", "d"), ("b", "c")]
    for links in (order, order[::-1]):
        (g,) = groups_of(Link(a, b, "soft_play") for a, b in links)
        assert g.players == ("a", "b", "c", "d", "e") and len(g.links) == 4


def _finding(**kw: Any) -> Any:
    return SimpleNamespace(hands=(), **kw)


def _report() -> Report:
    """A report whose detectors flagged: dumping a -> b, soft play b + c, a Rush pair (by account id) c + d,
    shared cards x + y, and an unflagged whipsaw pair d + e."""
    r = Report(ReportOptions())
    r.dumping = [_finding(giver="a", taker="b", flagged=True)]
    r.soft = [_finding(a="b", b="c", flagged=True)]
    r.whip = [_finding(a="d", b="e", flagged=False)]
    r.rush = [_finding(a=3, b=4, flagged=True)]
    r.share = [_finding(a="x", b="y", flagged=True)]
    r.names = {3: "c", 4: "d"}
    r.groups = groups_of(r.links())
    return r


def test_the_report_joins_the_flagged_pairs_of_every_detector() -> None:
    r = _report()
    assert [(k.a, k.b, k.detector) for k in r.links()] == [
        ("a", "b", "chip_dumping"),
        ("b", "c", "soft_play"),
        ("c", "d", "rush_together"),
        ("x", "y", "shared_cards"),
    ]
    ring, pair = r.groups
    assert ring.players == ("a", "b", "c", "d") and ring.flagged  # e: his pair was not flagged
    assert pair.players == ("x", "y") and not pair.flagged
    # the --json document: a "groups" list, and the groups of three or more count among the flagged
    r.dumping, r.soft, r.whip, r.rush, r.share = [], [], [], [], []  # (stand-ins have no to_dict)
    doc = r.document()
    assert [g["players"] for g in doc["groups"]] == [["a", "b", "c", "d"], ["x", "y"]]
    assert doc["groups"][0]["links"][2] == {"players": ["c", "d"], "detectors": ["rush_together"]}
    assert doc["flagged"] == 1 and doc["shared_cards"] == []


def test_the_groups_are_in_the_text_and_the_consoles_section(capsys: pytest.CaptureFixture[str]) -> None:
    r = _report()
    r.share = []  # (the text of the shared cards reads a finding's tells: not these stand-ins)
    _shared_and_groups(r)
    out = capsys.readouterr().out
    assert "groups: 2 groups of players linked by flagged pairs, 1 of 3 or more" in out
    assert "  FLAGGED a, b, c, d: a + b (chip_dumping); b + c (soft_play); c + d (rush_together)" in out
    assert "  pair    x, y: x + y (shared_cards)" in out
    document = {"groups": [g.to_dict() for g in r.groups], "hands_read": 0}
    brief = brief_document(document)
    assert brief["section_counts"]["groups"] == {"rows": 2, "flagged": 1}
    (section,) = sections_of(brief)
    assert (section["key"], section["title"], section["flagged"]) == ("groups", "Groups", 1)
    assert section["shown"][0]["players"] == ["a", "b", "c", "d"]
    assert section["shown"][0]["links"][0] == {"players": ["a", "b"], "detectors": ["chip_dumping"]}
