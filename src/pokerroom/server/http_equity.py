"""HTTP API: the equity of hands whose cards are face up (the browser client's all-in run-out, issue 20),
and the value of a player's own hand in words (the client's hand-strength label).

Only cards everybody at the table already sees are sent here, so the answer reveals nothing. The work is
the project's own ``pokerroom.eval.equity`` (exact where the deals are few enough, Monte Carlo otherwise),
run on a worker thread, at most two at a time, with the last answers cached (every watcher of a table asks
the same question).
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections import OrderedDict
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query

from pokerroom.eval import equity as run_equity
from pokerroom.eval import evaluate
from pokerroom.eval.errors import EvalError
from pokerroom.server.http import Me
from pokerroom.variants import VARIANTS

__all__ = ["router"]

router = APIRouter(prefix="/api")

# The table's variant -> the equity game it runs out as (the Irish run-out is two-card hold'em).
GAMES = {
    "holdem": "holdem",
    "irish": "holdem",
    "shortdeck": "shortdeck",
    "omaha": "omaha",
    "omaha5": "omaha5",
    "omaha6": "omaha6",
    "omaha8": "omaha8",
    "omaha8_5": "omaha8_5",
}
SAMPLES = 50_000  # Monte Carlo deals where exact enumeration would be too many
_CACHE: OrderedDict[tuple[str, tuple[str, ...], str], dict[str, Any]] = OrderedDict()
_CACHE_SIZE = 512
_SLOTS = threading.BoundedSemaphore(2)
_CARDS = r"^([2-9TJQKA][cdhs]){0,6}$"


def _compute(game: str, hands: tuple[str, ...], board: str) -> dict[str, Any]:
    with _SLOTS:
        result = run_equity(game, list(hands), board, samples=SAMPLES)
    return result.as_dict()


@router.get("/equity", tags=["tables"])
async def equity(
    me: Me,
    game: Annotated[str, Query(max_length=20)],
    hands: Annotated[list[str], Query(min_length=2, max_length=10)],
    board: Annotated[str, Query(pattern=r"^([2-9TJQKA][cdhs]){0,5}$")] = "",
) -> dict[str, Any]:
    """Each face-up hand's chance to win, tie and its share of the pot on the board so far, for the
    all-in run-out (``game``: a table's variant with a board, ``hands``: each hand's cards as ``AhKh``)."""
    del me  # players only: the work costs CPU
    if game not in GAMES:
        detail = {"code": "unknown_game", "message": f"no run-out equity for {game!r}"}
        raise HTTPException(400, detail=detail)
    for h in hands:
        if not _valid(h):
            raise HTTPException(400, detail={"code": "invalid_field", "message": "hands: cards like AhKh"})
    key = (GAMES[game], tuple(hands), board)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    try:
        answer = await asyncio.to_thread(_compute, *key)
    except EvalError as exc:
        raise HTTPException(400, detail={"code": exc.code, "message": str(exc)}) from None
    _CACHE[key] = answer
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return answer


def _valid(cards: str) -> bool:
    return bool(re.fullmatch(_CARDS, cards)) and len(cards) >= 4


# The table's variant -> its ranking(s): high (or the only one), and the low half of a split game. Taken
# from the games themselves, so that every game a table can deal has an answer (5-Card Draw had none).
RULES: dict[str, tuple[str, str | None]] = {code: (v.high, v.low) for code, v in VARIANTS.items()}


@router.get("/hand-value", tags=["tables"])
async def hand_value(
    me: Me,
    game: Annotated[str, Query(max_length=20)],
    cards: Annotated[str, Query(pattern=r"^([2-9TJQKA][cdhs]){1,7}$")],
    board: Annotated[str, Query(pattern=r"^([2-9TJQKA][cdhs]){0,5}$")] = "",
) -> dict[str, Any]:
    """The best hand ``cards`` (a player's own) make with the ``board`` in ``game`` (a table's variant), in
    words: ``high`` (or the only ranking's) and ``low`` for split games ("No low" when none qualifies)."""
    del me
    if game not in RULES:
        detail = {"code": "unknown_game", "message": f"no hand values for {game!r}"}
        raise HTTPException(400, detail=detail)
    high, low = RULES[game]
    try:
        answer: dict[str, Any] = {"high": evaluate(high, cards, board).description, "low": None}
        if low is not None:
            answer["low"] = evaluate(low, cards, board).description
    except EvalError as exc:
        raise HTTPException(400, detail={"code": exc.code, "message": str(exc)}) from None
    return answer
