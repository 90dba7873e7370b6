"""The deal no one chooses (docs/fairness.md "The seeds", RULES.md §11.4, R262): decks dealt from a
committed server seed and the players' contributions verify for every player and for an auditor, of every
kind of game (draw games with their reshuffle order included); tampering with the server seed, a
contribution, a card or the order fails the audit; the dealer takes contributions only for the seed it
published, never waits for one, and fixes a silent player's default by the server seed."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.engine import Betting, HandState, SeatSetup, Structure
from pokerroom.history import HandContext, read_phh, verify_hand, write_phh
from pokerroom.history.deckproof import leaf_hash, root_hash
from pokerroom.history.seeds import combined_seed, dealt_orders, default_contribution
from pokerroom.rooms.dealing import deal_deck
from pokerroom.server.errors import Refused
from pokerroom.server.fairdeal import DealingRandom, FairDealer
from pokerroom.server.fairness import DeckSeal
from pokerroom.variants import VARIANTS

from ..engine.helpers import default_stakes, random_command
from .helpers import CASES


def _counter() -> Any:
    n = iter(range(10**9))
    return lambda size: hashlib.sha256(str(next(n)).encode()).digest()[:size]


def _dealt(
    game: str, betting: Betting, seed: int, *, contribute: bool
) -> tuple[HandState, DeckSeal, dict[int, str]]:
    """A hand dealt by the room's dealer at a table, played out at random; some players contribute."""
    v = VARIANTS[game]
    rng = random.Random(seed)
    dealing = DealingRandom(rng, FairDealer(_counter()))
    n = rng.randint(v.min_players, v.max_players)
    seats = sorted(rng.sample(range(1, 11), n))
    players = {s: f"p{s}" for s in seats}
    published = dealing.dealer.commitment("t1")
    sent = {}
    for s in seats:
        if contribute and rng.random() < 0.6:
            sent[s] = rng.getrandbits(256).to_bytes(32, "big").hex()
            dealing.dealer.contribute("t1", players[s], published, sent[s])
    hand_id = f"t1-{seed}"
    hand = HandState.start(
        variant=v,
        structure=Structure(betting, default_stakes(game, betting)),
        seats=[SeatSetup(s, rng.choice([40, 300, 5000]), True) for s in seats],
        deck=deal_deck(
            dealing, v.deck_for(n), reshuffle=v.is_draw, key="t1", hand_id=hand_id, players=players
        ),
        button=rng.choice(seats),
        hand_id=hand_id,
        run_it_twice=v.has_shared_board,
    )
    while not hand.is_over:
        hand.apply(random_command(hand, rng))
    seeds = dealing.dealer.seeds_of(hand_id)
    assert seeds is not None and seeds.key == "t1" and seeds.part.commitment == published
    assert seeds.next_seed == dealing.dealer.commitment("t1") != published  # the next hand's, drawn now
    return hand, DeckSeal(hand, seeds=seeds), sent


def _texts(hand: HandState, seal: DeckSeal) -> list[str]:
    ctx = HandContext(hand_id=hand.hand_id, proof=seal.proof())
    return [write_phh(hand, viewer=None, context=ctx)] + [
        write_phh(hand, viewer=s, context=ctx) for s in hand.order
    ]


def _proof(text: str) -> dict[str, Any]:
    line = next(x for x in text.splitlines() if x.startswith("_deck_proof = "))
    data: dict[str, Any] = json.loads(json.loads(line.removeprefix("_deck_proof = ")))
    return data


def _with(text: str, proof: dict[str, Any]) -> str:
    canon = json.dumps(proof, sort_keys=True, separators=(",", ":"))
    return (
        "\n".join(
            f"_deck_proof = {json.dumps(canon)}" if x.startswith("_deck_proof = ") else x
            for x in text.splitlines()
        )
        + "\n"
    )


