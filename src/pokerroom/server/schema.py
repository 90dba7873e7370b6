"""The JSON Schema of every protocol message (docs/protocol.schema.json)."""

from __future__ import annotations

from typing import Any, get_args

from pokerroom.server.frames import SERVER_MESSAGES
from pokerroom.server.protocol import CLIENT_MESSAGES, PROTOCOL_VERSION

__all__ = ["protocol_schema"]


def protocol_schema() -> dict[str, Any]:
    def one(model: Any) -> dict[str, Any]:
        schema: dict[str, Any] = model.model_json_schema(by_alias=True)
        return schema

    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"pokerroom WebSocket protocol, version {PROTOCOL_VERSION}",
        "client": {get_args(m.model_fields["type"].annotation)[0]: one(m) for m in CLIENT_MESSAGES},
        "server": {get_args(m.model_fields["type"].annotation)[0]: one(m) for m in SERVER_MESSAGES},
    }
