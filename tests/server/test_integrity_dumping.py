"""Issue 30, item 2: chip dumping found in the hands. Unit tests of the score on hand-made audit histories
(a clear dumper, one who calls all-ins with trash, an honest pair, a pair that merely plays many hands
together); then the planted dumper of the bots package played on the server's harness, read back from
the stored audit histories and by ``pokerroom integrity report``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pokerroom.bots.dumping import Seat, dumping_field
from pokerroom.bots.planted import plant
from pokerroom.cards import parse_cards
from pokerroom.eval import equity
from pokerroom.history import read_phh
from pokerroom.server.integrity.dumping import MIN_FLOW_BB, Shares, dumping_findings, flows_of, suspects_of

from .harness import EPOCH
from .planted_room import integrity_report, open_planted_room

AA, KK, TRASH, AK = "AsAh", "KsKh", "7c2d", "AdKc"


def _hand(
    names: tuple[str, str],
    holes: tuple[str, str],
    actions: list[str],
    finish: tuple[int, int],
    stacks: tuple[int, int] = (200, 200),
) -> str:
    """A heads-up no-limit hold'em audit history: blinds 1/2, stacks 200, ``p1`` the small blind."""
    lines = [f'"d dh p{i + 1} {h}"' for i, h in enumerate(holes)] + [f'"{a}"' for a in actions]
    return "\n".join(
        [
            'variant = "NT"',
            "antes = [0, 0]",
            "blinds_or_straddles = [1, 2]",
            "min_bet = 2",
            f"starting_stacks = [{stacks[0]}, {stacks[1]}]",
            f"actions = [{', '.join(lines)}]",
            f'players = ["{names[0]}", "{names[1]}"]',
            f"finishing_stacks = [{finish[0]}, {finish[1]}]",
        ]
    )


def _fold_strong(giver: str, taker: str) -> str:
    # the giver raises to 20 (10 big blinds) with aces, the taker re-raises with 7-2, the giver folds
    return _hand((giver, taker), (AA, TRASH), ["p1 cbr 20", "p2 cbr 60", "p1 f"], (180, 220))


def _fold_weak(giver: str, taker: str) -> str:
    # an ordinary fold: trash to aces. The giver limps, the taker raises to 8 with aces, the giver re-raises
    # to 20 and folds to 60: the aces facing the re-raise with 6 of their own chips in are a chance of the
    # taker's to give, not taken (the trash's folds are no chance: not strong)
    return _hand(
        (giver, taker), (TRASH, AA), ["p1 cc", "p2 cbr 8", "p1 cbr 20", "p2 cbr 60", "p1 f"], (180, 220)
    )


def _call_allin_trash(giver: str, taker: str) -> str:
    # the taker moves all in with aces and the giver calls with 7-2 (the board gives it to the taker)
    return _hand((giver, taker), (TRASH, AA), ["p1 cc", "p2 cbr 200", "p1 cc", "d db 3h8s9dJcQd"], (0, 400))


def _parsed(texts: list[str]) -> list[tuple[str, object]]:
    return [(f"h{i}", read_phh(t)) for i, t in enumerate(texts)]


def _by_pair(texts: list[str]) -> dict[tuple[str, str], object]:
    return {(f.giver, f.taker): f for f in dumping_findings(_parsed(texts))}  # type: ignore[arg-type]


def test_a_strong_fold_to_a_raise_is_suspect_and_a_weak_one_is_not() -> None:
    strong = suspects_of("h1", read_phh(_fold_strong("d", "t")))
    # the taker's re-raise with 7-2 faced a bet, but is no chance to give: his hand is not strong
    assert [(s.giver, s.taker, s.kind, s.chance, s.suspect) for s in strong] == [
        ("t", "d", "fold", False, False),
        ("d", "t", "fold", True, True),
    ]
    assert strong[1].share is not None and strong[1].share > 0.8  # aces against 7-2
    # trash folded is no chance; the aces re-raising over the trash are one, not taken; the limper's
    # re-raise (one chip of his own in the pot: less than a big blind at stake) is not judged
    weak = suspects_of("h2", read_phh(_fold_weak("d", "t")))
    assert [(s.giver, s.kind, s.chance, s.took, s.stake) for s in weak] == [
        ("d", "fold", False, False, 1),
        ("t", "fold", True, False, 6),
        ("d", "fold", False, True, 19),
    ]
    assert weak[0].share is None and weak[1].share is not None
    assert flows_of(read_phh(_fold_strong("d", "t"))) == {("d", "t"): 10.0}  # 20 chips, big blind 2


