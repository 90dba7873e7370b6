"""PostgreSQL only: pokerroom_book(), a whole ledger booking in one call (one round trip in autocommit).

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

# Claims the idempotency key (NULL: taken already, nothing done), locks the floored accounts in id order,
# applies the balance changes where the account has the expected kind, currency and open state and stays
# non-negative, and inserts the postings. If any change cannot be applied it raises SQLSTATE PR001 and,
# as any error does, undoes the whole statement. Table names resolve through search_path at run time.
BOOK = """
CREATE FUNCTION pokerroom_book(
    p_key text, p_kind text, p_fp text, p_now timestamptz, p_memo text,
    p_ids bigint[], p_ds bigint[], p_kinds text[], p_curs text[], p_open boolean[],
    p_pa bigint[], p_pc text[], p_pd bigint[]
) RETURNS bigint LANGUAGE plpgsql AS $body$
DECLARE
    tx bigint;
    n integer;
BEGIN
    INSERT INTO ledger_transactions (idem_key, kind, fingerprint, created_at, memo)
    VALUES (p_key, p_kind, p_fp, p_now, p_memo)
    ON CONFLICT (idem_key) DO NOTHING
    RETURNING id INTO tx;
    IF tx IS NULL THEN
        RETURN NULL;
    END IF;
    PERFORM 1 FROM ledger_accounts WHERE id = ANY(p_ids) ORDER BY id FOR NO KEY UPDATE;
    UPDATE ledger_accounts a SET balance = a.balance + c.d
    FROM unnest(p_ids, p_ds, p_kinds, p_curs, p_open) AS c(id, d, kind, cur, must_be_open)
    WHERE a.id = c.id AND a.balance + c.d >= 0 AND a.currency = c.cur
      AND (c.kind = '' OR a.kind = c.kind) AND (NOT c.must_be_open OR a.closed_at IS NULL);
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n <> coalesce(cardinality(p_ids), 0) THEN
        RAISE EXCEPTION USING ERRCODE = 'PR001', MESSAGE = 'pokerroom: booking refused';
    END IF;
    INSERT INTO ledger_postings (tx_id, account_id, currency, amount)
    SELECT tx, p.a, p.c, p.d FROM unnest(p_pa, p_pc, p_pd) AS p(a, c, d);
    RETURN tx;
END
$body$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(BOOK)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "DROP FUNCTION pokerroom_book(text, text, text, timestamptz, text, bigint[], bigint[], text[], "
            "text[], boolean[], bigint[], text[], bigint[])"
        )
