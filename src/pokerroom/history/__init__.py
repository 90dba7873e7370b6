"""Hand histories: PHH (the open poker hand history standard) and a PokerStars-style text export.

Pure: no I/O besides the text handed in. See docs/history.md.
"""

from pokerroom.history.deckproof import DeckProof, SeedPart, parse_proof
from pokerroom.history.errors import (
    HistoryError,
    PhhActionError,
    PhhFieldError,
    PhhReplayError,
    PhhSyntaxError,
)
from pokerroom.history.model import (
    HandContext,
    LegacyProof,
    PhhAction,
    PhhHand,
    Post,
    TournamentInfo,
    deck_commitment,
)
from pokerroom.history.reader import STANDARD_CODES, read_phh, read_phhs
from pokerroom.history.replay import Replay, ScriptedSource, replay
from pokerroom.history.stars import GAME_NAMES, write_pokerstars
from pokerroom.history.stars_import import StarsImportError, read_pokerstars
from pokerroom.history.verify import Verdict, proof_of, verify_hand
from pokerroom.history.writer import phh_fields, phh_order, write_phh, write_phh_views, write_phhs

__all__ = [
    "GAME_NAMES",
    "STANDARD_CODES",
    "DeckProof",
    "HandContext",
    "HistoryError",
    "LegacyProof",
    "PhhAction",
    "PhhActionError",
    "PhhFieldError",
    "PhhHand",
    "PhhReplayError",
    "PhhSyntaxError",
    "Post",
    "Replay",
    "ScriptedSource",
    "SeedPart",
    "StarsImportError",
    "TournamentInfo",
    "Verdict",
    "deck_commitment",
    "parse_proof",
    "phh_fields",
    "phh_order",
    "proof_of",
    "read_phh",
    "read_phhs",
    "read_pokerstars",
    "replay",
    "verify_hand",
    "write_phh",
    "write_phh_views",
    "write_phhs",
    "write_pokerstars",
]
