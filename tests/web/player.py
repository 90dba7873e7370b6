"""Drive the browser client like a player: register, open a table, sit, act when the action bar asks.

Every decision the server sends is also read off the WebSocket frames, so the tests can check what the
page offers (buttons, the raise box's bounds) against the protocol's legal actions."""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.waiting import wait_until

PASSWORD = "browser-pass-phrase-1"
DEBUG_SHOT = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots" / "failed-to-sit.png"
_names = itertools.count(1)


def page_pause(page: Any) -> Callable[[float], None]:
    """A pause for ``wait_until`` that lets the page run meanwhile (its scripts, its socket's frames)."""
    return lambda seconds: page.wait_for_timeout(seconds * 1000)


def _ungrouped(label: str) -> str:
    """A button's label without the locale's digit grouping: "1,000" in English, "1 000" (a no-break
    space) in Russian and Bulgarian."""
    return re.sub(r"[\s,]", "", label)


CARD_RE = (
    r"^(Ace|King|Queen|Jack|Ten|Nine|Eight|Seven|Six|Five|Four|Three|Two) of (spades|hearts|diamonds|clubs)"
)


@dataclass
class Seen:
    """What the player did and saw at one table."""

    decisions: int = 0
    kinds: set[str] = field(default_factory=set)
    own_cards: list[int] = field(default_factory=list)  # how many cards we held at each decision
    drew: int = 0
    discarded: int = 0
    raised: int = 0
    pots: list[int] = field(default_factory=list)
    hand_ids: set[str] = field(default_factory=set)


