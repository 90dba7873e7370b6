"""Deals at the final table, the amounts (issue 35; RULES.md §11.3, R256, R257): ICM (Malmuth-Harville)
exact against the published example and a brute-force reference over every finishing order; chip chop;
rounding down with the leftover units to the biggest stacks; the amounts always add up to the money dealt."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.engine import ConfigError
from pokerroom.rooms.tournament.icm import chip_chop, deal_amounts, icm_equities


def brute_force_icm(stacks: list[int], prizes: list[int]) -> list[Fraction]:
    """Every finishing order, each with its Malmuth-Harville probability (each next place drawn in
    proportion to the chips of those still to be placed)."""
    n = len(stacks)
    equity = [Fraction(0)] * n
    for order in permutations(range(n)):
        p = Fraction(1)
        left = sum(stacks)
        for i in order:
            p *= Fraction(stacks[i], left)
            left -= stacks[i]
        for place, i in enumerate(order):
            equity[i] += p * prizes[place]
    return equity


def test_r256_the_published_icm_example() -> None:
    """Stacks 5,000 / 3,000 / 2,000, prizes $50 / $30 / $20 (in cents): exact 38.392857, 32.75, 28.857143;
    rounded down, the leftover cent to the largest stack: $38.40 / $32.75 / $28.85."""
    exact = icm_equities([5000, 3000, 2000], [5000, 3000, 2000])
    assert exact == [Fraction(26875, 7), Fraction(3275), Fraction(20200, 7)]
    assert [round(float(x) / 100, 6) for x in exact] == [38.392857, 32.75, 28.857143]
    assert deal_amounts([5000, 3000, 2000], [5000, 3000, 2000], "icm") == [3840, 3275, 2885]


def test_r257_chip_chop() -> None:
    """Same stacks and prizes: each the smallest prize ($20) plus the other $40 by chips: $40 / $32 / $28."""
    assert chip_chop([5000, 3000, 2000], [5000, 3000, 2000]) == [4000, 3200, 2800]
    assert deal_amounts([5000, 3000, 2000], [5000, 3000, 2000], "chip_chop") == [4000, 3200, 2800]


def test_heads_up_icm_is_the_second_prize_plus_the_difference_by_chips() -> None:
    """Two players: P(first) = s_i / S, so the equity is 2nd + (1st - 2nd) x s_i / S (the chip chop)."""
    assert icm_equities([6000, 4000], [7000, 3000]) == [Fraction(5400), Fraction(4600)]
    assert deal_amounts([6000, 4000], [7000, 3000], "icm") == deal_amounts(
        [6000, 4000], [7000, 3000], "chip_chop"
    )


def test_equal_stacks_share_equally_and_leftover_units_go_to_the_biggest_stacks_first() -> None:
    assert deal_amounts([100, 100, 100], [601, 300, 100], "icm") == [334, 334, 333]  # 1,001 / 3
    # 1/3, 1, 2/3 rounded down: 0, 1, 0; the leftover unit to the biggest stack (not the biggest fraction)
    assert deal_amounts([100, 300, 200], [2, 0, 0], "chip_chop") == [0, 2, 0]


def test_keeping_part_of_the_pool_to_play_for_deals_the_rest() -> None:
    """1,000 of the 5,000 first prize kept to play for: 9,000 dealt now, by ICM of 4,000 / 3,000 / 2,000."""
    amounts = deal_amounts([5000, 3000, 2000], [5000, 3000, 2000], "icm", keep=1000)
    assert sum(amounts) == 9000
    assert [Fraction(a) for a in amounts] != icm_equities([5000, 3000, 2000], [5000, 3000, 2000])
    with pytest.raises(ConfigError):  # never more than the first prize above the smallest
        deal_amounts([5000, 3000, 2000], [5000, 3000, 2000], "icm", keep=3001)


def test_ten_players_are_exact_and_eleven_are_refused() -> None:
    stacks = [1000 * i + 7 for i in range(1, 11)]
    prizes = [3000, 2000, 1500, 1000, 800, 600, 500, 400, 300, 200]
    exact = icm_equities(stacks, prizes)
    assert sum(exact) == sum(prizes) and exact == sorted(exact)  # more chips, more equity
    with pytest.raises(ConfigError):
        icm_equities([*stacks, 5], [*prizes, 0])
    with pytest.raises(ConfigError):
        icm_equities([100, 0], [10, 0])  # a player in a deal holds chips


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(1, 50_000), min_size=1, max_size=6).flatmap(
        lambda stacks: st.tuples(
            st.just(stacks),
            st.lists(st.integers(0, 100_000), min_size=len(stacks), max_size=len(stacks)).map(
                lambda p: sorted(p, reverse=True)
            ),
            st.sampled_from(["icm", "chip_chop"]),
        )
    )
)
def test_icm_agrees_with_the_brute_force_reference_and_deals_exactly_the_money(
    case: tuple[list[int], list[int], str],
) -> None:
    stacks, prizes, method = case
    assert icm_equities(stacks, prizes) == brute_force_icm(stacks, prizes)
    amounts = deal_amounts(stacks, prizes, method)  # type: ignore[arg-type]
    exact = icm_equities(stacks, prizes) if method == "icm" else chip_chop(stacks, prizes)
    assert sum(amounts) == sum(prizes)  # to the unit
    assert all(int(x) <= a <= int(x) + 1 for a, x in zip(amounts, exact, strict=True))  # floor, +1 at most
