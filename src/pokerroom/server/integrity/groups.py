"""Groups larger than pairs (issue 30, item 2; docs/integrity.md): every score of collusion is of pairs
(chip dumping, soft play, collusive betting, Rush pairs, shared cards). A ring of three or more shows as
several flagged pairs that share players; this joins the flagged pairs of all pair detectors into
**groups**: the connected components of the players linked by a flag, each with its links (the pair and
the detectors that flagged it) and the hands the links rest on.

A group of two is one flagged pair (listed, not flagged again: its detectors' sections flag it); a group
of three or more is **flagged**: a reason to look at them together (the links may be of different
detectors: A dumps chips to B, B shares cards with C).

Pure: links in, groups out."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["MIN_GROUP", "Group", "Link", "groups_of"]

MIN_GROUP = 3  # players: a group this large is flagged
HANDS = 50  # the supporting hands kept a group


@dataclass(frozen=True)
class Link:
    """A flagged pair of one detector."""

    a: str
    b: str
    detector: str  # the report's key of the section: "chip_dumping", "soft_play", ...
    hands: tuple[str, ...] = ()


@dataclass(frozen=True)
class Group:
    players: tuple[str, ...]  # sorted
    links: tuple[tuple[str, str, tuple[str, ...]], ...]  # (a, b, the detectors), a < b, sorted
    hands: tuple[str, ...]  # of the links, in their order (at most HANDS)

    @property
    def flagged(self) -> bool:
        return len(self.players) >= MIN_GROUP

    @property
    def detectors(self) -> tuple[str, ...]:
        return tuple(sorted({d for _, _, ds in self.links for d in ds}))

    def to_dict(self) -> dict[str, object]:
        return {
            "players": list(self.players),
            "size": len(self.players),
            "links": [{"players": [a, b], "detectors": list(ds)} for a, b, ds in self.links],
            "detectors": list(self.detectors),
            "flagged": self.flagged,
            "hands": list(self.hands),
        }


def groups_of(links: Iterable[Link]) -> list[Group]:
    """The connected components of the players the links join: the largest first, then by players."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    by_pair: dict[tuple[str, str], set[str]] = {}
    hands: dict[tuple[str, str], list[str]] = {}
    for link in links:
        if link.a == link.b:
            continue
        a, b = sorted((link.a, link.b))
        for x in (a, b):
            parent.setdefault(x, x)
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
        by_pair.setdefault((a, b), set()).add(link.detector)
        hands.setdefault((a, b), []).extend(link.hands)
    members: dict[str, list[str]] = {}
    for x in sorted(parent):
        members.setdefault(root(x), []).append(x)
    out = []
    for players in members.values():
        inside = sorted(p for p in by_pair if p[0] in players)
        evidence = dict.fromkeys(h for p in inside for h in hands[p])
        out.append(
            Group(
                tuple(players),
                tuple((a, b, tuple(sorted(by_pair[(a, b)]))) for a, b in inside),
                tuple(evidence)[:HANDS],
            )
        )
    out.sort(key=lambda g: (-len(g.players), g.players))
    return out
