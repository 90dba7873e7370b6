"""``pokerroom verify`` accepts a proof only in its documented, canonical encoding (issue 34, defect 6):
each forged history below carries a commitment recomputed to fit it, and passed before."""

from __future__ import annotations

import json
import random

import orjson
import pytest

from pokerroom.engine import Betting, HandState, ListDeck, SeatSetup, Structure
from pokerroom.history import HandContext, deck_commitment, read_phh, verify_hand, write_phh
from pokerroom.history.deckproof import leaf_hash, root_hash
from pokerroom.server.fairness import DeckSeal
from pokerroom.variants import VARIANTS

from ..engine.helpers import default_stakes, random_command


def _hand() -> HandState:
    rng = random.Random(5)
    hand = HandState.start(
        variant=VARIANTS["holdem"],
        structure=Structure(Betting.NO_LIMIT, default_stakes("holdem", Betting.NO_LIMIT)),
        seats=[SeatSetup(s, 1000, True) for s in (1, 2, 3)],
        deck=ListDeck.shuffled(VARIANTS["holdem"].deck, rng, reshuffle=False),
        button=1,
        hand_id="enc",
    )
    while not hand.is_over:
        hand.apply(random_command(hand, rng))
    return hand


HAND = _hand()
SEAL = DeckSeal(HAND)


def _legacy(deck: str, salt: str) -> str:
    """A history of before issue 34 (the whole-deck proof), with the commitment recomputed to fit."""
    text = write_phh(HAND, viewer=None, context=HandContext(hand_id="enc"))
    fields = {"_deck_commitment": deck_commitment(deck, salt), "_deck_salt": salt, "_deck": deck}
    return text + "".join(f"{k} = {json.dumps(v)}\n" for k, v in fields.items())


def test_a_canonical_old_proof_still_verifies() -> None:
    verdict = verify_hand(read_phh(_legacy(SEAL.deck_text, SEAL.salt)))
    assert verdict.ok, verdict.problems


BAD_SALT = "the salt is not 32 lowercase hex digits (the documented encoding)"
NOT_CANONICAL = "the revealed deck is not in its canonical encoding (sorted keys, no spaces)"


def _deck(**change: object) -> dict[str, object]:
    return {**orjson.loads(SEAL.deck_text), **change}


@pytest.mark.parametrize(
    ("deck", "salt", "problem"),
    [
        (  # the same deck with spaces: not its canonical JSON
            json.dumps(_deck(), sort_keys=True),
            SEAL.salt,
            NOT_CANONICAL,
        ),
        (  # keys out of order
            json.dumps(_deck(), separators=(",", ":")) if list(_deck()) != sorted(_deck()) else
            json.dumps(dict(reversed(list(_deck().items()))), separators=(",", ":")),
            SEAL.salt,
            NOT_CANONICAL,
        ),
        (  # a second "cards" key: a reader that keeps the last one sees another deck
            SEAL.deck_text[:-1] + ',"cards":' + json.dumps(str(_deck()["cards"])) + "}",
            SEAL.salt,
            "the revealed deck repeats a key",
        ),
        (  # cards in another spelling
            json.dumps(_deck(cards=str(_deck()["cards"]).upper().replace("T", "10")), sort_keys=True,
                       separators=(",", ":")),
            SEAL.salt,
            None,
        ),
        (SEAL.deck_text, "ab:" + SEAL.salt[3:], BAD_SALT),
        (SEAL.deck_text, "a", BAD_SALT),
        (SEAL.deck_text, SEAL.salt.upper(), BAD_SALT),
    ],
    ids=["spaces", "key-order", "duplicate-cards", "spelling", "salt-colon", "salt-one-char", "salt-upper"],
)  # fmt: skip
def test_an_old_proof_outside_its_encoding_is_refused(deck: str, salt: str, problem: str | None) -> None:
    verdict = verify_hand(read_phh(_legacy(deck, salt)))
    assert not verdict.ok
    if problem is not None:
        assert verdict.problems == [problem]


def _proof() -> dict[str, object]:
    text = write_phh(HAND, viewer=1, context=HandContext(hand_id="enc", proof=SEAL.proof()))
    line = next(x for x in text.splitlines() if x.startswith("_deck_proof = "))
    data: dict[str, object] = json.loads(json.loads(line.removeprefix("_deck_proof = ")))
    return data


def _canon(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _history(proof_text: str) -> str:
    text = write_phh(HAND, viewer=1, context=HandContext(hand_id="enc", proof=SEAL.proof()))
    return "\n".join(
        f"_deck_proof = {json.dumps(proof_text)}" if x.startswith("_deck_proof = ") else x
        for x in text.splitlines()
    ) + "\n"  # fmt: skip


def _salted(salt: str) -> str:
    """The player's proof with the salt of its first opening replaced, leaf and root recomputed."""
    data = _proof()
    deck = data["deck"]
    assert isinstance(deck, dict)
    i, card, _ = deck["open"][0]
    deck["open"][0] = [i, card, salt]
    deck["leaves"][i] = leaf_hash("deck", i, card, salt)
    data["root"] = root_hash(52, None, deck["leaves"], [])
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(_proof(), sort_keys=True),  # spaces
        _canon(_proof())[:-1] + ',"v":2}',  # "v" twice
        _canon(_proof()).replace('"deck":{', '"deck":{"open":[],', 1),
        _salted("ab:cd" + "0" * 27),
        _salted("a"),
        _salted("A" * 32),
    ],
    ids=["spaces", "duplicate-v", "duplicate-open", "salt-colon", "salt-one-char", "salt-upper"],
)  # fmt: skip
def test_a_proof_outside_its_encoding_is_refused(text: str) -> None:
    verdict = verify_hand(read_phh(_history(text)))
    assert not verdict.ok
    assert verdict.problems[0].startswith("the deck proof is not in the documented encoding"), (
        verdict.problems
    )


def test_the_canonical_proof_verifies() -> None:
    text = json.dumps(_proof(), sort_keys=True, separators=(",", ":"))
    assert verify_hand(read_phh(_history(text)), commitment=SEAL.commitment).ok