def _reroot(proof: dict[str, Any]) -> dict[str, Any]:
    """Refit every leaf and the root to the (changed) openings and seeds: a forger's best effort."""
    from pokerroom.history import SeedPart

    for label in ("deck", "reshuffle"):
        if label in proof:
            for i, card, salt in proof[label]["open"]:
                proof[label]["leaves"][i] = leaf_hash(label, i, card, salt)
    s = proof["seed"]
    part = SeedPart(s["commitment"], tuple(tuple(c) for c in s["contributions"]), s.get("server_seed"))
    again = proof.get("reshuffle", {"leaves": []})["leaves"]
    proof["root"] = root_hash(proof["spec"], part, proof["deck"]["leaves"], again)
    return proof


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32))
def test_every_kind_of_hand_dealt_from_seeds_verifies_for_players_and_auditor(
    case: tuple[str, Betting], seed: int
) -> None:
    game, betting = case
    hand, seal, sent = _dealt(game, betting, seed, contribute=True)
    texts = _texts(hand, seal)
    audit = verify_hand(read_phh(texts[0]), commitment=seal.commitment)
    assert audit.ok, (game, seed, audit.problems)
    for seat, text in zip(hand.order, texts[1:], strict=True):
        verdict = verify_hand(read_phh(text), commitment=seal.commitment, contribution=sent.get(seat))
        assert verdict.ok, (game, seed, seat, verdict.problems)
        assert "server_seed" not in _proof(text)["seed"]  # never to a player: it gives the whole deck


def test_the_deck_is_the_combined_seeds_and_silent_players_get_the_servers_default() -> None:
    hand, seal, sent = _dealt("holdem", Betting.NO_LIMIT, 5, contribute=True)
    full = seal.proof()
    assert full.seed is not None and full.seed.server_seed is not None
    server = bytes.fromhex(full.seed.server_seed)
    assert hashlib.sha256(server).hexdigest() == full.seed.commitment
    for seat, value, origin in full.seed.contributions:
        if seat in sent:
            assert (value, origin) == (sent[seat], "player")
        else:
            assert (value, origin) == (default_contribution(server, hand.hand_id, seat).hex(), "server")
    deck, again = dealt_orders(
        combined_seed(server, hand.hand_id, full.seed.contributions), hand.deck.spec, False
    )
    assert [c for _, c, _ in full.openings] == [str(c) for c in deck] and again is None
    assert " ".join(str(c) for c in deck) == hand.deck_data()["cards"]


@pytest.mark.parametrize(
    "what", ["server_seed", "contribution", "origin", "card", "order", "seed_commitment"]
)
def test_tampering_with_seeds_or_order_fails_the_audit(what: str) -> None:
    """Each change refitted into leaves and root (a forger who republishes): the auditor's check names it,
    and against the root published at the start it fails too."""
    hand, seal, _ = _dealt("deuce7_triple", Betting.FIXED_LIMIT, 3, contribute=True)
    audit = _texts(hand, seal)[0]
    proof = _proof(audit)
    contributions = proof["seed"]["contributions"]
    if what == "server_seed":
        proof["seed"]["server_seed"] = "00" * 32
    elif what == "contribution":
        contributions[0][1] = "11" * 32
    elif what == "origin":
        contributions[0][2] = "player" if contributions[0][2] == "server" else "server"
        contributions[0][1] = "22" * 32
    elif what == "card":  # two positions' cards swapped: still a whole deck
        a, b = proof["deck"]["open"][10], proof["deck"]["open"][11]
        a[1], b[1] = b[1], a[1]
    elif what == "order":  # the reshuffle order changed
        a, b = proof["reshuffle"]["open"][0], proof["reshuffle"]["open"][1]
        a[1], b[1] = b[1], a[1]
    else:
        proof["seed"]["commitment"] = hashlib.sha256(b"another").hexdigest()
    forged = read_phh(_with(audit, _reroot(proof)))
    verdict = verify_hand(forged)
    assert not verdict.ok, what
    expected = {
        "server_seed": "SHA-256 of the server seed is not the seed commitment",
        "contribution": "is not the combined seed's",
        "origin": "is not the combined seed's",
        "card": "the deck order is not the combined seed's",
        "order": "the reshuffle order is not the combined seed's",
        "seed_commitment": "SHA-256 of the server seed is not the seed commitment",
    }[what]
    assert any(expected in p for p in verdict.problems), verdict.problems
    assert not verify_hand(forged, commitment=seal.commitment).ok


