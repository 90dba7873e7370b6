"""Small helpers shared by the store: the clock, canonical JSON, fingerprints, deck commitments."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

Clock = Callable[[], datetime]
"""Returns the current time as an aware UTC datetime. Inject a fake one in tests."""


def utc_now() -> datetime:
    return datetime.now(UTC)


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no whitespace: equal data gives equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def fingerprint(value: Any) -> str:
    """SHA-256 (hex) of the canonical JSON of ``value``."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def new_salt() -> str:
    """A fresh secret salt for a deck commitment: 32 hex digits from ``secrets``."""
    return secrets.token_hex(16)


def deck_commitment(deck_text: str, salt: str) -> str:
    """The public commitment to a hand's deck, published at the start of the hand.

    ``SHA-256(salt + ":" + deck_text)`` over UTF-8, as 64 lowercase hex digits. ``deck_text`` is the deck
    in dealing order as text (e.g. ``"AsKd7c..."``); the salt is secret until the end record reveals both,
    so nobody can search the 52! orders for the hash, yet anybody can check it afterwards."""
    if not isinstance(deck_text, str) or not isinstance(salt, str):
        raise TypeError("deck_text and salt must be str")
    if not salt:
        raise ValueError("the salt must not be empty")
    return hashlib.sha256(f"{salt}:{deck_text}".encode()).hexdigest()


def verify_deck(commitment: str, deck_text: str, salt: str) -> bool:
    """True if ``deck_text`` and ``salt`` are what ``commitment`` committed to."""
    return hmac.compare_digest(deck_commitment(deck_text, salt), commitment.lower())


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
