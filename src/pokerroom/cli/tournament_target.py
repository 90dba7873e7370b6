"""``pokerroom bots --tournament NAME``: NAME is a tournament's id or a sit-and-go series, whose copy
registering now is the one the bots join (a series' copies are ``<series>-<n>``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import httpx

__all__ = ["TargetUnknown", "find_tournament", "pick_tournament"]

_OPEN = ("announced", "registering")


class TargetUnknown(Exception):
    """No tournament of that id, and no copy of that series registering."""


def pick_tournament(groups: Mapping[str, Sequence[Mapping[str, Any]]], name: str) -> str:
    """The id the bots register for: ``name`` itself when a tournament has it and has not finished, else
    the copy of the series ``name`` that registers now (the lowest numbered when there are several)."""
    rows = [r for key in ("upcoming", "running") for r in groups.get(key, ())]
    if any(r.get("tournament") == name for r in rows):
        return name
    copies = [
        str(r["tournament"])
        for r in rows
        if str(r.get("tournament", "")).startswith(f"{name}-") and r.get("status") in _OPEN
    ]
    if not copies:
        known = sorted({str(r.get("tournament")) for r in rows})
        raise TargetUnknown(
            f"no tournament {name!r} and no sit-and-go series {name!r} registering; open now: "
            + (", ".join(known) or "none")
        )
    return min(copies, key=lambda tid: (len(tid), tid))


async def find_tournament(base_url: str, name: str) -> str:
    """Ask the room (``GET /api/tournaments``) and pick as :func:`pick_tournament` does."""
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.get(f"{base_url}/api/tournaments")
        r.raise_for_status()
        return pick_tournament(r.json(), name)
