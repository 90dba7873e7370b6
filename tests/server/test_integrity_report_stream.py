"""Issue 30: the integrity report over a day of a big room (server/integrity/report.py; docs/integrity.md,
"A day of a 1,000-table room"). The audit histories are read a page at a time, each parsed once without
its deck proof and fed to the four detectors that read the hands, each in its own thread: the findings
must be exactly those of the detectors run apart on the whole list of fully parsed hands."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from pokerroom.history import PhhHand, read_phh
from pokerroom.server.integrity import report as report_module
from pokerroom.server.integrity.cardshare import cardshare_findings
from pokerroom.server.integrity.dumping import dumping_findings
from pokerroom.server.integrity.report import (
    HandScores,
    Report,
    ReportOptions,
    read_audit,
    run_report,
    score_hands,
)
from pokerroom.server.integrity.softplay import softplay_findings
from pokerroom.server.integrity.whipsaw import whipsaw_findings
from pokerroom.store import Store
from pokerroom.store.db import Database
from tests.server.integrity_corpus import START, fill, upgrade

SINCE = START - timedelta(days=1)
# thresholds low enough that the corpus's honest field has flagged findings (their evidence is read)
LOOSE = ReportOptions(
    min_z=0.0,
    share_alpha=0.999,
    share_min_z=0.0,
    rush_alpha=1.0,
    rush_min_ratio=1.0,
    whip_alpha=0.999,
    whip_min_z=0.0,
)


async def _corpus(path: Path) -> Store:
    """A seeded corpus of 160 hands at 16 tables among 40 players, and one hand whose history is not
    PHH."""
    await upgrade(path)
    assert fill(path, 16, 160, 40, seed=5, quiet=True) == 160
    con = sqlite3.connect(path)
    con.execute("PRAGMA foreign_keys=OFF")
    con.execute(
        "INSERT INTO hands (id, table_id, game, currency, status, started_at, ended_at, deck_commitment,"
        " start_fingerprint) VALUES ('broken', 't', 'holdem', 'PLAY', 'ended', ?, ?, '', '')",
        ("2026-12-01 00:00:01.000000", "2026-12-01 00:00:02.000000"),
    )
    con.execute(
        "INSERT INTO hand_histories (hand_id, full_phh, stored_at) VALUES ('broken', 'not = [a hand',"
        " '2026-12-01 00:00:02.000000')"
    )
    con.commit()
    con.close()
    return Store(Database(f"sqlite+aiosqlite:///{path}"))


def _apart(stored: Iterable[tuple[str, str]], o: ReportOptions) -> dict[str, Any]:
    """Each detector run on its own over the whole list of fully parsed hands (the report's way before)."""
    parsed: list[tuple[str, PhhHand]] = []
    unread = []
    for hand_id, text in stored:
        try:
            parsed.append((hand_id, read_phh(text)))
        except Exception:
            unread.append(hand_id)
    return {
        "soft": softplay_findings(parsed),
        "whip": whipsaw_findings(parsed, alpha=o.whip_alpha, min_z=o.whip_min_z),
        "dumping": dumping_findings(parsed, min_z=o.min_z),
        "share": cardshare_findings(parsed, alpha=o.share_alpha, min_z=o.share_min_z),
        "read": len(parsed),
        "unread": unread,
    }


def _same(r: Report, apart: dict[str, Any]) -> None:
    assert r.soft == apart["soft"]
    assert r.whip == apart["whip"]
    assert r.dumping == apart["dumping"]
    assert r.share == apart["share"]
    assert (r.hands_read, r.unread) == (apart["read"], apart["unread"])


@pytest.mark.asyncio
async def test_the_streamed_report_finds_what_the_detectors_find_run_apart(tmp_path: Path) -> None:
    store = await _corpus(tmp_path / "day.db")
    try:
        stored = await store.audit_hands.since(SINCE)
        apart = _apart(stored, LOOSE)
        assert apart["soft"] and apart["whip"] and apart["dumping"] and apart["share"]  # all at work
        r = await run_report(store, SINCE, options=LOOSE, page=7, evidence=True)  # pages of 7 hands
        _same(r, apart)
        assert r.unread == ["broken"] and r.hands_read == 160
        _same(score_hands(stored, LOOSE), apart)  # (the same without the store)
        # the evidence: the audit copies of the hands the flagged findings name, and no others (the
        # loose thresholds flag honest pairs)
        texts = dict(stored)
        assert r.texts and r.texts == {h: texts[h] for h in r.evidence()}
        document = r.document()
        assert document["hands_read"] == 160 and document["hands_unreadable"] == ["broken"]
    finally:
        await store.close()
    assert not [t for t in threading.enumerate() if t.name.startswith("integrity-")]


@pytest.mark.asyncio
async def test_the_pages_are_the_hands_of_the_period_in_order_each_once(tmp_path: Path) -> None:
    store = await _corpus(tmp_path / "day.db")
    try:
        con = sqlite3.connect(tmp_path / "day.db")  # two hands started at the same moment as another
        first = con.execute(
            "SELECT started_at FROM hands ORDER BY started_at, id LIMIT 1 OFFSET 5"
        ).fetchone()
        con.execute("UPDATE hands SET started_at = ? WHERE id IN ('t0001-00003', 't0002-00003')", first)
        con.commit()
        con.close()
        whole = await store.audit_hands.since(SINCE)
        for size in (1, 3, 161, 162, 1000):
            pages = [page async for page in store.audit_hands.pages(SINCE, size=size)]
            assert [row for page in pages for row in page] == whole
            assert all(len(page) <= size for page in pages)
        until = START + timedelta(minutes=5)
        cut = [row async for page in store.audit_hands.pages(SINCE, until=until, size=4) for row in page]
        assert cut == await store.audit_hands.since(SINCE, until=until) and 0 < len(cut) < len(whole)
        with pytest.raises(ValueError, match="at least one"):
            await anext(aiter(store.audit_hands.pages(SINCE, size=0)))
    finally:
        await store.close()


def test_an_audit_history_is_read_without_its_deck_proof_and_otherwise_the_same(tmp_path: Path) -> None:
    import asyncio

    asyncio.run(upgrade(tmp_path / "few.db"))
    fill(tmp_path / "few.db", 4, 8, 12, seed=2, quiet=True)
    con = sqlite3.connect(tmp_path / "few.db")
    texts = [t for (t,) in con.execute("SELECT full_phh FROM hand_histories")]
    con.close()
    for text in texts:
        assert "\n_deck_proof = " in text
        full, light = read_phh(text), read_audit(text)
        assert "_deck_proof" in full.fields and "_deck_proof" not in light.fields
        for name in (
            "variant",
            "actions",
            "players",
            "starting_stacks",
            "finishing_stacks",
            "blinds_or_straddles",
        ):
            assert getattr(light, name) == getattr(full, name)
        other = read_audit(text.replace("\n_deck_proof = ", "\n_deck_proofs = "))  # (not the proof's key)
        assert "_deck_proofs" in other.fields
    no_proof = "\n".join(line for line in texts[0].splitlines() if not line.startswith("_deck_proof"))
    assert read_audit(no_proof).actions == read_phh(no_proof).actions


def test_a_detector_that_fails_fails_the_report_and_every_thread_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(hands: Iterable[tuple[str, PhhHand]], **options: float) -> list[Any]:
        for _ in hands:
            raise RuntimeError("the whipsaw detector broke")
        return []

    monkeypatch.setattr(report_module, "whipsaw_findings", broken)
    texts = [(f"h{i}", text) for i, text in enumerate(_few_texts())]
    scores = HandScores()
    for _ in range(5):  # more pages than the queues hold: the failed detector's queue is still drained
        scores.add(texts)
    with pytest.raises(RuntimeError, match="whipsaw detector broke"):
        scores.finish(Report(ReportOptions()))
    scores = HandScores()
    scores.add(texts)
    scores.abandon()  # (the store's read failed: the detectors are ended, their findings unwanted)
    assert not [t for t in threading.enumerate() if t.name.startswith("integrity-")]


def _few_texts() -> list[str]:
    from tests.server.integrity_hands import three_handed

    return [
        three_handed(["a", "b", "c"], ["AsAh", "KsKh", "2c7d"], ["p3 cbr 6", "p1 f", "p2 cc"]),
        three_handed(["a", "b", "c"], ["QsQh", "JsJh", "3c8d"], ["p3 f", "p1 cbr 6", "p2 f"]),
    ]
