"""The ``[cluster]`` section of a room's configuration: how a node of a cluster reaches the bus (NATS).

Each node proves who it is to NATS with its own certificate, signed by the bus's certificate authority,
over TLS (docs/cluster.md, "A closed bus"). The files are named here, never on the command line; ``{node}``
in a name is the node's id (``--node-id``), so every node reads the same configuration file and finds its
own certificate::

    [cluster]
    ca = "/etc/pokerroom/bus/ca.pem"            # the authority that signed the NATS server's certificate
    cert = "/etc/pokerroom/bus/{node}.pem"      # this node's certificate (its subject: CN=<node id>)
    key = "/etc/pokerroom/bus/{node}-key.pem"   # and its private key (readable by the node's user only)

Without them the bus is open (no authentication, no encryption): allowed on a loopback address for
development, with a warning; anywhere else only with ``insecure = true``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["CLUSTER_KEYS", "BusConfig", "BusFiles"]

CLUSTER_KEYS = ("ca", "cert", "key", "insecure")


@dataclass(frozen=True)
class BusFiles:
    """One node's files: the authority's certificate, the node's certificate and its key."""

    ca: Path
    cert: Path
    key: Path


@dataclass(frozen=True)
class BusConfig:
    ca: str | None = None
    cert: str | None = None
    key: str | None = None
    insecure: bool = False  # an open bus allowed on any address (development only)
    base: str = "."  # the configuration file's directory: relative names are read from there

    @property
    def secured(self) -> bool:
        return self.ca is not None and self.cert is not None and self.key is not None

    def files(self, node: str) -> BusFiles | None:
        """The files of ``node`` (``{node}`` replaced, relative names from the file's directory), or None
        for an open bus."""
        if self.ca is None or self.cert is None or self.key is None:
            return None
        base = Path(self.base)

        def path(name: str) -> Path:
            return base / name.replace("{node}", node)

        return BusFiles(path(self.ca), path(self.cert), path(self.key))
