"""The NATS subjects of a cluster (docs/cluster.md, "Subjects"). Every subject starts with the cluster's
name (``--cluster-name``, default ``pokerroom``), so that several rooms (or tests) share one NATS server.
What each subject carries is typed in :mod:`.messages`.

- ``<c>.res.<kind>.<id>`` (gateway -> the host holding the lease): a client's request for a table, pool
  or tournament (request/reply).
- ``<c>.gw.<gateway>`` (host -> gateway): frames for that gateway's connections, batched per loop tick,
  each already projected for its viewer.
- ``<c>.presence`` (gateway -> hosts): a connection opened, logged in or closed; a gateway's whole list.
- ``<c>.presence.sync`` (host -> gateways): "send me your whole list" (a host that starts or reconnects).
- ``<c>.gw.hb`` (gateway -> hosts): a gateway is alive (a silent one's connections are dropped).
- ``<c>.dir`` (host -> gateways, hosts): what the host runs (resources, fences, table ids) and its lobby
  rows, every second and on change.
- ``<c>.player`` (any -> gateways): a frame for every connection of one player (a balance after an HTTP
  top-up).
- ``<c>.hosts.ask`` (gateway -> every host): questions for all hosts (a player's last hands).
- ``<c>.hosts.admin`` (gateway -> one host, a queue group): an administrator's new tournament.
"""

from __future__ import annotations

__all__ = ["Subjects", "resource_subject"]


def resource_subject(resource: str) -> str:
    """``table:holdem-nl`` -> ``table.holdem-nl`` (ids are letters, digits, '-' and '_')."""
    kind, _, ident = resource.partition(":")
    return f"{kind}.{ident}"


class Subjects:
    def __init__(self, cluster: str = "pokerroom") -> None:
        self.cluster = cluster
        self.presence = f"{cluster}.presence"
        self.presence_sync = f"{cluster}.presence.sync"
        self.gateway_beat = f"{cluster}.gw.hb"
        self.directory = f"{cluster}.dir"
        self.player = f"{cluster}.player"
        self.ask = f"{cluster}.hosts.ask"
        self.admin = f"{cluster}.hosts.admin"

    def resource(self, resource: str) -> str:
        return f"{self.cluster}.res.{resource_subject(resource)}"

    def gateway(self, gateway: str) -> str:
        return f"{self.cluster}.gw.{gateway}"
