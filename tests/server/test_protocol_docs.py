"""docs/protocol.md and docs/protocol.schema.json describe every message the server speaks."""

from __future__ import annotations

import json
from pathlib import Path

from pokerroom.server.schema import protocol_schema

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_schema_file_is_current() -> None:
    on_disk = json.loads((DOCS / "protocol.schema.json").read_text())
    assert on_disk == json.loads(json.dumps(protocol_schema())), "run: pokerroom protocol-schema > docs/..."


def test_every_message_type_is_documented() -> None:
    text = (DOCS / "protocol.md").read_text()
    schema = protocol_schema()
    for side in ("client", "server"):
        for name in schema[side]:
            assert f"`{name}`" in text, name
