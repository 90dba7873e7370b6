"""Issue 20 at the table, in chromium: pre-actions chosen while others act and taken when the action
comes (Check/Fold, Call any; "Call N" dropped when the amount changes), the warning before folding a free
check, and the all-in run-out played street by street with each hand's equity, chips moving to the pot and
to the winner."""

from __future__ import annotations

import contextlib
import functools
import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from tests.waiting import wait_until
from tests.web.conftest import NEW_TILE, Room
from tests.web.player import Player, Seen, page_pause, step_through_replay


def _acts(p: Player, since: int) -> list[dict[str, Any]]:
    out = []
    for f in p.sent[since:]:
        try:
            msg = json.loads(f)
        except ValueError:  # a frame cut at 200 characters
            continue
        if msg.get("type") == "act":
            out.append(msg)
    return out


def test_pre_actions_fire_when_the_action_comes(room: Room, page: Any, screenshots: Path) -> None:
    p = Player(page, room.url)
    p.register()
    tile = p.open_and_sit("holdem-nl")
    done: set[str] = set()
    deadline = time.monotonic() + 180
    while not {"call_any", "check_fold", "fold_warning"} <= done:
        assert time.monotonic() < deadline, f"gave up: {done}"
        bar = tile.locator(".actionbar[data-kind]")
        if bar.count():
            try:
                _decide(p, tile, bar, done)
            except Exception as exc:  # the hand moved on while we clicked
                if "Timeout" not in type(exc).__name__ and "detached" not in str(exc):
                    raise
            page.wait_for_timeout(60)
            continue
        # Call any last: it may call a bot's all-in and leave us without chips.
        kind = next((k for k in ("check_fold", "call_any") if k not in done), None)
        if tile.locator(".sit-in-btn").count():  # a timeout sat us out: come back
            tile.locator(".sit-in-btn").first.dispatch_event("click")
        choice = tile.locator(f'.preactions .pre[data-pre="{kind}"]')
        if kind is None or choice.count() == 0:
            page.wait_for_timeout(60)
            continue
        since = len(p.sent)
        try:
            choice.click(timeout=1000)
        except Exception:  # redrawn or gone (our turn came) meanwhile
            continue
        if tile.locator(f'.preactions .pre[data-pre="{kind}"][aria-pressed="true"]').count():
            tile.screenshot(path=str(screenshots / f"pre-action-{kind}.png"))
        # The pre-action is taken at our next decision of this round (or dropped when the round or the hand
        # ends before it comes).
        end = time.monotonic() + 60
        while time.monotonic() < end and not _acts(p, since):
            # Not taken (dropped, or the action bar asks us): the outer loop acts or chooses again.
            if bar.count() or tile.locator(".preactions .pre[aria-pressed='true']").count() == 0:
                break
            page.wait_for_timeout(50)
        with contextlib.suppress(TimeoutError):  # (dropped: no act comes, and the outer loop goes on)
            wait_until(  # the socket's frame events reach the test a moment later
                functools.partial(_acts, p, since),
                timeout=0.3,
                every=0.05,
                pause=page_pause(page),
                what="an act",
            )
        acts = _acts(p, since)
        if not acts:
            continue
        act = acts[0]
        d = p.decisions[act["hand_id"], act["action_no"]]
        if kind == "call_any":
            want = "check" if d["check"] else "call"
        else:
            want = "check" if d["check"] else "fold"
        assert act["action"]["type"] == want, (kind, d, act)
        done.add(kind)
    # The session statistics count the hands we were dealt here (the one going on ends first).
    wait_until(
        lambda: (
            int(tile.get_attribute("data-hands-played") or 0) >= 1
            and tile.get_attribute("data-hand-over") == "yes"
        ),
        timeout=90,
        pause=page_pause(page),
        what="a hand played at the table, and over",
    )
    played = int(tile.get_attribute("data-hands-played") or 0)
    page.click("#stats-btn")
    games = page.evaluate("window.pokerroom.stats.games")
    row = page.locator('dialog.stats-dialog tr[data-game$=" NL"]')
    assert row.count() == 1, (played, games)
    assert int(row.locator("td.hands").inner_text()) >= played >= 1
    page.locator("dialog.stats-dialog .dialog-close").click()
    assert not p.errors, p.errors
    p.leave("holdem-nl")


