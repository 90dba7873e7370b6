"""Each player's copies of a hand, written from its audit PHH when they are first asked for.

The room stores a finished hand's audit PHH (every card) and writes each player's PHH and
PokerStars-format copies from it only when he asks for them (docs/server-speed.md: writing six players'
copies at every hand's end was a tenth of the server's CPU, for texts most players never read). The
audit copy replays to the very same events (tests/history/test_roundtrip.py), so a copy written from it
is the copy written at the table (tests/history/test_views.py holds them equal for every game).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from pokerroom.history.errors import HistoryError
from pokerroom.history.reader import read_phh
from pokerroom.history.replay import replay
from pokerroom.history.stars import Values, write_pokerstars
from pokerroom.history.verify import proof_of
from pokerroom.history.writer import write_phh_views

__all__ = ["views_from_audit"]


def views_from_audit(
    full_phh: str,
    seats: Iterable[int],
    *,
    hand_number: int | None = None,
    tournament_number: int | None = None,
) -> dict[int, tuple[str, str]]:
    """For each seat, its player's (PHH, PokerStars text) of the hand whose audit PHH is ``full_phh``;
    ``hand_number`` and ``tournament_number`` are the global numbers the PokerStars text carries.
    :class:`HistoryError` if the audit copy cannot be read or does not replay to its end."""
    hand = read_phh(full_phh)
    again = replay(hand)
    if not again.complete:
        raise HistoryError("the audit history does not replay to the hand's end")
    t = hand.context.tournament
    ctx = replace(
        hand.context,
        proof=proof_of(hand),
        hand_number=hand_number,
        tournament=replace(t, number=tournament_number) if t is not None else None,
    )
    seats = list(seats)
    state = again.state
    phh = write_phh_views(state, seats, ctx)
    memo: Values = {}
    return {seat: (phh[seat], write_pokerstars(state, ctx, viewer=seat, memo=memo)) for seat in seats}
