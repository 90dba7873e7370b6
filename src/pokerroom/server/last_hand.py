"""The answers to ``last_hands`` (docs/protocol.md): the list of a player's last hands of his login
session, and one of them as he may see it, with its deck proof when he was dealt in (docs/fairness.md).
One builder for the one-process room (``routes.py``) and a cluster's table hosts (``cluster/host.py``),
whose gateway merges the hosts' lists."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pokerroom.rooms import LastHands, RecalledHand
from pokerroom.server.errors import Refused

__all__ = [
    "LIMIT",
    "answer",
    "hand_frame",
    "hand_rows",
    "last_hand",
    "list_frame",
    "merged_list_frame",
    "unknown_hand",
]

LIMIT = LastHands.LIMIT  # the hands a ``last_hands`` list gives at most


def hand_rows(window: LastHands, player: str) -> list[dict[str, Any]]:
    """The rows of the player's ``last_hands`` list (hand id, table, time, game, his seat), newest first."""
    return [
        {
            "hand_id": h.hand_id,
            "table": h.table_name,
            "started_at": h.started_at.isoformat(),
            "variant": h.variant,
            "seat": h.seat_of(player),
        }
        for h in window.hands(player)
    ]


def list_frame(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``last_hands`` frame of one room's rows."""
    return {"type": "last_hands", "hands": rows}


def merged_list_frame(answers: Iterable[Iterable[Mapping[str, Any]]]) -> dict[str, Any]:
    """The ``last_hands`` frame of several hosts' rows: the newest ``LIMIT`` of them."""
    rows = sorted((dict(r) for rows in answers for r in rows), key=lambda r: r["started_at"], reverse=True)
    return list_frame(rows[:LIMIT])


def _proof(record: RecalledHand, seat: int) -> dict[str, str] | None:
    """A hand's deck proof for the player dealt in at ``seat``: the root, and the openings of the cards
    he may see (docs/fairness.md; never a card folded by another, R184)."""
    if record.proof is None:
        return None
    return {"commitment": record.proof.root, "proof": record.proof.for_viewer(record.events, seat).to_text()}


def hand_frame(record: RecalledHand, player: str) -> dict[str, Any]:
    """The ``last_hand`` frame: the hand as ``player`` saw it (and every hand shown or mucked at its
    showdown), with its deck proof when he was dealt in."""
    seat = record.seat_of(player)
    return {
        "type": "last_hand",
        "hand_id": record.hand_id,
        "table": record.table_name,
        "seat": seat,
        "players": {str(s): name for s, (_, name) in record.players.items()},
        "events": [e.to_dict() for e in record.events_for(seat)],
        "proof": _proof(record, seat) if seat is not None else None,
    }


def last_hand(window: LastHands, player: str, hand_id: str) -> dict[str, Any] | None:
    """The ``last_hand`` frame of ``hand_id`` (None: not among the player's last hands here)."""
    record = window.get(player, hand_id)
    return None if record is None else hand_frame(record, player)


def unknown_hand(hand_id: str) -> Refused:
    return Refused(
        "unknown_hand", "that hand is not among your last 50 hands of this session", hand_id=hand_id
    )


def answer(window: LastHands, player: str, hand_id: str | None) -> dict[str, Any]:
    """The one-process answer to ``last_hands``: the list, or the hand (:func:`unknown_hand` raised)."""
    if hand_id is None:
        return list_frame(hand_rows(window, player))
    frame = last_hand(window, player, hand_id)
    if frame is None:
        raise unknown_hand(hand_id)
    return frame
