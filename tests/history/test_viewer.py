"""A player's copy of a hand holds only what he may see (RULES.md §6.6)."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from pokerroom.cards import Card, DeckSpec, parse_card
from pokerroom.engine import Betting, HandState
from pokerroom.engine.events import BoardDealt, CardsDealt, CardsShown, Discarded, Drew, Mucked
from pokerroom.history import DeckProof, HandContext, TournamentInfo, read_phh, write_phh, write_phh_views

from .helpers import CASE_IDS, CASES, random_hands

_CARD = re.compile(r"[2-9TJQKA][cdhs]")


def _cards_in(text: str) -> set[Card]:
    actions = text[text.index("actions = [") : text.index("]\n", text.index("actions = ["))]
    return {parse_card(m) for m in _CARD.findall(actions)}


def _allowed(hand: HandState, viewer: int | None) -> set[Card]:
    """Every card the viewer may see, computed from the events by RULES.md §6.6."""
    dealt_in = viewer in hand.order
    ok: set[Card] = set()
    exposed: set[int] = set()
    for e in hand.events:
        if isinstance(e, BoardDealt):
            ok.update(e.cards)
        elif isinstance(e, CardsDealt):
            for c, up in zip(e.cards, e.up, strict=True):
                if c is not None and (up or e.seat == viewer or e.seat in exposed):
                    ok.add(c)
        elif isinstance(e, Drew | Discarded) and e.seat == viewer:
            ok.update(
                c
                for c in (*getattr(e, "discarded", ()), *getattr(e, "received", ()), *getattr(e, "cards", ()))
                if c
            )
        elif isinstance(e, CardsShown):
            ok.update(e.cards)
            if e.reason == "all_in":
                exposed.add(e.seat)
        elif isinstance(e, Mucked) and dealt_in:
            ok.update(c for c in e.cards if c is not None)
    return ok


def _secret(hand: HandState, viewer: int) -> set[Card]:
    """Cards the viewer must never see: others' folded hands and everybody else's discards."""
    shown = {c for e in hand.events if isinstance(e, CardsShown | Mucked) for c in e.cards if c}
    secret: set[Card] = set()
    for e in hand.events:
        if isinstance(e, Drew) and e.seat != viewer:
            secret.update(c for c in e.discarded if c)
        if isinstance(e, Discarded) and e.seat != viewer:
            secret.update(c for c in e.cards if c)
    for seat, p in hand.players.items():
        if seat != viewer and p.folded:
            dealt = [
                c
                for e in hand.events
                if isinstance(e, CardsDealt) and e.seat == seat
                for c, u in zip(e.cards, e.up, strict=True)
                if not u and c
            ]
            secret.update(c for c in dealt if c not in shown)
    mine = {
        c
        for e in hand.events
        if isinstance(e, CardsDealt | Drew) and e.seat == viewer
        for c in getattr(e, "cards", getattr(e, "received", ()))
        if c
    }
    return secret - mine - shown  # a discard reshuffled into the stub may be dealt again


@pytest.mark.parametrize(("game", "betting"), CASES, ids=CASE_IDS)
def test_players_copy_shows_nothing_hidden(game: str, betting: Betting) -> None:
    for hand in random_hands(game, betting, 10, "privacy"):
        for viewer in [*hand.order, 99]:  # 99: an observer
            text = write_phh(hand, viewer=viewer)
            seen = _cards_in(text)
            assert seen <= _allowed(hand, viewer)
            if viewer in hand.order:
                assert not seen & _secret(hand, viewer)
                own = {
                    c
                    for e in hand.events
                    if isinstance(e, CardsDealt) and e.seat == viewer
                    for c in e.cards
                    if c
                }
                assert own <= seen  # and he does see his own cards


def test_audit_copy_has_every_card() -> None:
    for hand in random_hands("draw5", Betting.FIXED_LIMIT, 10, "audit"):
        text = write_phh(hand)
        assert "??" not in text
        dealt = {
            c
            for e in hand.events
            if isinstance(e, CardsDealt | Drew)
            for c in getattr(e, "cards", getattr(e, "received", ()))
            if c
        }
        assert dealt <= _cards_in(text)


def test_mucked_hand_visible_to_players_dealt_in_not_to_observers() -> None:
    hands = (h for game, b in CASES for h in random_hands(game, b, 20, "muck"))
    for hand in hands:
        mucks = [e for e in hand.events if isinstance(e, Mucked)]
        if not mucks:
            continue
        cards = {c for c in mucks[0].cards if c}
        other = next(s for s in hand.order if s != mucks[0].seat)
        assert cards <= _cards_in(write_phh(hand, viewer=other))
        assert not cards & _cards_in(write_phh(hand, viewer=99))
        assert f"p{read_phh(write_phh(hand)).player_of(mucks[0].seat)} sm\n" in write_phh(hand).replace(
            '",', "\n"
        ).replace('"', "")
        return
    pytest.fail("no mucked hand in the sample")


@pytest.mark.parametrize(("game", "betting"), CASES, ids=CASE_IDS)
def test_the_views_written_together_are_each_players_copy(game: str, betting: Betting) -> None:
    """write_phh_views (the server writes every player's copy at once) gives exactly write_phh's copy for
    each viewer, with a bare context and a full one (time, tournament, currency, the deck proof)."""
    full = HandContext(
        hand_id="12",
        hand_number=12,
        table="Alpha",
        time=dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC),
        players={i: f"P{i}" for i in range(1, 11)},
        currency="USD",
        minor_units=100,
        seat_count=9,
        tournament=TournamentInfo(tournament_id="t1", name="Daily", buy_in=1000, fee=100, level=2, number=7),
        proof=DeckProof.seal(DeckSpec.STANDARD.cards(), None, salt=lambda: "5" * 32),
    )
    for hand in random_hands(game, betting, 4, "views"):
        viewers = [*hand.order, 99]
        for ctx in (None, full):
            views = write_phh_views(hand, viewers, ctx)
            assert views == {v: write_phh(hand, viewer=v, context=ctx) for v in viewers}
