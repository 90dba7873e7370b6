"""The server's logs: plain text for a person, or JSON lines for a log collector (``pokerroom serve
--log-format json``), each line carrying the table (pool, tournament) and the hand it is about.

An actor sets :data:`LOG_CONTEXT` in its own task (and the hand it works on as hands start), so every
line logged while it works, the store's included, says where it came from without the code that logs
having to repeat it. Log lines never carry a card, a deck or a token.
"""

from __future__ import annotations

import json
import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime

__all__ = ["LOG_CONTEXT", "JsonFormatter", "configure_logging", "log_context"]

LOG_CONTEXT: ContextVar[dict[str, str] | None] = ContextVar("pokerroom_log_context", default=None)


def log_context(**fields: str) -> None:
    """Add ``fields`` (table, pool, tournament, hand) to every later line of the current task."""
    LOG_CONTEXT.set({**(LOG_CONTEXT.get() or {}), **fields})


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the context (table, hand, ...), and the
    exception's text when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        data.update(LOG_CONTEXT.get() or {})
        for key in ("table", "pool", "tournament", "hand"):
            value = record.__dict__.get(key)
            if value is not None:
                data[key] = value
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False)


class _TextFormatter(logging.Formatter):
    """The plain format, with the context after the message (``[table=holdem-nl hand=holdem-nl-12]``)."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        context = LOG_CONTEXT.get()
        if context:
            text += " [" + " ".join(f"{k}={v}" for k, v in context.items()) + "]"
        return text


def configure_logging(fmt: str = "text", level: int = logging.WARNING) -> None:
    """The process's logging: ``fmt`` "text" or "json" on standard error."""
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(_TextFormatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
