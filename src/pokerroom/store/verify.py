"""``ledger verify``: recompute every balance from the postings and check that all money is accounted for."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store.db import Database

_LIMIT = 20  # problems listed per check (the count is always complete)


@dataclass(frozen=True)
class CurrencyTotals:
    """Per currency: the balance held by each account kind, and their sum (zero when all is accounted for)."""

    currency: str
    by_kind: dict[str, int]
    total: int


@dataclass
class VerifyReport:
    ok: bool = True
    problems: list[str] = field(default_factory=list)
    totals: dict[str, CurrencyTotals] = field(default_factory=dict)
    accounts: int = 0
    transactions: int = 0
    postings: int = 0

    def fail(self, message: str) -> None:
        self.ok = False
        self.problems.append(message)

    def render(self) -> str:
        lines = [f"accounts {self.accounts}, transactions {self.transactions}, postings {self.postings}"]
        for cur in sorted(self.totals):
            t = self.totals[cur]
            parts = ", ".join(f"{k} {v}" for k, v in sorted(t.by_kind.items()))
            lines.append(f"{cur}: total {t.total} ({parts})")
        lines.extend(f"PROBLEM: {p}" for p in self.problems)
        lines.append("ledger OK" if self.ok else f"ledger FAILED: {len(self.problems)} problem(s)")
        return "\n".join(lines)


async def _check(report: VerifyReport, conn: AsyncConnection, sql: str, what: str) -> None:
    rows = (await conn.execute(text(sql))).all()
    for row in rows[:_LIMIT]:
        report.fail(what.format(*row))
    if len(rows) > _LIMIT:
        report.fail(f"... and {len(rows) - _LIMIT} more like that")


async def verify_ledger(db: Database) -> VerifyReport:
    """Run every check in one read transaction (a consistent snapshot) and return the report."""
    report = VerifyReport()
    async with db.read() as conn:
        counts = (
            await conn.execute(
                text(
                    "SELECT (SELECT COUNT(*) FROM ledger_accounts), "
                    "(SELECT COUNT(*) FROM ledger_transactions), (SELECT COUNT(*) FROM ledger_postings)"
                )
            )
        ).one()
        report.accounts, report.transactions, report.postings = (int(c) for c in counts)
        await _check(
            report,
            conn,
            "SELECT tx_id, currency, SUM(amount) FROM ledger_postings GROUP BY tx_id, currency "
            "HAVING SUM(amount) <> 0 ORDER BY tx_id",
            "transaction {0}: {1} postings sum to {2}, not 0",
        )
        await _check(
            report,
            conn,
            "SELECT p.id, p.currency, a.id, a.currency FROM ledger_postings p "
            "LEFT JOIN ledger_accounts a ON a.id = p.account_id "
            "WHERE a.id IS NULL OR a.currency <> p.currency",
            "posting {0} in {1} is booked on account {2} in {3}",
        )
        await _check(
            report,
            conn,
            "SELECT a.id, a.kind, a.balance, COALESCE(s.total, 0) FROM ledger_accounts a "
            "LEFT JOIN (SELECT account_id, SUM(amount) AS total FROM ledger_postings GROUP BY account_id) s "
            "ON s.account_id = a.id WHERE a.balance IS NOT NULL AND a.balance <> COALESCE(s.total, 0)",
            "account {0} ({1}): stored balance {2}, postings sum to {3}",
        )
        await _check(
            report,
            conn,
            "SELECT a.id, a.kind, s.total FROM ledger_accounts a "
            "JOIN (SELECT account_id, SUM(amount) AS total FROM ledger_postings GROUP BY account_id) s "
            "ON s.account_id = a.id WHERE a.balance IS NOT NULL AND s.total < 0",
            "account {0} ({1}) may not go negative but its postings sum to {2}",
        )
        await _check(
            report,
            conn,
            "SELECT id, balance FROM ledger_accounts "
            "WHERE kind = 'seat' AND closed_at IS NOT NULL AND balance <> 0",
            "closed seat session {0} still holds {1}",
        )
        await _check(
            report,
            conn,
            "SELECT id FROM hands WHERE status = 'ended' AND tx_id IS NULL",
            "hand {0} has an end record but no settlement",
        )
        await _check(
            report,
            conn,
            "SELECT a.id, t.id, t.status, a.balance FROM ledger_accounts a "
            "JOIN tournaments t ON t.id = a.ref "
            "WHERE a.kind = 'prize_pool' AND t.status IN ('finished', 'cancelled') AND a.balance <> 0",
            "prize pool {0} of tournament {1} ({2}) still holds {3}",
        )
        await _check(
            report,
            conn,
            "SELECT a.id, a.balance, COALESCE(SUM(t.value), 0) FROM ledger_accounts a "
            "LEFT JOIN tournament_tickets t ON t.account_id = a.id AND t.used_for IS NULL "
            "WHERE a.kind = 'ticket' GROUP BY a.id, a.balance HAVING a.balance <> COALESCE(SUM(t.value), 0)",
            "ticket account {0} holds {1} but its unused tickets are worth {2}",
        )
        await _check(
            report,
            conn,
            "SELECT a.id, a.balance, COALESCE(SUM(r.amount), 0) FROM ledger_accounts a "
            "LEFT JOIN cashier_requests r ON r.hold_account_id = a.id AND r.state = 'pending' "
            "WHERE a.kind = 'withdrawal' GROUP BY a.id, a.balance "
            "HAVING a.balance <> COALESCE(SUM(r.amount), 0)",
            "pending-withdrawal account {0} holds {1} but its pending withdrawals are {2}",
        )
        await _check(
            report,
            conn,
            "SELECT id, kind, state FROM cashier_requests "
            "WHERE (state = 'approved' AND decision_tx_id IS NULL) "
            "OR (kind = 'withdrawal' AND tx_id IS NULL)",
            "cashier request {0} ({1}, {2}) lacks its ledger transaction",
        )
        # All money accounted for: stored balances of floored accounts plus the posted balances of the
        # unbounded system accounts sum to zero in every currency.
        rows = (
            await conn.execute(
                text(
                    "SELECT a.currency, a.kind, SUM(COALESCE(a.balance, s.total, 0)) FROM ledger_accounts a "
                    "LEFT JOIN (SELECT account_id, SUM(amount) AS total FROM ledger_postings "
                    "GROUP BY account_id) s ON s.account_id = a.id GROUP BY a.currency, a.kind"
                )
            )
        ).all()
    by_currency: dict[str, dict[str, int]] = {}
    for currency, kind, amount in rows:
        by_currency.setdefault(currency, {})[kind] = int(amount)
    for currency, kinds in by_currency.items():
        total = sum(kinds.values())
        report.totals[currency] = CurrencyTotals(currency, kinds, total)
        if total != 0:
            report.fail(f"{currency}: the accounts sum to {total}, not 0 (money created or lost)")
    return report
