"""The cluster's parts without processes: the outbox of frames between hosts and gateways, the gateways'
directory of hosts, which connections a host drops when a gateway lists its own, which gateways a host
counts as silent, and a gateway subscribing its watchers again when a host no longer knows it."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import orjson
import pytest

from pokerroom.server.cluster.directory import HOST_SILENCE, Directory
from pokerroom.server.cluster.gateway import Gateway
from pokerroom.server.cluster.host import GATEWAY_SILENCE, silent_gateways, unlisted
from pokerroom.server.cluster.messages import (
    ClientAnswer,
    ClientRequest,
    DirectoryNews,
    FrameBatch,
    FrameItem,
    Listed,
    Message,
    PresenceList,
    PresenceSync,
    decode,
)
from pokerroom.server.cluster.placement import REJOIN, SPARE, Placement
from pokerroom.server.cluster.remote import Outbox
from pokerroom.server.cluster.subjects import ANY, Subjects
from tests.cluster.test_messages import Browser


@pytest.mark.asyncio
async def test_the_outbox_sends_one_message_per_tick_and_a_broadcast_once() -> None:
    sent: list[bytes] = []

    async def send(data: bytes) -> None:
        sent.append(data)

    box = Outbox(send)
    broadcast = '{"type":"event","table":"a","seq":1,"hand_id":"a-1","event":{}}'
    for cid in ("1", "2", "3"):
        box.put(cid, broadcast, ("event", "a", 1))  # the same text to three watchers
    turn = '{"type":"turn","decision":{}}'
    box.put("2", turn)  # one viewer's own frame
    while not sent:
        await asyncio.sleep(0)
    assert len(sent) == 1
    assert FrameBatch.decode(sent[0]).items == (
        FrameItem(broadcast, ("1", "2", "3"), "event", "a", 1),  # with its headers
        FrameItem(turn, ("2",), None, None, None),  # (no table number: no head)
    )
    closing = '{"type":"table_closed","table":"a","seq":2,"reason":"closed","moved_to":null}'
    box.put("1", closing, ("table_closed", "a", 2))
    while len(sent) < 2:
        await asyncio.sleep(0)
    (closed,) = FrameBatch.decode(sent[1]).items
    assert (closed.type, closed.table, closed.seq, closed.conns) == ("table_closed", "a", 2, ("1",))


def _heard(host: str, res: dict[str, int], tables: dict[str, str], rows: list[str]) -> DirectoryNews:
    lobby = tuple({"table": t} for t in rows)
    return DirectoryNews(host, res, tables, {}, {}, lobby_tables=lobby)


H1_BOTH = _heard("h1", {"table:a": 1, "table:b": 1}, {"a": "table:a", "b": "table:b"}, ["a", "b"])


def test_the_newest_fence_owns_a_table_and_only_its_owner_lists_it() -> None:
    now = [0.0]
    d = Directory(clock=lambda: now[0])
    changed, gone = d.heard(
        _heard("h1", {"table:a": 1, "table:b": 1}, {"a": "table:a", "b": "table:b"}, ["a", "b"])
    )
    assert changed == {"table:a", "table:b"} and gone == set()
    now[0] = 1.0
    # h2 took table a over (fence 2) while h1, frozen, still lists it
    changed, gone = d.heard(_heard("h2", {"table:a": 2}, {"a": "table:a"}, ["a"]))
    assert changed == {"table:a"}
    assert d.owners["table:a"].host == "h2" and d.owners["table:a"].fence == 2
    assert sorted(r["table"] for r in d.lobby_rows("tables")) == ["a", "b"]  # a once, from h2
    now[0] = 1.5
    changed, gone = d.heard(
        _heard("h1", {"table:a": 1, "table:b": 1}, {"a": "table:a", "b": "table:b"}, ["a", "b"])
    )
    assert d.owners["table:a"].host == "h2"  # an older fence never wins back
    assert sorted(r["table"] for r in d.lobby_rows("tables")) == ["a", "b"]


def test_a_silent_host_s_tables_are_moving() -> None:
    now = [0.0]
    d = Directory(clock=lambda: now[0])
    d.heard(_heard("h1", {"table:a": 1}, {"a": "table:a"}, ["a"]))
    d.heard(_heard("h2", {"table:b": 1}, {"b": "table:b"}, ["b"]))
    now[0] = HOST_SILENCE / 2
    d.heard(_heard("h2", {"table:b": 1}, {"b": "table:b"}, ["b"]))
    assert d.expire() == set()
    now[0] = HOST_SILENCE + 0.1
    assert d.expire() == {"table:a"}
    assert d.alive() == ["h2"] and "table:a" not in d.owners
    assert [r["table"] for r in d.lobby_rows("tables")] == ["b"]


def test_a_host_lets_go_of_a_table_it_no_longer_lists() -> None:
    d = Directory()
    d.heard(_heard("h1", {"table:a": 1, "table:b": 1}, {"a": "table:a", "b": "table:b"}, ["a", "b"]))
    changed, gone = d.heard(_heard("h1", {"table:b": 1}, {"b": "table:b"}, ["b"]))
    assert gone == {"table:a"} and changed == set()


def test_a_gateway_s_list_drops_only_the_connections_it_had_closed() -> None:
    known = [("g1", "1"), ("g1", "2"), ("g1", "3"), ("g1", "5"), ("g2", "1")]
    # g1's list was made when its last id was 4: 2 is gone, 5 opened after the list was made
    assert unlisted(known, "g1", {"1", "3"}, 4) == [("g1", "2")]
    assert unlisted(known, "g2", {"1"}, 1) == []


def test_subjects_carry_the_cluster_name_and_who_may_publish_them() -> None:
    s = Subjects("club")
    assert s.request("g1", "table:holdem-nl") == "club.gw.g1.res.table.holdem-nl"
    assert s.request(ANY, "table:holdem-nl") == "club.gw.*.res.table.holdem-nl"
    said = (
        s.request("g1", "pool:p"),
        s.presence("g1"),
        s.beat("g1"),
        s.ask("g1"),
        s.admin("g1"),
        s.player("g1"),
    )
    assert all(x.startswith("club.gw.g1.") and s.sender(x) == "g1" for x in said)
    assert all(x.startswith("club.host.") for x in (s.directory, s.presence_sync, s.frames("g1")))
    assert s.frames("g1") == "club.host.to.g1" and s.inbox("g1") == "club.inbox.g1"
    assert s.sender(s.frames("g1")) is None and s.sender(s.directory) is None


def test_a_gateway_is_silent_only_for_the_time_its_host_was_on_the_bus() -> None:
    heard = {"g1": 100.0, "g2": 100.0 + GATEWAY_SILENCE}
    # the host on the bus all along: g1 has been silent too long, g2 not yet
    assert silent_gateways(heard, 100.0 + GATEWAY_SILENCE + 1, up_since=0.0) == ["g1"]
    # the host itself was off the bus until 108: nobody could be heard, so g1 gets a whole silence again
    assert silent_gateways(heard, 100.0 + GATEWAY_SILENCE + 1, up_since=108.0) == []
    assert silent_gateways(heard, 108.0 + GATEWAY_SILENCE + 1, up_since=108.0) == ["g1"]
    assert silent_gateways(heard, 110.0 + GATEWAY_SILENCE + 1, up_since=108.0) == ["g1", "g2"]


class _Bus:
    """The part of :class:`~pokerroom.server.cluster.bus.Bus` a gateway's presence answer uses."""

    def __init__(self) -> None:
        self.published: list[tuple[str, Message]] = []
        self.requests: list[tuple[str, Message]] = []

    async def publish(self, subject: str, payload: bytes, reply: str = "") -> None:
        self.published.append((subject, decode(payload, PresenceList)))

    async def request(self, subject: str, payload: bytes, timeout: float = 5.0) -> bytes:
        self.requests.append((subject, decode(payload, ClientRequest)))
        return ClientAnswer(("a",)).encode()


