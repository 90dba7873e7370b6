"""A host stopped and resumed (issue 37, "a table that never deals again after a host is stopped and
resumed"), without processes: a gateway keeps subscribing its clients to their tables as the tables move
between hosts, whatever a host answers meanwhile; a host's look for work is not held up by the lease row
a stopped host keeps locked."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import orjson
import pytest

from pokerroom.server import protocol as p
from pokerroom.server.clock import SystemClock
from pokerroom.server.cluster.gateway import Gateway
from pokerroom.server.cluster.messages import (
    ClientAnswer,
    ClientRequest,
    DirectoryNews,
    FrameBatch,
    FrameItem,
    decode,
)
from pokerroom.server.cluster.placement import Held, Placement
from pokerroom.server.cluster.subjects import Subjects
from pokerroom.server.endpoints import Endpoints
from pokerroom.server.errors import Refused
from pokerroom.server.mailbox import Mailbox
from pokerroom.store import Fence
from tests.cluster.test_messages import Browser


class _Hosts:
    """The bus as a gateway's requests meet it: each request is answered with ``answer`` (the tables the
    answering host says the connection watches on it)."""

    def __init__(self) -> None:
        self.answer: tuple[str, ...] = ()
        self.asked: list[tuple[str, dict[str, object]]] = []  # (connection, its message)

    async def request(self, subject: str, payload: bytes, timeout: float = 5.0) -> bytes:
        request = decode(payload, ClientRequest)
        self.asked.append((request.conn, orjson.loads(request.message)))
        return ClientAnswer(self.answer).encode()

    async def publish(self, subject: str, payload: bytes, reply: str = "") -> None:
        pass


def _news(host: str, fence: int) -> SimpleNamespace:
    news = DirectoryNews(host, {"table:a": fence}, {"a": "table:a"}, {}, {}, lobby_tables=({"table": "a"},))
    return SimpleNamespace(data=news.encode())


async def _hear(gw: Gateway, host: str, fence: int) -> None:
    """The gateway hears ``host``'s directory, and subscribes the watchers there (in the background)."""
    await gw._directory(_news(host, fence))  # type: ignore[arg-type]
    while gw._background:
        await asyncio.gather(*gw._background)


def _subscribes(hosts: _Hosts) -> list[tuple[str, object]]:
    return [(conn, m["table"]) for conn, m in hosts.asked if m["type"] == "subscribe"]


async def _client(gw: Gateway, hosts: _Hosts, who: Browser, text: str, answer: tuple[str, ...]) -> None:
    """``who`` sends ``text``; the host that gets it answers that the connection watches ``answer``."""
    hosts.answer = answer
    await gw.handle(who, p.parse_client(text))  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_a_client_is_subscribed_on_the_new_host_even_after_an_answer_that_named_no_table() -> None:
    """Issue 37: a host resumed after a stop still named a table (its old fence) when the host that took
    it over had just opened it; a player's request in that moment was answered by the new host, whose
    copy of the connection watched nothing there yet, and the gateway took that answer for what the
    player watches. When it then heard the new host's directory it subscribed the player nowhere: the
    player never saw a turn again, sat out, and the table never dealt again (nothing in any log). The
    tables a client subscribed to itself are subscribed again on every move, whatever a host answered."""
    hosts = _Hosts()
    gw = Gateway(None, None, hosts, Subjects("club"), "g1")  # type: ignore[arg-type]
    await _hear(gw, "h1", 1)
    browser = Browser()
    await _client(gw, hosts, browser, '{"type":"subscribe","table":"a"}', ("a",))
    cid = gw.ids[browser]  # type: ignore[index]
    # h2 took table a over; a sit_in is answered by h2, which does not list the connection's table yet
    await _client(gw, hosts, browser, '{"type":"sit_in","table":"a"}', ())
    assert gw.watching[cid] == {"table:a": set()}
    hosts.asked.clear()
    await _hear(gw, "h2", 2)
    assert _subscribes(hosts) == [(cid, "a")]  # subscribed on h2: a snapshot, turns again

    # unsubscribed: not subscribed again when the table moves
    await _client(gw, hosts, browser, '{"type":"unsubscribe","table":"a"}', ())
    hosts.asked.clear()
    await _hear(gw, "h3", 3)
    assert _subscribes(hosts) == []
    assert browser.texts == []  # (nothing refused: every request was answered)


