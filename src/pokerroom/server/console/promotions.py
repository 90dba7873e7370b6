"""The console's Promotions page: the Game of the Week calendar, happy hours and the points per unit of
tournament fee (the ``[promotions]`` of the configuration file), shown and replaced. The console's
promotions are stored and win over the file's at a reload or a restart (docs/console.md)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from pokerroom.rooms import PointsPolicy
from pokerroom.server.config.parse import ConfigInvalid, promotions_from_fields
from pokerroom.server.console.access import Admin, Staff, audited, fail, room

__all__ = ["policy_fields", "router"]

router = APIRouter(prefix="/api/console/promotions", tags=["console"])
_DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


class PromotionsIn(BaseModel):
    fields: dict[str, Any] = Field(description="the keys of the configuration file's [promotions]")


def policy_fields(p: PointsPolicy | None) -> dict[str, Any] | None:
    """A policy as the fields of ``[promotions]``, weeks given by their Monday (what the store keeps: a
    week written "this" or "next" would move at the next start)."""
    if p is None:
        return None
    return {
        "timezone": str(p.tz),
        "tournament_points_per_unit": p.tournament_points_per_unit,
        "game_of_the_week": [
            {"week": monday.isoformat(), "game": d.variant, "betting": d.betting.value, "mode": d.mode}
            for monday, d in sorted(p.game_of_the_week.items())
        ],
        "happy_hour": [
            {
                "days": [_DAYS[i] for i in sorted(h.days)],
                "start": h.start.isoformat(timespec="minutes"),
                "end": h.end.isoformat(timespec="minutes"),
                "multiplier": h.multiplier_pct / 100,
            }
            for h in p.happy_hours
        ],
    }


@router.get("")
async def promotions(me: Staff, request: Request) -> dict[str, Any]:
    """The promotions in force (``null``: none), whether they are the console's, and this week's Game of
    the Week."""
    r = room(request)
    policy = r.settings.points
    now = r.clock.now()
    featured = policy.featured(now) if policy is not None else None
    return {
        "promotions": policy_fields(policy),
        "from_console": r.promotions is not None,
        "game_of_the_week_now": None
        if featured is None
        else {"game": featured.variant, "betting": featured.betting.value, "mode": featured.mode},
    }


@router.put("")
async def replace_promotions(body: PromotionsIn, me: Admin, request: Request) -> dict[str, Any]:
    """Replace the promotions: the keys of ``[promotions]`` (``timezone``, ``tournament_points_per_unit``,
    ``game_of_the_week`` with ``week`` "this", "next" or a date, ``happy_hour``), checked as the file is
    (``422 bad_config`` names each problem by its key). They apply from the next hand."""
    r = room(request)
    try:
        policy = promotions_from_fields(body.fields, now=r.clock.now())
    except ConfigInvalid as exc:
        problems = [f"{p.path}: {p.message}" for p in exc.problems]
        raise fail(422, "bad_config", "; ".join(problems), problems=problems) from None
    before = policy_fields(r.settings.points)
    after = policy_fields(policy)
    assert after is not None
    r.set_promotions(policy)
    await r.store.games.save("promotions", "promotions", after, "open")
    await audited(request, me, "promotions.replace", "promotions", before=before, after=after)
    return {"promotions": after, "from_console": True}