def test_a_player_whose_contribution_was_replaced_sees_it() -> None:
    hand, seal, sent = _dealt("holdem", Betting.NO_LIMIT, 9, contribute=True)
    seat = next(s for s in hand.order if s in sent)
    text = _texts(hand, seal)[1 + hand.order.index(seat)]
    verdict = verify_hand(read_phh(text), commitment=seal.commitment, contribution="33" * 32)
    assert not verdict.ok
    assert verdict.problems == [
        f"the proof's contribution for your seat is {sent[seat]} (player), not the one you sent"
    ]


def test_the_dealer_takes_contributions_only_for_the_published_seed_and_never_waits() -> None:
    dealer = FairDealer(_counter())
    first = dealer.commitment("t1")
    assert dealer.commitment("t1") == first  # the same until dealt
    with pytest.raises(Refused) as stale:
        dealer.contribute("t1", "7", hashlib.sha256(b"x").hexdigest(), "ab" * 32)
    assert stale.value.code == "stale_seed"
    with pytest.raises(Refused):
        dealer.contribute("t1", "7", first, "AB" * 32)  # not lowercase hex: refused, nothing kept
    dealer.contribute("t1", "7", first, "ab" * 32)
    dealer.contribute("t1", "7", first, "cd" * 32)  # the latest counts
    deck = dealer.deck("t1", "h1", VARIANTS["holdem"].deck, False, {1: "7", 2: "8"})  # 8 sent nothing
    assert deck.remaining() == 52
    seeds = dealer.seeds_of("h1")
    assert seeds is not None
    assert [(s, o) for s, _, o in seeds.part.contributions] == [(1, "player"), (2, "server")]
    assert seeds.part.contributions[0][1] == "cd" * 32
    with pytest.raises(Refused):  # the seed is spent: a late value goes to no hand
        dealer.contribute("t1", "8", first, "ef" * 32)
    assert dealer.commitment("t1") == seeds.next_seed != first


def test_two_places_and_two_hands_never_share_a_deck() -> None:
    dealer = FairDealer(_counter())
    decks = [
        dealer.deck(key, f"{key}-{i}", VARIANTS["holdem"].deck, False, {1: "a", 2: "b"}).to_data()["cards"]
        for key in ("t1", "t2")
        for i in range(3)
    ]
    assert len(set(decks)) == len(decks)


def test_a_draw_hand_with_a_reshuffle_verifies_for_its_players_and_the_auditor() -> None:
    """RULES.md §5.12: the discards reshuffled into a new stub are dealt in the committed reshuffle order,
    which the auditor checks against ``deal_order(combined seed, label=b"reshuffle")``."""
    from pokerroom.engine.events import Reshuffled

    for seed in range(200):
        hand, seal, sent = _dealt("deuce7_triple", Betting.FIXED_LIMIT, seed, contribute=True)
        if any(isinstance(e, Reshuffled) for e in hand.events):
            break
    else:
        pytest.fail("no reshuffle in 200 hands")
    texts = _texts(hand, seal)
    audit = verify_hand(read_phh(texts[0]), commitment=seal.commitment)
    assert audit.ok and audit.notes == [], audit.problems
    assert seal.proof().reshuffle_openings  # the order is committed and opened to the auditor
    for seat, text in zip(hand.order, texts[1:], strict=True):
        verdict = verify_hand(read_phh(text), commitment=seal.commitment, contribution=sent.get(seat))
        assert verdict.ok, (seat, verdict.problems)