def test_a_clear_dumper_is_flagged_with_the_hands_that_show_it() -> None:
    # d folds aces to t ten times; against x he folds trash half of the time he faces a bet and
    # re-raises with aces the other half (his habit: a fold to half the bets he faces)
    texts = [_fold_strong("d", "t") for _ in range(10)]
    texts += [_fold_weak("d", "x") for _ in range(10)] + [_fold_weak("x", "d") for _ in range(10)]
    found = _by_pair(texts)
    f = found[("d", "t")]
    assert f.flagged and f.suspect == 10 and f.faced == 10  # type: ignore[attr-defined]
    assert f.hands == tuple(f"h{i}" for i in range(10)) and f.flow_bb == 100.0  # type: ignore[attr-defined]
    assert f.z >= 3.0  # type: ignore[attr-defined]
    # two such folds are not: fewer than three is chance
    assert not _by_pair(texts[8:])[("d", "t")].flagged  # type: ignore[attr-defined]
    assert [k for k, v in found.items() if v.flagged] == [("d", "t")]  # type: ignore[attr-defined]


def test_a_player_who_folds_weak_hands_often_is_judged_by_his_strong_ones() -> None:
    # The defect of the first score: it expected a strong fold as often as the giver folds ANY hand to
    # others (here 20 of 30: trash folded), so six folds of aces to t scored z 2.2 and were not flagged.
    # His strong hands against others (aces re-raised, 10 of 10) are what predicts his strong folds.
    texts = [_fold_strong("d", "t") for _ in range(6)]
    texts += [_fold_weak("d", "x") for _ in range(20)] + [_fold_weak("x", "d") for _ in range(10)]
    f = _by_pair(texts)[("d", "t")]
    assert f.suspect == 6 and f.faced == 6 and f.z >= 3.0 and f.flagged  # type: ignore[attr-defined]
    # ... and a player who folds his strong hands to everybody is not flagged for folding them to t
    timid = [_fold_strong("d", "t") for _ in range(6)] + [_fold_strong("d", "x") for _ in range(10)]
    assert not _by_pair(timid)[("d", "t")].flagged  # type: ignore[attr-defined]


def test_a_calling_station_is_not_expected_to_fold_strong_hands() -> None:
    # d calls every all-in with trash, against x and y alike (an honest calling station: no pair of his
    # is flagged for it), and folds aces only to t. His call rate says nothing of his folds: each kind of
    # chance is measured against the same kind (the first score mixed them: z 1.8, not flagged).
    texts = [_call_allin_trash("d", o) for o in ("x", "y") * 5]
    texts += [_fold_weak("x", "d") for _ in range(10)] + [_fold_strong("d", "t") for _ in range(5)]
    found = _by_pair(texts)
    assert found[("d", "t")].flagged  # type: ignore[attr-defined]
    assert not found[("d", "x")].flagged and not found[("d", "y")].flagged  # type: ignore[attr-defined]


def test_a_timid_player_facing_a_maniac_is_not_flagged() -> None:
    # d folds 7 of his 10 strong hands to x (an honest, timid style) and 14 of 15 to t, who raises every
    # hand (y re-raises t's trash). A rate measured on 10 chances is no exact prediction: taken as one
    # (without the old score's rate of any fold, which hid it) this scored z 3.2 and flagged an honest pair.
    texts = [_fold_strong("d", "x") for _ in range(7)] + [_fold_weak("x", "d") for _ in range(3)]
    texts += [_fold_strong("d", "t") for _ in range(14)] + [_fold_weak("t", "d")]
    texts += [_fold_weak("t", "y") for _ in range(10)]
    f = _by_pair(texts)[("d", "t")]
    assert f.suspect == 14 and f.faced == 15 and not f.flagged  # type: ignore[attr-defined]
    assert 2.0 < f.z < 3.0  # type: ignore[attr-defined]


