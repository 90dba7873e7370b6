"""The console's Promotions page: the Game of the Week calendar, happy hours and the points per unit of
tournament fee (the ``[promotions]`` of the configuration file), shown and replaced. The console's
promotions are stored and win over the file's at a reload or a restart (docs/console.md)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from pokerroom.server.commands import SetPromotions
from pokerroom.server.console.access import Admin, Staff, command, front
from pokerroom.server.operator import policy_fields

__all__ = ["policy_fields", "router"]  # (policy_fields: server/operator.py, kept importable here)

router = APIRouter(prefix="/api/console/promotions", tags=["console"])


class PromotionsIn(BaseModel):
    fields: dict[str, Any] = Field(description="the keys of the configuration file's [promotions]")


@router.get("")
async def promotions(me: Staff, request: Request) -> dict[str, Any]:
    """The promotions in force (``null``: none), whether they are the console's, and this week's Game of
    the Week."""
    return await front(request).promotions_view()


@router.put("")
async def replace_promotions(body: PromotionsIn, me: Admin, request: Request) -> dict[str, Any]:
    """Replace the promotions: the keys of ``[promotions]`` (``timezone``, ``tournament_points_per_unit``,
    ``game_of_the_week`` with ``week`` "this", "next" or a date, ``happy_hour``), checked as the file is
    (``422 bad_config`` names each problem by its key). They apply from the next hand."""
    return await command(request, me, SetPromotions(body.fields))
