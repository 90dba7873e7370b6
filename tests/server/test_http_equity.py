"""GET /api/equity (issue 20): the face-up hands' equity for the browser's all-in run-out. The answer is the
project's own equity() for the same cards; only players ask; bad cards get a typed error."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from pokerroom.eval import equity, evaluate
from pokerroom.server.room import RoomSettings

from .conftest import serve_room

pytestmark = pytest.mark.asyncio


async def test_equity_of_face_up_hands(tmp_path: Path) -> None:
    # (a generous timeout: the first equity on a machine compiles its numba kernels)
    client = httpx.AsyncClient(timeout=180)
    async with serve_room(tmp_path, RoomSettings(), durable=False) as s, client as http:
        url = f"{s.url}/api/equity"
        query = {"game": "holdem", "hands": ["AhAd", "KsKc"], "board": "2c7d9h"}
        assert (await http.get(url, params=query)).status_code == 401, "players only"
        r = await http.post(f"{s.url}/api/register", json={"name": "eq1", "password": "hunter-22-poker"})
        assert r.status_code == 200, r.text
        r = await http.get(url, params=query)
        assert r.status_code == 200, r.text
        body = r.json()
        want = equity("holdem", ["AhAd", "KsKc"], "2c7d9h")
        assert body["exact"] is True
        assert [h["share"] for h in body["hands"]] == pytest.approx([h.share for h in want.hands])
        assert sum(h["share"] for h in body["hands"]) == pytest.approx(1.0)
        # The Irish run-out is two-card hold'em; Omaha hi/lo splits the pot.
        irish = (await http.get(url, params={**query, "game": "irish"})).json()
        assert irish["hands"] == body["hands"]
        omaha = {"game": "omaha8", "hands": ["AhAd2c3d", "KsKcQhQd"], "board": "4c5d9h"}
        r = await http.get(url, params=omaha)
        assert r.status_code == 200 and sum(h["share"] for h in r.json()["hands"]) == pytest.approx(1.0)
        # Typed refusals.
        r = await http.get(url, params={**query, "game": "deuce7_triple"})
        assert r.status_code == 400 and r.json()["detail"]["code"] == "unknown_game"
        r = await http.get(url, params={**query, "hands": ["AhAd", "AhKc"]})
        assert r.status_code == 400 and r.json()["detail"]["code"] == "duplicate_card"
        r = await http.get(url, params={**query, "hands": ["AhAd", "K<c"]})
        assert r.status_code == 400 and r.json()["detail"]["code"] == "invalid_field"
        r = await http.get(url, params={**query, "hands": ["AhAd"]})
        assert r.status_code == 422, "two hands at least"
        r = await http.get(url, params={**query, "board": "2c7d"})
        assert r.status_code == 400 and r.json()["detail"]["code"] == "wrong_card_count"


async def test_hand_value_in_words(tmp_path: Path) -> None:
    """GET /api/hand-value: the player's own hand as the evaluator words it, high and low."""
    client = httpx.AsyncClient(timeout=60)
    async with serve_room(tmp_path, RoomSettings(), durable=False) as s, client as http:
        url = f"{s.url}/api/hand-value"
        query = {"game": "holdem", "cards": "AhKh", "board": "KsKd5c5d2s"}
        assert (await http.get(url, params=query)).status_code == 401
        r = await http.post(f"{s.url}/api/register", json={"name": "hv1", "password": "hunter-22-poker"})
        assert r.status_code == 200, r.text
        assert (await http.get(url, params=query)).json() == {
            "high": "Full house, kings full of fives",
            "low": None,
        }
        r = await http.get(url, params={"game": "omaha8", "cards": "Ah2hKsQd", "board": "3c4d8s"})
        high = evaluate("omaha_high", "Ah2hKsQd", "3c4d8s").description
        low = evaluate("omaha_eight_low", "Ah2hKsQd", "3c4d8s").description
        assert r.json() == {"high": high, "low": low} and low != "No low"
        r = await http.get(url, params={"game": "razz", "cards": "Ah2h3c4d6s9dKc"})
        assert r.status_code == 200 and "6" in r.json()["high"]
        r = await http.get(url, params={"game": "holdem", "cards": "AhKh"})
        assert r.status_code == 400 and r.json()["detail"]["code"] == "wrong_card_count"
        r = await http.get(url, params={"game": "pinochle", "cards": "AhKh"})
        assert r.status_code == 400 and r.json()["detail"]["code"] == "unknown_game"
