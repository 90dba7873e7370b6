"""Small helpers shared by the store: the clock, canonical JSON, fingerprints, deck commitments."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from pokerroom.history.model import deck_commitment

__all__ = [
    "Clock",
    "canonical_json",
    "deck_commitment",
    "fingerprint",
    "hash_token",
    "new_salt",
    "utc_now",
    "verify_deck",
]

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


def verify_deck(commitment: str, deck_text: str, salt: str) -> bool:
    """True if ``deck_text`` and ``salt`` are what ``commitment`` committed to."""
    return hmac.compare_digest(deck_commitment(deck_text, salt), commitment.lower())


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
