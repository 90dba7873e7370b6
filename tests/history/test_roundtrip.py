"""Write -> read -> replay gives back the very same hand, for every game and structure."""

from __future__ import annotations

import random
import re

import pytest

from pokerroom.engine import Betting, Blinds, HandState, ListDeck, SeatSetup, Stakes, Structure
from pokerroom.engine.events import RunTwiceAnswered
from pokerroom.history import HandContext, read_phh, read_phhs, replay, write_phh, write_phhs
from pokerroom.history.errors import PhhFieldError
from pokerroom.variants import VARIANTS

from ..engine.helpers import random_command
from .helpers import CASE_IDS, CASES, random_hands


@pytest.mark.parametrize(("game", "betting"), CASES, ids=CASE_IDS)
def test_audit_copy_replays_to_the_same_events(game: str, betting: Betting) -> None:
    for i, hand in enumerate(random_hands(game, betting, 12)):
        ctx = HandContext(minor_units=100 if i % 2 else 1)
        again = replay(read_phh(write_phh(hand, context=ctx)))
        assert again.complete
        assert again.state.events == hand.events
        assert again.matches is True
        assert again.notes == []


@pytest.mark.parametrize(("game", "betting"), CASES, ids=CASE_IDS)
def test_a_players_copy_replays_to_the_same_stacks(game: str, betting: Betting) -> None:
    """A dealt-in player sees every hand that reached the showdown (RULES.md §6.6), so his copy is
    enough to replay the result."""
    for hand in random_hands(game, betting, 8, "viewer"):
        for viewer in hand.order:
            again = replay(read_phh(write_phh(hand, viewer=viewer)))
            assert dict(zip(again.hand.seats, again.finishing_stacks, strict=True)) == hand.stacks()


def test_phhs_holds_many_hands_numbered_from_one() -> None:
    hands = list(random_hands("holdem", Betting.NO_LIMIT, 3, "phhs"))
    text = write_phhs([write_phh(h, context=HandContext(hand_id=str(i))) for i, h in enumerate(hands)])
    assert text.startswith("[1]\n")
    parsed = read_phhs(text)
    assert [i for i, _ in parsed] == [1, 2, 3]
    for (_, phh), hand in zip(parsed, hands, strict=True):
        assert not isinstance(phh, Exception)
        assert replay(phh).state.events == hand.events


def test_a_card_drawn_twice_is_shown_only_where_it_stayed() -> None:
    """After a reshuffle a player can draw a card he discarded earlier; in another player's copy only the
    deal that stayed in the shown hand reveals the card (this seed has such a hand: seat 1 is dealt the
    2s, discards it, and draws it back after the reshuffle)."""
    hands = list(random_hands("deuce7_triple", Betting.NO_LIMIT, 8, "x25"))
    for hand in hands:
        for viewer in hand.order:
            again = replay(read_phh(write_phh(hand, viewer=viewer)))
            assert dict(zip(again.hand.seats, again.finishing_stacks, strict=True)) == hand.stacks()


BOARD_CASES = [(g, b) for g, b in CASES if VARIANTS[g].has_shared_board]


@pytest.mark.parametrize(("game", "betting"), BOARD_CASES, ids=[f"{g}-{b.value}" for g, b in BOARD_CASES])
def test_run_it_twice_round_trips(game: str, betting: Betting) -> None:
    """R-RIT (docs/history.md): `_run_it_twice` and the answers (`_runout_count_selections`, "pN 2" yes,
    "pN 1" no) replay to the same events; both runs' boards are `d db` lines in dealing order."""
    ran_twice = 0
    for hand in random_hands(game, betting, 40, "rit", run_it_twice=True):
        text = write_phh(hand)
        phh = read_phh(text)
        assert phh.run_it_twice
        again = replay(phh)
        assert again.complete and again.notes == []
        assert again.state.events == hand.events and again.state.boards == hand.boards
        assert again.matches is True
        answers = [e for e in hand.events if isinstance(e, RunTwiceAnswered)]
        picks = [(phh.seat_of(p), c == 2) for p, c in phh.runout_selections]
        assert picks == [(e.seat, e.agree) for e in answers]
        for viewer in hand.order:  # a player's copy: the answers and both boards are public
            mine = replay(read_phh(write_phh(hand, viewer=viewer)))
            assert dict(zip(mine.hand.seats, mine.finishing_stacks, strict=True)) == hand.stacks()
        ran_twice += hand.runs == 2
    assert ran_twice, "no hand of the sample ran twice"


