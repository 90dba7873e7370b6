"""The keyed shuffle ``deal_order`` (docs/shuffle.md): its test vectors, a second implementation written
from the specification alone, and its statistics. The deck it orders is RULES.md §1.1's (R9, R52); it is
the documented, deterministic shuffle of §11.4 (R262: nobody chooses the deck once the seed is fixed)."""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chi2

from pokerroom.cards import DeckSpec, format_cards
from pokerroom.cards.keyed import ShuffleInputError, deal_order

DOC = Path(__file__).resolve().parents[2] / "docs" / "shuffle.md"


def _doc() -> str:
    return DOC.read_text(encoding="utf-8")


# ------------------------------------------------------------- a second implementation, from the spec
# Written differently on purpose: HMAC built by hand from SHA-256 (RFC 2104), the stream read out of one
# big integer, the acceptance bound written as m * (256 // m), and Fisher-Yates applied recursively to a
# tuple after all the draws are made.


def _hmac_sha256(key: bytes, message: bytes) -> bytes:
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    key = key.ljust(64, b"\x00")
    inner = hashlib.sha256(bytes(k ^ 0x36 for k in key) + message).digest()
    return hashlib.sha256(bytes(k ^ 0x5C for k in key) + inner).digest()


def _stream(seed: bytes, label: bytes) -> Iterator[int]:
    """The key stream's bytes, first first, taken from the top of a big integer of 64 bytes at a time."""
    counter = 0
    while True:
        chunk = b"".join(_hmac_sha256(seed, label + _u64(counter + k)) for k in range(2))
        counter += 2
        number = int.from_bytes(chunk, "big")
        for shift in range(8 * 63, -1, -8):
            yield (number >> shift) & 0xFF


def _u64(value: int) -> bytes:
    return bytes((value >> (8 * (7 - k))) & 0xFF for k in range(8))


