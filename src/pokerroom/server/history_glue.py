"""Hand histories of a finished hand for the store: the audit PHH and each player's own views."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from pokerroom.engine import HandState
from pokerroom.history import DeckProof, HandContext, TournamentInfo, write_phh
from pokerroom.rooms import FinishedHand
from pokerroom.store import HandHistory

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
        mix=record.mix,  # a mixed table: each hand's own game, under the mix's name (RULES.md §11.1)
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
    mix: str = "",
) -> HandHistory:
    """The same for a tournament hand: amounts in tournament chips, the tournament in the header (and a
    mixed tournament's mix, RULES.md §11.1: "H.O.R.S.E. (Razz Limit)")."""
    ctx = HandContext(
        mix=mix,
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
    """The audit PHH, and each player dealt in by his seat: the store writes his own PHH and
    PokerStars-format copies from the audit PHH when he first asks for the hand, with the global numbers
    it gives the hand when storing it (issue 21; docs/server-speed.md: writing them here, for every
    player of every hand, was a tenth of the server's CPU)."""
    seats = {int(player): seat for seat, (player, _) in players.items()}
    return HandHistory(full_phh=write_phh(hand, viewer=None, context=ctx), views={}, seats=seats)
