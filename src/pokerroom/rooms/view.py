"""What one viewer sees of a table right now: the snapshot a client gets on (re)connect.

Only what the viewer may see: his own cards, face-up stud cards, hands shown at showdown or exposed
all-in; other hidden cards are ``"??"``. Never the deck, a burned card, a discard or a folded hand.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pokerroom.engine import BetDecision, Betting, HandState, Stakes, VariantSpec
from pokerroom.rooms.cash import CashTable
from pokerroom.rooms.clock import Clocks

__all__ = ["clocks_view", "hand_view", "mix_view", "seat_view", "stakes_view", "table_state", "table_view"]


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
    if hand.runs == 2:  # run it twice (R-RIT): the second board, under the first
        data["board2"] = [str(c) for c in hand.board2]
    if viewer is not None and viewer in hand.waiting_for():
        data["decision"] = pending.to_dict()
    elif isinstance(pending, BetDecision):
        data["to_act"] = pending.seat
    return data


def seat_view(
    player: str | None,
    name: str,
    stack: int,
    status: str = "playing",
    markers: tuple[str, ...] = (),
    time_bank: float = 0.0,
) -> dict[str, Any]:
    """One occupied seat as every viewer sees it (``player`` is None where ids are not shown: Rush)."""
    return {
        "player": player,
        "name": name,
        "stack": stack,
        "status": status,
        "markers": list(markers),
        "time_bank": round(time_bank, 1),
    }


def stakes_view(st: Stakes) -> dict[str, int]:
    return {
        "small_blind": st.small_blind,
        "big_blind": st.big_blind,
        "small_bet": st.small_bet,
        "big_bet": st.big_bet,
        "ante": st.ante,
        "bring_in": st.bring_in,
        "chip_unit": st.chip_unit,
    }


def clocks_view(clocks: Clocks, now: datetime) -> dict[str, dict[str, float]]:
    return {
        str(seat): {"action_left": clock.action_left(now), "bank_left": clock.bank_left(now)}
        for seat, clock in clocks.items()
    }


def table_state(
    *,
    kind: str,
    table_id: str,
    name: str,
    spec: VariantSpec,
    betting: Betting,
    currency: str,
    stakes: Stakes,
    seats: int,
    players: dict[str, dict[str, Any]],
    you: int | None,
    button: int | None,
    hand: HandState | None,
    dealt: int | None,
    clocks: Clocks,
    now: datetime,
    cash: dict[str, Any] | None = None,
    tournament: dict[str, Any] | None = None,
    rush: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The one shape of a table as a viewer sees it, for every kind of table (docs/protocol.md,
    "snapshot"): the parts every table has, and one part of its own kind (the others are None).

    ``you`` is the viewer's seat at the table, ``dealt`` his seat if he is dealt into the current hand
    (only then does he see his own cards and his decision)."""
    live = hand is not None and not hand.is_over
    return {
        "kind": kind,
        "table": table_id,
        "name": name,
        "variant": spec.code,
        "variant_name": spec.name,
        "betting": betting.value,
        "currency": currency,
        "stakes": stakes_view(stakes),
        "seats": seats,
        "players": players,
        "you": you,
        "button": hand.button if live and hand is not None else button,
        "hand": hand_view(hand, dealt) if live and hand is not None else None,
        "clocks": clocks_view(clocks, now) if live else {},
        "cash": cash,
        "tournament": tournament,
        "rush": rush,
    }


def table_view(table: CashTable, viewer: str | None, now: datetime) -> dict[str, Any]:
    """Everything a client needs to draw a cash table for ``viewer`` (a player id, or ``None``)."""
    cfg = table.config
    seat = table.seat_of(viewer) if viewer is not None else None
    lo, hi = cfg.buy_in_range
    game = table.game  # a mixed table: the game of the hand in progress, else of the next hand
    return table_state(
        kind="cash",
        table_id=cfg.table_id,
        name=cfg.name,
        spec=game.spec,
        betting=game.betting,
        currency=cfg.currency,
        stakes=game.stakes,
        seats=cfg.seats,
        players={
            str(s): seat_view(p.player, p.name, p.stack, p.status, p.markers, p.time_bank)
            for s, p in sorted(table.seats.items())
        },
        you=seat,
        button=table.positions.button if table.positions is not None else None,
        hand=table.hand,
        dealt=seat if seat is not None and table.dealt_in(viewer or "") else None,
        clocks=table.clocks,
        now=now,
        cash={
            "buy_in": {"min": lo, "max": hi},
            "waiting_list": len(table.waiting_list),
            "straddle": cfg.straddle,  # RULES.md §11.2
            "bomb_pot_every": cfg.bomb_pot_every,
            "bomb_pot_ante": cfg.bomb_ante if cfg.bomb_pot_every else 0,
            "next_bomb_pot": table.next_is_bomb_pot,
            "straddling": seat is not None and table.seats[seat].straddle,
            "auto_top_up": table.seats[seat].auto_top_up if seat is not None else 0,  # the viewer's own
            "mix": mix_view(table, now),
        },
    )


def mix_view(table: CashTable, now: datetime | None = None) -> dict[str, Any] | None:
    """A mixed table's rotation (RULES.md §11.1): the mix's name, the game now (of the hand in progress,
    else of the next hand), the game of the next round and the hands left in the round (after the hand in
    progress); in dealer's choice, ``choosing`` while the round's game is being chosen (who, the list, the
    game played if he does not choose, and with ``now`` the seconds left). ``None`` at a single-game table."""
    r = table.rotation
    if r is None:
        return None
    if not table.in_hand:
        r = r.rolled()
    choosing = None
    if table.choice is not None:
        c = table.choice
        choosing = {
            "seat": c.seat,
            "player": c.player,
            "options": [g.label for g in r.mix.games],
            "default": r.index,
            "expires_in": None if now is None else max(0.0, (c.deadline - now).total_seconds()),
        }
    return {
        "code": r.mix.code,
        "name": r.mix.name,
        "game": r.game.variant,
        "betting": r.game.betting.value,
        "game_label": r.game.label,
        "next_game": r.next_game.variant,
        "next_betting": r.next_game.betting.value,
        "next_label": r.next_game.label,
        "hands_left": r.hands_left,
        "round_hands": r.per_round,
        "index": r.index,  # the game now in ``games``, the mix's list
        "games": [
            {"variant": g.variant, "betting": g.betting.value, "label": g.label, "name": g.spec.name}
            for g in r.mix.games
        ],
        "dealers_choice": r.choice,
        "choosing": choosing,
    }