def test_run_it_twice_fields_are_checked() -> None:
    hand = next(h for h in random_hands("holdem", Betting.NO_LIMIT, 40, "rit", True) if h.runs == 2)
    text = write_phh(hand)
    assert "_run_it_twice = true" in text and "_runout_count_selections = [" in text
    for bad in ('"p11 2"', '"p1 3"', '"p1"', "2"):
        damaged = re.sub(
            r"_runout_count_selections = \[[^\]]*\]", f"_runout_count_selections = [{bad}]", text
        )
        with pytest.raises(PhhFieldError):
            read_phh(damaged)
    with pytest.raises(PhhFieldError):
        read_phh(text.replace("_run_it_twice = true", "_run_it_twice = 1"))
    with pytest.raises(PhhFieldError):  # answers without the option
        read_phh(text.replace("_run_it_twice = true", "_run_it_twice = false"))
    # no answers: the replay reads a missing answer as no (as a timeout), and says so
    silent = re.sub(r"_runout_count_selections = \[[^\]]*\]\n", "", text)
    again = replay(read_phh(silent))
    assert again.state.runs == 1 and any("no runout count" in n for n in again.notes)


def _forced_hands(kind: str, count: int) -> list[HandState]:
    """Random hands with a straddle under the gun, a Mississippi straddle or a bomb pot (RULES.md §11.2)."""
    rng = random.Random(kind)
    out = []
    for _ in range(count):
        seats = sorted(rng.sample(range(1, 10), rng.randint(3, 6)))
        button = rng.choice(seats)
        ring = [s for s in seats if s > button] + [s for s in seats if s <= button]
        if kind == "bomb":
            blinds = Blinds(antes=tuple((s, 400) for s in seats), bomb_pot=True)
        else:
            straddler = ring[2] if kind == "utg" or len(seats) == 3 else button
            blinds = Blinds(small=(ring[0], 100), big=(ring[1], 200), straddles=((straddler, 400),))
        game = rng.choice(["holdem", "omaha"])
        v = VARIANTS[game]
        hand = HandState.start(
            variant=v,
            structure=Structure(
                Betting.NO_LIMIT if game == "holdem" else Betting.POT_LIMIT, Stakes.blinds(100, 200)
            ),
            seats=[SeatSetup(s, rng.choice([300, 5000, 20_000])) for s in seats],
            deck=ListDeck.shuffled(v.deck_for(len(seats)), rng),
            button=button,
            blinds=blinds,
        )
        while not hand.is_over:
            hand.apply(random_command(hand, rng))
        out.append(hand)
    return out


@pytest.mark.parametrize("kind", ["utg", "mississippi", "bomb"])
def test_straddles_and_bomb_pots_replay_from_their_phh(kind: str) -> None:
    """RULES.md §11.2: a straddle is a ``straddle`` post (``_posts``; the engine knows a Mississippi
    straddle by its seat, the button); a bomb pot is ``_bomb_pot = true`` with the antes."""
    for hand in _forced_hands(kind, 15):
        text = write_phh(hand)
        assert ("_bomb_pot = true" in text) == (kind == "bomb")
        again = replay(read_phh(text))
        assert again.complete and again.state.events == hand.events and again.matches is True


def test_a_bomb_pot_field_must_be_a_boolean_and_have_no_blinds() -> None:
    hand = _forced_hands("bomb", 1)[0]
    text = write_phh(hand)
    with pytest.raises(PhhFieldError):
        read_phh(text.replace("_bomb_pot = true", '_bomb_pot = "yes"'))
    with pytest.raises(PhhFieldError):
        read_phh(re.sub(r"blinds_or_straddles = \[0", "blinds_or_straddles = [100", text))