@pytest.mark.asyncio
async def test_a_closed_table_or_a_refused_subscription_is_not_subscribed_again() -> None:
    hosts = _Hosts()
    gw = Gateway(None, None, hosts, Subjects("club"), "g1")  # type: ignore[arg-type]
    gw.directory.heard(DirectoryNews("h1", {"table:a": 1}, {"a": "table:a"}, {}, {}))
    refused = Browser()
    hosts.answer = ()  # the host refused it (e.g. a Rush table, closed to observers): it names nothing
    await gw.handle(refused, p.parse_client('{"type":"subscribe","table":"a"}'))  # type: ignore[arg-type]
    hosts.answer = ("a",)
    seated = Browser()
    await gw.handle(seated, p.parse_client('{"type":"sit","table":"a","seat":1,"buy_in":100}'))  # type: ignore[arg-type]
    cid = gw.ids[seated]  # type: ignore[index]
    closed = FrameItem('{"type":"table_closed","table":"a"}', (cid,), "table_closed", "a", 9)
    await gw._frames(SimpleNamespace(data=FrameBatch((closed,), "h1").encode()))  # type: ignore[arg-type]
    hosts.asked.clear()
    await _hear(gw, "h2", 2)
    assert _subscribes(hosts) == []


class _Leases:
    """Lease rows as a store answers: ``locked`` ones wait for a stopped host's write until the store's
    statement limit (a TimeoutError); the others are free."""

    def __init__(self, locked: set[str]) -> None:
        self.locked = locked
        self.tried: list[str] = []

    async def acquire(self, resource: str, holder: str, ttl: Any, *, spare: Any = None) -> int | None:
        self.tried.append(resource)
        if resource in self.locked:
            raise TimeoutError
        return 2

    async def handed_to(self, host: str) -> set[str]:
        return set()


@pytest.mark.asyncio
async def test_a_lease_row_locked_by_a_stopped_host_holds_up_no_other_takeover() -> None:
    """Issue 37: a host stopped in the middle of a write keeps its lease row locked; the other host's look
    for work waited on that row until the store's limit and gave up the whole look, so the pool after it
    (a table, a tournament) was not taken over for as long as the host stayed stopped. Now only that row
    waits: every other free resource is taken."""
    configs = [SimpleNamespace(table_id=t) for t in ("a", "b", "c")]

    async def nothing(*_a: Any) -> Any:
        return {}

    store = SimpleNamespace(
        leases=_Leases({"table:a"}),
        tournaments=SimpleNamespace(live=lambda: nothing(), statuses=nothing),
    )
    room = SimpleNamespace(
        settings=SimpleNamespace(tables=configs, pools=[], tournaments=[], rush_tournaments=[]),
        store=store,
        refresh_console=nothing,
    )
    held: list[str] = []

    async def on_held(resource: str, _h: Any) -> None:
        held.append(resource)

    placement = Placement(
        room,  # type: ignore[arg-type]
        "h2",
        bus_down_for=lambda: 0.0,
        hosts_alive=lambda: 1,
        on_held=on_held,
        on_dropped=lambda _r, _h: nothing(),
    )

    async def adopt(resource: str, fence: Any) -> Any:
        cfg = next(c for c in configs if f"table:{c.table_id}" == resource)
        return SimpleNamespace(closing=False, table=SimpleNamespace(config=cfg))

    placement._adopt = adopt  # type: ignore[method-assign]  # (the adoption itself: server/cluster/adopt.py)
    await placement.scan()
    assert store.leases.tried == ["table:a", "table:b", "table:c"]
    assert held == ["table:b", "table:c"]
    store.leases.locked.clear()  # the stopped host ran again: its write committed, the row is free
    await placement.scan()
    assert held == ["table:b", "table:c", "table:a"]


