"""A hand with money at stake, in the hand journal as it goes: cash tables and Rush pools share it.

At the start the journal gets the seats, their sessions and stacks, and a commitment to the deck
(``sha256(salt:deck)``), durable before the hand's first event goes out; a Rush entry that quick-folds is
released into the hand's escrow at once; the end record reveals the deck and the salt and books the
settlement, with the hand histories and every command the hand was played with, in one transaction (a
voided hand's cancellation carries its commands the same way). The commands are not written one by one
as they are played: a hand a crash interrupts is voided by the journal's recovery whatever it had
journaled, and two transactions a hand, instead of one per batch of actions, is what lets a table host
carry its load (docs/store.md, "Per hand").
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from datetime import datetime

from pokerroom.engine import HandState
from pokerroom.server.fairness import DeckSeal
from pokerroom.server.metrics import Metrics
from pokerroom.store import HandHistory, HandJournal, SeatRecord

__all__ = ["HandBook"]


class HandBook:
    __slots__ = (
        "commitment",
        "deck_text",
        "hand",
        "journal",
        "metrics",
        "opened",
        "salt",
        "started",
        "times",
    )
    # (the deck's seal, docs/fairness.md: the one the table core publishes, from ``Seals``)

    _count = 0  # (books are numbered as they are made: the order their hands started in)

    def __init__(
        self,
        journal: HandJournal,
        hand: HandState,
        metrics: Metrics | None = None,
        seal: DeckSeal | None = None,
    ) -> None:
        self.journal = journal
        self.metrics = metrics
        self.hand = hand
        seal = seal if seal is not None else DeckSeal(hand)
        self.salt = seal.salt
        self.deck_text = seal.deck_text
        self.commitment = seal.journal_commitment  # (the journal's own record; players see the root)
        self.started = False  # the start record is in the journal
        self.times: list[datetime] = []  # when each of the hand's commands was played (``stamp``)
        HandBook._count += 1
        self.opened = HandBook._count

    async def open(
        self,
        *,
        table_id: str,
        currency: str,
        seats: Sequence[SeatRecord],
        stakes: str | None = None,
        pool: str | None = None,
    ) -> None:
        """Journal the hand's start; ``stakes`` (the lobby's label now) and ``pool`` (Rush) go with it for
        the rake report."""
        hand = self.hand
        began = time.perf_counter()
        await self.journal.start_hand(
            hand.hand_id,
            table_id=table_id,
            game=f"{hand.variant.code}/{hand.structure.betting.value}",
            currency=currency,
            seats=seats,
            deck_commitment=self.commitment,
            stakes=stakes,
            pool=pool,
        )
        self.started = True
        self._observe(began)

    async def release(self, session_id: int, result: int) -> None:
        """Rush: a seat quick-folded out of the hand; its result is final and booked now."""
        await self.journal.release_seat(self.hand.hand_id, session_id, result)

    async def close(
        self,
        *,
        deltas: Mapping[int, int],
        rake: int,
        points: Mapping[int, int],
        history: HandHistory | None,
    ) -> None:
        began = time.perf_counter()
        await self.journal.end_hand(
            self.hand.hand_id,
            deck_text=self.deck_text,
            salt=self.salt,
            deltas=deltas,
            rake=rake,
            points=points,
            history=history,
            commands=self.commands(),
            times=self.stamp(),
        )
        self._observe(began)

    def stamp(self) -> list[datetime]:
        """Note the time (the journal's clock) of the commands played since the last call: the actors call
        it as each step's events go out, so each command keeps the time it was played although it is
        written with the end record (the integrity detectors read decision times from the journal).
        Returns every command's time so far."""
        missing = len(self.hand.commands) - len(self.times)
        if missing > 0:
            self.times.extend([self.journal.clock()] * missing)
        return self.times

    def commands(self) -> list[dict[str, object]]:
        """The hand's commands so far, as the journal keeps them (also a voided hand's, when cancelled)."""
        return [command.to_dict() for command in self.hand.commands]

    def _observe(self, began: float) -> None:
        if self.metrics is not None:
            self.metrics.journal_seconds.observe(time.perf_counter() - began)
