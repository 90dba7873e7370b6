"""The NATS subjects of a cluster (docs/cluster.md, "Subjects", and "A closed bus"). Every subject starts
with the cluster's name (``--cluster-name``, default ``pokerroom``), so that several rooms (or tests) share
one NATS server. What each subject carries is typed in :mod:`.messages`.

The names follow who may publish and who may read them, so that NATS's subject permissions say it in a
few wildcards: everything a gateway says is under ``<c>.gw.<gateway>.`` (its own id: gateway g1's NATS
user may publish there and nowhere else; hosts read ``<c>.gw.*.>``), everything a host says is under
``<c>.host.``: ``<c>.host.to.<gateway>`` for one gateway (only that one reads it), ``<c>.host.all.`` for
every node.

- ``<c>.gw.<gateway>.res.<kind>.<id>`` (gateway -> the host holding the lease): a client's request for a
  table, pool or tournament (request/reply). The host checks that the gateway the request names is the
  one in its subject (:meth:`Subjects.forged`): a gateway cannot speak for another one's connections.
- ``<c>.gw.<gateway>.presence`` (gateway -> hosts): a connection logged in or closed; the whole list.
- ``<c>.gw.<gateway>.beat`` (gateway -> hosts): the gateway is alive (a silent one's connections are
  dropped).
- ``<c>.gw.<gateway>.ask`` (gateway -> every host): questions for all hosts (a player's last hands).
- ``<c>.gw.<gateway>.admin`` (gateway -> one host, a queue group): an administrator's new tournament.
- ``<c>.gw.<gateway>.player`` (gateway -> gateways): a frame for every connection of one player (a
  balance after an HTTP top-up).
- ``<c>.gw.<gateway>.console`` (gateway -> every host): what the console reads of the hosts' games.
- ``<c>.gw.<gateway>.refresh`` (gateway -> hosts): the console changed something, or a reload: read it.
- ``<c>.host.to.<gateway>`` (host -> that gateway only): frames for that gateway's connections, batched
  per loop tick, each already projected for its viewer (hole cards: only that gateway may read it).
- ``<c>.host.all.sync`` (host -> gateways): "send me your whole list" (a host that starts or
  reconnects).
- ``<c>.host.all.dir`` (host -> gateways, hosts): what the host runs (resources, fences, table ids) and
  its lobby rows, every second and on change.
- ``<c>.host.all.refresh`` (host -> hosts): a host was reloaded: the others read the file too.
- ``<c>.inbox.<node>.>``: the answers to a node's requests (its NATS inbox prefix: no other node may
  read them).

A subscriber that hears every gateway uses :data:`ANY` for the gateway (``s.presence(ANY)``).
"""

from __future__ import annotations

import logging
import re
import time

__all__ = ["ANY", "Subjects", "check_cluster_name", "check_node_id", "resource_subject"]

log = logging.getLogger("pokerroom.cluster")

ANY = "*"  # every gateway (a subscription's wildcard)
NODE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # one subject token, no wildcard
CLUSTER_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64})*$")


def check_node_id(node: str) -> str:
    """A node id is one NATS subject token (letters, digits, '-' and '_'): it names the node's subjects
    and its NATS user."""
    if not NODE_ID.match(node):
        raise ValueError(f"a node id is 1-64 letters, digits, '-' or '_' (not {node!r})")
    return node


def check_cluster_name(name: str) -> str:
    if not CLUSTER_NAME.match(name):
        raise ValueError(f"a cluster name is letters, digits, '-', '_' and dots between them (not {name!r})")
    return name


def resource_subject(resource: str) -> str:
    """``table:holdem-nl`` -> ``table.holdem-nl`` (ids are letters, digits, '-' and '_')."""
    kind, _, ident = resource.partition(":")
    return f"{kind}.{ident}"


class Subjects:
    def __init__(self, cluster: str = "pokerroom") -> None:
        self.cluster = cluster
        self._told: dict[tuple[str, str], float] = {}  # forged (subject, gateway) -> when last logged
        # what hosts publish for every node (gateways and hosts read <c>.host.all.>)
        self.host_news = f"{cluster}.host.all"
        self.directory = f"{self.host_news}.dir"
        self.presence_sync = f"{self.host_news}.sync"
        self.host_refresh = f"{self.host_news}.refresh"  # a host was reloaded: the others read theirs too

    # ------------------------------------------------------------- what a gateway publishes

    def said_by(self, gateway: str) -> str:
        """The prefix of everything ``gateway`` publishes (its NATS user may publish nothing else)."""
        return f"{self.cluster}.gw.{gateway}"

    def request(self, gateway: str, resource: str) -> str:
        """A client's request (or an HTTP question) from ``gateway`` for a resource; a host subscribes
        to ``request(ANY, resource)``."""
        return f"{self.said_by(gateway)}.res.{resource_subject(resource)}"

    def presence(self, gateway: str) -> str:
        return f"{self.said_by(gateway)}.presence"

    def beat(self, gateway: str) -> str:
        return f"{self.said_by(gateway)}.beat"

    def ask(self, gateway: str) -> str:
        return f"{self.said_by(gateway)}.ask"

    def admin(self, gateway: str) -> str:
        return f"{self.said_by(gateway)}.admin"

    def player(self, gateway: str) -> str:
        return f"{self.said_by(gateway)}.player"

    def console(self, gateway: str) -> str:
        """What the console reads of every host's games (request, answered by every host)."""
        return f"{self.said_by(gateway)}.console"

    def refresh(self, gateway: str) -> str:
        """The console changed something, or the gateway was reloaded: every host reads it again."""
        return f"{self.said_by(gateway)}.refresh"

    # ---------------------------------------------------------------- what a host publishes

    def frames(self, gateway: str) -> str:
        """The frames for ``gateway``'s connections (only that gateway may subscribe)."""
        return f"{self.cluster}.host.to.{gateway}"

    # ---------------------------------------------------------------------------- answers

    def inbox(self, node: str) -> str:
        """The prefix of the answers to ``node``'s requests (its NATS client's inbox prefix)."""
        return f"{self.cluster}.inbox.{node}"

    # --------------------------------------------------------------------- who said it

    def sender(self, subject: str) -> str | None:
        """The gateway that published on ``subject`` (``<c>.gw.<gateway>.…``; the bus lets only that
        gateway's user publish there), or None for another subject."""
        prefix = f"{self.cluster}.gw."
        if not subject.startswith(prefix):
            return None
        gateway = subject[len(prefix) :].partition(".")[0]
        return gateway or None

    def forged(self, subject: str, gateway: str) -> bool:
        """Whether a message heard on ``subject`` names another ``gateway`` than the one that published
        it (logged, and to be dropped: one gateway must not speak for another's connections)."""
        sender = self.sender(subject)
        if sender is not None and sender == gateway:
            return False
        now, key = time.monotonic(), (subject, gateway)
        if now - self._told.get(key, -60.0) >= 10.0:  # (a flood of them: logged once every 10 s)
            if len(self._told) > 1000:
                self._told.clear()
            self._told[key] = now
            log.warning(
                "refused a message on %s that speaks for gateway %r: only that gateway may (a forgery, or "
                "a misconfigured node)",
                subject,
                gateway,
            )
        return True
