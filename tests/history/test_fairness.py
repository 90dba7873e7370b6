"""Deck proofs by positions (docs/fairness.md, RULES.md §11.4, R184, R262): every hand of every game
verifies from every copy of its history; a player's copy opens only the cards he may see; any tampered
card, salt, leaf, root or order fails."""

from __future__ import annotations

import json
import random
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.engine import Betting, HandState, ListDeck, RakeRule, SeatSetup, Structure
from pokerroom.engine.events import BoardDealt, CardsDealt, CardsShown, Drew, Mucked
from pokerroom.history import (
    DeckProof,
    HandContext,
    parse_proof,
    read_phh,
    verify_hand,
    write_phh,
    write_pokerstars,
)
from pokerroom.history.deckproof import SeedPart, leaf_hash, root_hash
from pokerroom.server.fairness import DeckSeal
from pokerroom.variants import VARIANTS

from ..engine.helpers import default_stakes, random_command
from .helpers import CASES


def _hand(game: str, betting: Betting, seed: int) -> HandState:
    v = VARIANTS[game]
    rng = random.Random(seed)
    n = rng.randint(v.min_players, v.max_players)
    seats = sorted(rng.sample(range(1, 11), n))
    hand = HandState.start(
        variant=v,
        structure=Structure(betting, default_stakes(game, betting)),
        seats=[
            SeatSetup(s, rng.choice([40, 300, 5000, rng.randint(1, 20000)]), rng.random() < 0.7)
            for s in seats
        ],
        deck=ListDeck.shuffled(v.deck_for(n), rng, reshuffle=v.is_draw),
        button=rng.choice(seats),
        rake=RakeRule(500, 300) if rng.random() < 0.3 else None,
        hand_id=f"h{seed}",
        run_it_twice=v.has_shared_board,  # R-RIT: a second run's cards come from the committed deck too
    )
    while not hand.is_over:
        hand.apply(random_command(hand, rng))
    return hand


def _copies(hand: HandState, proof: DeckProof) -> list[str]:
    """The audit copy and each player's copy, with the proof."""
    ctx = HandContext(hand_id=hand.hand_id, proof=proof)
    return [write_phh(hand, viewer=None, context=ctx)] + [
        write_phh(hand, viewer=seat, context=ctx) for seat in hand.order
    ]


def _proof_data(text: str) -> dict[str, Any]:
    line = next(x for x in text.splitlines() if x.startswith("_deck_proof = "))
    data: dict[str, Any] = json.loads(json.loads(line.removeprefix("_deck_proof = ")))
    return data


def _with_proof(text: str, proof: str) -> str:
    return (
        "\n".join(
            f"_deck_proof = {json.dumps(proof)}" if line.startswith("_deck_proof = ") else line
            for line in text.splitlines()
        )
        + "\n"
    )


def _canon(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _refit(data: dict[str, Any]) -> dict[str, Any]:
    """Recompute every opened leaf and the root: a forger's proof that hangs together."""
    for label in ("deck", "reshuffle"):
        part = data.get(label)
        if part is not None:
            for i, card, salt in part["open"]:
                part["leaves"][i] = leaf_hash(label, i, card, salt)
    proof = parse_proof(_canon(data) if "root" in data else "")
    data["root"] = root_hash(proof.spec, proof.seed, proof.leaves, proof.reshuffle_leaves)
    return data


def _may_see(hand: HandState, seat: int) -> set[str]:
    """An independent oracle (RULES.md R182, R184): the cards a player dealt in may know after the hand."""
    out: set[str] = set()
    for e in hand.events:
        if isinstance(e, BoardDealt | CardsShown):
            out |= {str(c) for c in e.cards}
        elif isinstance(e, CardsDealt):
            out |= {str(c) for c, up in zip(e.cards, e.up, strict=True) if up or e.seat == seat}
        elif isinstance(e, Drew) and e.seat == seat:
            out |= {str(c) for c in e.received}
        elif isinstance(e, Mucked):
            out |= {str(c) for c in e.cards if c is not None}
    return out


cases = st.sampled_from(CASES)
seeds = st.integers(min_value=0, max_value=2**32)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases, seed=seeds)
def test_every_hand_verifies_from_every_copy(case: tuple[str, Betting], seed: int) -> None:
    game, betting = case
    hand = _hand(game, betting, seed)
    seal = DeckSeal(hand)
    for text in _copies(hand, seal.proof()):
        verdict = verify_hand(read_phh(text), commitment=seal.commitment)
        assert verdict.ok, (game, betting, seed, verdict.problems)
    audit = verify_hand(read_phh(_copies(hand, seal.proof())[0]))
    assert audit.checked > 0 and audit.notes == []


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases, seed=seeds)
def test_a_players_proof_opens_only_cards_he_may_see(case: tuple[str, Betting], seed: int) -> None:
    """R184 / R262: no opening names a card folded by another player, a burn or another's discard."""
    game, betting = case
    hand = _hand(game, betting, seed)
    seal = DeckSeal(hand)
    for seat, text in zip(hand.order, _copies(hand, seal.proof())[1:], strict=True):
        data = _proof_data(text)
        opened = {c for _, c, _ in data["deck"]["open"]}
        opened |= {c for _, c, _ in data.get("reshuffle", {"open": []})["open"]}
        assert opened <= _may_see(hand, seat), (game, seed, seat, opened - _may_see(hand, seat))
        assert "server_seed" not in data.get("seed", {})
    audit = _proof_data(_copies(hand, seal.proof())[0])
    assert len(audit["deck"]["open"]) == len(audit["deck"]["leaves"])  # the auditor's full opening