def test_session_statistics_of_a_hand(room: Room, page: Any) -> None:
    """VPIP, PFR and won/lost from a hand's events (stats.js): the all-in raiser and the caller of the
    run-out hand, and a big blind who only posted."""
    p = Player(page, room.url)
    p.register()
    blind_only = [
        {
            "type": "hand_started",
            "seats": [1, 4],
            "stacks": [100, 100],
            "variant": "holdem",
            "betting": "NL",
            "button": 1,
        },
        {"type": "posted", "seat": 4, "amount": 2, "what": "big_blind", "all_in": False},
        {"type": "action", "seat": 4, "action": "check", "amount": 0, "total": 2, "all_in": False},
        {"type": "street_started", "index": 1, "name": "flop"},
        {"type": "action", "seat": 4, "action": "bet", "amount": 2, "total": 2, "all_in": False},
        {"type": "hand_ended", "seats": [1, 4], "stacks": [98, 102]},
    ]
    out = page.evaluate(
        """async ([frames, blind]) => {
            const { handFigures } = await import("/static/js/stats.js");
            const f = handFigures;
            return [f(frames, 1), f(frames, 4), f(blind, 4), f(blind, 7)];
        }""",
        [FRAMES, blind_only],
    )
    assert out[0] == {"dealt": 1, "vpip": 1, "pfr": 1, "net": 200}
    assert out[1] == {"dealt": 1, "vpip": 1, "pfr": 0, "net": -200}
    assert out[2] == {"dealt": 1, "vpip": 0, "pfr": 0, "net": 2}, (
        "a blind is not voluntary; a flop bet is not PFR"
    )
    assert out[3] is None


def _decide(p: Player, tile: Any, bar: Any, done: set[str]) -> None:
    d = p.decision_of(bar)
    if d["kind"] != "bet":
        return
    if d["check"]:
        if "fold_warning" not in done and d["fold"]:
            fold = bar.locator('button[data-action="fold"]')
            fold.click(timeout=2000)
            # Folding a free check asks first: nothing was sent, the decision is still there.
            assert fold.get_attribute("data-armed") == "yes"
            assert fold.inner_text() == "Fold? Checking is free"
            done.add("fold_warning")
        bar.locator('button[data-action="check"]').click(timeout=2000)
    elif d["call"] > 0 and d["call"] <= 60:
        bar.locator('button[data-action="call"]').click(timeout=2000)
    else:
        bar.locator('button[data-action="fold"]').click(timeout=2000)


def test_call_amount_pre_action_is_dropped_when_the_amount_changes(room: Room, page: Any) -> None:
    """The pre-action rules themselves (preactions.js) in the page, on a table model: "Call 40" calls 40
    and nothing else; a raise before our turn drops it (and says so); Check/Fold folds to a bet."""
    p = Player(page, room.url)
    p.register()
    out = page.evaluate(
        """async () => {
            const m = await import("/static/js/preactions.js");
            const bet = (over) => ({ kind: "bet", fold: true, check: false, call: 40, ...over });
            const seat = (stack, b) => ({ stack, bet: b, cards: ["??", "??"], folded: false, all_in: false });
            const players = { "1": seat(500, 20), "2": seat(440, 60) };
            const model = { you: 1, decision: null,
              hand: { hand_id: "h1", street: "", over: false, players } };
            const pre = new m.PreActions();
            const offered = m.offered(model);
            const owe = m.toCall(model.hand, 1);
            pre.choose("call", owe, model);
            pre.check(model);
            const kept = pre.pre && pre.pre.amount;
            const taken = pre.take(bet({ call: 40 }));
            pre.choose("call", 40, model);
            players["2"].bet = 160; players["2"].stack = 340;  // a raise before our turn
            pre.check(model);
            const dropped = [pre.pre, pre.dropped];
            pre.choose("call", 140, model);
            const late = pre.take(bet({ call: 300 }));  // raised again when the decision comes: not called
            return {
              offered, owe, kept, taken, dropped, late,
              checkFold: [m.resolve({ kind: "check_fold" }, bet({ check: true })),
                          m.resolve({ kind: "check_fold" }, bet({}))],
              check: m.resolve({ kind: "check" }, bet({})),
              callAny: [m.resolve({ kind: "call_any" }, bet({ call: 900 })),
                        m.resolve({ kind: "call_any" }, bet({ check: true, call: 0 }))],
              draw: m.resolve({ kind: "call_any" }, { kind: "draw" }),
            };
        }"""
    )
    assert out["offered"] is True and out["owe"] == 40
    assert out["kept"] == 40 and out["taken"] == {"type": "call"}
    assert out["dropped"][0] is None and "changed" in out["dropped"][1]
    assert out["late"] is None
    assert out["checkFold"] == [{"type": "check"}, {"type": "fold"}]
    assert out["check"] is None, "Check does not call a bet"
    assert out["callAny"] == [{"type": "call"}, {"type": "check"}]
    assert out["draw"] is None