class _Conn:
    player = "7"
    name = "ann"

    def send(self, text: str) -> None:
        raise AssertionError(f"nothing is sent to the client: {text}")


@pytest.mark.asyncio
@pytest.mark.parametrize("asked_for", ["g1", "g2", None])
async def test_a_gateway_a_host_no_longer_knows_subscribes_its_watchers_there_again(
    asked_for: str | None,
) -> None:
    """A host that dropped a gateway's connections (its heartbeats went missing) asks it, by name, for
    its list when it hears it again: the gateway sends the list and subscribes its watchers of that
    host's tables again, each getting a snapshot. A sync asked of all (a host that reconnected and kept
    them) or of another gateway subscribes nobody again."""
    bus = _Bus()
    subjects = Subjects("club")
    gw = Gateway(None, None, bus, subjects, "g1")  # type: ignore[arg-type]
    gw.directory.heard(H1_BOTH)
    conn = _Conn()
    cid = gw._cid(conn)  # type: ignore[arg-type]
    gw.watching[cid] = {"table:a": {"a"}}
    sync = PresenceSync("h1", asked_for)
    await gw._sync(SimpleNamespace(data=sync.encode()))  # type: ignore[arg-type]
    while gw._background:
        await asyncio.sleep(0)
    assert bus.published == [
        (subjects.presence("g1"), PresenceList("g1", (Listed(cid, "7", "ann"),), int(cid)))
    ]
    subscribe = '{"type":"subscribe","table":"a"}'
    again = [(subjects.request("g1", "table:a"), ClientRequest("g1", cid, "7", "ann", subscribe))]
    assert bus.requests == (again if asked_for == "g1" else [])
    assert gw.watching[cid] == {"table:a": {"a"}}