class Player:
    def __init__(self, page: Any, base_url: str) -> None:
        self.page = page
        self.url = base_url
        self.name = f"web{int(time.time()) % 100000}n{next(_names)}"
        self.decisions: dict[tuple[str, int], dict[str, Any]] = {}  # (hand id, action no) -> decision
        self.frames: list[dict[str, Any]] = []
        self.sent: list[str] = []
        self.shot: Path | None = None  # a screenshot of the table at the first decision
        self.keys = False  # check and call with the keyboard shortcut instead of the button
        # Fold rather than call more than this (a player who must keep playing, e.g. a Rush entry, whose
        # stack a bot's all-in would otherwise end, and with it the entry).
        self.max_call: int | None = None
        self.errors: list[str] = []  # script errors in the page: any is a bug
        page.on("websocket", self._on_ws)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def _on_ws(self, ws: Any) -> None:
        ws.on("framereceived", self._on_frame)
        ws.on("framesent", lambda payload: self.sent.append(str(payload)[:200]))

    def _on_frame(self, payload: Any) -> None:
        if not isinstance(payload, str):
            return
        data = json.loads(payload)
        for msg in data if isinstance(data, list) else [data]:  # (a batch: several frames in one message)
            self._on_one(msg)

    def _on_one(self, msg: dict[str, Any]) -> None:
        self.frames.append(msg)
        if msg.get("type") == "turn" and msg.get("decision"):
            self.decisions[msg["hand_id"], msg["action_no"]] = msg["decision"]
        elif msg.get("type") == "snapshot":
            state = msg["state"]
            hand = state.get("hand") or {}
            if hand.get("decision"):
                self.decisions[hand["hand_id"], hand["action_no"]] = hand["decision"]

    def decision_of(self, bar: Any) -> dict[str, Any]:
        """The decision the server sent for the one the action bar shows."""
        hand_id = bar.get_attribute("data-hand-id", timeout=2000)
        key = (hand_id, int(bar.get_attribute("data-action-no") or -1))
        wait_until(
            lambda: key in self.decisions,
            timeout=5,
            every=0.05,
            pause=page_pause(self.page),
            what=f"the server's decision {key} that the page shows",
        )
        return self.decisions[key]

    # ------------------------------------------------------------------------------------ pages

    def register(self) -> None:
        self.page.goto(self.url + "/")
        form = self.page.locator("#login-form")
        form.locator("input[name=name]").fill(self.name)
        form.locator("input[name=password]").fill(PASSWORD)
        self.page.click("#register-btn")
        self.page.wait_for_selector("#app:not([hidden])")
        self.page.wait_for_selector(".lobby-table tbody tr")

    def tile(self, table: str) -> Any:
        return self.page.locator(f'.tile[data-table="{table}"]')

    def open_and_sit(self, table: str) -> Any:
        self.page.click(f'button.open-table[data-table="{table}"]')
        tile = self.tile(table)
        try:
            tile.locator(".seat").first.wait_for()
        except Exception:
            self.page.screenshot(path=str(DEBUG_SHOT))
            kinds = [f.get("type") for f in self.frames][-20:]
            raise AssertionError(f"no table; errors: {self.errors}, got {kinds}, sent {self.sent}") from None
        tile.locator(".sit-btn").first.click()
        dialog = self.page.locator("dialog.sit-dialog")
        dialog.locator("input[name=post_now]").check()
        dialog.locator(".sit-confirm").click()
        try:
            self.page.wait_for_selector(f'.tile[data-table="{table}"][data-seated="yes"]')
        except Exception:
            self.page.screenshot(path=str(DEBUG_SHOT))
            frames = [f for f in self.frames if f.get("type") in ("seat", "error", "welcome", "ack")][-10:]
            raise AssertionError(f"could not sit: {self.errors}, {frames}") from None
        return tile

    def leave(self, table: str) -> None:
        self.tile(table).locator(".leave-btn").click()

    # ---------------------------------------------------------------------------------- playing

    def play(
        self,
        table: str,
        seen: Seen,
        *,
        until: Any,
        timeout: float = 90.0,
        draw: int = 1,
        raise_once: bool = True,
    ) -> None:
        """Act at every decision (check or call, draw ``draw`` cards, discard two, raise once in big bet)
        until ``until(seen, tile)`` is true."""
        tile = self.tile(table)
        deadline = time.monotonic() + timeout
        while not until(seen, tile):
            assert time.monotonic() < deadline, f"{table}: gave up waiting ({seen})"
            bar = tile.locator(".actionbar[data-kind]")
            if bar.count() == 0:
                self.page.wait_for_timeout(80)
                continue
            try:
                self._decide(tile, bar, seen, draw, raise_once)
            except Exception as exc:  # the hand moved on while we clicked (a timeout, a re-render)
                if "Timeout" not in type(exc).__name__ and "detached" not in str(exc):
                    raise
            self.page.wait_for_timeout(60)

    def _decide(self, tile: Any, bar: Any, seen: Seen, draw: int, raise_once: bool) -> None:
        if self.shot is not None and not self.shot.exists():
            tile.screenshot(path=str(self.shot))
        kind = bar.get_attribute("data-kind", timeout=2000)
        seen.decisions += 1
        seen.kinds.add(kind)
        hand_id = tile.get_attribute("data-hand-id", timeout=2000)
        if hand_id:
            seen.hand_ids.add(hand_id)
        mine = tile.locator(".seat.mine .cards .card")
        seen.own_cards.append(mine.count())
        for label in mine.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"):
            assert label != "Face-down card", "our own cards are always visible to us"
        pot = tile.locator(".pot-total")
        if pot.count():
            seen.pots.append(int(pot.get_attribute("data-amount", timeout=2000) or 0))
        if kind == "bet":
            self._bet(tile, bar, seen, raise_once)
        elif kind == "draw":
            cards = tile.locator(".seat.mine .card.selectable")
            for i in range(draw):
                cards.nth(i).click(timeout=2000)
            name = "draw" if draw else "stand_pat"
            bar.locator(f'button[data-action="{name}"]').click(timeout=2000)
            seen.drew += 1
        elif kind == "discard":
            cards = tile.locator(".seat.mine .card.selectable")
            go = bar.locator('button[data-action="discard"]')
            assert go.is_disabled()
            cards.nth(0).click(timeout=2000)
            cards.nth(1).click(timeout=2000)
            go.click(timeout=2000)
            seen.discarded += 1
        elif kind == "show":
            bar.locator('button[data-action="show"]').click(timeout=2000)

    def _bet(self, tile: Any, bar: Any, seen: Seen, raise_once: bool) -> None:
        d = self.decision_of(bar)
        assert d["kind"] == "bet"
        box = bar.locator(".raise-amount")
        if box.count():
            lo = int(box.get_attribute("min", timeout=2000) or -1)
            hi = int(box.get_attribute("max", timeout=2000) or -1)
            assert (lo, hi) == (d["min_to"], d["max_to"]), "the raise box is bounded by the legal min and max"
            box.fill(str(d["max_to"] * 10))
            box.blur()
            assert int(box.input_value()) == d["max_to"], "an amount over the maximum is brought down to it"
            box.fill("0")
            box.blur()
            assert int(box.input_value()) == d["min_to"], "an amount under the minimum is brought up to it"
            if raise_once and not seen.raised:
                bar.locator('button[data-preset="Pot"]').click(timeout=2000)
                value = int(box.input_value())
                assert d["min_to"] <= value <= d["max_to"]
                bar.locator('button[data-action="raise"]').click(timeout=2000)
                seen.raised += 1
                return
        elif d["choices"]:
            labels = bar.locator('button[data-action="raise"]').all_inner_texts()
            assert len(labels) == len(d["choices"])
            for label, amount in zip(labels, d["choices"], strict=True):
                assert _ungrouped(label).endswith(str(amount)), (label, amount)
        if not d["check"] and self.max_call is not None and d["call"] > self.max_call:
            bar.locator('button[data-action="fold"]').click(timeout=2000)
        elif self.keys and (d["check"] or d["call"] > 0):
            self.page.locator("body").press("c")  # the keyboard shortcut for check / call
        elif d["check"]:
            bar.locator('button[data-action="check"]').click(timeout=2000)
        elif d["call"] > 0:
            label = bar.locator('button[data-action="call"]').inner_text()
            assert _ungrouped(label).endswith(str(d["call"])), (label, d["call"])
            bar.locator('button[data-action="call"]').click(timeout=2000)
        elif d["bring_in"] > 0:
            bar.locator('button[data-action="bring_in"]').click(timeout=2000)
        else:
            bar.locator('button[data-action="fold"]').click(timeout=2000)


def step_through_replay(rp: Any) -> None:
    """Drive a replayer tile (replay.js): from the start street by street to the end, then back one
    street and one action forward, checking its position at each step."""
    rp.locator("button.rp-start").click()
    assert rp.get_attribute("data-pos") == "0" and rp.locator(".seat .card").count() == 0
    positions = [0]
    while rp.locator("button.rp-next").is_enabled():
        rp.locator("button.rp-next").click()
        positions.append(int(rp.get_attribute("data-pos") or 0))
    assert positions == sorted(set(positions)) and len(positions) >= 2, positions
    assert rp.get_attribute("data-hand-over") == "yes" and rp.locator(".result").count() >= 1
    rp.locator("button.rp-prev").click()
    assert int(rp.get_attribute("data-pos") or 0) == positions[-2]
    rp.locator("button.rp-step").click()
    assert int(rp.get_attribute("data-pos") or 0) == positions[-2] + 1, "one action forward"