def test_a_giver_who_declines_some_chances_is_not_flagged_however_certain_the_excess() -> None:
    # d folds aces to t 36 times and re-raises them 4 times; against x he folds half his strong hands. The
    # excess is certain (z far over 3, as over thousands of hands a style that differs a little from
    # opponent to opponent is), but a dumper gives whenever he can: under MIN_TAKEN (95 %) of the chances
    # taken is no dump (the score without that floor flagged it)
    texts = [_fold_strong("d", "t") for _ in range(36)] + [_fold_weak("t", "d") for _ in range(4)]
    texts += [_fold_strong("d", "x") for _ in range(10)] + [_fold_weak("x", "d") for _ in range(10)]
    f = _by_pair(texts)[("d", "t")]
    assert f.suspect == 36 and f.faced == 40 and f.z >= 3.0 and f.flow_bb >= MIN_FLOW_BB  # type: ignore[attr-defined]
    assert not f.flagged  # type: ignore[attr-defined]
    # every chance taken: flagged
    texts = [_fold_strong("d", "t") for _ in range(40)] + texts[40:]
    assert _by_pair(texts)[("d", "t")].flagged  # type: ignore[attr-defined]


def test_a_fold_with_none_of_his_own_chips_at_stake_is_no_chance() -> None:
    # d folds aces from the big blind to t's raise, twelve times: 12 big blinds to t, but none of them d's
    # own beyond his blind (an honest player squeezed, or one who folds to a maniac's raises, does this; a
    # fold passes on only what the folder put in). The score that judged every fold flagged it
    # (12 of 12, flow 12 big blinds); a fold is a chance only with MIN_STAKE_BB of his own in the pot
    squeezed = _hand(("t", "d"), (TRASH, AA), ["p1 cbr 20", "p2 f"], (202, 198))
    [s] = suspects_of("h0", read_phh(squeezed))
    assert (s.giver, s.taker, s.kind, s.stake, s.share, s.chance, s.took) == (
        "d",
        "t",
        "fold",
        0,
        None,
        False,
        True,
    )
    texts = [squeezed for _ in range(12)] + [_fold_weak("x", "d") for _ in range(10)]
    assert ("d", "t") not in _by_pair(texts)
    # the same folds after a raise of his own (19 chips at stake) are chances, taken: flagged
    texts = [_fold_strong("d", "t") for _ in range(12)] + [_fold_weak("x", "d") for _ in range(10)]
    assert _by_pair(texts)[("d", "t")].flagged  # type: ignore[attr-defined]


def test_the_price_of_a_call_counts_only_the_chips_he_can_win() -> None:
    # d (100 chips) raises to 20 with A-T, t re-raises to 300: d can call only 80 more, and t's 200 beyond
    # that go back to him. The price is 80 / (100 + 100) = 0.4, not 80 / (320 + 80) = 0.2: with a share of
    # 0.64 against t's K-9 a fold at 0.4 is no chance (the margin is under 0.25); at 0.2 it was one
    text = _hand(
        ("d", "t"), ("AhTd", "Kc9s"), ["p1 cbr 20", "p2 cbr 300", "p1 f"], (80, 420), stacks=(100, 400)
    )
    [s] = [x for x in suspects_of("h0", read_phh(text)) if x.giver == "d"]
    assert s.price == pytest.approx(0.4) and s.share is not None and 0.6 < s.share < 0.65
    assert s.stake == 19 and not s.chance
    # facing an all-in bigger than his stack the same: 180 to call into his 20 and t's 200, not t's 400
    allin = _hand(("d", "t"), (TRASH, AA), ["p1 cbr 20", "p2 cbr 400", "p1 cc"], (0, 600), stacks=(200, 400))
    [c] = [x for x in suspects_of("h1", read_phh(allin)) if x.giver == "d"]
    assert c.kind == "call" and c.price == pytest.approx(180 / 400) and c.chance and c.took


def test_the_shares_are_exact_after_the_flop_and_seeded_before_it() -> None:
    hand = read_phh(_fold_strong("d", "t"))
    shares = Shares()

    def exact(mine: str, his: str, board: str) -> float:
        return equity("holdem", [mine, his], board, exact=True).hands[0].share

    for mine, his, board in [
        ("AsAh", "7c2d", "3h8s9dJc"),  # the turn: every river card
        ("Td9d", "AcKc", "2d5dJsQh"),  # a flush draw against two overcards
        ("AsAh", "7c2d", "3h8s9dJcQd"),
        ("7s7h", "7d7c", "2h3h4h5sKd"),  # a tie: half the pot each
        ("AsAh", "7c2d", "3h8s9d"),
    ]:
        got = shares.share(hand, parse_cards(mine), parse_cards(his), parse_cards(board), "k")
        assert got == pytest.approx(exact(mine, his, board), abs=1e-12)
    # before the flop: a seeded sample of the matchup (1,000 deals: off the exact share by 0.014 on average
    # over random matchups, here by 0.032), the same for the same matchup up to its suits and the order of
    # the cards, whatever the hand
    pre = shares.share(hand, parse_cards("AsKh"), parse_cards("QsQd"), [], "k1")
    again = Shares().share(hand, parse_cards("KcAd"), parse_cards("QhQd"), [], "k2")
    assert pre == again and pre == pytest.approx(exact("AsKh", "QsQd", ""), abs=0.04)
    assert Shares().share(hand, parse_cards("AsKh"), parse_cards("QhQd"), [], "k1") != pre  # another matchup


