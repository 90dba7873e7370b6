"""The typed bus (docs/cluster.md, "Messages"): every kind of message between the processes decodes to
what was encoded; a message that cannot be read (not JSON, another kind, a field missing or of the wrong
type, a broken frame batch) is a :class:`BadMessage`, never a KeyError, and the receiving node logs it and
drops it."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import MISSING, fields, replace
from types import SimpleNamespace
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.server.cluster.gateway import Gateway
from pokerroom.server.cluster.host import Host
from pokerroom.server.cluster.messages import (
    KINDS,
    RESOURCE_REQUESTS,
    Answer,
    BadMessage,
    ClientAnswer,
    ClientRequest,
    ConsoleAnswer,
    ConsoleQuestion,
    DirectoryNews,
    FrameBatch,
    FrameItem,
    GatewayBeat,
    LastHandsAnswer,
    LastHandsQuestion,
    Listed,
    Message,
    NewTournament,
    PlayerFrame,
    PoolQuestion,
    PresenceDown,
    PresenceList,
    PresenceSync,
    PresenceUp,
    Refresh,
    Refusal,
    TableQuestion,
    TournamentAction,
    TournamentQuestion,
    UnknownMessage,
    decode,
    receive,
)
from pokerroom.server.cluster.remote import Outbox
from pokerroom.server.cluster.subjects import Subjects
from pokerroom.server.connection import head_of
from tests.waiting import until

ids = st.text(st.characters(codec="utf-8"), max_size=12)  # (no lone surrogates: JSON has none)
opt_ids = st.none() | ids
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | ids
)
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ids, inner, max_size=3), max_leaves=8
)
objects = st.dictionaries(ids, json_values, max_size=4)
rows = st.lists(objects, max_size=3).map(tuple)
names = st.lists(ids, max_size=4).map(tuple)
counts = st.integers(0, 2**31)

STRATEGIES: dict[type[Message], st.SearchStrategy[Any]] = {
    PresenceUp: st.builds(PresenceUp, ids, ids, opt_ids, ids),
    PresenceDown: st.builds(PresenceDown, ids, ids),
    PresenceList: st.builds(
        PresenceList, ids, st.lists(st.builds(Listed, ids, opt_ids, ids), max_size=4).map(tuple), counts
    ),
    PresenceSync: st.builds(PresenceSync, ids, opt_ids),
    GatewayBeat: st.builds(GatewayBeat, ids),
    DirectoryNews: st.builds(
        DirectoryNews,
        ids,
        st.dictionaries(ids, counts, max_size=4),
        st.dictionaries(ids, ids, max_size=4),
        st.dictionaries(ids, ids, max_size=3),
        st.dictionaries(ids, ids, max_size=3),
        rows,
        rows,
        st.dictionaries(ids, rows, max_size=3),
        names,
        names,
        counts,
        st.dictionaries(ids, counts, max_size=4),
        st.booleans(),
    ),
    ClientRequest: st.builds(ClientRequest, ids, ids, opt_ids, ids, ids),
    ClientAnswer: st.builds(ClientAnswer, names),
    TableQuestion: st.builds(TableQuestion, ids),
    PoolQuestion: st.builds(PoolQuestion, ids, ids),
    TournamentQuestion: st.builds(TournamentQuestion, ids),
    TournamentAction: st.builds(TournamentAction, ids, ids, ids, ids, st.booleans()),
    Answer: st.builds(Answer, json_values, st.none() | st.builds(Refusal, ids, ids, objects)),
    LastHandsQuestion: st.builds(LastHandsQuestion, ids, opt_ids),
    LastHandsAnswer: st.builds(LastHandsAnswer, ids, rows, st.none() | objects),
    NewTournament: st.builds(NewTournament, objects, st.booleans(), objects),
    PlayerFrame: st.builds(PlayerFrame, ids, ids),
    ConsoleQuestion: st.builds(ConsoleQuestion, ids),
    ConsoleAnswer: st.builds(ConsoleAnswer, ids, json_values),
    Refresh: st.builds(Refresh, st.booleans()),
}

# a frame's text as the host makes it: JSON (whose escapes keep control characters out of it)
frame_texts = objects.map(lambda d: orjson.dumps(d).decode())
frame_items = st.builds(
    FrameItem,
    frame_texts,
    st.lists(st.integers(1, 10**6).map(str), min_size=1, max_size=5).map(tuple),
    opt_ids,
    opt_ids,
    st.none() | counts,
)


def test_every_kind_of_message_is_tested() -> None:
    assert set(STRATEGIES) == set(KINDS.values())
    assert sorted(KINDS) == sorted(c.KIND for c in STRATEGIES)  # no two kinds share a name on the wire


@given(st.one_of(*STRATEGIES.values()))
def test_every_message_decodes_to_what_was_encoded(message: Message) -> None:
    data = message.encode()
    assert type(message).decode(data) == message
    assert decode(data, *KINDS.values()) == message


@given(st.lists(frame_items, max_size=8).map(tuple))
def test_a_frame_batch_decodes_to_what_was_encoded(items: tuple[FrameItem, ...]) -> None:
    batch = FrameBatch(items)
    assert FrameBatch.decode(batch.encode()) == batch


def test_a_frame_batch_carries_each_frame_s_text_as_it_is_after_its_headers() -> None:
    text = '{"type":"seat","seat":1,"name":"a\\nb","table":"t","seq":7}'
    data = FrameBatch((FrameItem(text, ("3", "4"), "seat", "t", 7),)).encode()
    assert data == b'["seat","t",7,["3","4"]]\n' + text.encode()
    with pytest.raises(ValueError, match="separator"):
        FrameBatch((FrameItem("not\x1ejson", ("1",)),)).encode()


def test_a_frame_s_head_is_read_off_the_frame_as_it_is_made_not_its_text() -> None:
    seat = {"type": "seat", "seat": 2, "name": "x" * 300, "markers": [], "table": "holdem-a", "seq": 41}
    assert head_of(seat) == ("seat", "holdem-a", 41)
    assert head_of({"type": "balance", "currency": "PLAY", "amount": 5}) is None
    assert head_of({"type": "ack", "seq": True}) is None
    assert head_of({"type": "tournament_seat", "table": "t", "seat": 1}) is None  # no number to keep


@pytest.mark.asyncio
async def test_an_outbox_sends_the_head_it_was_given_without_reading_the_text() -> None:
    sent: list[bytes] = []

    async def send(data: bytes) -> None:
        sent.append(data)

    box = Outbox(send)
    box.put("c1", "not json at all", ("seat", "t", 9))
    box.put("c2", "nor this")
    await until(lambda: bool(sent), timeout=10, what="the outbox's batch")
    items = FrameBatch.decode(sent[0]).items
    assert items == (
        FrameItem("not json at all", ("c1",), "seat", "t", 9),
        FrameItem("nor this", ("c2",), None, None, None),
    )


NEWS = {"k": "dir", "h": "h1", "res": {}, "tables": {}, "pools": {}, "tournaments": {}}
REGISTER = TournamentAction("t", "register", "7", "a", True).encode()
BAD = [
    (b"", "not JSON"),
    (b"{", "not JSON"),
    (b"[1, 2]", "an object"),
    (b'"up"', "an object"),
    (b'{"g": "g1", "c": "1"}', "kind None"),
    (b'{"k": "telepathy", "g": "g1"}', "'telepathy'"),
    (b'{"k": "up", "c": "1", "p": "7"}', "no 'g'"),
    (b'{"k": "up", "g": 7, "c": "1", "p": "7"}', "'g' (gateway) must be a string"),
    (b'{"k": "up", "g": "g1", "c": "1", "p": 7}', "'p' (player) must be a string"),
    (b'{"k": "list", "g": "g1", "cs": [["1", "7"]], "last": 1}', "[connection, player, name]"),
    (b'{"k": "list", "g": "g1", "cs": {}, "last": 1}', "a list"),
    (b'{"k": "list", "g": "g1", "cs": [], "last": true}', "an integer"),
    (orjson.dumps({**NEWS, "res": {"table:a": "1"}}), "'res' (fences) must be an integer"),
    (b'{"k": "answer", "err": {"code": "x"}}', "a refusal"),
    (orjson.dumps({**orjson.loads(REGISTER), "flag": 1}), "'flag' (flag) must be true or false"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "says"), BAD)
def test_a_bad_message_is_a_typed_error_that_says_what_is_wrong(data: bytes, says: str) -> None:
    with pytest.raises(BadMessage, match=says.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        decode(data, *KINDS.values())


def test_a_message_of_another_kind_than_expected_is_unknown_here() -> None:
    with pytest.raises(UnknownMessage, match="expected beat"):
        GatewayBeat.decode(PresenceDown("g1", "1").encode())
    with pytest.raises(UnknownMessage):
        decode(GatewayBeat("g1").encode(), *RESOURCE_REQUESTS)


@given(st.sampled_from(sorted(KINDS)), st.data())
def test_a_required_field_left_out_is_named_and_an_optional_one_takes_its_default(
    kind: str, data: st.DataObject
) -> None:
    cls = KINDS[kind]
    obj = orjson.loads(data.draw(STRATEGIES[cls]).encode())
    for f in fields(cls):
        wire = f.metadata["wire"]
        without = orjson.dumps({k: v for k, v in obj.items() if k != wire})
        if f.default is MISSING and f.default_factory is MISSING:
            with pytest.raises(BadMessage, match=f"no '{wire}' \\({f.name}\\)"):
                cls.decode(without)
        else:
            default = f.default_factory() if callable(f.default_factory) else f.default
            assert getattr(cls.decode(without), f.name) == default


@given(st.binary(max_size=200))
def test_any_bytes_decode_to_a_message_or_a_bad_message(data: bytes) -> None:
    for read in (lambda: decode(data, *KINDS.values()), lambda: FrameBatch.decode(data)):
        with contextlib.suppress(BadMessage):
            read()


@pytest.mark.parametrize(
    "data",
    [
        b"no header",
        b'["event","t",1]\n{}',
        b'["event","t","1",["1"]]\n{}',
        b"[\n{}",
        b'["event",1,1,["1"]]\n{}',
        b'["event","t",1,["1"]]\n\xff',
    ],
)
def test_a_broken_frame_batch_is_a_bad_message(data: bytes) -> None:
    with pytest.raises(BadMessage, match="frame batch"):
        FrameBatch.decode(data)


def test_receive_logs_a_bad_message_and_drops_it(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="pokerroom.cluster"):
        assert receive(b'{"k":"beat"}', GatewayBeat, where="club.gw.hb") is None
    assert "dropped a bad message on club.gw.hb: beat: no 'g' (gateway)" in caplog.text
    assert receive(GatewayBeat("g1").encode(), GatewayBeat, where="x") == GatewayBeat("g1")


class Browser:
    """A browser as a gateway sees it (player 7, ann): what it is sent (also tests/cluster/test_parts.py)."""

    player = "7"
    name = "ann"

    def __init__(self) -> None:
        self.texts: list[str] = []

    def send(self, text: str) -> None:
        self.texts.append(text)


@pytest.mark.asyncio
async def test_a_gateway_drops_what_it_cannot_read_and_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    gw = Gateway(None, None, None, Subjects("club"), "g1")  # type: ignore[arg-type]
    browser = Browser()
    cid = gw._cid(browser)  # type: ignore[arg-type]
    with caplog.at_level(logging.WARNING, logger="pokerroom.cluster"):
        await gw._frames(SimpleNamespace(data=b"garbage"))  # type: ignore[arg-type]
        await gw._directory(SimpleNamespace(data=b'{"k":"dir","h":"h1"}'))  # type: ignore[arg-type]
        await gw._player_frame(SimpleNamespace(data=b'{"k":"player_frame","p":7,"t":"x"}'))  # type: ignore[arg-type]
        await gw._sync(SimpleNamespace(data=b"{}"))  # type: ignore[arg-type]
    assert caplog.text.count("dropped a bad") == 4
    assert browser.texts == [] and gw.directory.alive() == []
    text = '{"type":"balance","currency":"PLAY","amount":5}'
    await gw._player_frame(SimpleNamespace(data=PlayerFrame("7", text).encode()))  # type: ignore[arg-type]
    batch = FrameBatch((FrameItem('{"type":"ack"}', (cid,), "ack"),)).encode()
    await gw._frames(SimpleNamespace(data=batch))  # type: ignore[arg-type]
    assert browser.texts == [text, '{"type":"ack"}']


class _Room:
    """What a host needs of its room for these messages."""

    store = metrics = started_at = on_opened = None

    def __init__(self) -> None:
        self.connections: set[Any] = set()

    def attach(self, conn: Any, player: Any) -> None:
        conn.player, conn.name = str(player.id), player.name


class _Wire:
    def __init__(self) -> None:
        self.sent: list[tuple[str, bytes]] = []

    def down_for(self) -> float:
        return 0.0

    async def publish(self, subject: str, payload: bytes, reply: str = "") -> None:
        self.sent.append((subject, payload))


@pytest.mark.asyncio
async def test_a_host_drops_what_it_cannot_read_and_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    wire = _Wire()
    host = Host(_Room(), wire, Subjects("club"), "h1")  # type: ignore[arg-type]
    with caplog.at_level(logging.WARNING, logger="pokerroom.cluster"):
        await host._presence(SimpleNamespace(data=b'{"k":"up","g":"g1"}'))  # type: ignore[arg-type]
        await host._gateway_beat(SimpleNamespace(data=b"\xff"))  # type: ignore[arg-type]
        await host._request("table:a", SimpleNamespace(data=b'{"k":"q.chess"}', reply="r"))  # type: ignore[arg-type]
        await host._ask(SimpleNamespace(data=b'{"k":"ask.last_hands"}', reply="r"))  # type: ignore[arg-type]
        await host._admin(SimpleNamespace(data=b"[]", reply="r"))  # type: ignore[arg-type]
        await host._directory(SimpleNamespace(data=GatewayBeat("g1").encode()))  # type: ignore[arg-type]
    assert caplog.text.count("dropped a bad") == 6
    assert wire.sent == [] and host.remotes == {} and host.gateways == {}  # nothing answered, nothing done
    up = PresenceUp("g1", "1", "7", "ann").encode()
    await host._presence(SimpleNamespace(subject="club.gw.g1.presence", data=up))  # type: ignore[arg-type]
    assert list(host.remotes) == [("g1", "1")] and host.remotes[("g1", "1")].player == "7"


def test_a_message_is_frozen() -> None:
    beat = GatewayBeat("g1")
    with pytest.raises(AttributeError):
        beat.gateway = "g2"  # type: ignore[misc]
    assert replace(beat, gateway="g2") == GatewayBeat("g2")
