"""Bounties and progressive knockouts (RULES.md §11.3, R259, R260; docs/tournaments.md, "Bounties"):
a share ``bounty`` (percent) of each prize contribution is a player's starting bounty, apart from the
prize pool. Knocking a player out wins his bounty: whoever wins the highest pot the eliminated player was
eligible for (the pot that took his last chips); several winners of that pot share it equally, leftover
units by the odd-chip rule (§3.9: clockwise from the button). In a progressive knockout (PKO) each share
is paid half in cash (rounded down) and the rest is added to the winner's own bounty; the tournament's
winner also receives his own bounty. Pure: the money goes out as :class:`TournamentBounty` effects."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pokerroom.engine import HandState
from pokerroom.engine.events import PotAwarded
from pokerroom.rooms.effects import Effect

__all__ = ["TournamentBounty", "eliminators", "knockout", "split_bounty"]


@dataclass(frozen=True, slots=True)
class TournamentBounty(Effect):
    """Prize pool (the bounties' part) -> ``player``'s wallet: ``amount`` for knocking out ``victim``
    (``victim`` = ``player``: his own bounty, as the winner or in a deal or an ended tournament)."""

    player: str
    amount: int
    victim: str
    entry: int = 1  # the victim's entry (re-entry, R261: each entry has its own bounty)


def eliminators(hand: HandState, seat: int) -> tuple[int, ...]:
    """The seats that won the highest pot ``seat`` was eligible for, in odd-chip order (clockwise from
    the left of the button; stud: from seat 1); empty when he was eligible for none."""
    eligible = [i for i, pot in enumerate(hand.pots) if seat in pot.eligible]
    if not eligible:
        return ()
    top = max(eligible)
    won = {w for e in hand.events if isinstance(e, PotAwarded) and e.pot == top for w in e.winners}
    won.discard(seat)
    order = hand.order
    button = hand.button
    ring = (
        order
        if button is None
        else tuple(s for s in order if s > button) + tuple(s for s in order if s <= button)
    )
    return tuple(s for s in ring if s in won)


def split_bounty(amount: int, n: int) -> list[int]:
    """``amount`` shared by ``n`` winners: equal shares, the leftover units one each in the order given."""
    base, extra = divmod(amount, n)
    return [base + (1 if k < extra else 0) for k in range(n)]


def knockout(bounty: int, winners: Sequence[str], progressive: bool) -> list[tuple[str, int, int]]:
    """(winner, cash now, added to his own bounty) for each winner of a bounty."""
    out = []
    for player, share in zip(winners, split_bounty(bounty, len(winners)), strict=True):
        cash = share // 2 if progressive else share
        out.append((player, cash, share - cash))
    return out