def test_a_fold_squeezed_between_two_other_raisers_is_no_chance() -> None:
    # three-handed: d (small blind) raises to 10 with aces, x re-raises to 30, t re-raises x to 90 and d
    # folds: t's raise was over x's, and the chips go to whichever of the two wins. The score that judged
    # such folds flagged an honest player caught between a planted dumper's raise and his taker's re-raise
    # (23 of 24 strong hands folded to the taker after 5,566 hands of a 48-player field)
    text = "\n".join(
        [
            'variant = "NT"',
            "antes = [0, 0, 0]",
            "blinds_or_straddles = [1, 2, 0]",
            "min_bet = 2",
            "starting_stacks = [200, 200, 200]",
            'actions = ["d dh p1 AsAh", "d dh p2 4c3d", "d dh p3 7c2d", "p3 cc", "p1 cbr 10", "p2 cbr 30",'
            ' "p3 cbr 90", "p1 f", "p2 f"]',
            'players = ["d", "x", "t"]',
            "finishing_stacks = [190, 170, 240]",
        ]
    )
    folds = [s for s in suspects_of("h0", read_phh(text)) if s.giver == "d" and s.took]
    assert [(s.taker, s.stake, s.squeezed, s.share, s.chance) for s in folds] == [("t", 9, True, None, False)]
    texts = [text for _ in range(12)] + [_fold_weak("y", "d") for _ in range(10)]
    assert ("d", "t") not in _by_pair(texts)
    # the same fold when t re-raised d's own raise (heads-up) is a chance, taken: flagged
    texts = [_fold_strong("d", "t") for _ in range(12)] + [_fold_weak("y", "d") for _ in range(10)]
    assert _by_pair(texts)[("d", "t")].flagged  # type: ignore[attr-defined]


def test_calls_of_all_ins_with_hopeless_hands_are_flagged() -> None:
    texts = [_call_allin_trash("d", "t") for _ in range(4)] + [_fold_weak("x", "d") for _ in range(12)]
    s = suspects_of("h0", read_phh(texts[0]))
    assert [(x.giver, x.kind, x.suspect) for x in s] == [("d", "call", True)]
    f = _by_pair(texts)[("d", "t")]
    assert f.flagged and f.suspect == 4 and f.flow_bb == 400.0  # type: ignore[attr-defined]


def test_the_rule_needs_each_of_its_conditions() -> None:
    # folds without a baseline against others: no opinion (his habit is unknown)
    assert not _by_pair([_fold_strong("d", "t") for _ in range(8)])[("d", "t")].flagged  # type: ignore[attr-defined]
    base = [_fold_weak("x", "d") for _ in range(10)]  # he re-raises x's raises with aces
    # two suspect folds: fewer than three is chance
    assert not _by_pair([_fold_strong("d", "t") for _ in range(2)] + base)[("d", "t")].flagged  # type: ignore[attr-defined]
    # four suspect folds, flagged; but not when t gave the chips back (calling d's all-in with trash)
    folds = [_fold_strong("d", "t") for _ in range(4)] + base
    assert _by_pair(folds)[("d", "t")].flagged  # type: ignore[attr-defined]
    back = [_hand(("t", "d"), (TRASH, AA), ["p1 cc", "p2 cbr 200", "p1 cc", "d db 3h8s9dJcQd"], (0, 400))]
    f = _by_pair(folds + back)[("d", "t")]
    assert f.suspect == 4 and f.flow_bb == 40.0 - 100.0 and not f.flagged  # type: ignore[attr-defined]


def test_an_honest_pair_is_not_flagged() -> None:
    # each folds trash to the other; once each folded kings to a raise (a good laydown gone wrong)
    texts = [_fold_weak("a", "b"), _fold_weak("b", "a")] * 10
    texts += [_hand(("a", "b"), (KK, AK), ["p1 cbr 20", "p2 cbr 60", "p1 f"], (180, 220))]
    texts += [_hand(("b", "a"), (KK, AK), ["p1 cbr 20", "p2 cbr 60", "p1 f"], (180, 220))]
    assert not any(f.flagged for f in dumping_findings(_parsed(texts)))  # type: ignore[arg-type]