def heads_up_deal(stacks: list[int], button: int) -> list[dict[str, Any]]:
    """The first frames of a heads-up hold'em NL hand at seats 1 and 4 (blinds 1/2): the button posts the
    small blind, the other seat the big one, then two cards face down to each."""
    other = 4 if button == 1 else 1
    return [
        {
            "type": "hand_started",
            "seats": [1, 4],
            "stacks": stacks,
            "variant": "holdem",
            "betting": "NL",
            "button": button,
        },
        {"type": "posted", "seat": button, "amount": 1, "what": "small_blind", "all_in": False},
        {"type": "posted", "seat": other, "amount": 2, "what": "big_blind", "all_in": False},
        *({"type": "cards_dealt", "seat": s, "cards": ["??", "??"], "up": [False, False]} for s in (1, 4)),
    ]


def streets(flop: list[str], turn: str, river: str, run: int | None = None) -> list[dict[str, Any]]:
    """The frames that deal a hold'em board street by street (``run``: which board of a hand run twice)."""
    out: list[dict[str, Any]] = []
    for index, (name, cards) in enumerate((("flop", flop), ("turn", [turn]), ("river", [river])), 1):
        out += [
            {"type": "street_started", "index": index, "name": name},
            {"type": "board_dealt", "cards": cards},
        ]
    return out if run is None else [{**f, "run": run} for f in out]


# A whole all-in hand as the server sends it: both players all-in preflop, the hands face up (the engine's
# all-in exposure), then flop, turn and river, the showdown and the pot, all in one burst.
HAND = "runout-1"
FRAMES: list[dict[str, Any]] = [
    *heads_up_deal([200, 200], button=1),
    {"type": "action", "seat": 1, "action": "raise", "amount": 199, "total": 200, "all_in": True},
    {"type": "action", "seat": 4, "action": "call", "amount": 198, "total": 200, "all_in": True},
    {"type": "round_ended", "pots": [400]},
    {"type": "cards_shown", "seat": 4, "cards": ["Ks", "Kc"], "reason": "all_in", "description": ""},
    {"type": "cards_shown", "seat": 1, "cards": ["Ah", "Ad"], "reason": "all_in", "description": ""},
    *streets(["2c", "7d", "9h"], "Jc", "3s"),
    {
        "type": "pot_awarded",
        "winners": [1],
        "shares": [400],
        "amount": 400,
        "description": "a pair of aces",
        "half": "",
    },
    {"type": "hand_ended", "seats": [1, 4], "stacks": [400, 0]},
]
STATE = {
    "table": "runout-demo",
    "name": "Run-out",
    "variant": "holdem",
    "betting": "NL",
    "stakes": {"small_blind": 1, "big_blind": 2, "chip_unit": 1},
    "currency": "PLAY",
    "seats": 6,
    "players": {
        "1": {"player": "x1", "name": "alice", "stack": 200, "status": "playing", "markers": []},
        "4": {"player": "x4", "name": "bob", "stack": 200, "status": "playing", "markers": []},
    },
    "you": None,
    "hand": None,
    "clocks": {},
    "kind": "cash",
    "cash": {"buy_in": {"min": 40, "max": 200}, "waiting_list": 0},
    "tournament": None,
}


