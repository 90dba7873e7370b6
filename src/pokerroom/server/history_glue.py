"""Hand histories of a finished hand for the store: the audit PHH and each player's own views."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime

from pokerroom.engine import HandState
from pokerroom.history import (
    DeckProof,
    HandContext,
    TournamentInfo,
    write_phh,
    write_phh_views,
    write_pokerstars,
)
from pokerroom.history.stars import Values
from pokerroom.rooms import FinishedHand
from pokerroom.store import HandHistory, HandNumbers, PlayerView

__all__ = ["context_of", "histories_of", "tournament_histories"]

_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "PLAY": ""}


def context_of(record: FinishedHand) -> HandContext:
    return HandContext(
        proof=record.proof,
        hand_id=record.hand_id,
        table=record.table_name,
        time=record.started_at,
        players={seat: name for seat, (_, name) in record.players.items()},
        currency="" if record.currency == "PLAY" else record.currency,
        currency_symbol=_SYMBOLS.get(record.currency, ""),
        minor_units=1 if record.currency == "PLAY" else 100,
        seat_count=record.seats,
    )


def histories_of(record: FinishedHand) -> HandHistory:
    """The full PHH (every card: audit only) and, per player dealt in, his PHH and PokerStars text."""
    return _histories(record.hand, context_of(record), record.players)


def tournament_histories(
    hand: HandState,
    *,
    table: str,
    seats: int,
    started_at: datetime | None,
    players: Mapping[int, tuple[str, str]],
    info: TournamentInfo,
    proof: DeckProof | None = None,
) -> HandHistory:
    """The same for a tournament hand: amounts in tournament chips, the tournament in the header."""
    ctx = HandContext(
        proof=proof,
        hand_id=hand.hand_id,
        table=table,
        time=started_at,
        players={seat: name for seat, (_, name) in players.items()},
        seat_count=seats,
        tournament=info,
    )
    return _histories(hand, ctx, players)


def _histories(hand: HandState, ctx: HandContext, players: Mapping[int, tuple[str, str]]) -> HandHistory:
    """The players' views are written when the store has numbered the hand (``HandHistory.numbered``):
    the PokerStars-format text carries the global hand (and tournament) number that the database assigns
    in the transaction that stores them (issue 21)."""

    def views(numbers: HandNumbers) -> dict[int, PlayerView]:
        t = ctx.tournament
        numbered = replace(
            ctx,
            hand_number=numbers.hand,
            tournament=replace(t, number=numbers.tournament) if t is not None else None,
        )
        memo: Values = {}  # (each shown hand evaluated once for all the views)
        phh = write_phh_views(hand, players, numbered)
        return {
            int(player): PlayerView(
                phh=phh[seat],
                pokerstars=write_pokerstars(hand, numbered, viewer=seat, memo=memo),
            )
            for seat, (player, _) in players.items()
        }

    return HandHistory(full_phh=write_phh(hand, viewer=None, context=ctx), views={}, numbered=views)