def test_a_pair_that_plays_many_hands_together_is_not_flagged() -> None:
    # 200 hands heads-up, chips going both ways, a few strong folds each way at a like rate
    rng = random.Random(3)
    texts = []
    for i in range(200):
        a, b = ("a", "b") if i % 2 else ("b", "a")
        texts.append(_fold_strong(a, b) if rng.random() < 0.05 else _fold_weak(a, b))
    found = dumping_findings(_parsed(texts))  # type: ignore[arg-type]
    assert found and not any(f.flagged for f in found)
    assert all(abs(f.flow_bb) < MIN_FLOW_BB * 4 for f in found)


@pytest.mark.asyncio
async def test_the_planted_dumper_is_found_in_the_stored_hands_and_no_honest_pair_is(tmp_path: Path) -> None:
    path = tmp_path / "dumping.db"
    h, _ = await open_planted_room(path, seed=7)
    table = "holdem-nl"
    try:
        honest = [("hon1", "caller"), ("hon2", "random"), ("hon3", "strength"), ("hon4", "random")]
        for i, (name, strategy) in enumerate(honest):
            await h.cash_bot(name, table, strategy, seed=i)
        dumper = await h.cash_bot("dumper", table, "caller", seed=10)
        taker = await h.cash_bot("taker", table, "caller", seed=11)
        pair = [Seat("dumper", "dumper", "taker", 0), Seat("taker", "taker", "dumper", 0)]
        plant(pair, {"dumper": dumper.bot, "taker": taker.bot})
        await h.run(lambda: h.room.tables[table].table.hand_count >= 150, seconds=7200)
        stored = await h.store.audit_hands.since(EPOCH)
    finally:
        await h.close()
    found = dumping_findings((hid, read_phh(text)) for hid, text in stored)
    assert len(stored) >= 145  # (the hand in progress is not stored)
    flagged = [(f.giver, f.taker) for f in found if f.flagged]
    assert flagged == [("dumper", "taker")]  # found; no honest pair flagged
    evidence = next(f for f in found if f.flagged)
    assert set(evidence.hands) <= {hid for hid, _ in stored} and len(evidence.hands) >= 3
    code, output = await integrity_report(
        path, "--min-decisions", "100000", "--json", "--evidence", str(tmp_path / "evidence")
    )
    assert code == 1, output
    report = json.loads(output)
    rows = [r for r in report["chip_dumping"] if r["flagged"]]
    assert [(r["giver"], r["taker"]) for r in rows] == [("dumper", "taker")]
    assert rows[0]["hands"] == list(evidence.hands)
    # the pair is also raising the others out between them (the taker re-raises every raise of the
    # dumper): the collusive-betting detector may flag it too, and no other pair (whipsaw.py)
    whipsaws = [r for r in report["collusive_betting"] if r["flagged"]]
    assert all(sorted(r["players"]) == ["dumper", "taker"] for r in whipsaws)
    assert not any(r["flagged"] for r in report["soft_play"])
    assert report["flagged"] == 1 + len(whipsaws)
    code, text = await integrity_report(path, "--min-decisions", "100000")
    assert code == 1 and "1 flagged" in text
    assert f"FLAGGED dumper -> taker: {rows[0]['suspect']} suspect of" in text
    written = sorted(p.stem for p in (tmp_path / "evidence").iterdir())
    assert written == sorted(set(evidence.hands).union(*(r["hands"] for r in whipsaws)))
    assert read_phh((tmp_path / "evidence" / f"{written[0]}.phh").read_text()).players  # the audit copy


def test_the_planted_field_is_seeded_and_puts_one_pair_at_the_chosen_tables() -> None:
    field = dumping_field(4, 2, seed=3)
    assert field == dumping_field(4, 2, seed=3) and len(field) == 24
    by_table = {t: [p for p in field if p.table == t] for t in range(4)}
    planted = [t for t, seats in by_table.items() if any(p.role != "honest" for p in seats)]
    assert len(planted) == 2
    for t in planted:
        roles = sorted(p.role for p in by_table[t])
        assert roles == ["dumper"] + ["honest"] * 4 + ["taker"]
        dumper = next(p for p in by_table[t] if p.role == "dumper")
        taker = next(p for p in by_table[t] if p.role == "taker")
        assert (dumper.partner, taker.partner) == (taker.name, dumper.name)
    with pytest.raises(ValueError):
        dumping_field(2, 3, seed=1)
