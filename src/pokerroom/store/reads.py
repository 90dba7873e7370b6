"""A player's reads on other players and his table preferences (issue 31; docs/client.md, "Reads").

*Notes* (``player_notes``): for each player he keeps a read on, a private note (text) and a colour tag
of the fixed :data:`TAG_COLORS` palette. Only their owner reads or changes them: every method takes the
owner's id, and nothing here answers another player's question about them. They are not the operators'
notes on accounts (store/integrity.py), which no player ever sees.

*Preferences* (``player_prefs``): the names he gives his tag colours, his bet-sizing presets, his avatar
(public: every table shows it), his table's felt colour and his card backs, kept as
one JSON object checked here (:func:`check_prefs`): a bad value is refused with a typed error and
nothing is changed.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store.accounts import Accounts
from pokerroom.store.db import Database
from pokerroom.store.errors import StoreError
from pokerroom.store.models import PlayerNoteRow, PlayerPrefsRow, PlayerRow
from pokerroom.store.util import Clock, utc_now

__all__ = [
    "AVATARS",
    "CARD_BACKS",
    "DEFAULT_PREFS",
    "NOTES_MAX",
    "NOTE_MAX",
    "TAG_COLORS",
    "TAG_NAME_MAX",
    "THEMES",
    "InvalidNote",
    "InvalidPrefs",
    "PlayerNote",
    "Reads",
    "TooManyNotes",
    "check_prefs",
]

NOTE_MAX = 2000  # characters of one note
NOTES_MAX = 5000  # players one player keeps reads on
TAG_NAME_MAX = 24
# The fixed palette of tags (the client draws each in its colour; the player may rename them).
TAG_COLORS = ("red", "orange", "yellow", "green", "teal", "blue", "purple", "grey")
PREFLOP_MIN, PREFLOP_MAX = 1.5, 100.0  # a preflop preset in big blinds, to one decimal
POT_MIN, POT_MAX = 10, 500  # a postflop preset in per cent of the pot
PRESETS_MAX = 4  # buttons of each kind
# The shipped avatars (web/img/avatars/<name>.svg, our own drawings), felt colours and card backs.
AVATARS = ("fox", "owl", "cat", "bear", "rabbit", "penguin", "frog", "panda", "lion", "whale")
THEMES = ("green", "blue", "red", "charcoal")
CARD_BACKS = ("blue", "red", "black")
DEFAULT_PREFS: dict[str, Any] = {
    "tag_names": {},
    "presets": {"preflop": [2.5, 3.0, 4.0], "postflop": [33, 50, 75, 100]},
    "avatar": None,
    "theme": "green",
    "card_back": "blue",
}


class InvalidNote(StoreError):
    """A note or tag the store refuses: a note longer than :data:`NOTE_MAX`, a tag not of the palette, a
    read on oneself. ``field`` names the field."""

    code = "invalid_note"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class TooManyNotes(StoreError):
    """The player keeps reads on :data:`NOTES_MAX` players already: remove one first."""

    code = "too_many_notes"

    def __init__(self) -> None:
        super().__init__(f"you keep notes on {NOTES_MAX} players already: remove some first")
        self.limit = NOTES_MAX


class InvalidPrefs(StoreError):
    """A preference the store refuses (``field`` names it): an unknown key, a tag name too long, a preset
    out of range."""

    code = "invalid_prefs"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class PlayerNote:
    """A read on ``name`` (player ``player``): the note (may be empty) and the tag (None: none)."""

    player: int
    name: str
    text: str
    tag: str | None
    updated_at: datetime

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": str(self.player),
            "name": self.name,
            "text": self.text,
            "tag": self.tag,
            "updated_at": self.updated_at.isoformat(),
        }


def _check_note(text: Any, tag: Any) -> tuple[str, str | None]:
    if not isinstance(text, str):
        raise InvalidNote("text", "a note is text")
    clean = text.strip()
    if len(clean) > NOTE_MAX:
        raise InvalidNote("text", f"a note has at most {NOTE_MAX} characters")
    if tag is not None and (not isinstance(tag, str) or tag not in TAG_COLORS):
        raise InvalidNote("tag", f"a tag is one of {', '.join(TAG_COLORS)} (or null)")
    return clean, tag


def _tenths(x: Any) -> float:
    if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x):
        raise InvalidPrefs("presets.preflop", "a preflop preset is a number of big blinds")
    if not PREFLOP_MIN <= x <= PREFLOP_MAX or abs(x * 10 - round(x * 10)) > 1e-9:
        raise InvalidPrefs(
            "presets.preflop",
            f"a preflop preset is {PREFLOP_MIN} to {PREFLOP_MAX:g} big blinds, to one decimal",
        )
    return round(x * 10) / 10


def _percent(x: Any) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or not POT_MIN <= x <= POT_MAX:
        raise InvalidPrefs(
            "presets.postflop", f"a postflop preset is a whole per cent of the pot, {POT_MIN}-{POT_MAX}"
        )
    return x


def _list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list) or not 1 <= len(value) <= PRESETS_MAX:
        raise InvalidPrefs(field, f"1 to {PRESETS_MAX} presets")
    return value


def check_prefs(changes: Any) -> dict[str, Any]:
    """The checked form of a (partial) preferences object: ``tag_names`` (colour -> name; "" gives the
    colour its default name back) and ``presets`` (``preflop``: big blinds, ``postflop``: per cent of the
    pot, each 1 to 4 of them, sorted, no duplicates). Raises :class:`InvalidPrefs`."""
    if not isinstance(changes, dict):
        raise InvalidPrefs("", "preferences are an object")
    out: dict[str, Any] = {}
    for key, value in changes.items():
        if key == "tag_names":
            if not isinstance(value, dict):
                raise InvalidPrefs("tag_names", "tag names are an object: colour -> name")
            names: dict[str, str] = {}
            for colour, name in value.items():
                if colour not in TAG_COLORS:
                    raise InvalidPrefs("tag_names", f"a tag colour is one of {', '.join(TAG_COLORS)}")
                if not isinstance(name, str) or len(name.strip()) > TAG_NAME_MAX:
                    raise InvalidPrefs("tag_names", f"a tag name has at most {TAG_NAME_MAX} characters")
                names[colour] = name.strip()
            out["tag_names"] = names
        elif key == "presets":
            if not isinstance(value, dict) or not value or set(value) - {"preflop", "postflop"}:
                raise InvalidPrefs("presets", "presets are an object with preflop and/or postflop")
            presets: dict[str, list[Any]] = {}
            if "preflop" in value:
                presets["preflop"] = sorted({_tenths(x) for x in _list(value["preflop"], "presets.preflop")})
            if "postflop" in value:
                presets["postflop"] = sorted(
                    {_percent(x) for x in _list(value["postflop"], "presets.postflop")}
                )
            out["presets"] = presets
        elif key in _CHOICES:
            allowed = _CHOICES[key]
            if not (value in allowed or (key == "avatar" and value is None)):
                raise InvalidPrefs(key, f"{key} is one of {', '.join(allowed)}")
            out[key] = value
        else:
            raise InvalidPrefs(str(key)[:40], f"unknown preference {str(key)[:40]!r}")
    return out


_CHOICES: dict[str, tuple[str, ...]] = {"avatar": AVATARS, "theme": THEMES, "card_back": CARD_BACKS}


def _merged(current: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    prefs: dict[str, Any] = json.loads(json.dumps(current))
    if "tag_names" in changes:
        names = {**prefs.get("tag_names", {}), **changes["tag_names"]}
        prefs["tag_names"] = {c: n for c, n in names.items() if n}
    if "presets" in changes:
        prefs["presets"] = {**prefs.get("presets", {}), **changes["presets"]}
    for key in _CHOICES:
        if key in changes:
            prefs[key] = changes[key]
    return prefs


class Reads:
    """Notes, tags and preferences (``store.reads``), each only ever of the player whose id is given."""

    def __init__(self, db: Database, accounts: Accounts, *, clock: Clock = utc_now) -> None:
        self.db = db
        self.accounts = accounts
        self.clock = clock

    async def notes(self, owner_id: int) -> list[PlayerNote]:
        """The owner's reads, by the other player's name."""
        q = (
            select(
                PlayerNoteRow.target_id,
                PlayerRow.name,
                PlayerNoteRow.text,
                PlayerNoteRow.tag,
                PlayerNoteRow.updated_at,
            )
            .join(PlayerRow, PlayerRow.id == PlayerNoteRow.target_id)
            .where(PlayerNoteRow.owner_id == owner_id)
            .order_by(PlayerRow.name_key)
        )
        async with self.db.read() as conn:
            rows = (await conn.execute(q)).all()
        return [PlayerNote(r.target_id, r.name, r.text, r.tag, r.updated_at) for r in rows]

    async def set_note(self, owner_id: int, name: str, text: Any, tag: Any) -> PlayerNote | None:
        """Keep the owner's note and tag on ``name`` (UnknownPlayer if there is none); an empty note with no
        tag removes the read (None). Refused (nothing changed): InvalidNote, TooManyNotes."""
        clean, tag = _check_note(text, tag)
        target = await self.accounts.find(name)
        if target.id == owner_id:
            raise InvalidNote("player", "a read is on another player, not on yourself")
        if not clean and tag is None:
            await self.remove_note(owner_id, name)
            return None
        now = self.clock()
        async with self.db.write() as conn:
            key = (PlayerNoteRow.owner_id == owner_id) & (PlayerNoteRow.target_id == target.id)
            done = await conn.execute(
                update(PlayerNoteRow).where(key).values(text=clean, tag=tag, updated_at=now)
            )
            if not done.rowcount:
                await self._room_for_one(conn, owner_id)
                await conn.execute(
                    insert(PlayerNoteRow).values(
                        owner_id=owner_id, target_id=target.id, text=clean, tag=tag, updated_at=now
                    )
                )
        return PlayerNote(target.id, target.name, clean, tag, now)

    async def _room_for_one(self, conn: AsyncConnection, owner_id: int) -> None:
        count = select(func.count()).select_from(PlayerNoteRow).where(PlayerNoteRow.owner_id == owner_id)
        if int((await conn.execute(count)).scalar_one()) >= NOTES_MAX:
            raise TooManyNotes()

    async def remove_note(self, owner_id: int, name: str) -> bool:
        """Forget the owner's read on ``name``; False if he kept none (UnknownPlayer: no such player)."""
        target = await self.accounts.find(name)
        async with self.db.write() as conn:
            done = await conn.execute(
                delete(PlayerNoteRow).where(
                    (PlayerNoteRow.owner_id == owner_id) & (PlayerNoteRow.target_id == target.id)
                )
            )
        return bool(done.rowcount)

    async def prefs(self, player_id: int) -> dict[str, Any]:
        """The player's preferences, the defaults filled in for what he never set."""
        async with self.db.read() as conn:
            raw = (
                await conn.execute(select(PlayerPrefsRow.prefs).where(PlayerPrefsRow.player_id == player_id))
            ).scalar_one_or_none()
        return _merged(DEFAULT_PREFS, json.loads(raw) if raw else {})

    async def avatars(self, names: list[str]) -> dict[str, str]:
        """The avatars the players of these names chose (public: every table shows them), by name as
        asked; a player with none, or no such player, is left out."""
        keys = {n.lower(): n for n in names}
        q = (
            select(PlayerRow.name_key, PlayerPrefsRow.prefs)
            .join(PlayerPrefsRow, PlayerPrefsRow.player_id == PlayerRow.id)
            .where(PlayerRow.name_key.in_(list(keys)))
        )
        async with self.db.read() as conn:
            rows = (await conn.execute(q)).all()
        out = {}
        for r in rows:
            avatar = json.loads(r.prefs).get("avatar")
            if avatar in AVATARS:
                out[keys[r.name_key]] = avatar
        return out

    async def set_prefs(self, player_id: int, changes: Any) -> dict[str, Any]:
        """Change some preferences (the others stay); the whole set after. InvalidPrefs: nothing changed."""
        checked = check_prefs(changes)
        now = self.clock()
        async with self.db.write() as conn:
            raw = (
                await conn.execute(select(PlayerPrefsRow.prefs).where(PlayerPrefsRow.player_id == player_id))
            ).scalar_one_or_none()
            stored = _merged(json.loads(raw) if raw else {}, checked)
            text = json.dumps(stored, sort_keys=True)
            if raw is None:
                await conn.execute(
                    insert(PlayerPrefsRow).values(player_id=player_id, prefs=text, updated_at=now)
                )
            else:
                await conn.execute(
                    update(PlayerPrefsRow)
                    .where(PlayerPrefsRow.player_id == player_id)
                    .values(prefs=text, updated_at=now)
                )
        return _merged(DEFAULT_PREFS, stored)
