"""Issue 33, item 5: the operator's commands are typed, addressed messages that cross a process boundary
unchanged (encode / decode), and one executor carries each out on a room (server/operator.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.engine import Betting, Stakes
from pokerroom.rooms import TableConfig, Timing
from pokerroom.server.address import ROOM, Address, address_of
from pokerroom.server.commands import (
    COMMANDS,
    AddRecurring,
    BadCommand,
    CancelTournament,
    CloseGame,
    Command,
    CommandRefused,
    EditRecurring,
    EditTournament,
    EndTournament,
    HoldTable,
    MessageTable,
    OpenGame,
    RemoveRecurring,
    ResumeActor,
    ScheduleTournament,
    SetPromotions,
    SetTournamentDeals,
    decode,
)
from pokerroom.server.operator import execute
from pokerroom.server.room import RoomSettings

from .harness import Harness

TEXT = st.text(min_size=1, max_size=30)
INT64 = st.integers(-(2**63), 2**63 - 1)
FIELDS = st.dictionaries(st.text(max_size=10), INT64 | st.text(max_size=10), max_size=4)
ANY_COMMAND = st.one_of(
    st.builds(HoldTable, TEXT, st.booleans()),
    st.builds(MessageTable, TEXT, TEXT),
    st.builds(CloseGame, st.sampled_from(["table", "pool"]), TEXT),
    st.builds(ResumeActor, st.sampled_from(["table", "pool", "tournament"]), TEXT),
    st.builds(OpenGame, st.sampled_from(["table", "pool"]), FIELDS),
    st.builds(ScheduleTournament, FIELDS),
    st.builds(EditTournament, TEXT, FIELDS),
    st.builds(CancelTournament, TEXT),
    st.builds(EndTournament, TEXT),
    st.builds(SetPromotions, FIELDS),
    st.builds(SetTournamentDeals, TEXT, st.booleans()),
    st.builds(AddRecurring, FIELDS),
    st.builds(EditRecurring, TEXT, FIELDS),
    st.builds(RemoveRecurring, TEXT),
)


@given(ANY_COMMAND)
def test_every_command_crosses_a_process_boundary_unchanged(cmd: Command) -> None:
    assert decode(cmd.encode()) == cmd


def test_every_command_is_covered_and_addressed() -> None:
    assert set(COMMANDS) == {
        "hold_table",
        "message_table",
        "close_game",
        "resume_actor",
        "open_game",
        "schedule_tournament",
        "edit_tournament",
        "cancel_tournament",
        "end_tournament",
        "set_promotions",
        "set_tournament_deals",
        "add_recurring",
        "edit_recurring",
        "remove_recurring",
    }
    assert HoldTable("t1", True).address == Address("table", "t1")
    assert CloseGame("pool", "r1").address == Address("pool", "r1")
    assert ResumeActor("tournament", "x").address == Address("tournament", "x")
    assert CancelTournament("x").address == Address("tournament", "x")
    assert EndTournament("x").address == Address("tournament", "x")
    assert OpenGame("table", {}).address == ROOM
    assert SetPromotions({}).address == ROOM
    assert SetTournamentDeals("x", False).address == Address("tournament", "x")
    assert AddRecurring({}).address == ROOM
    assert EditRecurring("s", {}).address == ROOM and RemoveRecurring("s").address == ROOM
    assert address_of(HoldTable("t1", True)) == Address("table", "t1")  # the one function for both


def test_a_command_that_cannot_be_sent_is_a_typed_error() -> None:
    with pytest.raises(BadCommand):
        OpenGame("table", {"seats": 2**70}).encode()


@pytest.mark.parametrize(
    "data",
    [
        b"not json",
        b"[1, 2]",
        b'{"k": "launch_missiles"}',
        b'{"k": "hold_table", "table": "t"}',
        b'{"k": "hold_table", "table": "t", "held": "yes"}',
        b'{"k": "hold_table", "table": 5, "held": true}',
        b'{"k": "hold_table", "table": "t", "held": true, "extra": 1}',
        b'{"k": "close_game", "kind": "casino", "ident": "t"}',
        b'{"k": "open_game", "kind": "table", "fields": [1]}',
    ],
)
def test_bad_bytes_are_a_typed_error(data: bytes) -> None:
    with pytest.raises(BadCommand):
        decode(data)


TABLE = TableConfig(
    table_id="t",
    name="Table",
    variant="holdem",
    betting=Betting.NO_LIMIT,
    stakes=Stakes.blinds(10, 20),
    seats=6,
    timing=Timing(action=10.0, time_bank=5.0, between_hands=1.0, disconnect_grace=600),
)


@pytest.mark.asyncio
async def test_one_executor_carries_commands_out_and_refuses_with_a_status_and_code(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path, RoomSettings(tables=(TABLE,)), seed=1)
    try:
        room = h.room
        held = await execute(room, HoldTable("t", True))
        assert held.action == "table.pause" and held.answer["state"] == "paused"
        assert room.tables["t"].held and "t" in room.console.held
        game = await room.store.games.get("t")
        assert game is not None and game.state == "paused"  # kept over the configuration file
        resumed = await execute(room, ResumeActor("table", "t"))
        assert resumed.action == "table.resume" and not room.tables["t"].held
        refusals: list[tuple[Command, int, str]] = [
            (HoldTable("nowhere", True), 404, "unknown_table"),
            (OpenGame("table", {"id": "x"}), 422, "bad_config"),
            (ResumeActor("tournament", "nothing"), 404, "unknown_tournament"),
            (ScheduleTournament({"id": "s", "kind": "sng", "max_players": 1}), 422, "bad_tournament"),
        ]
        for cmd, status, code in refusals:
            with pytest.raises(CommandRefused) as refused:
                await execute(room, cmd)
            assert (refused.value.status, refused.value.code) == (status, code), cmd
        opened = await execute(room, OpenGame("table", _fields("t2")))
        assert opened.action == "table.open" and "t2" in room.tables
        with pytest.raises(CommandRefused) as refused:
            await execute(room, OpenGame("table", _fields("t2")))
        assert refused.value.code == "game_exists"
        closing = await execute(room, CloseGame("table", "t2"))
        assert closing.action == "table.close"
    finally:
        await h.close()


def _fields(gid: str) -> dict[str, Any]:
    return {
        "id": gid,
        "name": "Console NL",
        "game": "holdem",
        "betting": "NL",
        "stakes": {"small_blind": 10, "big_blind": 20},
        "seats": 6,
    }
