"""The keyed shuffle: a dealing order fully determined by a secret seed (docs/shuffle.md).

``deal_order(seed, n, label=...)`` is the permutation of ``range(n)`` that the deck of a hand is dealt
in when its seed is known, so that anybody holding the seed can recompute the deck (docs/fairness.md).
It is specified byte for byte in docs/shuffle.md; in short:

- **stream**: block ``k`` (k = 0, 1, 2, ...) is ``HMAC-SHA256(key=seed, msg=label || k)``, ``k`` as 8
  bytes big-endian; the stream is the blocks end to end, read one byte at a time;
- **draw** of a uniform integer below ``m`` (2 <= m <= 256): read a byte ``b``; if ``b < 256 - 256 % m``
  the draw is ``b % m``, else ``b`` is dropped and the next byte is read (rejection: no modulo bias);
- **Fisher-Yates**: ``a = [0, 1, ..., n - 1]``; for ``i`` from ``n - 1`` down to ``1``: ``j = draw(i + 1)``,
  swap ``a[i]`` and ``a[j]``. ``a`` is the order: ``a[0]`` is the index of the card dealt first.

Pure and deterministic: no clock, no ambient randomness (the caller's seed is the only entropy).
"""

from __future__ import annotations

import hmac

__all__ = ["MAX_CARDS", "MAX_LABEL", "MIN_CARDS", "MIN_SEED", "ShuffleInputError", "deal_order"]

MIN_SEED = 32  # bytes: 256 bits of key
MIN_CARDS = 2
MAX_CARDS = 256  # one stream byte per draw
MAX_LABEL = 64  # bytes

# For m cards left, a byte b is kept when b < _LIMIT[m]: the largest multiple of m not above 256.
_LIMIT = tuple(256 - 256 % m if m else 0 for m in range(MAX_CARDS + 1))


class ShuffleInputError(ValueError):
    """An argument of :func:`deal_order` out of its domain. The message names the argument and the
    rule it broke, never the seed's value (a seed is a secret until its hand is over)."""

    code = "bad_shuffle_input"

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"deal_order: {field} {reason}")
        self.field = field
        self.reason = reason


def _check(seed: object, n: object, label: object) -> None:
    if not isinstance(seed, bytes):
        raise ShuffleInputError("seed", f"must be bytes, not {type(seed).__name__}")
    if len(seed) < MIN_SEED:
        raise ShuffleInputError("seed", f"must be at least {MIN_SEED} bytes, got {len(seed)}")
    if not isinstance(n, int) or isinstance(n, bool):
        raise ShuffleInputError("n", f"must be an integer, not {type(n).__name__}")
    if not MIN_CARDS <= n <= MAX_CARDS:
        raise ShuffleInputError("n", f"must be {MIN_CARDS}..{MAX_CARDS}, got {n}")
    if not isinstance(label, bytes):
        raise ShuffleInputError("label", f"must be bytes, not {type(label).__name__}")
    if not 1 <= len(label) <= MAX_LABEL:
        raise ShuffleInputError("label", f"must be 1..{MAX_LABEL} bytes, got {len(label)}")


def deal_order(seed: bytes, n: int, *, label: bytes = b"deck") -> list[int]:
    """A permutation of range(n), fully determined by (seed, label).

    ``seed``: at least 32 bytes (bytes only); ``n``: 2..256; ``label``: 1..64 bytes, which separates the
    orders drawn from one seed (``b"deck"``, ``b"reshuffle"``, ...). Raises :class:`ShuffleInputError`
    for anything else. The result's first element is the index of the card dealt first."""
    _check(seed, n, label)
    digest = hmac.digest
    limit = _LIMIT
    order = list(range(n))
    block = b""
    counter = pos = size = 0
    i = n - 1
    while i:
        if pos == size:  # the next 32 bytes of the stream
            block = digest(seed, label + counter.to_bytes(8, "big"), "sha256")
            counter += 1
            pos, size = 0, 32
        b = block[pos]
        pos += 1
        m = i + 1
        if b < limit[m]:  # else: rejected, read the next byte for the same i
            j = b % m
            order[i], order[j] = order[j], order[i]
            i -= 1
    return order
