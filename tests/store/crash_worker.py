"""Money writes in a loop until killed: the subprocess side of test_store_crash.py.

Usage: python crash_worker.py URL SCHEMA|- RUN_ID. Prints "ready" once it has committed its first write."""

from __future__ import annotations

import asyncio
import random
import sys

from argon2 import PasswordHasher

from pokerroom.store import (
    Database,
    InsufficientFunds,
    SeatRecord,
    SeatSession,
    SessionInHand,
    Store,
    deck_commitment,
    new_salt,
)

DECK = "AsKdQhJcTs9d8h7c6s5d4h3c2s"


async def main(url: str, schema: str | None, run: str) -> None:
    store = Store(
        Database(url, schema=schema), hasher=PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    )
    led, journal = store.ledger, store.journal
    rng = random.Random(run)
    admin = (await store.accounts.find("admin")).id
    players = [(await store.accounts.find(f"player{i}")).id for i in range(4)]
    n = 0
    announced = False
    while True:
        n += 1
        key = f"{run}-{n}"
        p = rng.choice(players)
        choice = rng.random()
        try:
            if choice < 0.15:
                await led.deposit(p, "USD", rng.randint(100, 5_000), admin_id=admin, idempotency_key=key)
            elif choice < 0.35:
                await led.buy_in(p, "t1", "USD", rng.randint(100, 3_000), idempotency_key=key)
            elif choice < 0.45:
                open_sessions = await led.sessions(table_id="t1")
                if open_sessions:
                    await led.cash_out(rng.choice(open_sessions).id, idempotency_key=key)
            else:
                # A whole hand through the journal among up to 4 open sessions of distinct players.
                by_player: dict[int, SeatSession] = {}
                for s in await led.sessions(table_id="t1"):
                    by_player.setdefault(s.player_id, s)
                chosen = list(by_player.values())[:4]
                if len(chosen) < 2:
                    continue
                salt = new_salt()
                seats = [SeatRecord(i + 1, s.player_id, s.id, s.balance) for i, s in enumerate(chosen)]
                await journal.start_hand(
                    key,
                    table_id="t1",
                    game="NT",
                    currency="USD",
                    seats=seats,
                    deck_commitment=deck_commitment(DECK, salt),
                )
                for seq in range(1, rng.randint(1, 6)):
                    await journal.record_command(key, seq, {"seat": seq, "action": "call"})
                losses = {s.id: rng.randint(0, s.balance // 2) for s in chosen}
                pot = sum(losses.values())
                rake = pot // 20
                deltas = {sid: -loss for sid, loss in losses.items()}
                deltas[rng.choice(chosen).id] += pot - rake
                points = {chosen[0].player_id: rake} if rake else {}
                await journal.end_hand(
                    key, deck_text=DECK, salt=salt, deltas=deltas, rake=rake, points=points
                )
        except (InsufficientFunds, SessionInHand):
            pass
        if not announced:
            print("ready", flush=True)
            announced = True


if __name__ == "__main__":
    schema_arg = sys.argv[2]
    asyncio.run(main(sys.argv[1], None if schema_arg == "-" else schema_arg, sys.argv[3]))
