"""The engine's and the PHH replay's memo of a variant's answers (``engine/hand_deal.py``, VariantFacts).

The variant stays the one that decides (RULES.md §1.1 R52 for the decks, §5.0 and §10 for the player
counts): every answer the facts give is the variant's own, for every game, every player count and every
structure, and a question outside what they hold goes to the variant, which raises its own error.
"""

from __future__ import annotations

import dataclasses

import pytest

from pokerroom.cards import DeckSpec
from pokerroom.engine import (
    Betting,
    ConfigError,
    HandState,
    ListDeck,
    SeatSetup,
    Stakes,
    Structure,
    VariantSpec,
    hand_deal,
)
from pokerroom.engine.hand_deal import variant_facts
from pokerroom.variants import VARIANTS, get_variant


def _error(call: object, *args: object) -> str | None:
    try:
        call(*args)  # type: ignore[operator]
    except ConfigError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("code", sorted(VARIANTS))
def test_the_facts_are_the_variants_own_answers(code: str) -> None:
    v = VARIANTS[code]
    facts = variant_facts(v)
    assert facts.variant is v
    assert (facts.is_stud, facts.is_draw) == (v.is_stud, v.is_draw)
    for n in range(-1, 40):  # beyond the counts the facts hold (32): asked of the variant
        assert facts.deck_for(n) is v.deck_for(n)
        assert _error(facts.check_players, n) == _error(v.check_players, n)
    for deck in DeckSpec:
        assert facts.rule_for(deck) == v.rule_for(deck)
    for betting in Betting:
        assert _error(facts.check_structure, betting) == _error(v.check_structure, betting)


def test_r52_five_card_draw_7a_with_five_players_gets_the_36_card_deck_from_the_facts() -> None:
    v = get_variant("draw7a")
    assert v.deck_for_five is DeckSpec.SHORT_6A
    facts = variant_facts(v)
    assert facts.deck_for(5) is DeckSpec.SHORT_6A
    assert facts.deck_for(4) is DeckSpec.SHORT_7A
    assert facts.rule_for(DeckSpec.SHORT_6A) == v.high_with_sixes


def test_facts_are_kept_by_the_variants_identity() -> None:
    v = get_variant("holdem")
    assert variant_facts(v) is variant_facts(v)
    twin = dataclasses.replace(v)  # equal, another object: its own facts
    assert twin == v and twin is not v
    assert variant_facts(twin) is not variant_facts(v)
    assert variant_facts(twin).variant is twin


def test_a_variant_with_other_limits_gets_its_own_answers() -> None:
    """A variant made by a caller (not one of the catalog's) is answered from its own fields: a heads-up
    only hold'em refuses a third player, through the engine's start as through the facts (R171's kind of
    limit)."""
    v = dataclasses.replace(
        get_variant("holdem"), code="holdem_hu", max_players=2, structures=(Betting.NO_LIMIT,)
    )
    assert _error(variant_facts(v).check_players, 3) == _error(v.check_players, 3) is not None
    with pytest.raises(ConfigError, match="2 to 2 players, not 3"):
        _start(v, Betting.NO_LIMIT, Stakes.blinds(50, 100), 3)
    with pytest.raises(ConfigError, match="is not played"):
        _start(v, Betting.FIXED_LIMIT, Stakes.fixed_limit(100, 200), 2)
    assert len(_start(v, Betting.NO_LIMIT, Stakes.blinds(50, 100), 2).players) == 2


def _start(v: VariantSpec, betting: Betting, stakes: Stakes, players: int) -> HandState:
    return HandState.start(
        variant=v,
        structure=Structure(betting, stakes),
        seats=[SeatSetup(s, 10_000) for s in range(1, players + 1)],
        deck=ListDeck.from_text("", v.deck_for(players)),
    )


def test_the_table_of_facts_is_bounded() -> None:
    base = get_variant("holdem")
    made = [dataclasses.replace(base, code=f"x{i}") for i in range(hand_deal._FACTS_MAX + 10)]
    for v in made:
        assert variant_facts(v).variant is v
    assert len(hand_deal._FACTS) <= hand_deal._FACTS_MAX