def test_a_host_back_on_the_bus_takes_no_expired_lease_before_it_hears_who_is_back() -> None:
    """Issue 37: after an outage that cut every host off, the first host back took the others' tables
    (voiding a hand at each) before they could renew. Now it spares every expired lease until it has been
    back for ``REJOIN`` seconds, then spares the hosts it hears (for ``SPARE``), not the others."""
    up = [0.5]
    heard: set[str] = {"h2"}
    placement = Placement(
        SimpleNamespace(),  # type: ignore[arg-type]  # (spare reads no room)
        "h1",
        bus_down_for=lambda: 0.0,
        hosts_alive=lambda: 1 + len(heard),
        bus_up_for=lambda: up[0],
        hosts_heard=lambda: heard,
        on_held=lambda _r, _h: asyncio.sleep(0),
        on_dropped=lambda _r, _h: asyncio.sleep(0),
    )
    expired = timedelta(seconds=2)
    assert placement.spare("h2", expired) and placement.spare("h3", expired)  # just back: hears nobody yet
    up[0] = REJOIN + 0.1
    assert placement.spare("h2", expired)  # back and heard: it renews its own
    assert not placement.spare("h3", expired)  # not heard: killed, frozen or cut off alone
    assert not placement.spare("h2", SPARE)  # heard but not renewing (no database): taken over


@pytest.mark.asyncio
async def test_a_gateway_passes_a_tables_frames_on_only_from_the_host_that_holds_it() -> None:
    """A host stopped and resumed (its lease taken over meanwhile) may still deal a moment on its old
    copy of a table before it notices (its journal writes the hand's commands only at the end: docs/store.md,
    "Per hand"); the players there must not see that. A gateway relays a table's frames only from the host
    its directory names for the table (the newest fence), and from anyone while it names nobody."""
    gw = Gateway(None, None, _Bus(), Subjects("club"), "g1")  # type: ignore[arg-type]
    seen = Browser()
    cid = gw._cid(seen)  # type: ignore[arg-type]

    def batch(host: str, table: str, seq: int) -> Any:
        text = f'{{"type":"event","table":"{table}","seq":{seq}}}'
        return SimpleNamespace(
            data=FrameBatch((FrameItem(text, (cid,), "event", table, seq),), host).encode()
        )

    await gw._frames(batch("h1", "a", 1))  # (nobody named yet: heard)
    gw.directory.heard(H1_BOTH)
    await gw._frames(batch("h1", "a", 2))
    gw.directory.heard(_heard("h2", {"table:a": 2}, {"a": "table:a"}, ["a"]))  # h2 took a over
    await gw._frames(batch("h1", "a", 3))  # the old host: dropped
    await gw._frames(batch("h2", "a", 1))
    await gw._frames(batch("h1", "b", 4))  # h1 still holds b
    assert [orjson.loads(t)["seq"] for t in seen.texts] == [1, 2, 1, 4]
    assert gw.stale_frames == 1 and gw.seq["a"] == 1


def test_a_frame_batch_names_its_host() -> None:
    item = FrameItem('{"type":"chat"}', ("1",), None, None, None)
    for batch in (FrameBatch((item,), "h-2"), FrameBatch((), "h-2"), FrameBatch((item,))):
        assert FrameBatch.decode(batch.encode()) == batch
    with pytest.raises(ValueError):
        FrameBatch((item,), "h\n2").encode()
