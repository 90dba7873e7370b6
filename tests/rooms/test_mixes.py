"""RULES.md §11.1 at a cash table: mixes as data, rounds of N hands (R246), the button and the missed blinds
across games (R247, R248), the mix's stakes (R249), and a mixed table under random play (chips conserved,
every hand in its round's game)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.engine import (
    BetDecision,
    Betting,
    BringIn,
    Call,
    Check,
    Command,
    ConfigError,
    Draw,
    DrawDecision,
    HandState,
    Stakes,
)
from pokerroom.engine.events import Posted
from pokerroom.rooms import CashTable, GameChoice, TableConfig
from pokerroom.rooms.errors import TableError
from pokerroom.rooms.mixes import MIXES, MixGame, Rotation, game_stakes
from pokerroom.rooms.view import mix_view, table_view

from .cash_driver import play
from .helpers import at

FL, PL, NL = Betting.FIXED_LIMIT, Betting.POT_LIMIT, Betting.NO_LIMIT
TWO_FOUR = Stakes.fixed_limit(200, 400)  # $2/$4 in cents


def mixed(mix: str = "horse", seats: int = 6, round_hands: int = 0, seed: int = 5) -> CashTable:
    first = MIXES[mix].games[0]
    cfg = TableConfig(
        "m1", "Mixed", first.variant, first.betting, TWO_FOUR, seats, mix=mix, round_hands=round_hands
    )
    return CashTable(cfg, random.Random(seed))


def passive(hand: HandState) -> Command:
    d = hand.pending
    if isinstance(d, DrawDecision):
        return Draw(d.seat, ())
    assert isinstance(d, BetDecision), d
    if d.bring_in:
        return BringIn(d.seat)
    return Check(d.seat) if d.check else Call(d.seat)


def deal_one(t: CashTable, when: float) -> HandState:
    """Start the next hand and play it to the end (everybody checks or calls)."""
    t.tick(at(when))
    hand = t.hand
    assert hand is not None and t.in_hand
    while t.in_hand:
        command = passive(hand)
        t.act(t.seats[command.seat].player, command, at(when + 0.5))
    return hand


def seat_all(t: CashTable, seats: list[int], stack: int = 20_000) -> None:
    for s in seats:
        t.sit(f"u{s}", f"U{s}", s, stack, at(0))


def test_shipped_mixes() -> None:
    def games(code: str) -> list[tuple[str, Betting]]:
        return [(g.variant, g.betting) for g in MIXES[code].games]

    assert games("horse") == [("holdem", FL), ("omaha8", FL), ("razz", FL), ("stud", FL), ("stud8", FL)]
    assert games("8game") == [
        ("deuce7_triple", FL),
        ("holdem", FL),
        ("omaha8", FL),
        ("razz", FL),
        ("stud", FL),
        ("stud8", FL),
        ("holdem", NL),
        ("omaha", PL),
    ]
    assert games("ha") == [("holdem", NL), ("omaha", PL)]


def test_r246_horse_at_a_six_seat_table_plays_rounds_of_six_hands() -> None:
    t = mixed("horse", 6)
    seat_all(t, [1, 2, 3, 4, 5, 6])
    played = [deal_one(t, 10 * i).variant.code for i in range(31)]
    expected = ["holdem"] * 6 + ["omaha8"] * 6 + ["razz"] * 6 + ["stud"] * 6 + ["stud8"] * 6 + ["holdem"]
    assert played == expected


def test_the_round_length_is_configurable_and_the_view_says_now_next_and_hands_left() -> None:
    t = mixed("ha", 6, round_hands=2)
    seat_all(t, [1, 2, 3])
    view = mix_view(t)
    assert view is not None
    assert (view["name"], view["game"], view["next_game"], view["hands_left"]) == (
        "Mixed Hold'em/Omaha",
        "holdem",
        "omaha",
        2,
    )
    deal_one(t, 0)
    assert mix_view(t)["hands_left"] == 1  # type: ignore[index]
    deal_one(t, 10)
    view = mix_view(t)  # between rounds: the next hand is the next round's first
    assert view is not None and (view["game"], view["next_game"], view["hands_left"]) == (
        "omaha",
        "holdem",
        2,
    )
    snapshot = table_view(t, "u1", at(20))
    assert snapshot["variant"] == "omaha" and snapshot["betting"] == "PL"
    assert snapshot["cash"]["mix"] == view
    assert deal_one(t, 20).variant.code == "omaha"


def test_r247_the_button_stays_through_the_stud_rounds_and_moves_on_after_them() -> None:
    t = mixed("horse", 6, round_hands=3)
    seat_all(t, [1, 2, 3, 4, 5, 6])
    hands = [deal_one(t, 10 * i) for i in range(6)]  # 3 hold'em, 3 Omaha hi/lo
    last_omaha = hands[5]
    assert last_omaha.variant.code == "omaha8"
    assert last_omaha.button == 4  # R247's table (the seeded random start button)
    for i in range(9):  # razz, stud, stud hi/lo
        hand = deal_one(t, 100 + 10 * i)
        assert hand.variant.is_stud and hand.button is None  # stud deals from seat 1, no button
        assert t.positions is not None and t.positions.button == 4  # the table's button stays on 4
    first_holdem = deal_one(t, 300)
    assert first_holdem.variant.code == "holdem"
    assert first_holdem.button == 5  # the next active seat after 4


def test_r247_the_button_skips_a_seat_emptied_during_the_stud_rounds() -> None:
    t = mixed("horse", 6, round_hands=3)
    seat_all(t, [1, 2, 3, 4, 5, 6])
    hands = [deal_one(t, 10 * i) for i in range(6)]
    button = hands[5].button
    assert button is not None
    gone = button % 6 + 1  # the seat after the button leaves during razz
    deal_one(t, 100)
    t.leave(f"u{gone}", at(105))
    for i in range(8):
        deal_one(t, 110 + 10 * i)
    first_holdem = deal_one(t, 300)
    assert first_holdem.variant.code == "holdem"
    assert first_holdem.button is not None and first_holdem.button != button


def test_r248_a_missed_big_blind_held_when_stud_begins_is_owed_after_it() -> None:
    t = mixed("horse", 6, round_hands=2)
    seat_all(t, [1, 2, 3, 4, 5, 6])
    for i in range(4):  # hold'em and Omaha hi/lo
        deal_one(t, 10 * i)
    owing = t.seats[3]
    owing.missed_bb = True  # marker ML when the stud rounds begin
    for i in range(6):  # razz, stud, stud hi/lo: he is dealt in and posts the ante only
        hand = deal_one(t, 100 + 10 * i)
        assert hand.variant.is_stud and 3 in hand.players
        assert [e.what for e in hand.events if isinstance(e, Posted) and e.seat == 3] == ["ante"]
        assert owing.markers == ("ML",)  # kept
    hand = deal_one(t, 300)
    assert hand.variant.code == "holdem"
    posts = [e.what for e in hand.events if isinstance(e, Posted) and e.seat == 3]
    # he owes the big blind: he waits for it, or it reached him (§4.7)
    assert 3 not in hand.players or posts == ["big_blind"]
    if 3 not in hand.players:
        assert owing.markers == ("ML",)


def test_a_player_seated_during_a_stud_round_is_dealt_in_at_once() -> None:
    t = mixed("horse", 6, round_hands=2)
    seat_all(t, [1, 2, 3])
    for i in range(4):
        deal_one(t, 10 * i)
    t.sit("u5", "U5", 5, 20_000, at(45))
    hand = deal_one(t, 50)
    assert hand.variant.code == "razz" and 5 in hand.players


def test_r249_eight_game_stakes_derive_from_the_small_and_big_bet() -> None:
    t = mixed("8game", 6)
    stakes = {(g.variant, g.betting): g.stakes for g in t.config.games}
    for game in ("holdem", "omaha8", "deuce7_triple"):
        s = stakes[(game, FL)]
        assert (s.small_bet, s.big_bet, s.small_blind, s.big_blind) == (200, 400, 100, 200)
    for game, betting in (("holdem", NL), ("omaha", PL)):
        s = stakes[(game, betting)]
        assert (s.small_blind, s.big_blind) == (50, 100)
    for game in ("razz", "stud", "stud8"):
        s = stakes[(game, FL)]
        assert (s.ante, s.bring_in, s.small_bet, s.big_bet) == (40, 50, 200, 400)
    assert game_stakes(MixGame("stud", FL), 300, 600, chip_unit=25).ante == 50  # rounded down to the chip


def test_r249_the_hands_are_dealt_at_the_games_stakes() -> None:
    t = mixed("8game", 6, round_hands=1)
    seat_all(t, [1, 2, 3, 4])
    hands = [deal_one(t, 10 * i) for i in range(8)]
    assert [h.structure.betting for h in hands] == [FL] * 6 + [NL, PL]
    assert [h.structure.stakes for h in hands] == [g.stakes for g in t.config.games]


def test_a_mixed_tables_buy_in_is_in_big_bets_of_the_mix() -> None:
    assert mixed().config.buy_in_range == (4000, 20000)  # 10 to 50 big bets of $4


@pytest.mark.parametrize(
    ("mix", "variant", "betting", "seats", "options"),
    [
        ("horse", "holdem", FL, 9, {}),  # stud is played by 8 at most
        ("8game", "deuce7_triple", FL, 7, {}),  # triple draw by 6 at most
        ("horse", "razz", FL, 6, {}),  # not the mix's first game
        ("nope", "holdem", FL, 6, {}),
        ("horse", "holdem", FL, 6, {"round_hands": -1}),
    ],
)
def test_mixed_tables_that_cannot_be_played_are_refused(
    mix: str, variant: str, betting: Betting, seats: int, options: dict[str, int]
) -> None:
    with pytest.raises(ConfigError):
        TableConfig("m", "M", variant, betting, TWO_FOUR, seats, mix=mix, **options)  # type: ignore[arg-type]


def test_rotation_rolls_only_when_the_round_is_dealt() -> None:
    r = Rotation(MIXES["ha"], 2)
    assert r.rolled() is r and r.dealt().dealt().rolled().game.variant == "omaha"
    with pytest.raises(ConfigError):
        Rotation(MIXES["ha"], 0)


@settings(max_examples=6, deadline=None)
@given(
    st.sampled_from(["horse", "8game", "ha"]),
    st.sampled_from([0, 1, 3]),
    st.booleans(),
    st.integers(0, 2**32),
)
def test_a_mixed_table_conserves_chips_and_deals_every_hand_in_its_rounds_game(
    mix: str, round_hands: int, choice: bool, seed: int
) -> None:
    """Hundreds of random hands per example (thousands in all) with players sitting down, leaving,
    sitting out and coming back: after every hand the chips at the table are what was booked (the
    driver's check), and the k-th hand dealt is in the game of its round ⌊(k - 1) / N⌋: the mix's next
    game, or in dealer's choice the game chosen for the round (its chooser answers at random or not at
    all, R250)."""
    first = MIXES[mix].games[0]
    cfg = TableConfig(
        "m1", "Mixed", first.variant, first.betting, TWO_FOUR, 6, mix=mix, round_hands=round_hands,
        dealers_choice=choice,
    )  # fmt: skip
    t = CashTable(cfg, random.Random(seed % 1000))
    games = MIXES[mix].games
    per_round = round_hands or 6
    rng = random.Random(seed)
    picks: dict[int, int] = {}
    count = [0]

    def choose(asked: GameChoice) -> int | None:
        assert asked.options == tuple(g.label for g in games)
        pick = rng.choice([None, rng.randrange(len(games))])
        if pick is not None:
            picks[asked.round] = pick
        return pick

    def round_game(r: int) -> int:
        index = 0
        for k in range(1, r + 1):
            index = picks.get(k, (index + 1) % len(games))
        return index

    def check(t: CashTable, hand: HandState) -> None:
        count[0] += 1
        index = round_game((count[0] - 1) // per_round)
        game = games[index]
        assert (hand.variant.code, hand.structure.betting) == (game.variant, game.betting)
        assert hand.structure.stakes == t.config.games[index].stakes

    play(t, random.Random(seed), 400, between=check, choose=choose)
    assert count[0] == 400


# ------------------------------------------------------------------------------------------ dealer's choice


def chooser_table(round_hands: int = 2) -> CashTable:
    cfg = TableConfig(
        "d1",
        "Choice",
        "deuce7_triple",
        FL,
        TWO_FOUR,
        6,
        mix="8game",
        round_hands=round_hands,
        dealers_choice=True,
    )
    return CashTable(cfg, random.Random(2))


def test_dealers_choice_the_button_picks_the_rounds_game() -> None:
    t = chooser_table()
    seat_all(t, [1, 2, 3, 4])
    first = [deal_one(t, 0).variant.code, deal_one(t, 10).variant.code]
    assert first == ["deuce7_triple"] * 2  # before any button: the list's first game
    assert t.positions is not None
    button = t.positions.button
    out = t.tick(at(20))
    (asked,) = [x for x in out if isinstance(x, GameChoice)]
    assert (asked.seat, asked.player, asked.default) == (button, f"u{button}", 1)
    assert asked.options[6] == "NL Texas Hold'em" and asked.deadline == at(35)  # 15 s
    assert not t.in_hand and t.next_deadline() == at(35)
    view = mix_view(t, at(25))
    assert view is not None and view["choosing"]["seat"] == button and view["choosing"]["expires_in"] == 10
    with pytest.raises(TableError):
        t.choose_game(f"u{button % 4 + 1}", 6, at(21))  # not his to choose
    with pytest.raises(TableError):
        t.choose_game(f"u{button}", 8, at(21))  # no such game
    t.choose_game(f"u{button}", 6, at(22))
    hand = t.hand
    assert hand is not None and (hand.variant.code, hand.structure.betting) == ("holdem", NL)


def test_r250_no_choice_within_15_seconds_plays_the_next_game_of_the_list() -> None:
    t = chooser_table()
    seat_all(t, [1, 2, 3, 4])
    deal_one(t, 0)
    deal_one(t, 10)
    t.tick(at(20))
    t.tick(at(34.9))
    assert not t.in_hand
    t.tick(at(35))
    hand = t.hand
    assert hand is not None and hand.variant.code == "holdem" and hand.structure.betting is FL


def test_dealers_choice_during_stud_the_seat_the_button_stays_on_chooses() -> None:
    t = chooser_table(round_hands=1)
    seat_all(t, [1, 2, 3, 4])
    deal_one(t, 0)
    assert t.positions is not None
    button = t.positions.button
    (asked,) = [x for x in t.tick(at(10)) if isinstance(x, GameChoice)]
    t.choose_game(asked.player, 3, at(11))  # razz
    hand = t.hand
    assert hand is not None and hand.variant.code == "razz"
    while t.in_hand:
        command = passive(hand)
        t.act(t.seats[command.seat].player, command, at(12))
    (asked,) = [x for x in t.tick(at(20)) if isinstance(x, GameChoice)]
    assert asked.seat == button == t.positions.button  # razz froze the button
    assert asked.default == 4  # the game after razz


def test_dealers_choice_needs_a_mix() -> None:
    with pytest.raises(ConfigError):
        TableConfig("d", "D", "holdem", NL, Stakes.blinds(50, 100), 6, dealers_choice=True)


def test_a_reopened_mixed_table_goes_on_from_its_hand_count() -> None:
    """A table reopened after a restart (or taken over by another host) knows how many hands it dealt
    (the journal's count, ``hand_count``): its rotation goes on from there."""
    t = mixed("horse", 6, round_hands=3)
    t.hand_count = 7  # rounds 1-2 (hold'em, Omaha hi/lo) and one hand of razz were dealt before
    seat_all(t, [1, 2, 3])
    assert [deal_one(t, 10 * i).variant.code for i in range(3)] == ["razz", "razz", "stud"]
    r = Rotation.after(MIXES["ha"], 2, 5)
    assert (r.round, r.dealt_in_round, r.game.variant) == (2, 1, "holdem")
