"""Issue 30, item 2: collusive betting (whipsaw) found in the hands. Unit tests of the score on hand-made
three-handed audit histories: a pair raising a third player out between them found; an honest aggressive
player who re-raises everybody alike not flagged; a re-raise nobody folds to is no whipsaw. Then the
planted pair of the bots package played on the server's harness, found by ``pokerroom integrity report``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pokerroom.bots.planted import Whipsawer
from pokerroom.history import PhhHand, read_phh
from pokerroom.server.integrity.cardshare import threshold
from pokerroom.server.integrity.whipsaw import ALPHA, MIN_Z, whipsaw_findings

from .integrity_hands import three_handed
from .test_integrity_softplay import play_planted_pair

HOLES = ("AsAh", "7c2d", "KsKh")


def _hand(names: tuple[str, str, str], actions: list[str]) -> str:
    return three_handed(names, HOLES, actions)


def _whipsaw(a: str, victim: str, b: str) -> str:
    # b (p3) raises, a (small blind) re-raises over him with the victim (big blind) still to act; the
    # victim folds, b folds: the victim was raised out between them
    return _hand((a, victim, b), ["p3 cbr 6", "p1 cbr 20", "p2 f", "p3 f"])


def _raise_called(a: str, other: str, b: str) -> str:
    # b raises, a re-raises, the third calls: a chance of a over b, no whipsaw
    return _hand((a, other, b), ["p3 cbr 6", "p1 cbr 20", "p2 cc", "p3 f"])


def _call(a: str, other: str, b: str) -> str:
    # b raises, a only calls, the third folds: a chance of a over b, not taken
    return _hand((a, other, b), ["p3 cbr 6", "p1 cc", "p2 f"])


def _parsed(texts: list[str]) -> list[tuple[str, PhhHand]]:
    return [(f"h{i}", read_phh(t)) for i, t in enumerate(texts)]


def _by_pair(texts: list[str]) -> dict[frozenset[str], object]:
    return {frozenset((f.a, f.b)): f for f in whipsaw_findings(_parsed(texts))}


def test_a_pair_raising_a_third_out_is_flagged_with_the_hands_and_the_victim() -> None:
    # a re-raises b's raise eight times with v in the hand, who folds; against x's raises a only calls
    texts = [_whipsaw("a", "v", "b") for _ in range(8)]
    texts += [_call("a", o, "x") for o in ("v", "y") * 6] + [_call("b", o, "x") for o in ("v", "y") * 6]
    found = _by_pair(texts)
    f = found[frozenset(("a", "b"))]
    assert f.flagged and f.whipsaws == 8 and f.z >= 3.0  # type: ignore[attr-defined]
    assert f.victims == ("v",) and f.hands == tuple(f"h{i}" for i in range(8))  # type: ignore[attr-defined]
    assert [k for k, v in found.items() if v.flagged] == [frozenset(("a", "b"))]  # type: ignore[attr-defined]
    # two are chance
    assert not _by_pair(texts[6:])[frozenset(("a", "b"))].flagged  # type: ignore[attr-defined]


def test_an_aggressive_player_who_reraises_everybody_is_not_flagged() -> None:
    # m re-raises every raise, of b, x and y alike, and the third folds each time: his style, no pair,
    # though the rest of the room (c, d, e) only calls x's raises (against the room's rate m would be)
    texts = [_whipsaw("m", o, r) for r, o in (("b", "v"), ("x", "v"), ("y", "w")) * 6]
    texts += [_call(p, "v", "x") for p in ("c", "d", "e") * 6]
    found = _by_pair(texts)
    assert len(found) == 3 and not any(v.flagged for v in found.values())  # type: ignore[attr-defined]
    assert all(v.whipsaws == 6 for v in found.values())  # type: ignore[attr-defined]


def test_a_reraise_that_nobody_folds_to_is_no_whipsaw() -> None:
    texts = [_raise_called("a", "v", "b") for _ in range(8)]
    texts += [_call("a", o, "x") for o in ("v", "y") * 6]
    assert _by_pair(texts) == {}


def test_the_score_is_of_the_reraises_not_of_the_third_players_folds() -> None:
    # b re-raises a's bets and x's alike (every time); at a's table the third player v folds to it, at x's
    # w calls: whether the third folds is his own style, so b and a are no pair (the first score, which
    # counted re-raises the third folded to, flagged them: 8 of 8 against none of b's others)
    texts = [_whipsaw("b", "v", "a") for _ in range(8)] + [_raise_called("b", "w", "x") for _ in range(8)]
    texts += [_call(p, "w", "x") for p in ("c", "d") * 6]
    f = _by_pair(texts)[frozenset(("a", "b"))]
    assert f.whipsaws == 8 and f.reraises == 8 and not f.flagged  # type: ignore[attr-defined]
    # a b who re-raises only a's bets is flagged, the same 8 whipsaws
    texts = [_whipsaw("b", "v", "a") for _ in range(8)] + [_call("b", "w", "x") for _ in range(8)]
    texts += [_call(p, "w", "x") for p in ("c", "d") * 6]
    assert _by_pair(texts)[frozenset(("a", "b"))].flagged  # type: ignore[attr-defined]


def test_a_colluders_play_with_his_partner_in_the_hand_is_not_scored_with_others() -> None:
    # t re-raises d's bets with v in the hand, who folds (the pair, flagged); d never re-raises t (he folds
    # to him) and only calls x's raises. With t in the hand d re-raises h's bets (for t to re-raise in
    # turn): that is the pair's play, not d's with h (the first score flagged d with h: t folded, a
    # "victim", and d's own rate, his folds to t among it, predicted no such re-raise)
    texts = [_whipsaw("t", v, "d") for v in ("v", "w") * 4]
    texts += [_hand(("d", "v", "t"), ["p3 cbr 6", "p1 f", "p2 cc"]) for _ in range(8)]
    texts += [_call("d", o, "x") for o in ("v", "w") * 4] + [_call(p, "w", "x") for p in ("v", "y") * 4]
    texts += [_whipsaw("d", "t", "h") for _ in range(6)]
    found = _by_pair(texts)
    assert [k for k, v in found.items() if v.flagged] == [frozenset(("d", "t"))]  # type: ignore[attr-defined]
    assert frozenset(("d", "h")) not in found  # no chance of theirs without t in the hand
    # without t in the hand the same re-raises are d's own: d and h are flagged
    texts += [_whipsaw("d", "y", "h") for _ in range(6)]
    dh = _by_pair(texts)[frozenset(("d", "h"))]
    assert dh.flagged and dh.whipsaws == 6 and dh.victims == ("y",)  # type: ignore[attr-defined]


# A whole table of bots: their decisions are not repeatable from run to run (the strength bots estimate on
# worker threads), and once inside the whole suite on the 2-core machine this scenario missed its pair (or
# flagged another); the detector's rules are held by the hand-made histories above. A soak run plays it.
@pytest.mark.skipif(os.environ.get("POKERROOM_SOAK") != "1", reason="a soak run: POKERROOM_SOAK=1")
@pytest.mark.asyncio
async def test_the_planted_whipsaw_pair_is_found_and_no_honest_pair_is(tmp_path: Path) -> None:
    # four honest bots and the pair, 150 hands: each opens his good hands for the other to re-raise
    honest = ["strength", "random", "strength", "random"]
    report = await play_planted_pair(tmp_path / "whipsaw.db", Whipsawer, honest, 150)
    rows = report["collusive_betting"]
    assert isinstance(rows, list) and report["hands_read"] >= 145  # type: ignore[operator]
    flagged = [r for r in rows if r["flagged"]]
    assert [r["players"] for r in flagged] == [["pair_a", "pair_b"]]
    pair = flagged[0]
    assert pair["whipsaws"] >= 3 and pair["z"] >= 3.0 and 0 < len(pair["hands"]) <= pair["whipsaws"]
    assert set(pair["victims"]) <= {"hon1", "hon2", "hon3", "hon4"} and pair["victims"]
    assert report["exit"] == 1
    line = f"FLAGGED pair_a + pair_b: {pair['reraises']} re-raises of {pair['chances']} chances"
    assert line in str(report["text"])


def _room(callers: int = 5, chances: int = 100, maniacs: int = 5) -> list[str]:
    """A room of varied styles facing x's raises: callers who never re-raise (``chances`` each) and maniacs
    who re-raise a third of the time (24 chances each, nobody folding to them)."""
    texts = [_call(f"c{i}", "v", "x") for i in range(callers) for _ in range(chances)]
    for i in range(maniacs):
        texts += [_raise_called(f"r{i}", "w", "x") for _ in range(8)]
        texts += [_call(f"r{i}", "w", "x") for _ in range(16)]
    return texts


def test_two_maniacs_who_mostly_face_each_other_are_not_flagged_by_a_thin_baseline() -> None:
    # m1 and m2 re-raise each other a third of the time, as they re-raise the few others' raises they face
    # (1 of 4): their style, seen mostly against each other. The room's players differ widely (callers
    # never re-raise, maniacs a third of the time), so four chances against others say little of a
    # player's rate (the first score drew it toward the room's rate over its chances, the callers' mostly,
    # as if that were ten chances of his own: the pair was flagged, as pairs of random bots were in one
    # honest player of ten of a 48-player field)
    texts = _room()
    for a, b in (("m1", "m2"), ("m2", "m1")):
        texts += [_whipsaw(a, "v", b) for _ in range(50)] + [_call(a, "v", b) for _ in range(100)]
        texts += [_raise_called(a, "w", "x")] + [_call(a, "w", "x") for _ in range(3)]
    # t1 re-raises t2's raises 20 times of 20, and none of 24 others': a pair, flagged in the same room
    texts += [_whipsaw("t1", "v", "t2") for _ in range(20)] + [_call("t1", "w", "x") for _ in range(24)]
    texts += [_call("t2", "w", "x") for _ in range(24)]
    found = _by_pair(texts)
    assert not found[frozenset(("m1", "m2"))].flagged  # type: ignore[attr-defined]
    assert found[frozenset(("m1", "m2"))].whipsaws == 100  # type: ignore[attr-defined]
    assert [k for k, v in found.items() if v.flagged] == [frozenset(("t1", "t2"))]  # type: ignore[attr-defined]


def test_a_handful_of_chances_is_judged_by_its_exact_chance() -> None:
    # a re-raises b 4 times of 5 (third players folding), and the others' raises 1 time of 6; in a room
    # whose players re-raise 0-33 %. A normal approximation put 4 of 5 at z 4.4 (flagged); the exact chance
    # of so many, his rate known from six chances, is far less rare
    texts = _room()
    texts += [_whipsaw("a", "v", "b") for _ in range(4)] + [_call("a", "v", "b")]
    texts += [_raise_called("a", "w", "x")] + [_call("a", "w", "x") for _ in range(5)]
    f = _by_pair(texts)[frozenset(("a", "b"))]
    assert f.whipsaws == 4 and f.reraises == 4 and f.chances == 5  # type: ignore[attr-defined]
    assert not f.flagged and 0 < f.z < 3.0  # type: ignore[attr-defined]


def test_the_more_pairs_a_report_tests_the_more_each_must_show() -> None:
    # the pair a + b of the first test, alone and then among 200 more pairs with 3 whipsaws each (q re-raises
    # s and x alike): the threshold is the quantile of ALPHA shared over the pairs tested
    texts = [_whipsaw("a", "v", "b") for _ in range(8)]
    texts += [_call("a", o, "x") for o in ("v", "y") * 6] + [_call("b", o, "x") for o in ("v", "y") * 6]
    alone = _by_pair(texts)[frozenset(("a", "b"))]
    assert alone.flagged and alone.threshold == threshold(1, alpha=ALPHA, min_z=MIN_Z)  # type: ignore[attr-defined]
    for i in range(100):
        texts += [_whipsaw(f"q{i}", "v", f"s{i}") for _ in range(3)]
        texts += [_whipsaw(f"q{i}", "v", "x") for _ in range(3)]
    many = _by_pair(texts)
    ab = many[frozenset(("a", "b"))]
    assert ab.threshold == threshold(201, alpha=ALPHA, min_z=MIN_Z) > alone.threshold  # type: ignore[attr-defined]
    assert ab.z < ab.threshold and not ab.flagged  # type: ignore[attr-defined]
    assert not any(v.flagged for v in many.values())  # type: ignore[attr-defined]