class _Silent(_Hosts):
    """A bus on which the request's host never answers (stopped, or its copy of the table being dropped
    with the request queued) until the test says so."""

    def __init__(self) -> None:
        super().__init__()
        self.answer = ("a",)
        self.go = asyncio.Event()

    async def request(self, subject: str, payload: bytes, timeout: float = 5.0) -> bytes:
        await self.go.wait()
        return await super().request(subject, payload, timeout)


@pytest.mark.asyncio
async def test_a_host_slow_to_answer_holds_up_no_directory_news() -> None:
    """Issue 37 (two hosts stopped, one resumed just before the other: seen with
    tests/cluster/test_host_stop_loop.py): a gateway subscribed the watchers of a moved table inside its
    handler of the hosts' directories; while a request waited for its answer no other directory was read,
    every host went silent for the gateway, and it never caught up (its lobby empty, "no table host is
    heard", for minutes). The subscribing now runs beside the directory, which is read at once."""
    bus = _Silent()
    gw = Gateway(None, None, bus, Subjects("club"), "g1")  # type: ignore[arg-type]
    gw.directory.heard(DirectoryNews("h1", {"table:a": 1}, {"a": "table:a"}, {}, {}))
    browser = Browser()
    gw.watching[gw._cid(browser)] = {"table:a": {"a"}}  # type: ignore[arg-type]
    await asyncio.wait_for(gw._directory(_news("h2", 2)), 5)  # type: ignore[arg-type]
    other = DirectoryNews("h3", {"table:b": 1}, {"b": "table:b"}, {}, {})
    await asyncio.wait_for(gw._directory(SimpleNamespace(data=other.encode())), 5)  # type: ignore[arg-type]
    assert gw.directory.owners["table:a"].host == "h2" and gw.directory.alive() == ["h1", "h2", "h3"]
    await asyncio.wait_for(gw._directory(_news("h4", 3)), 5)  # type: ignore[arg-type]  # (a moves again)
    bus.go.set()
    while gw._background:
        await asyncio.gather(*gw._background, return_exceptions=True)
    assert _subscribes(bus) == [(gw.ids[browser], "a")]  # type: ignore[index]  # once: for h4, the newest


class _Subjects(_Hosts):
    """The bus, also noting the subject of each request (which resource's host it went to)."""

    def __init__(self) -> None:
        super().__init__()
        self.subjects: list[str] = []

    async def request(self, subject: str, payload: bytes, timeout: float = 5.0) -> bytes:
        self.subjects.append(subject)
        return await super().request(subject, payload, timeout)


@pytest.mark.asyncio
async def test_a_table_is_subscribed_again_only_through_its_own_resource() -> None:
    """Issue 37 (found with tests/cluster/test_host_stop_loop.py, both hosts stopped): a host answers a
    request with every table the connection watches on it, of all its resources; the gateway kept them all
    under the one resource, and when that resource moved it subscribed the watcher to the host's other
    tables through that resource's subject. The host, resumed and dropping one of those other tables (lost
    to the other host), queued the subscribing on the dropped table, where it was never answered, and every
    later request for the first table waited behind it: that table dealt no hand again."""
    bus = _Subjects()
    gw = Gateway(None, None, bus, Subjects("club"), "g1")  # type: ignore[arg-type]
    fences = {"table:a": 1, "table:b": 1}
    gw.directory.heard(DirectoryNews("h1", fences, {"a": "table:a", "b": "table:b"}, {}, {}))
    browser = Browser()
    for table in ("a", "b"):
        await _client(gw, bus, browser, f'{{"type":"subscribe","table":"{table}"}}', ("a", "b"))
    cid = gw.ids[browser]  # type: ignore[index]
    assert gw.watching[cid] == {"table:a": {"a"}, "table:b": {"b"}}
    hosts_b = DirectoryNews("h2", {"table:b": 2}, {"b": "table:b"}, {}, {})
    bus.asked.clear()
    bus.subjects.clear()
    await gw._directory(SimpleNamespace(data=hosts_b.encode()))  # type: ignore[arg-type]  # b moved
    while gw._background:
        await asyncio.gather(*gw._background)
    assert _subscribes(bus) == [(cid, "b")]
    assert bus.subjects == [Subjects("club").request("g1", "table:b")]


