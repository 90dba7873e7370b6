"""Every error the server sends: stable codes, English messages for people, typed ``details`` for programs.

A refusal of the server itself is :class:`Refused` (a code registered in :data:`SERVER_CODES`); engine
and table errors carry their own codes and fields (``pokerroom.engine.errors``, ``pokerroom.rooms.errors``),
the store's likewise (``pokerroom.store.errors``). :func:`error_frame` turns any of them into the ``error``
frame of the protocol, with only public fields in ``details``: a client can say "raise between 40 and
1,980" without parsing English. docs/protocol.md lists every code (a test checks it).
"""

from __future__ import annotations

from typing import Any

from pokerroom.engine import EngineError
from pokerroom.store import StoreError, unavailable

__all__ = ["PROTOCOL_CODES", "SERVER_CODES", "Refused", "error_details", "error_frame"]

# The server's own refusals, by code.
SERVER_CODES: dict[str, str] = {
    "login_required": "the request needs a logged-in player",
    "unknown_table": "no table has this id",
    "unknown_pool": "no Rush pool has this id",
    "unknown_tournament": "no tournament has this id",
    "unknown_entry": "the player has no entry with this number in the pool",
    "unknown_request": "the table does not know this request",
    "unknown_hand": "the hand is not among the player's last 50 hands of this session",
    "no_observers": "Rush tables cannot be observed (R212)",
    "not_seated": "the player has no seat at this table",
    "stale_hand": "that hand is over (or the entry has left it)",
    "stale_action": "the decision has passed: the hand has moved on since it was offered",
    "stale_seed": "that seed is not the next hand's at that table any more (contribute to the new one)",
    "bad_action_no": "the action number is ahead of the hand",
    "empty_chat": "a chat line with nothing printable in it",
    "chat_muted": "the room's staff has muted the player's chat (details: until, or null: until lifted)",
    "chat_off": "the operator has turned chat off here (a tournament's table_chat)",
    "table_closed": "the table has closed (broken up, tournament over, pool closed)",
    "tournament_table": "the request is not possible at a tournament table",
    "tournament_pool": "the request is not possible in a Rush tournament's pool",
    "quick_fold_refused": "Quick Fold is not possible now",
    "too_many_entries": "the player has the most entries a pool allows",
    "shared_connection": "a player at that table, in that pool or registered in that tournament shares the"
    " player's address or device, and the room keeps such players apart (details: where)",
    "registration_closed": "registration is not open",
    "already_registered": "the player is registered already",
    "no_ticket": "the player has no ticket for this tournament",
    "no_reentry": "the player's entry is out and he may not enter again (re-entry not offered, or he has"
    " used all his entries: RULES.md §11.3)",
    "not_playing": "the player is not in the tournament",
    "rebuy_refused": "a rebuy or add-on the tournament does not allow now",
    "unregister_refused": "unregistering is no longer possible",
    "deal_refused": "no deal is possible now (deals off, not at the final table, one proposed already, or"
    " none offered to the player)",
    "offer_expired": "a waiting-list seat offer expired",
    "top_up_failed": "a top-up could not be booked",
    "auto_top_up_stopped": "an auto top-up could not be booked (the balance, or a limit or exclusion the"
    " player set: details: table, amount, reason): the chips were not added and auto top-up is off there",
    "internal_error": "the request failed inside the server (nothing was changed)",
    "hand_voided": "the server failed during the hand: the hands in progress at that table, pool or"
    " tournament are void and every stake is back (the error is logged)",
    "table_suspended": "the table, pool or tournament is stopped by repeated errors until the room's staff"
    " resume it: no new seat, entry or registration",
    "store_unavailable": "the room cannot reach its store now (a table waits for it: its actions are refused"
    " until it is back; an action refused so may still be applied then: send it again, a duplicate is"
    " acknowledged)",
    "room_unavailable": "a room on several processes cannot reach the table's host now (the table is moving"
    " to another host, or the bus is down): try again in a few seconds",
}

# Refusals of a frame before it is understood (pokerroom.server.protocol), and of the connection.
PROTOCOL_CODES: dict[str, str] = {
    "bad_json": "the frame is not valid JSON",
    "bad_message": "the frame is not a JSON object with a string 'type'",
    "unknown_type": "no client message has this type",
    "invalid_field": "a field is missing, of the wrong type or out of range (the message names it)",
    "frame_too_large": "the frame is over the size limit",
    "rate_limited": "too many frames: slow down",
    "chat_rate_limited": "too many chat lines: slow down",
    "bad_version": "the server does not speak this protocol version",
    "bad_token": "the session token is unknown or expired",
    "token_in_url": "a session token in the WebSocket URL is not used (send it in the cookie or a hello)",
    "session_ended": "the login session ended (details: reason); the socket closes with 4401",
}

# Public fields of store errors, by code (the others hold account numbers or internal state).
_STORE_DETAILS: dict[str, tuple[str, ...]] = {
    "insufficient_funds": ("balance", "needed"),
    "weak_password": ("reason",),
    "invalid_currency": ("currency",),
    "account_locked": ("until",),
    "self_excluded": ("kind", "ends"),  # responsible gaming (store/gaming.py)
    "limit_reached": ("kind", "currency", "days", "limit", "used", "amount", "limit_text"),
    "exclusion_locked": ("ends",),
    "invalid_filter": ("field", "reason"),  # a filter of the lifetime statistics (store/mystats.py)
    "invalid_note": ("field",),  # a player's reads on others (store/reads.py, issue 31)
    "invalid_prefs": ("field",),
    "too_many_notes": ("limit",),
}


class Refused(Exception):
    """A client request the server refuses: ``code`` (one of :data:`SERVER_CODES`) goes on the wire with
    ``message`` and the public ``details``."""

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


def _plain(value: object) -> object:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, int | str | bool | float):
        return value
    return str(value)


def error_details(exc: BaseException) -> dict[str, Any]:
    """The typed fields of an error that any client may see."""
    if isinstance(exc, Refused):
        return {k: _plain(v) for k, v in exc.details.items()}
    if isinstance(exc, EngineError):
        data = exc.to_dict()
        return {k: v for k, v in data.items() if k not in ("code", "message")}
    if isinstance(exc, StoreError):
        keys = _STORE_DETAILS.get(exc.code, ())
        return {k: _plain(getattr(exc, k)) for k in keys if hasattr(exc, k)}
    return {}


def error_frame(exc: BaseException, ref: str | None = None) -> dict[str, Any]:
    """The ``error`` frame for a refusal (an unexpected exception becomes ``internal_error``)."""
    if isinstance(exc, Refused):
        code, message = exc.code, exc.message
    elif unavailable(exc) and not isinstance(exc, StoreError):  # the database failed under the request
        code, message = "store_unavailable", "the room cannot reach its store; try again shortly"
    elif isinstance(exc, EngineError | StoreError):
        code, message = exc.code, str(exc)
    else:
        code, message = "internal_error", SERVER_CODES["internal_error"]
    return {"type": "error", "code": code, "message": message, "ref": ref, "details": error_details(exc)}