def test_all_in_run_out_street_by_street_with_equity(room: Room, page: Any, screenshots: Path) -> None:
    p = Player(page, room.url)
    p.register()
    # The equity the server gives for each street (asked here first, which also warms its cache).
    hands = ["AhAd", "KsKc"]
    boards = ["", "2c7d9h", "2c7d9hJc"]
    want = {}
    for board in boards:
        query = {"game": "holdem", "hands": hands, "board": board}
        # (a generous timeout: the first equity on a machine compiles its numba kernels)
        r = page.request.get(f"{room.url}/api/equity?{urlencode(query, doseq=True)}", timeout=180_000)
        assert r.ok, r.text()
        want[len(board) // 2] = r.json()["hands"]
    # Seats 1 and 4 show AhAd and KsKc: the page lists hands in seat order.
    page.evaluate(
        "async ([state, frames, hand]) => {"
        + NEW_TILE
        + """
            window.seen = [];
            const board = () => tile.el.querySelectorAll(".board .card").length;
            const record = () => {
              const eq = [...tile.el.querySelectorAll(".equity")].map((e) => Number(e.dataset.share));
              const last = window.seen[window.seen.length - 1];
              const now = { board: board(), eq, over: tile.el.dataset.handOver === "yes" };
              if (!last || JSON.stringify(last) !== JSON.stringify(now)) window.seen.push(now);
            };
            const watch = { subtree: true, childList: true, attributes: true };
            new MutationObserver(record).observe(tile.el, watch);
            const table = state.table;
            tile.onMessage({ type: "snapshot", table, state });
            for (const event of frames) tile.onMessage({ type: "event", table, hand_id: hand, event });
            record();
        }""",
        [STATE, FRAMES, HAND],
    )
    tile = page.locator('.tile[data-table="runout-demo"]')
    # At once: the hands face up and the equity preflop; the board is still to come.
    assert tile.locator(".board .card").count() == 0
    tile.locator(".equity").first.wait_for()
    tile.locator(".board .card").nth(2).wait_for()
    tile.screenshot(path=str(screenshots / "run-out-flop.png"))
    page.wait_for_selector('.tile[data-table="runout-demo"][data-hand-over="yes"]', timeout=30_000)
    seen = page.evaluate("window.seen")
    boards_seen = [s["board"] for s in seen if not s["over"]]
    assert [b for i, b in enumerate(boards_seen) if i == 0 or boards_seen[i - 1] != b] == [0, 3, 4, 5], seen
    for n in (0, 3, 4):
        shown = [s["eq"] for s in seen if s["board"] == n and not s["over"] and len(s["eq"]) == 2]
        assert shown, f"equity shown with {n} board cards: {seen}"
        assert shown[-1] == [round(h["share"], 4) for h in want[n]] or all(
            abs(a - h["share"]) < 1e-4 for a, h in zip(shown[-1], want[n], strict=True)
        )
    assert tile.locator(".result").inner_text().startswith("alice wins 400")
    flights = int(tile.locator(".fx").get_attribute("data-flights") or 0)
    assert flights >= 3, "the bets fly to the pot, the pot to alice"
    assert not p.errors, p.errors


def test_small_things_that_looked_broken(room: Room, page: Any) -> None:
    """Issue 20, item 7: street names in words (not FIRST_DRAW, SIXTH, or TURN during Irish's discard), a
    split pot that says so, and no "Auto-post blinds" at stud tables (they have antes and a bring-in)."""
    p = Player(page, room.url)
    p.register()
    out = page.evaluate(
        """async () => {
            const { Tile, streetLabel, resultText } = await import("/static/js/tile.js");
            const hand = (variant, street, board) => ({ variant, street, board });
            const st = { currency: "PLAY", players: { "1": { name: "demo" }, "3": { name: "robot17" } } };
            const controls = (variant) => {
              const tile = new Tile(window.pokerroom, `t-${variant}`);
              tile.model.state = { variant, you: 1, players: { "1": { stack: 100, status: "playing" } },
                cash: { buy_in: { min: 40, max: 200 }, waiting_list: 0 }, seats: 6, tournament: null };
              const labels = tile.controlParts().map((el) => el.textContent.trim());
              tile.destroy();
              return labels;
            };
            return {
              streets: [streetLabel(hand("deuce7_triple", "first_draw", [])),
                        streetLabel(hand("stud", "sixth", [])),
                        streetLabel(hand("irish", "turn", ["2c", "3d", "4h"])),
                        streetLabel(hand("irish", "turn", ["2c", "3d", "4h", "5s"])),
                        streetLabel(hand("holdem", "preflop", []))],
              split: resultText({ winners: [1, 3], shares: [200, 200], amount: 400,
                                  description: "a flush" }, st),
              single: resultText({ winners: [3], shares: [400], amount: 400, half: "high",
                                   description: "" }, st),
              stud: controls("stud"),
              razz: controls("razz"),
              holdem: controls("holdem"),
            };
        }"""
    )
    assert out["streets"] == ["First draw", "Sixth street", "Discard", "Turn", "Preflop"]
    assert out["split"] == "demo and robot17 split 400 (200 each) with a flush"
    assert out["single"] == "robot17 wins 400 (high)"
    assert not any("Auto-post" in c for c in out["stud"] + out["razz"])
    assert any("Auto-post blinds" in c for c in out["holdem"])


def test_last_hands_words_raises_as_the_text_export(room: Room, page: Any) -> None:
    """Issue 20, item 7: "Last hands" said "raise 152" where the text export says "raises 129 to 172"; both
    say by how much and to what now (the bet level of the round counts the blinds)."""
    p = Player(page, room.url)
    p.register()
    events = [
        {"type": "posted", "seat": 1, "amount": 10, "what": "small_blind", "all_in": False},
        {"type": "posted", "seat": 2, "amount": 20, "what": "big_blind", "all_in": False},
        {"type": "action", "seat": 3, "action": "raise", "amount": 60, "total": 60, "all_in": False},
        {"type": "action", "seat": 1, "action": "raise", "amount": 162, "total": 172, "all_in": False},
        {"type": "action", "seat": 2, "action": "fold", "amount": 0, "total": 20, "all_in": False},
        {"type": "action", "seat": 3, "action": "call", "amount": 112, "total": 172, "all_in": False},
        {"type": "street_started", "index": 1, "name": "flop"},
        {"type": "action", "seat": 1, "action": "bet", "amount": 100, "total": 100, "all_in": False},
        {"type": "action", "seat": 3, "action": "raise", "amount": 328, "total": 328, "all_in": True},
    ]
    lines = page.evaluate(
        """async (events) => {
            const { describeHand } = await import("/static/js/dialogs.js");
            return describeHand(events, (s) => `p${s}`, 1);
        }""",
        events,
    )
    assert [x for x in lines if " raises " in x or " bets " in x or " calls " in x] == [
        "p3 raises 40 to 60",
        "p1 raises 112 to 172",
        "p3 calls 112",
        "p1 bets 100",
        "p3 raises 228 to 328 and is all-in",
    ]
    # The Tournaments tab: game names and status words, not codes.
    page.click('.tab[data-tab="tournaments"]')
    row = page.locator("tr[data-tournament]").first
    row.wait_for()
    assert "holdem" not in row.locator("td").nth(1).inner_text()
    status = row.locator("td.t-status")
    word = status.inner_text()
    assert word[0].isupper() and (status.get_attribute("data-status") or "?") in word.lower()


def test_a_busted_tournament_player_sees_his_place(room: Room, page: Any) -> None:
    """Issue 20, item 7: a busted sit-and-go player saw only "Watching"; he sees his place and prize."""
    p = Player(page, room.url)
    p.register()
    out = page.evaluate(
        """async () => {
            const { Tile } = await import("/static/js/tile.js");
            const tile = new Tile(window.pokerroom, "t-busted");
            tile.tournamentAt = Date.now();  // no request to the server from this made-up table
            const st = { variant: "holdem", you: 2, players: { "2": { stack: 300, status: "playing" } },
              currency: "PLAY", tournament: { tournament: "none", level: {} }, cash: null };
            tile.model.state = st;
            const seated = tile.controlParts().map((el) => el.textContent);
            st.you = null;
            const out = tile.controlParts().map((el) => el.textContent);
            tile.standing = { place: 3 };
            tile.prize = 150;
            const placed = tile.controlParts().map((el) => el.textContent);
            const watcher = new Tile(window.pokerroom, "t-watch");
            watcher.model.state = { ...st, you: null };
            const watching = watcher.controlParts().map((el) => el.textContent);
            tile.destroy();
            watcher.destroy();
            return { seated, out, placed, watching };
        }"""
    )
    assert any("Sit out" in x for x in out["seated"])
    assert out["out"] == ["You are out of the tournament"]
    assert out["placed"] == ["You finished 3rd and won 150"]
    assert out["watching"] == ["Watching"]


def test_sit_in_asks_about_missed_blinds_and_the_table_settings(room: Room, page: Any) -> None:
    """Issue 20, item 7 and the table settings: "Sit in" posted missed blinds without asking; now a player
    with missed blinds chooses to post them or to wait for the big blind. "Sit out next BB" and auto-muck
    are offered (sit_out next_bb and settings auto_muck of the protocol)."""
    p = Player(page, room.url)
    p.register()
    out = page.evaluate(
        """async () => {
            const { Tile } = await import("/static/js/tile.js");
            const tile = new Tile(window.pokerroom, "t-sit");
            const sent = [];
            tile.send = (msg) => { sent.push(msg); return "r"; };
            const st = { variant: "holdem", you: 1, seats: 6, tournament: null,
              cash: { buy_in: { min: 40, max: 200 }, waiting_list: 0 },
              players: { "1": { stack: 100, status: "sitting_out", markers: ["ML"] } } };
            tile.model.state = st;
            const labels = () => tile.controlParts().map((el) => el.textContent.trim());
            const missed = labels();
            tile.controlParts().find((el) => el.classList.contains("sit-in-wait")).click();
            const notice = tile.notice.textContent;
            st.players["1"].markers = [];
            const plain = labels();
            st.players["1"].status = "playing";
            const playing = labels();
            tile.controlParts().find((el) => el.classList.contains("sit-out-bb-btn")).click();
            const parts = tile.controlParts();
            const muck = parts.map((el) => el.querySelector && el.querySelector(".auto-muck")).find(Boolean);
            muck.checked = false;
            muck.dispatchEvent(new Event("change"));
            st.variant = "stud";
            const stud = labels();
            tile.destroy();
            return { missed, notice, plain, playing, stud, sent };
        }"""
    )
    assert out["missed"][:2] == ["Sit in, post missed blinds", "Sit in at the big blind"]
    assert out["sent"][0] == {"type": "sit_in", "table": "t-sit", "post_missed": False}
    assert out["notice"].startswith("Sitting in")
    assert out["plain"][0] == "Sit in"
    assert out["playing"][:2] == ["Sit out", "Sit out next BB"]
    assert "Auto-muck losing hands" in out["playing"]
    assert out["sent"][1] == {"type": "sit_out", "table": "t-sit", "when": "next_bb"}
    assert out["sent"][2] == {"type": "settings", "table": "t-sit", "auto_muck": False}
    assert "Sit out next BB" not in out["stud"] and "Auto-post blinds" not in out["stud"]


def test_hand_strength_label(room: Room, page: Any) -> None:
    """The table settings of issue 20: our own hand in words under our seat, from the server's evaluator
    (GET /api/hand-value), once the board gives us five cards; none before."""
    p = Player(page, room.url)
    p.register()
    page.evaluate(
        "async (state) => {"
        + NEW_TILE
        + """
            const seat = (cards) => ({ stack: 100, bet: 0, paid: 10, folded: false, all_in: false, cards,
              up: cards.map(() => false), shown: false });
            const hand = { hand_id: "hs-1", variant: "holdem", betting: "NL", button: 1, board: [],
              street: "", phase: "betting", pots: [], action_no: 3, waiting_for: [], over: false,
              players: { "1": seat(["Ah", "Kh"]), "4": seat(["??", "??"]) } };
            tile.apply({ type: "snapshot", table: state.table, state: { ...state, you: 1, hand } });
            window.hsBefore = tile.el.querySelectorAll(".hand-strength").length;
            tile.apply({ type: "event", table: state.table, hand_id: "hs-1",
              event: { type: "board_dealt", cards: ["Ks", "Kd", "5c"] } });
        }""",
        {**STATE, "table": "hs-demo"},
    )
    assert page.evaluate("window.hsBefore") == 0, "two cards make no hand yet"
    label = page.locator('.tile[data-table="hs-demo"] .seat.mine .hand-strength')
    label.wait_for()
    assert label.inner_text() == "Three of a kind, kings"


def test_the_cashier_lists_stored_hands_with_result_and_stakes_and_replays_them(
    room: Room, page: Any
) -> None:
    """Issue 20, item 6: the cashier's list of stored hands shows each hand's stakes and what it won or
    lost us, and "Replay" opens the hand on a table of its own (GET /api/hands/{id}/replay), stepped
    street by street to the end with our cards as we saw them."""
    p = Player(page, room.url)
    p.register()
    p.open_and_sit("holdem-nl")
    p.play(
        "holdem-nl",
        Seen(),
        until=lambda s, t: int(t.get_attribute("data-hands-played") or 0) >= 1,
        raise_once=False,
    )
    p.leave("holdem-nl")
    wait_until(  # stored as the hand ends
        lambda: page.request.get(room.url + "/api/hands").json()["hands"],
        timeout=30,
        pause=page_pause(page),
        what="the hand we played is stored",
    )
    stored = page.request.get(room.url + "/api/hands").json()["hands"]
    page.click("#cashier-btn")
    cashier = page.locator("dialog.cashier")
    rows = cashier.locator("table.hand-list tbody tr")
    rows.first.wait_for()
    # The cashier lists the hands stored when it asked: every hand stored before it opened, none that the
    # room does not have after (a hand we were dealt into as we left can end, and be stored, meanwhile).
    listed = set(rows.evaluate_all("rs => rs.map(r => r.dataset.handId)"))
    after = {h["hand_id"] for h in page.request.get(room.url + "/api/hands").json()["hands"]}
    assert {h["hand_id"] for h in stored} <= listed <= after
    first = stored[0]
    row = cashier.locator(f'table.hand-list tr[data-hand-id="{first["hand_id"]}"]')
    table = next(
        t for t in page.request.get(room.url + "/api/lobby").json()["tables"] if t["table"] == "holdem-nl"
    )
    assert row.locator("td.stakes").inner_text() == first["stakes_label"] == table["stakes_label"], (
        "as the lobby"
    )
    net = row.locator("td.net")
    assert int(net.get_attribute("data-net") or "x") == first["net"]
    shown = net.inner_text().replace(",", "")
    assert shown == (f"+{first['net']}" if first["net"] > 0 else str(first["net"]))
    row.locator("button.replay-btn").click()
    rp = cashier.locator(".tile.replay")
    rp.wait_for()
    mine = rp.locator(".seat.mine .card")
    assert mine.count() == 2
    assert "??" not in mine.evaluate_all("els => els.map(e => e.dataset.card)")
    step_through_replay(rp)
    assert not p.errors


def test_the_tournaments_tab_offers_register_or_unregister_as_it_applies(room: Room, page: Any) -> None:
    """Issue 20, item 7: the Tournaments tab showed Register and Unregister side by side; the lobby's rows
    say whether we are registered and only the button that applies is offered, changing as we click."""
    p = Player(page, room.url)
    p.register()
    page.click('.tab[data-tab="tournaments"]')
    row = page.locator(
        'tr[data-tournament][data-registered="no"]', has=page.locator("button.t-register")
    ).first
    row.wait_for()
    tid = row.get_attribute("data-tournament")
    row = page.locator(f'tr[data-tournament="{tid}"]')
    assert row.locator("button.t-unregister").count() == 0
    balance = int(page.get_attribute("#balance", "data-amount") or 0)
    row.locator("button.t-register").click()
    row.locator("button.t-unregister").wait_for()
    assert row.get_attribute("data-registered") == "yes" and row.locator("button.t-register").count() == 0
    assert row.locator(".hint").inner_text().strip() == "Registered"
    page.wait_for_function(f"Number(document.querySelector('#balance').dataset.amount) < {balance}")
    page.evaluate("window.pokerroom.lobby.refresh()")  # the server says so too (as every 10 seconds)
    page.wait_for_function(
        f"""() => {{
            const r = document.querySelector('tr[data-tournament="{tid}"]');
            return r && r.dataset.registered === "yes" && !r.querySelector('.hint').textContent;
        }}"""
    )
    assert row.locator("button.t-register").count() == 0
    row.locator("button.t-unregister").click()
    row.locator("button.t-register").wait_for()
    assert row.get_attribute("data-registered") == "no" and row.locator("button.t-unregister").count() == 0
    page.wait_for_function(f"Number(document.querySelector('#balance').dataset.amount) === {balance}")
    assert not p.errors
