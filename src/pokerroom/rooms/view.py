"""What one viewer sees of a table right now: the snapshot a client gets on (re)connect.

Only what the viewer may see: his own cards, face-up stud cards, hands shown at showdown or exposed
all-in; other hidden cards are ``"??"``. Never the deck, a burned card, a discard or a folded hand.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pokerroom.engine import BetDecision, HandState
from pokerroom.rooms.cash import CashTable, Player

__all__ = ["hand_view", "table_view"]


def _cards_for(hand: HandState, seat: int, viewer: int | None) -> list[str]:
    p = hand.players[seat]
    if p.folded and seat != viewer:
        return []
    out = []
    for card, up in zip(p.hole, p.up, strict=True):
        visible = up or p.shown or seat == viewer
        out.append(str(card) if visible else "??")
    return out


def hand_view(hand: HandState, viewer: int | None) -> dict[str, Any]:
    """The current hand as ``viewer`` (a seat dealt in, or ``None``) sees it."""
    pots = [pot.amount for pot in hand.collected_pots()]  # as RoundEnded said: bets are not in them yet
    players = {}
    for seat, p in hand.players.items():
        cards = _cards_for(hand, seat, viewer)
        players[str(seat)] = {
            "stack": p.stack,
            "bet": p.bet,
            "paid": p.paid,
            "folded": p.folded,
            "all_in": p.all_in,
            "cards": cards,
            "up": [bool(u) for u in p.up] if cards else [],  # which cards are dealt face up (stud)
            "shown": p.shown,
        }
    pending = hand.pending
    data: dict[str, Any] = {
        "hand_id": hand.hand_id,
        "variant": hand.variant.code,
        "betting": hand.structure.betting.value,
        "button": hand.button,
        "board": [str(c) for c in hand.board],
        "street": hand.variant.streets[min(hand.street, len(hand.variant.streets) - 1)].name,
        "phase": hand.phase.value,
        "pots": pots,
        "players": players,
        "action_no": len(hand.commands),
        "waiting_for": list(hand.waiting_for()),
        "over": hand.is_over,
    }
    if viewer is not None and viewer in hand.waiting_for():
        data["decision"] = pending.to_dict()
    elif isinstance(pending, BetDecision):
        data["to_act"] = pending.seat
    return data


def _seat(p: Player) -> dict[str, Any]:
    return {
        "player": p.player,
        "name": p.name,
        "stack": p.stack,
        "status": p.status,
        "markers": list(p.markers),
        "time_bank": round(p.time_bank, 1),
    }


def table_view(table: CashTable, viewer: str | None, now: datetime) -> dict[str, Any]:
    """Everything a client needs to draw the table for ``viewer`` (a player id, or ``None``)."""
    cfg = table.config
    st = cfg.stakes
    seat = table.seat_of(viewer) if viewer is not None else None
    lo, hi = cfg.buy_in_range
    data: dict[str, Any] = {
        "table": cfg.table_id,
        "name": cfg.name,
        "variant": cfg.variant,
        "variant_name": cfg.spec.name,
        "betting": cfg.betting.value,
        "stakes": {
            "small_blind": st.small_blind,
            "big_blind": st.big_blind,
            "small_bet": st.small_bet,
            "big_bet": st.big_bet,
            "ante": st.ante,
            "bring_in": st.bring_in,
            "chip_unit": st.chip_unit,
        },
        "currency": cfg.currency,
        "seats": cfg.seats,
        "buy_in": {"min": lo, "max": hi},
        "players": {str(s): _seat(p) for s, p in sorted(table.seats.items())},
        "you": seat,
        "waiting_list": len(table.waiting_list),
        "hand": None,
        "clocks": {},
    }
    if table.in_hand and table.hand is not None:
        dealt = seat if seat is not None and table.dealt_in(viewer or "") else None
        data["hand"] = hand_view(table.hand, dealt)
        for s in table.hand.waiting_for():
            clock = table.clock(s)
            if clock is not None:
                data["clocks"][str(s)] = {
                    "action_left": max(0.0, (clock.action_deadline - now).total_seconds()),
                    "bank_left": max(
                        0.0, (clock.bank_deadline - max(now, clock.action_deadline)).total_seconds()
                    ),
                }
    return data