def test_a_folded_hand_is_not_in_the_other_players_proof() -> None:
    """Defect 1 of issue 34: two players, one folds preflop; the other's proof, his history and his text
    export do not name the folded cards (before issue 34 the revealed deck gave them away)."""
    for seed in range(40):
        hand = _hand("holdem", Betting.NO_LIMIT, seed)
        folded = [s for s in hand.order if hand.players[s].folded]
        if folded:
            break
    else:
        pytest.fail("no hand with a fold")
    gone = folded[0]
    secret = {str(c) for c in hand.players[gone].hole}
    seal = DeckSeal(hand)
    ctx = HandContext(hand_id=hand.hand_id, proof=seal.proof())
    for seat in hand.order:
        if seat == gone:
            continue
        phh = write_phh(hand, viewer=seat, context=ctx)
        stars = write_pokerstars(hand, ctx, viewer=seat)
        tokens = set(phh.replace('"', " ").replace(",", " ").split()) | set(stars.replace('"', " ").split())
        assert not secret & tokens - _may_see(hand, seat), seat


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases, seed=seeds, data=st.data())
def test_a_tampered_opening_fails(case: tuple[str, Betting], seed: int, data: st.DataObject) -> None:
    """Any opened card or salt changed: its leaf does not match; with every leaf and the root recomputed
    to fit, the root is not the one published at the start."""
    game, betting = case
    hand = _hand(game, betting, seed)
    seal = DeckSeal(hand)
    texts = _copies(hand, seal.proof())
    text = texts[data.draw(st.integers(0, len(texts) - 1))]
    proof = _proof_data(text)
    opening = data.draw(st.sampled_from(proof["deck"]["open"]))
    if data.draw(st.booleans()):
        opening[2] = data.draw(
            st.text("0123456789abcdef", min_size=32, max_size=32).filter(lambda s: s != opening[2])
        )
    else:
        others = [
            c
            for c in (str(x) for x in hand.deck.spec.cards())
            if c not in {o[1] for o in proof["deck"]["open"]}
        ]
        if not others:
            return
        opening[1] = data.draw(st.sampled_from(others))
    loose = verify_hand(read_phh(_with_proof(text, _canon(proof))), commitment=seal.commitment)
    assert not loose.ok
    assert any("does not hash to its leaf" in p for p in loose.problems), loose.problems
    refit = verify_hand(read_phh(_with_proof(text, _canon(_refit(proof)))), commitment=seal.commitment)
    assert not refit.ok
    assert any("not the one published at the start" in p for p in refit.problems)


def test_a_swapped_order_with_a_refitted_root_names_the_card() -> None:
    """The audit copy with its first two positions swapped (leaves and root recomputed): the cards of the
    history are not the deck's in order, and the root is not the published one."""
    hand = _hand("holdem", Betting.NO_LIMIT, 7)
    seal = DeckSeal(hand)
    audit = _copies(hand, seal.proof())[0]
    proof = _proof_data(audit)
    first, second = proof["deck"]["open"][0], proof["deck"]["open"][1]
    first[1], second[1] = second[1], first[1]
    text = _with_proof(audit, _canon(_refit(proof)))
    verdict = verify_hand(read_phh(text))
    assert not verdict.ok
    assert verdict.problems[0] == (
        f"card 1 of the deal (a hole card to p1): the history has {second[1]}, the deck has {first[1]}"
    )
    assert any(
        "not the one published" in p for p in verify_hand(read_phh(text), commitment=seal.commitment).problems
    )


