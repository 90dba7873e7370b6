"""The catalog of games: one :class:`~pokerroom.engine.VariantSpec` per game (RULES.md §5).

Data only. A new game built from existing mechanics is one entry here plus a fixture hand in the tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from pokerroom.cards import DeckSpec
from pokerroom.engine import Betting, ForcedBets, Showing, Street, UnknownVariant, VariantSpec

__all__ = ["VARIANTS", "get_variant", "variant_codes"]

FL, PL, NL = Betting.FIXED_LIMIT, Betting.POT_LIMIT, Betting.NO_LIMIT

_FLOP = Street("flop", board=3, burn=True)
_TURN = Street("turn", board=1, burn=True, big_bet=True)
_RIVER = Street("river", board=1, burn=True, big_bet=True)


def _board_game(hole: int) -> tuple[Street, ...]:
    """Preflop with ``hole`` cards each, flop, turn, river (RULES.md §5.1, §5.3-§5.6)."""
    return (Street("preflop", deal=(False,) * hole), _FLOP, _TURN, _RIVER)


_SEVEN_STUD = (
    Street("third", deal=(False, False, True)),
    Street("fourth", deal=(True,), burn=True, open_pair=True),
    Street("fifth", deal=(True,), burn=True, big_bet=True),
    Street("sixth", deal=(True,), burn=True, big_bet=True),
    Street("seventh", deal=(False,), burn=True, big_bet=True),
)
_SEVEN_STUD_NO_PAIR = tuple(
    Street(s.name, s.deal, s.board, s.burn, s.draw, s.discard, s.big_bet, False) for s in _SEVEN_STUD
)
_FIVE_STUD = (
    Street("second", deal=(False, True)),
    Street("third", deal=(True,), burn=True),
    Street("fourth", deal=(True,), burn=True, big_bet=True),
    Street("fifth", deal=(True,), burn=True, big_bet=True),
)
_TRIPLE_DRAW = (
    Street("predraw", deal=(False,) * 5),
    Street("first_draw", draw=True),
    Street("second_draw", draw=True, big_bet=True),
    Street("third_draw", draw=True, big_bet=True),
)
_SINGLE_DRAW = (Street("predraw", deal=(False,) * 5), Street("draw", draw=True, big_bet=True))
_BADUGI = (
    Street("predraw", deal=(False,) * 4),
    Street("first_draw", draw=True),
    Street("second_draw", draw=True, big_bet=True),
    Street("third_draw", draw=True, big_bet=True),
)
_IRISH = (
    Street("preflop", deal=(False,) * 4),
    _FLOP,
    Street("turn", board=1, burn=True, big_bet=True, discard=2),
    _RIVER,
)


def _stud(
    code: str, name: str, streets: tuple[Street, ...], high: str, showing: Showing, **kw: object
) -> VariantSpec:
    return VariantSpec(
        code=code,
        name=name,
        family="stud",
        deck=DeckSpec.STANDARD,
        streets=streets,
        high=high,
        forced=ForcedBets.BRING_IN,
        structures=(FL,),
        default_structure=FL,
        max_players=8,
        showing=showing,
        **kw,  # type: ignore[arg-type]
    )


_ALL = (
    VariantSpec(
        "holdem",
        "Texas Hold'em",
        "holdem",
        DeckSpec.STANDARD,
        _board_game(2),
        "high",
        structures=(NL, PL, FL),
        default_structure=NL,
        phh_codes={FL: "FT", NL: "NT"},
    ),
    VariantSpec(
        "irish",
        "Irish",
        "holdem",
        DeckSpec.STANDARD,
        _IRISH,
        "high",
        structures=(PL, NL),
        default_structure=PL,
    ),
    VariantSpec(
        "omaha",
        "Omaha",
        "omaha",
        DeckSpec.STANDARD,
        _board_game(4),
        "omaha_high",
        structures=(PL, FL, NL),
        default_structure=PL,
        phh_codes={PL: "PO"},
    ),
    VariantSpec(
        "omaha5",
        "5-Card Omaha",
        "omaha",
        DeckSpec.STANDARD,
        _board_game(5),
        "omaha_high",
        structures=(PL, FL, NL),
        default_structure=PL,
        max_players=6,
    ),
    VariantSpec(
        "omaha6",
        "6-Card Omaha",
        "omaha",
        DeckSpec.STANDARD,
        _board_game(6),
        "omaha_high",
        structures=(PL, FL, NL),
        default_structure=PL,
        max_players=6,
        table_sizes=(2, 6),
    ),
    VariantSpec(
        "omaha8",
        "Omaha Hi/Lo",
        "omaha",
        DeckSpec.STANDARD,
        _board_game(4),
        "omaha_high",
        low="omaha_eight_low",
        structures=(FL, PL, NL),
        default_structure=FL,
        phh_codes={FL: "FO/8"},
    ),
    VariantSpec(
        "omaha8_5",
        "5-Card Omaha Hi/Lo",
        "omaha",
        DeckSpec.STANDARD,
        _board_game(5),
        "omaha_high",
        low="omaha_eight_low",
        structures=(PL, FL, NL),
        default_structure=PL,
        max_players=6,
    ),
    _stud("stud", "7-Card Stud", _SEVEN_STUD, "high", Showing.HIGH, phh_codes={FL: "F7S"}),
    _stud(
        "stud8",
        "7-Card Stud Hi/Lo",
        _SEVEN_STUD_NO_PAIR,
        "high",
        Showing.HIGH,
        low="eight_low",
        phh_codes={FL: "F7S/8"},
    ),
    _stud(
        "razz",
        "Razz",
        _SEVEN_STUD_NO_PAIR,
        "ace5_low",
        Showing.LOW,
        bring_in_highest=True,
        phh_codes={FL: "FR"},
    ),
    _stud("stud5", "5-Card Stud", _FIVE_STUD, "high", Showing.HIGH),
    _stud("soko", "SOKO", _FIVE_STUD, "soko", Showing.SOKO),
    VariantSpec(
        "deuce7_triple",
        "2-7 Triple Draw",
        "draw",
        DeckSpec.STANDARD,
        _TRIPLE_DRAW,
        "deuce7_low",
        structures=(NL, PL, FL),
        default_structure=NL,
        max_players=6,
        phh_codes={FL: "F2L3D"},
    ),
    VariantSpec(
        "draw5",
        "5-Card Draw",
        "draw",
        DeckSpec.STANDARD,
        _SINGLE_DRAW,
        "high",
        structures=(FL, PL, NL),
        default_structure=FL,
        max_players=6,
    ),
    VariantSpec(
        "draw7a",
        "5-Card Draw 7-A",
        "draw",
        DeckSpec.SHORT_7A,
        _SINGLE_DRAW,
        "short_deck_7a",
        structures=(FL, PL, NL),
        default_structure=FL,
        max_players=5,
        deck_for_five=DeckSpec.SHORT_6A,
        high_with_sixes="short_deck_6a",
    ),
    # Beyond RULES.md, for the PHH standard's games:
    VariantSpec(
        "shortdeck",
        "Short-Deck Hold'em",
        "holdem",
        DeckSpec.SHORT_6A,
        _board_game(2),
        "short_deck_6a",
        structures=(NL,),
        default_structure=NL,
        max_players=9,
        phh_codes={NL: "NS"},
    ),
    VariantSpec(
        "deuce7_single",
        "2-7 Single Draw",
        "draw",
        DeckSpec.STANDARD,
        _SINGLE_DRAW,
        "deuce7_low",
        structures=(NL, PL, FL),
        default_structure=NL,
        max_players=6,
        phh_codes={NL: "N2L1D"},
    ),
    VariantSpec(
        "badugi",
        "Badugi",
        "draw",
        DeckSpec.STANDARD,
        _BADUGI,
        "badugi",
        structures=(FL,),
        default_structure=FL,
        max_players=6,
        max_draw=4,
        phh_codes={FL: "FB"},
    ),
)

VARIANTS: Mapping[str, VariantSpec] = MappingProxyType({v.code: v for v in _ALL})


def get_variant(code: str) -> VariantSpec:
    """The game with this code; an unknown code raises :class:`~pokerroom.engine.UnknownVariant`."""
    try:
        return VARIANTS[code]
    except (KeyError, TypeError):
        raise UnknownVariant(str(code)[:40]) from None


def variant_codes() -> tuple[str, ...]:
    return tuple(VARIANTS)
