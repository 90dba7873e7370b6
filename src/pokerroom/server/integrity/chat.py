"""Chat kept civil (issue 30): every line a player says at a table goes through :func:`say`. It is refused
while the operator has muted the player (``chat_muted``), the operator's word filter masks the words it
lists (each letter a ``*``), the line is kept in the chat log (``store.chat``), and the players who muted
the speaker for themselves get the line without its text (``"muted": true``, the same ``seq``: their
table's sequence has no gap). The log keeps a line ``[integrity] chat_log_days``: at a line, at most once
an hour (``PRUNE_EVERY``) in each process, a background task of the room's desk deletes the older lines
in batches (its errors logged: a prune never fails a chat line or a hand)."""

from __future__ import annotations

import asyncio
import html
import logging
import re
from collections.abc import Callable
from datetime import datetime, timedelta

from pokerroom.server.clock import Clock
from pokerroom.server.connection import Connection
from pokerroom.server.core import TableCore
from pokerroom.server.errors import Refused
from pokerroom.server.ids import PlayerKey, player_key, store_id
from pokerroom.server.integrity.settings import IntegritySettings
from pokerroom.store import Store

__all__ = ["ChatDesk", "mask"]

log = logging.getLogger(__name__)

WORDS_FOR = timedelta(seconds=5)  # how long a host keeps the filter's words before reading them again
PRUNE_EVERY = timedelta(hours=1)  # how often a host deletes the chat lines older than the room keeps


def _one(word: str) -> str:
    """The pattern of one filtered word (escaped as the line is): a whole word, where it begins or ends
    with a letter or digit."""
    body = re.escape(html.escape(word))
    head = r"(?<!\w)" if re.match(r"\w", word) else ""
    tail = r"(?!\w)" if re.search(r"\w$", word) else ""
    return head + body + tail


def _pattern(words: list[str]) -> re.Pattern[str] | None:
    if not words:
        return None
    ordered = sorted(set(words), key=len, reverse=True)  # (the longest first: "darn it" before "darn")
    return re.compile("|".join(_one(w) for w in ordered), re.IGNORECASE)


def mask(text: str, words: list[str]) -> str:
    """``text`` (escaped) with each whole word of ``words`` (any case) replaced by one ``*`` per letter."""
    pattern = _pattern(words)
    return text if pattern is None else pattern.sub(lambda m: "*" * len(html.unescape(m.group(0))), text)


class ChatDesk:
    """The room's chat rules (one per room, shared by its tables through the services)."""

    def __init__(
        self, store: Store, clock: Clock, settings: Callable[[], IntegritySettings] = IntegritySettings
    ) -> None:
        self.store = store
        self.clock = clock
        self.settings = settings  # the room's [integrity] (read at each prune: a reload applies)
        self._words: list[str] = []
        self._read_at: datetime | None = None
        self._pruned_at: datetime | None = None
        self.pruning: asyncio.Task[int] | None = None  # the prune in progress, if any

    def prune_soon(self) -> asyncio.Task[int] | None:
        """Start :meth:`prune` as a background task if the last prune of this process is ``PRUNE_EVERY``
        ago and none is running (the task, else None). The caller does not wait for it."""
        now = self.clock.now()
        if self.settings().chat_keep is None or (self.pruning is not None and not self.pruning.done()):
            return None
        if self._pruned_at is not None and now - self._pruned_at < PRUNE_EVERY:
            return None
        self._pruned_at = now
        self.pruning = asyncio.get_running_loop().create_task(self.prune(), name="chat-log-prune")
        return self.pruning

    async def prune(self) -> int:
        """Delete the chat lines older than the room keeps them (``chat_log_days``; 0 keeps them all), in
        batches; how many went. An error is logged and ends this prune (the next one tries again)."""
        keep = self.settings().chat_keep
        if keep is None:
            return 0
        try:
            return await self.store.chat.prune(keep)
        except Exception:
            log.exception("the chat log's prune failed")
            return 0

    async def stop(self) -> None:
        """Stop a prune in progress (the room stops)."""
        task, self.pruning = self.pruning, None
        if task is not None and not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def words(self) -> list[str]:
        now = self.clock.now()
        if self._read_at is None or now - self._read_at >= WORDS_FOR:
            self._words = await self.store.chat.words()
            self._read_at = now
        return self._words

    def forget_words(self) -> None:
        """Read the filter again at the next line (the operator changed it in this process)."""
        self._read_at = None

    async def line(self, conn: Connection, channel: str, clean: str) -> tuple[str, int, set[PlayerKey]]:
        """A line said in ``channel`` (a table, or a tournament's lobby): refused while the staff mutes
        the speaker; masked, kept in the chat log. Returns the text shown, the line's number and the
        players who muted the speaker (they get it without its text)."""
        assert conn.player is not None
        pid = store_id(conn.player)
        muted = await self.store.chat.room_mute(pid)
        if muted is not None:
            until = None if muted.until is None else muted.until.isoformat()
            raise Refused("chat_muted", "the room's staff has muted your chat", until=until)
        shown = mask(clean, await self.words())
        line = await self.store.chat.record(channel, pid, conn.name, clean, shown)
        self.prune_soon()
        muters = {player_key(i) for i in await self.store.chat.muted_by(pid)}
        return shown, line.id, muters

    async def say(self, core: TableCore, conn: Connection, table_id: str, clean: str) -> None:
        """Say ``clean`` (a chat line already made printable and escaped) at the table of ``core``."""
        shown, line, muters = await self.line(conn, table_id, clean)
        core.broadcast(
            {"type": "chat", "from": conn.name, "text": shown, "line": line},
            withheld=muters,
            stub={"type": "chat", "from": conn.name, "text": "", "muted": True},
        )


async def say(desk: ChatDesk | None, core: TableCore, conn: Connection, table_id: str, clean: str) -> None:
    """A player's chat line at a table: through the room's desk, or (no desk: a test's bare services)
    straight to the table."""
    if desk is None:
        core.broadcast({"type": "chat", "from": conn.name, "text": clean})
    else:
        await desk.say(core, conn, table_id, clean)
