"""A player's stored hands for the cashier's list and the replayer (issue 20, item 6).

Everything here is read from the player's **own** history of the hand (the PHH view the store keeps for
him, written by :func:`pokerroom.history.write_phh` with him as the viewer): the cards he could not see are
``??`` there, so they cannot reach him from here. The replayer's events are made by replaying that view
through the engine (unknown cards are filled with cards the history never names) and projecting them for
his seat exactly as the "Last hands" window does (R182: hands that reached the showdown, shown or mucked;
R184: folded hands, draw and Irish discards never), so the filled cards never show either. The deck proof
of the view is not passed on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokerroom.engine import Betting
from pokerroom.history import HistoryError, PhhHand, read_phh, replay

__all__ = ["StoredHand", "stored_hand"]


@dataclass(frozen=True, slots=True)
class StoredHand:
    """One of the player's stored hands, read from his own PHH."""

    hand: PhhHand
    viewer: int  # his PHH player number (1-based)

    @property
    def seat(self) -> int:
        return self.hand.seat_of(self.viewer)

    @property
    def currency(self) -> str:
        """``PLAY`` for play money, ``CHIPS`` in a tournament, else the ISO code."""
        if self.hand.context.tournament is not None:
            return "CHIPS"
        return self.hand.context.currency or "PLAY"

    def stakes(self) -> dict[str, int]:
        """The stakes in engine units, as the lobby gives them: the blinds (PHH writes them [small, big],
        heads-up too), the bets of fixed limit, the ante and, in stud, the bring-in."""
        h = self.hand
        limit = h.betting is Betting.FIXED_LIMIT
        blinds = [0, 0] if h.variant.is_stud else [*h.blinds_or_straddles[:2], 0, 0][:2]
        if not h.variant.is_stud and not blinds[1]:
            blinds[1] = h.small_bet if limit else h.min_bet
        return {
            "small_blind": blinds[0],
            "big_blind": blinds[1],
            "small_bet": h.small_bet if limit else 0,
            "big_bet": h.big_bet if limit else 0,
            "ante": max(h.antes, default=0),
            "bring_in": h.bring_in if h.variant.is_stud else 0,
        }

    def stakes_label(self) -> str:
        """ "20/40": the small and big bet in fixed limit, else the blinds (the lobby's words, RULES.md
        §1.3); stud without fixed limit: the bring-in."""
        s = self.stakes()
        if self.hand.betting is Betting.FIXED_LIMIT:
            lo, hi = s["small_bet"], s["big_bet"]
        elif self.hand.variant.is_stud:
            lo, hi = s["bring_in"], self.hand.min_bet
        else:
            lo, hi = s["small_blind"], s["big_blind"]
        return f"{_amount(lo, self.currency)}/{_amount(hi, self.currency)}"

    def net(self) -> int | None:
        """What the hand won (+) or lost (-) him, after the rake: finishing minus starting stack."""
        h = self.hand
        if h.finishing_stacks is None or self.viewer in h.unknown_stacks:
            return None
        return h.finishing_stacks[self.viewer - 1] - h.starting_stacks[self.viewer - 1]

    def summary(self) -> dict[str, Any]:
        t = self.hand.context.tournament
        return {
            "variant": self.hand.variant.code,
            "variant_name": self.hand.variant.name,
            "betting": self.hand.betting.value,
            "table_name": self.hand.context.table,
            "currency": self.currency,
            "stakes": self.stakes(),
            "stakes_label": self.stakes_label(),
            "net": self.net(),
            "seat": self.seat,
            "tournament": t.tournament_id if t is not None else None,
        }

    def replay(self) -> dict[str, Any]:
        """What the replayer needs: the seats and names, and the hand's events as he saw them."""
        h = self.hand
        state = replay(h).state
        seat = self.seat
        events = [v.to_dict() for e in state.events if (v := e.view_for(seat, True)) is not None]
        return {
            **self.summary(),
            "seats": h.context.seat_count or max(h.seats),
            "players": {str(s): name for s, name in zip(h.seats, h.players, strict=False) if name},
            "events": events,
        }


def stored_hand(phh: str) -> StoredHand:
    """Read a player's own history of a hand (:class:`HistoryError` if it cannot be read)."""
    hand = read_phh(phh)
    viewer = hand.fields.get("_viewer")
    if isinstance(viewer, bool) or not isinstance(viewer, int) or not 1 <= viewer <= hand.player_count:
        raise HistoryError("not a player's own history (no _viewer)", field="_viewer")
    return StoredHand(hand, viewer)


def _amount(amount: int, currency: str) -> str:
    return f"{amount:,}" if currency in ("PLAY", "CHIPS") else f"{amount / 100:,.2f}"
