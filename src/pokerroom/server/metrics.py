"""The room's metrics in the Prometheus text format (``GET /metrics``, prometheus-client).

Counters (``*_total``: a rate over a window is "per second") and histograms are kept as things happen;
gauges are read when Prometheus scrapes. Each room has its own registry (tests start many rooms in one
process); garbage-collection pauses are the process's own, measured by one hook on ``gc.callbacks``.

| metric | what |
| --- | --- |
| ``pokerroom_connections`` | open WebSocket connections (logged in or not) |
| ``pokerroom_players_online`` | players with at least one connection |
| ``pokerroom_players_seated{kind}`` | seated players (cash), entries (rush), players left (tournament) |
| ``pokerroom_tables{kind,state}`` | actors by state: playing, paused (for the store), suspended (by |
|   | repeated errors, until an operator resumes it), halted (fenced out), closing; a tournament |
|   | not running is counted by its status: announced, registering, finished, cancelled |
| ``pokerroom_hands_total{kind}`` | hands finished |
| ``pokerroom_game_hands_total{kind,game}`` | hands finished by game (``holdem/FL``: the variant's code |
|   | and structure): each hand of a mixed table or tournament counted in its own game (RULES.md §11.1) |
| ``pokerroom_actions_total{kind}`` | players' actions applied |
| ``pokerroom_action_seconds{kind}`` | an action's arrival to its events sent out |
| ``pokerroom_journal_commit_seconds`` | a hand's start or end record (the end with its commands) written |
| ``pokerroom_store_errors_total{kind}`` | store faults that paused an actor |
| ``pokerroom_actor_errors_total{kind}`` | unexpected errors (bugs) in an actor: each voided its hands |
| ``pokerroom_gc_pause_seconds{generation}`` | garbage-collection pauses of the process |
| ``pokerroom_bus_messages_total{direction}`` | a cluster node's NATS messages, ``in`` and ``out`` |
| ``pokerroom_bus_bytes_total{direction}`` | their bytes |
| ``pokerroom_db_commits_total`` | write transactions this process committed (read-only ones write nothing |
|   | and are not counted) |
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector

__all__ = ["CONTENT_TYPE", "Metrics", "actor_state", "game_of"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
_LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
_GC = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


def game_of(hand: Any) -> str:
    """A hand's ``game`` label: its variant's code and structure (``omaha8/FL``), as the stored hands'."""
    return f"{hand.variant.code}/{hand.structure.betting.value}"


def actor_state(actor: Any) -> str:
    """An actor's ``state`` label: its fault state (playing, paused, ...), except a tournament that is not
    running, counted by its status (announced, registering, finished, cancelled), never as playing."""
    director = getattr(actor, "director", None)
    if director is not None and director.status != "running":
        return str(director.status)
    return str(actor.state)


