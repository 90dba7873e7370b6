"""Issue 36 on the server's harness (manual clock, no sockets): a mixed table deals its rounds' games with
dealer's choice answered over the protocol (``choose_game``), the lobby and the snapshot show the mix, the
game now and next and the hands left (RULES.md §11.1); a straddle table takes a player's ``straddle``
setting (§11.2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerroom.engine import Betting, Stakes
from pokerroom.rooms import TableConfig, Timing
from pokerroom.server.room import RoomSettings

from .harness import Harness

TIMING = Timing(action=10.0, time_bank=5.0, between_hands=1.0, disconnect_grace=600, sit_out_limit=3600)
HORSE = TableConfig(
    "h", "H.O.R.S.E.", "holdem", Betting.FIXED_LIMIT, Stakes.fixed_limit(20, 40), 6, timing=TIMING,
    mix="horse", round_hands=2, dealers_choice=True,
)  # fmt: skip
CLUB = TableConfig(
    "c", "Club", "holdem", Betting.NO_LIMIT, Stakes.blinds(10, 20), 6, timing=TIMING, straddle="utg",
    bomb_pot_every=3,
)  # fmt: skip


@pytest.mark.asyncio
async def test_a_dealers_choice_horse_table_deals_the_chosen_games(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path, RoomSettings(tables=(HORSE,)), seed=3)
    try:
        actor = h.room.tables["h"]
        watcher = h.connect("watcher", await h.player("watcher"))
        snapshot = await h.subscribe(watcher, "h")  # before the first hand
        mix = snapshot["state"]["cash"]["mix"]
        assert (mix["name"], mix["game"], mix["next_game"], mix["hands_left"]) == (
            "H.O.R.S.E.",
            "holdem",
            "omaha8",
            2,
        )
        bots = [await h.cash_bot(f"bot{i}", "h", "caller", seed=i) for i in range(3)]
        await h.run(lambda: actor.hands_played >= 8, seconds=3600)
        played = [f["event"]["variant"] for f in watcher.events("hand_started")][:8]
        # the bots answer each choice with the list's next game (R250's default): the rounds go in order
        assert played == ["holdem"] * 2 + ["omaha8"] * 2 + ["razz"] * 2 + ["stud"] * 2
        asked = [f for bot in bots for f in bot.of("choose_game")]
        assert len(asked) >= 3 and all(f["options"][0] == "FL Texas Hold'em" for f in asked)
        said = [f["text"] for f in watcher.of("chat", **{"from": "dealer"}) if "round is over" in f["text"]]
        assert said[:2] == [
            "The FL Texas Hold'em round is over; next: dealer's choice",
            "The FL Omaha Hi/Lo round is over; next: dealer's choice",
        ]
        (row,) = h.room.lobby()
        assert row["mix"]["name"] == "H.O.R.S.E." and row["stakes_label"] == "20/40"
        assert row["mix"]["dealers_choice"] is True
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_a_player_asks_to_straddle_over_the_protocol(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path, RoomSettings(tables=(CLUB,)), seed=3)
    try:
        me = await h.login("myself")
        answer = await h.sit(me, "c", 1, buy_in=2000)
        assert answer["type"] == "ack", answer
        ok = await h.ask(me, {"type": "settings", "table": "c", "straddle": True})
        assert ok["type"] == "ack", ok
        actor = h.room.tables["c"]
        assert me.player is not None
        seat = actor.table.seat_of(str(me.player.id))
        assert seat is not None and actor.table.seats[seat].straddle
    finally:
        await h.close()