def _draws(seed: bytes, n: int, label: bytes, *, modulo_bias: bool = False) -> tuple[list[int], int]:
    """The swap partners j for m = n, n - 1, ..., 2 and the number of bytes rejected."""
    stream = _stream(seed, label)
    draws, rejected = [], 0
    for m in range(n, 1, -1):
        b = next(stream)
        while not modulo_bias and b >= m * (256 // m):
            rejected += 1
            b = next(stream)
        draws.append(b % m)
    return draws, rejected


def _fisher_yates(cards: tuple[int, ...], draws: list[int]) -> tuple[int, ...]:
    """Swap the last card of ``cards`` with the one the first draw names, then do the rest before it."""
    if not draws:
        return cards
    last, j = len(cards) - 1, draws[0]
    swapped = cards[:j] + cards[last:] + cards[j + 1 : last] + cards[j : j + 1] if j != last else cards
    return _fisher_yates(swapped[:last], draws[1:]) + swapped[last:]


def reference_order(seed: bytes, n: int, label: bytes = b"deck", *, modulo_bias: bool = False) -> list[int]:
    draws, _ = _draws(seed, n, label, modulo_bias=modulo_bias)
    return list(_fisher_yates(tuple(range(n)), draws))


# ------------------------------------------------------------- test vectors (also in docs/shuffle.md)

SEQ32 = bytes(range(32))
PR = hashlib.sha256(b"pokerroom").digest()

VECTORS: list[tuple[bytes, bytes, int, list[int]]] = [
    (
        bytes(32),
        b"deck",
        52,
        [33, 49, 28, 47, 31, 43, 34, 29, 42, 36, 45, 26, 15, 6, 23, 4, 9, 51, 30, 19, 46, 11, 16, 48, 44, 37]
        + [8, 25, 35, 3, 14, 24, 50, 39, 5, 12, 22, 0, 41, 32, 20, 40, 7, 13, 2, 1, 18, 27, 17, 21, 38, 10],
    ),
    (
        SEQ32,
        b"deck",
        52,
        [37, 48, 51, 19, 15, 2, 25, 36, 14, 45, 18, 1, 27, 20, 43, 38, 6, 0, 47, 39, 35, 3, 13, 26, 50, 9]
        + [
            29,
            10,
            12,
            21,
            24,
            23,
            8,
            28,
            22,
            7,
            46,
            40,
            44,
            49,
            41,
            31,
            42,
            4,
            33,
            16,
            17,
            32,
            34,
            11,
            5,
            30,
        ],
    ),
    (
        SEQ32,
        b"reshuffle",
        52,
        [21, 39, 20, 19, 47, 35, 37, 50, 44, 15, 40, 3, 27, 5, 48, 8, 11, 23, 22, 34, 42, 16, 7, 30, 14, 13]
        + [31, 26, 46, 12, 43, 4, 41, 28, 36, 17, 2, 38, 18, 1, 0, 45, 25, 10, 49, 33, 32, 6, 29, 24, 9, 51],
    ),
    (
        PR,
        b"deck",
        36,
        [34, 14, 16, 1, 32, 29, 13, 18, 25, 35, 24, 30, 4, 27, 21, 9, 17, 7]
        + [26, 10, 33, 8, 3, 19, 20, 5, 6, 11, 22, 23, 12, 2, 15, 0, 28, 31],
    ),
    (
        PR,
        b"deck",
        32,
        [8, 6, 18, 5, 1, 16, 17, 4, 7, 11, 29, 12, 14, 13, 24, 2]
        + [27, 10, 3, 22, 23, 21, 30, 19, 25, 9, 20, 26, 15, 0, 28, 31],
    ),
    (
        bytes(range(100)),  # longer than SHA-256's 64-byte block: HMAC hashes the key first
        b"deck",
        52,
        [8, 35, 18, 9, 28, 49, 46, 6, 17, 36, 31, 25, 2, 3, 5, 47, 40, 29, 16, 48, 41, 44, 39, 12, 20, 1]
        + [
            27,
            38,
            7,
            23,
            30,
            4,
            15,
            43,
            10,
            50,
            51,
            0,
            45,
            21,
            11,
            14,
            37,
            22,
            33,
            13,
            19,
            34,
            26,
            32,
            24,
            42,
        ],
    ),
]


def _vector_id(v: tuple[bytes, bytes, int, list[int]]) -> str:
    return f"{v[0].hex()[:8]}-{v[1].decode()}-{v[2]}"


@pytest.mark.parametrize("vector", VECTORS, ids=_vector_id)
def test_vectors(vector: tuple[bytes, bytes, int, list[int]]) -> None:
    seed, label, n, order = vector
    assert deal_order(seed, n, label=label) == order
    assert reference_order(seed, n, label) == order


def test_the_first_vector_as_cards_and_its_first_block() -> None:
    """The order indexes the deck in index order (2c 2d 2h 2s 3c ... As): docs/shuffle.md shows the cards."""
    order = deal_order(SEQ32, 52)
    cards = DeckSpec.STANDARD.cards()
    text = (
        "Jd Ac As 6s 5s 2h 8d Jc 5h Kd 6h 2d 8s 7c Qs Jh 3h 2c Ks Js Ts 2s 5d 8h Ah 4d "
        "9d 4h 5c 7d 8c 7s 4c 9c 7h 3s Kh Qc Kc Ad Qd 9s Qh 3c Td 6c 6d Tc Th 4s 3d 9h"
    )
    assert format_cards([cards[i] for i in order]) == text
    doc = _doc()
    assert text[:77] in doc and text[78:] in doc
    block0 = "ba6bd322e011f16cd588d6f1c30b216b1107c5e8fc08d718e7ec6396d2d9e6a5"
    assert _hmac_sha256(SEQ32, b"deck" + bytes(8)).hex() == block0
    assert block0 in doc
    assert _hmac_sha256(SEQ32, b"deck" + _u64(1)).hex() in doc  # block 1
    assert _draws(SEQ32, 52, b"deck")[1] == 4 and "The deck uses 55 bytes, 4 of them rejected" in doc


def test_the_worked_example_of_the_document() -> None:
    """Each row of docs/shuffle.md's step-by-step table: stream byte k, i, m, limit, and j or a rejection."""
    rows = re.findall(
        r"^\| (\d+) \| ([0-9a-f]{2}) \| (\d+) \| (\d+) \| (\d+) \| (\d+|rejected) \|$", _doc(), re.M
    )
    assert len(rows) >= 8 and "rejected" in {r[5] for r in rows}
    stream = list(itertools.islice(_stream(SEQ32, b"deck"), len(rows)))
    i = 51
    for k, byte, row_i, m, limit, j in rows:
        b = stream[int(k)]
        assert (byte, int(row_i), int(m), int(limit)) == (f"{b:02x}", i, i + 1, (i + 1) * (256 // (i + 1)))
        assert j == ("rejected" if b >= int(limit) else str(b % int(m)))
        if j != "rejected":
            i -= 1


def test_the_vectors_exercise_the_rejection() -> None:
    """Without the rejection step the vectors would come out differently: they test it."""
    for seed, label, n, order in VECTORS:
        assert _draws(seed, n, label)[1] > 0
        assert reference_order(seed, n, label, modulo_bias=True) != order


def test_the_document_gives_the_same_vectors() -> None:
    text = _doc()
    found = re.findall(r"seed  ([0-9a-f]+)\nlabel (\S+)\nn     (\d+)\norder ([\d ]+)\n", text)
    documented = [
        (bytes.fromhex(s), lab.encode(), int(n), [int(x) for x in o.split()]) for s, lab, n, o in found
    ]
    assert documented == VECTORS


# ------------------------------------------------------------- properties


@settings(max_examples=150, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=100),
    n=st.integers(2, 256),
    label=st.binary(min_size=1, max_size=64),
)
def test_agrees_with_the_reference_and_is_a_permutation(seed: bytes, n: int, label: bytes) -> None:
    order = deal_order(seed, n, label=label)
    assert sorted(order) == list(range(n))
    assert order == reference_order(seed, n, label)
    assert deal_order(seed, n, label=label) == order  # deterministic


@pytest.mark.parametrize("n", [2, 3, 7, 32, 36, 52, 128, 129, 255, 256])
def test_every_size_is_a_permutation(n: int) -> None:
    for k in range(20):
        order = deal_order(hashlib.sha256(bytes([k, n % 256])).digest(), n)
        assert sorted(order) == list(range(n))
        assert order == reference_order(hashlib.sha256(bytes([k, n % 256])).digest(), n)


def test_every_bit_of_the_seed_matters() -> None:
    base = deal_order(SEQ32, 52)
    for bit in range(8 * len(SEQ32)):
        flipped = bytearray(SEQ32)
        flipped[bit // 8] ^= 1 << (bit % 8)
        assert deal_order(bytes(flipped), 52) != base, bit


def test_the_label_separates_orders() -> None:
    orders = [deal_order(SEQ32, 52, label=lab) for lab in (b"deck", b"reshuffle", b"deck\x00", b"Deck", b"d")]
    assert len({tuple(o) for o in orders}) == len(orders)


def test_two_of_two_cards_come_out_both_ways() -> None:
    """n = 2 is a fair coin: both orders occur over a few seeds."""
    seen = {tuple(deal_order(hashlib.sha256(bytes([k])).digest(), 2)) for k in range(40)}
    assert seen == {(0, 1), (1, 0)}


# ------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ((bytes(31), 52), "seed"),
        ((b"", 52), "seed"),
        (("00" * 32, 52), "seed"),
        ((bytearray(32), 52), "seed"),
        ((None, 52), "seed"),
        ((SEQ32, 1), "n"),
        ((SEQ32, 0), "n"),
        ((SEQ32, -52), "n"),
        ((SEQ32, 257), "n"),
        ((SEQ32, True), "n"),
        ((SEQ32, 52.0), "n"),
        ((SEQ32, "52"), "n"),
    ],
)
def test_bad_seed_or_size_is_refused(args: tuple[object, object], field: str) -> None:
    with pytest.raises(ShuffleInputError) as info:
        deal_order(*args)  # type: ignore[arg-type]
    assert info.value.code == "bad_shuffle_input" and info.value.field == field


@pytest.mark.parametrize("label", ["deck", b"", b"x" * 65, None, bytearray(b"deck")])
def test_bad_label_is_refused(label: object) -> None:
    with pytest.raises(ShuffleInputError) as info:
        deal_order(SEQ32, 52, label=label)  # type: ignore[arg-type]
    assert info.value.field == "label"


def test_the_error_never_shows_the_seed() -> None:
    secret = bytes(range(200, 231))  # 31 bytes: too short
    with pytest.raises(ShuffleInputError) as info:
        deal_order(secret, 52)
    text = str(info.value) + repr(info.value)
    assert "31" in text
    assert secret.hex() not in text and repr(secret) not in text and str(list(secret)[:3])[1:-1] not in text


# ------------------------------------------------------------- statistics (fixed seeds: never flaky)

DECKS = 30_000


def _seeds(count: int, tag: bytes) -> list[bytes]:
    return [hashlib.sha256(tag + k.to_bytes(8, "big")).digest() for k in range(count)]


def _position_pvalues(shuffle: Callable[[bytes], list[int]], count: int = DECKS) -> tuple[float, list[float]]:
    """p-values of the whole card-by-position table (df (n-1)^2) and of each card's row (df n-1)."""
    n = 52
    decks = np.array([shuffle(s) for s in _seeds(count, b"test_keyed positions")], dtype=np.int64)
    positions = np.broadcast_to(np.arange(n), decks.shape)
    table = np.bincount((decks * n + positions).ravel(), minlength=n * n).reshape(n, n)
    expected = count / n
    cells = (table - expected) ** 2 / expected
    whole = float(chi2.sf(cells.sum(), (n - 1) ** 2))
    return whole, [float(p) for p in chi2.sf(cells.sum(axis=1), n - 1)]


def test_each_card_is_uniform_over_the_positions() -> None:
    """R9: every card of the deck is equally likely at every position, at the 99 % level (30,000 decks)."""
    whole, per_card = _position_pvalues(lambda s: deal_order(s, 52))
    assert whole > 0.01
    assert min(per_card) > 0.01 / 52  # Bonferroni: 99 % for the family of 52
    assert 0.3 < sum(per_card) / 52 < 0.7  # the p-values themselves look uniform, not all near 0 or 1


def test_the_first_two_cards_are_uniform_over_the_ordered_pairs() -> None:
    """Serial test: (first card, second card) uniform over the 52 * 51 ordered pairs (the first two dealt)."""
    pairs = np.zeros(52 * 52, dtype=np.int64)
    for s in _seeds(DECKS, b"test_keyed pairs"):
        first, second = deal_order(s, 52)[:2]
        pairs[first * 52 + second] += 1
    observed = np.delete(pairs, [c * 53 for c in range(52)])  # the 52 cells (c, c) cannot occur
    assert pairs.sum() == observed.sum() == DECKS
    expected = DECKS / (52 * 51)
    assert chi2.sf(((observed - expected) ** 2 / expected).sum(), 52 * 51 - 1) > 0.01


def test_the_statistical_check_catches_a_modulo_bias() -> None:
    """The check has power: the same draws read with ``b % m`` and no rejection fail it by far, in half
    the decks."""
    whole, per_card = _position_pvalues(lambda s: reference_order(s, 52, modulo_bias=True), DECKS // 2)
    assert whole < 1e-12 and min(per_card) < 1e-6
