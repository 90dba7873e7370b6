"""The server's logs: plain text for a person, or JSON lines for a log collector (``pokerroom serve
--log-format json``), each line carrying the table (pool, tournament) and the hand it is about.

An actor sets :data:`LOG_CONTEXT` in its own task (and the hand it works on as hands start), so every
line logged while it works, the store's included, says where it came from without the code that logs
having to repeat it. Log lines never carry a card, a deck or a token.

The room's events an operator looks for (a reload, a table opened or closed, a tournament started,
finished or cancelled, a fault, a console action) are lines with an ``event`` field, one name per kind,
and that kind's fields beside it (docs/operations.md, "Log events"). They are logged on
``pokerroom.events`` at INFO (faults at WARNING or ERROR), which :func:`configure_logging` always lets
through.
"""

from __future__ import annotations

import json
import logging
import sys
import weakref
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

__all__ = [
    "EVENTS",
    "LOG_CONTEXT",
    "JsonFormatter",
    "configure_logging",
    "event",
    "event_fields",
    "log_context",
    "note_closed",
    "note_opened",
    "note_tournament_status",
]

EVENTS = logging.getLogger("pokerroom.events")
_RESERVED = frozenset({"time", "level", "logger", "message", "event", "exception"})

LOG_CONTEXT: ContextVar[dict[str, str] | None] = ContextVar("pokerroom_log_context", default=None)


def log_context(**fields: str) -> None:
    """Add ``fields`` (table, pool, tournament, hand) to every later line of the current task."""
    LOG_CONTEXT.set({**(LOG_CONTEXT.get() or {}), **fields})


def event_fields(name: str, **fields: Any) -> dict[str, Any]:
    """``extra=`` for a logging call that is the room event ``name`` with these fields."""
    return {"event": name, "event_fields": fields}


def event(name: str, message: str | None = None, *, level: int = logging.INFO, **fields: Any) -> None:
    """Log the room event ``name`` (with ``fields``) on :data:`EVENTS`; ``message`` is its words for a
    person (default: the name and the fields)."""
    if message is None:
        message = " ".join([name, *(f"{k}={v}" for k, v in fields.items() if v is not None)])
    EVENTS.log(level, "%s", message, extra=event_fields(name, **fields))


_STATUS: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
_WORDS = {
    "running": "tournament_started",
    "finished": "tournament_finished",
    "cancelled": "tournament_cancelled",
}


def note_opened(actor: Any) -> None:
    """A table, Rush pool or tournament opened: ``table_opened`` (with ``kind`` cash or rush, and the
    ``table`` or ``pool``) or ``tournament_opened``."""
    ids = actor.log_fields()
    if actor.kind == "tournament":
        _STATUS[actor] = str(actor.director.status)
        event("tournament_opened", series=actor.series, status=_STATUS[actor], **ids)
    else:
        event("table_opened", kind=actor.kind, **ids)


def note_closed(actor: Any, reason: str = "closed") -> None:
    """A table or Rush pool closed (its players cashed out): ``table_closed``."""
    event("table_closed", kind=actor.kind, reason=reason, **actor.log_fields())


def note_tournament_status(actor: Any) -> None:
    """After each of a tournament actor's steps: log ``tournament_started``, ``_finished`` or
    ``_cancelled`` when its director's status has just become that."""
    status = str(actor.director.status)
    before = _STATUS.get(actor)
    _STATUS[actor] = status
    if before is None or before == status or status not in _WORDS:
        return
    entrants = list(getattr(actor.director, "entrants", {}).values())
    fields: dict[str, Any] = {"tournament": actor.tid, "series": actor.series, "entrants": len(entrants)}
    if status == "finished":
        fields["winner"] = next((str(e.name) for e in entrants if e.place == 1), None)
    event(_WORDS[status], **fields)


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
        name = record.__dict__.get("event")
        if isinstance(name, str):
            data["event"] = name
            extra = record.__dict__.get("event_fields") or {}
            data.update({k: v for k, v in extra.items() if k not in _RESERVED and v is not None})
        for key in ("table", "pool", "tournament", "hand"):
            value = record.__dict__.get(key)
            if value is not None:
                data[key] = value
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False, default=str)


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
    EVENTS.setLevel(min(level, logging.INFO))  # (the room's events are logged whatever the level)