class _GcPauses:
    """Every garbage collection of the process, timed (one hook, however many rooms)."""

    def __init__(self) -> None:
        self.buckets: dict[int, list[int]] = {g: [0] * (len(_GC) + 1) for g in range(3)}
        self.sums = [0.0, 0.0, 0.0]
        self._started = 0.0
        self._installed = False

    def install(self) -> None:
        if not self._installed:
            gc.callbacks.append(self._hook)
            self._installed = True

    def _hook(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        took = time.perf_counter() - self._started
        g = int(info.get("generation", 0))
        i = next((k for k, b in enumerate(_GC) if took <= b), len(_GC))
        self.buckets[g][i] += 1
        self.sums[g] += took


GC_PAUSES = _GcPauses()


class _Gauges(Collector):
    def __init__(self, read: Callable[[], dict[str, Any]]) -> None:
        self.read = read

    def collect(self) -> Iterator[Any]:
        now = self.read()
        yield GaugeMetricFamily(
            "pokerroom_connections", "open WebSocket connections", value=now["connections"]
        )
        yield GaugeMetricFamily("pokerroom_players_online", "players with a connection", value=now["online"])
        seated = GaugeMetricFamily(
            "pokerroom_players_seated", "players seated, by kind of table", labels=["kind"]
        )
        for kind, n in sorted(now["seated"].items()):
            seated.add_metric([kind], n)
        yield seated
        tables = GaugeMetricFamily(
            "pokerroom_tables", "tables, pools and tournaments by state", labels=["kind", "state"]
        )
        for (kind, state), n in sorted(now["tables"].items()):
            tables.add_metric([kind, state], n)
        yield tables
        gcs = HistogramMetricFamily(
            "pokerroom_gc_pause_seconds", "garbage-collection pauses", labels=["generation"]
        )
        for g in range(3):
            counts = GC_PAUSES.buckets[g]
            cumulative, running = [], 0
            for bound, c in zip([*(str(b) for b in _GC), "+Inf"], counts, strict=True):
                running += c
                cumulative.append((bound, running))
            gcs.add_metric([str(g)], cumulative, GC_PAUSES.sums[g])
        yield gcs


class _Commits(Collector):
    def __init__(self, read: Callable[[], int]) -> None:
        self.read = read

    def collect(self) -> Iterator[Any]:
        family = CounterMetricFamily("pokerroom_db_commits", "write transactions this process committed")
        family.add_metric([], self.read())
        yield family


class _Bus(Collector):
    def __init__(self, read: Callable[[], dict[str, int]]) -> None:
        self.read = read

    def collect(self) -> Iterator[Any]:
        stats = self.read()
        for what, key in (("messages", "msgs"), ("bytes", "bytes")):
            family = CounterMetricFamily(
                f"pokerroom_bus_{what}",
                f"{what} this node received from and sent to the bus",
                labels=["direction"],
            )
            for direction in ("in", "out"):
                family.add_metric([direction], stats.get(f"{direction}_{key}", 0))
            yield family


class Metrics:
    """One room's metrics. ``read`` returns the gauges' values when Prometheus scrapes."""

    def __init__(self, read: Callable[[], dict[str, Any]]) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.hands = Counter("pokerroom_hands", "hands finished", ["kind"], registry=r)
        self.game_hands = Counter(
            "pokerroom_game_hands", "hands finished by game", ["kind", "game"], registry=r
        )
        self.actions = Counter("pokerroom_actions", "players' actions applied", ["kind"], registry=r)
        self.action_seconds = Histogram(
            "pokerroom_action_seconds",
            "an action's arrival to its events sent to every viewer",
            ["kind"],
            buckets=_LATENCY,
            registry=r,
        )
        self.journal_seconds = Histogram(
            "pokerroom_journal_commit_seconds",
            "a hand's start or end record (with its commands) made durable",
            buckets=_LATENCY,
            registry=r,
        )
        self.store_errors = Counter(
            "pokerroom_store_errors", "store faults that paused an actor", ["kind"], registry=r
        )
        self.actor_errors = Counter(
            "pokerroom_actor_errors",
            "unexpected errors in an actor (each voided the hands in progress)",
            ["kind"],
            registry=r,
        )
        r.register(_Gauges(read))
        GC_PAUSES.install()
        self._per_kind: dict[str, tuple[Any, Any]] = {}

    def add_commits(self, read: Callable[[], int]) -> None:
        """Count the write transactions this process commits (``read``: the store's count)."""
        self.registry.register(_Commits(read))

    def add_bus(self, read: Callable[[], dict[str, int]]) -> None:
        """Count a cluster node's bus traffic (``read``: the NATS client's ``in_msgs``, ``out_msgs``,
        ``in_bytes``, ``out_bytes``)."""
        self.registry.register(_Bus(read))

    def action(self, kind: str, seconds: float) -> None:
        children = self._per_kind.get(kind)
        if children is None:  # (looking a labelled child up costs more than counting: once per kind)
            children = self._per_kind[kind] = (self.actions.labels(kind), self.action_seconds.labels(kind))
        children[0].inc()
        children[1].observe(seconds)

    def hand(self, kind: str, game: str = "") -> None:
        """A hand finished; ``game`` (``game_of``): counted by game too."""
        self.hands.labels(kind).inc()
        if game:
            self.game_hands.labels(kind, game).inc()

    def text(self) -> bytes:
        return generate_latest(self.registry)