def test_a_player_proof_that_opens_a_hidden_card_is_refused() -> None:
    """A player's copy carrying the opening of another player's folded card breaks R184: verify says so."""
    for seed in range(40):
        hand = _hand("holdem", Betting.NO_LIMIT, seed)
        if any(hand.players[s].folded for s in hand.order):
            break
    seat = hand.order[0]
    seal = DeckSeal(hand)
    text = write_phh(hand, viewer=seat, context=HandContext(hand_id=hand.hand_id, proof=seal.proof()))
    proof = _proof_data(text)
    full = seal.proof()
    opened = {o[0] for o in proof["deck"]["open"]}
    extra = next(o for o in full.openings[: 2 * len(hand.order)] if o[0] not in opened)
    proof["deck"]["open"] = sorted([*proof["deck"]["open"], list(extra)])
    verdict = verify_hand(read_phh(_with_proof(text, _canon(proof))), commitment=seal.commitment)
    assert not verdict.ok
    assert any("this history hides it (R184)" in p for p in verdict.problems), verdict.problems


def test_a_history_without_a_proof_says_so() -> None:
    hand = _hand("holdem", Betting.NO_LIMIT, 3)
    verdict = verify_hand(read_phh(write_phh(hand)))
    assert not verdict.ok
    assert verdict.problems == ["the history has no deck proof (_deck_proof)"]


@pytest.mark.parametrize("game", ["holdem", "stud", "deuce7_triple"])
def test_the_text_export_carries_the_players_proof(game: str) -> None:
    v = VARIANTS[game]
    hand = _hand(game, v.structures[0], 11)
    seal = DeckSeal(hand)
    ctx = HandContext(hand_id="1", proof=seal.proof())
    seat = hand.order[0]
    text = write_pokerstars(hand, ctx, viewer=seat)
    tail = text.rstrip("\n").splitlines()[-2:]
    mine = seal.proof().for_viewer(hand.events, seat)
    assert tail == [f"Deck root (SHA-256): {seal.commitment}", f"Deck proof: {mine.to_text()}"]
    assert parse_proof(tail[1].removeprefix("Deck proof: ")) == mine
    assert not mine.full


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases, seed=seeds)
def test_every_players_proof_from_one_walk_opens_the_cards_his_copy_names(
    case: tuple[str, Betting], seed: int
) -> None:
    """R182 / R184: the proofs the server sends at the end of a hand (``for_viewers``: one walk over the
    events for every player dealt in) open, for each player, exactly the cards his own copy of the history
    names, each at its position; and each is the proof ``for_viewer`` gives him alone."""
    game, betting = case
    hand = _hand(game, betting, seed)
    proof = DeckSeal(hand).proof()
    proofs = proof.for_viewers(hand.events, hand.order)
    assert list(proofs) == list(hand.order)
    full = {(i, c) for i, c, _ in proof.openings}
    for seat in hand.order:
        mine = proofs[seat]
        assert mine == proof.for_viewer(hand.events, seat)
        named = {
            str(c) for a in read_phh(write_phh(hand, viewer=seat)).actions for c in a.cards if c is not None
        }
        opened = {c for _, c, _ in mine.openings} | {c for _, c, _ in mine.reshuffle_openings}
        assert opened == named, (game, betting, seed, seat, opened ^ named)
        assert {(i, c) for i, c, _ in mine.openings} <= full
        assert mine.seed is None or mine.seed.server_seed is None


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases, seed=seeds, seeded=st.booleans(), stub=st.booleans())
def test_a_proofs_text_is_its_data_written_canonically(
    case: tuple[str, Betting], seed: int, seeded: bool, stub: bool
) -> None:
    """``DeckProof.to_text`` writes the proof's own tuples rather than ``to_data``'s lists: the same text
    (sorted keys, no spaces), for the auditor's proof and every player's, with a reshuffle (draw games),
    seeds and the stub or without them."""
    game, betting = case
    hand = _hand(game, betting, seed)
    rng = random.Random(seed)
    part = (
        SeedPart(
            f"{rng.getrandbits(256):064x}",
            tuple((s, f"{rng.getrandbits(256):064x}", rng.choice(["player", "server"])) for s in (1, 4)),
            f"{rng.getrandbits(256):064x}" if rng.random() < 0.5 else None,
        )
        if seeded
        else None
    )
    deck = hand.deck.to_data()
    cards = deck["cards"].split()
    again = deck["reshuffle"].split() if hand.variant.is_draw else None
    salts = iter(f"{n:032x}" for n in range(200)).__next__
    proof = DeckProof.seal(cards, again, salt=salts, seed=part, stub=stub)
    proofs = [proof, *proof.for_viewers(hand.events, sorted(hand.players)).values()]
    for p in proofs:
        assert p.to_text() == orjson.dumps(p.to_data(), option=orjson.OPT_SORT_KEYS).decode()
        assert orjson.loads(p.to_text()) == p.to_data()
