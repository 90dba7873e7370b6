"""How a node may reach the bus (docs/cluster.md, "A closed bus").

A node proves who it is to NATS with its own certificate (the ``[cluster]`` section of the configuration
names the files; never the command line) over TLS, and NATS gives it the subject permissions of its role.
An open bus (no certificate: no authentication, no encryption) is refused, except on a loopback address
(development, tests: a loud warning) or with ``insecure = true`` in the configuration (a warning too).
"""

from __future__ import annotations

import ipaddress
import os
import ssl
import stat
from pathlib import Path
from urllib.parse import urlsplit

from pokerroom.server.config.cluster import BusConfig, BusFiles

__all__ = ["OPEN_BUS", "BusRefused", "bus_access", "tls_context"]

OPEN_BUS = (
    "THE BUS IS OPEN: no certificate is configured ([cluster] ca, cert, key), so anyone who can reach "
    "{url} can act for every player and read every hole card. Fine for development on one machine, never "
    "for a room with players (docs/cluster.md, 'A closed bus')."
)


class BusRefused(Exception):
    """The node must not start with this bus (the message says why and what to do)."""


def _loopback(url: str) -> bool:
    host = urlsplit(url if "://" in url else f"nats://{url}").hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def tls_context(files: BusFiles) -> ssl.SSLContext:
    """TLS to NATS: the server's certificate checked against the bus's authority (and its name against
    the URL's host), this node's certificate presented as its identity."""
    ctx = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=str(files.ca))
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(str(files.cert), str(files.key))
    return ctx


def bus_access(url: str, config: BusConfig, node: str) -> tuple[ssl.SSLContext | None, list[str]]:
    """The TLS context of ``node``'s connection to the bus at ``url`` (None: an open bus) and the warnings
    to give the operator; :class:`BusRefused` for a setup that must not start."""
    urls = [u.strip() for u in url.split(",") if u.strip()]
    for one in urls:
        parts = urlsplit(one if "://" in one else f"nats://{one}")
        if parts.username or parts.password:
            raise BusRefused(
                "the bus URL carries credentials: give each node its certificate in the configuration's "
                "[cluster] section instead (never on the command line)"
            )
    files = config.files(node)
    if files is None:
        if not config.insecure and not all(_loopback(u) for u in urls):
            raise BusRefused(
                f"no certificate for the bus at {url}: name the files in the configuration's [cluster] "
                "section (ca, cert, key; docs/cluster.md, 'A closed bus'), or set insecure = true there "
                "to run an open bus on purpose"
            )
        return None, [OPEN_BUS.format(url=url)]
    warnings = []
    for what, path in (("authority's certificate (ca)", files.ca), ("certificate", files.cert)):
        if not os.access(path, os.R_OK):
            raise BusRefused(f"cannot read the bus {what} {path}")
    try:
        mode = Path(files.key).stat().st_mode
    except OSError as exc:
        raise BusRefused(f"cannot read this node's bus key {files.key}: {exc.strerror}") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        warnings.append(f"the bus key {files.key} can be read by other users: chmod 600 it")
    try:
        return tls_context(files), warnings
    except (OSError, ssl.SSLError) as exc:
        raise BusRefused(f"the bus certificate files of node {node} do not load: {exc}") from None
