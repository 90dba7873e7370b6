"""A room on several processes (docs/cluster.md): gateways hold the players' connections, table hosts run
the actors, NATS carries everything between them, PostgreSQL stays the ledger of record and holds the
leases that say which host runs each table.

- :mod:`.subjects`: the NATS subjects, written down in one place.
- :mod:`.messages`: every message on the bus, typed (encoded and decoded in one place).
- :mod:`.bus`: the NATS connection (reconnects by itself).
- :mod:`.access`: how a node may reach the bus (TLS with its own certificate, or an open bus on loopback).
- :mod:`.remote`: a gateway's connection as a host sees it, and the per-gateway outbox of frames.
- :mod:`.adopt`: taking over a table, pool or tournament: recover it, restore its seats.
- :mod:`.placement`: leases taken, renewed, lost and handed over.
- :mod:`.host`: a table host.
- :mod:`.directory`: what a gateway knows of the hosts (who runs what, the lobby).
- :mod:`.gateway`: a gateway.
"""