class _Actor(Mailbox):
    """A table's actor as the room knows it: its own endpoint's owner."""

    broken = False

    @property
    def owner(self) -> Mailbox:
        return self


async def _nothing(*_a: Any) -> None:
    return None


def _placement(room: object, on_dropped: Any) -> Placement:
    """Host h1's placement over a stand-in ``room``, alone on a live bus."""
    return Placement(
        room,  # type: ignore[arg-type]
        "h1",
        bus_down_for=lambda: 0.0,
        hosts_alive=lambda: 1,
        on_held=_nothing,
        on_dropped=on_dropped,
    )


@pytest.mark.asyncio
async def test_a_dropped_table_takes_no_request_and_refuses_the_queued_ones() -> None:
    """Issue 37: a host dropping a table it lost (resumed after a stop) stopped the table's task first and
    took it out of the room after; a request arriving meanwhile found the table, queued its job on a
    mailbox nobody serves any more, and waited for ever (holding up every later request of its resource:
    a table dealing nothing, nothing logged). Now the table leaves the room before its task stops, and
    what was queued is refused, and the job in hand (``room_unavailable``: the client tries again, on the new
    host; the actor's stop does it, server/mailbox.py)."""
    endpoints = Endpoints()
    room = SimpleNamespace(endpoints=endpoints, forget=endpoints.remove_owner)
    dropped: list[str] = []

    async def on_dropped(resource: str, _held: Any) -> None:
        dropped.append(resource)

    placement = _placement(room, on_dropped)
    actor = _Actor(SystemClock())
    actor.start()
    endpoints.add_table("x", actor)  # type: ignore[arg-type]
    placement.held["table:x"] = Held(Fence("table:x", "h1", 1), actor)
    release = asyncio.Event()

    async def busy() -> None:  # the job in hand (a write, say)
        await release.wait()

    async def subscribe() -> str:
        return "snapshot"

    running = asyncio.ensure_future(actor.call(busy))
    queued = asyncio.ensure_future(actor.call(subscribe))
    for _ in range(1000):  # until the table runs ``busy`` and ``subscribe`` waits in its inbox
        if not actor.waiting and [job for job, _ in actor.inbox] == [subscribe]:
            break
        await asyncio.sleep(0)
    assert [job for job, _ in actor.inbox] == [subscribe]
    drop = asyncio.ensure_future(placement.drop("table:x"))
    await asyncio.sleep(0)  # the drop is stopping the table's task: a request now must not find it
    with pytest.raises(Refused) as unknown:
        endpoints.table("x")
    assert unknown.value.code == "unknown_table"
    await asyncio.wait_for(drop, 5)
    for job in (queued, running):  # (before: waited for ever; the job in hand too, its task cancelled)
        with pytest.raises(Refused) as refused:
            await asyncio.wait_for(job, 5)
        assert refused.value.code == "room_unavailable"
    assert dropped == ["table:x"] and actor.broken and not actor.inbox


class _Moves:
    def __init__(self, asked: dict[str, str]) -> None:
        self.asked = asked

    async def handovers(self, _host: str) -> dict[str, str]:
        return self.asked


class _Table(_Actor):
    closing = False

    async def hand_over(self) -> None:
        raise AssertionError("a stopped table runs nothing")


@pytest.mark.asyncio
async def test_a_move_asked_of_a_table_stopped_meanwhile_ends_quietly() -> None:
    """A stopped actor refuses every job (server/mailbox.py): the host's renewal loop, which asks a table
    an operator moves to hand itself over, takes that refusal as the end of the table, and goes on (it
    must not end by it: it renews every lease of the host)."""
    room = SimpleNamespace(store=SimpleNamespace(leases=_Moves({"table:x": "h2"})))

    placement = _placement(room, _nothing)
    table = _Table(SystemClock())
    table.start()
    await table.stop()  # (dropped by the host's other task while the renewal read the moves)
    placement.held["table:x"] = Held(Fence("table:x", "h1", 1), table)
    await asyncio.wait_for(placement.handovers(), 10)  # (no ActorStopped out of it)
    assert placement.held["table:x"].extra["handing"] == "h2"
