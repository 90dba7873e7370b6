"""A parsed PHH hand (:class:`PhhHand`, exported by ``pokerroom.history`` and its ``model``).

This module is compiled with the reader and the replay (setup.py, docs/engine-speed.md): the hand is
then a native class, which the compiled reader makes with one call and the compiled replay reads field
by field directly. As an interpreted frozen dataclass its 31 fields were set one by one through Python
calls (about 2 us a hand) and each field the replay read was a Python attribute lookup.

It stays the frozen dataclass it was: ``dataclasses.fields``, ``replace``, the same ``repr`` and
equality, pattern matching, assignment refused (``FrozenInstanceError``). Its constructor is its own
(the one the dataclass decorator writes is interpreted Python even here), with the same arguments and
defaults; ``copy.copy`` goes through that constructor (a compiled frozen dataclass cannot be rebuilt from
its slots). Like the dataclass, a hand is not pickled: its context's players are a read-only mapping.
In the compiled build the constructor checks its arguments against their declared types, as every
compiled function does; the reader only passes the declared types.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pokerroom.engine import Betting, RakeRule, VariantSpec
from pokerroom.history.action import PhhAction
from pokerroom.history.context import HandContext, Post

__all__ = ["PhhHand"]


@dataclass(frozen=True, slots=True, init=False)
class PhhHand:
    """A PHH hand, checked and converted to minor units (``scale`` units per PHH amount unit).

    Per-player tuples are in PHH order (p1 first). ``seats`` are the engine seats of the players,
    ``button`` the engine button (``None`` in stud). ``unknown_stacks`` lists the players whose starting
    stack was ``inf``. ``fields`` keeps the whole TOML table as read (decimals as :class:`Decimal`).
    """

    variant: VariantSpec
    betting: Betting
    variant_field: str
    scale: int
    chip_unit: int
    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    bring_in: int
    small_bet: int
    big_bet: int
    min_bet: int
    starting_stacks: tuple[int, ...]
    unknown_stacks: tuple[int, ...]
    actions: tuple[PhhAction, ...]
    seats: tuple[int, ...]
    button: int | None
    posts: tuple[Post, ...] | None
    dead: tuple[int, ...]
    rake_rule: RakeRule | None
    rake: int | None
    cap: int
    heads_up_uncapped: bool
    finishing_stacks: tuple[int, ...] | None
    winnings: tuple[int, ...] | None
    players: tuple[str, ...]
    context: HandContext
    fields: Mapping[str, Any]
    name: str | None = None
    # Run it twice (R-RIT): the table allowed it (``_run_it_twice``), and the players' answers in order
    # as (player, runout count 1 or 2) (``_runout_count_selections``).
    run_it_twice: bool = False
    runout_selections: tuple[tuple[int, int], ...] = ()
    # A bomb pot (RULES.md §11.2, ``_bomb_pot``): antes only, no betting before the flop.
    bomb_pot: bool = False

    def __init__(
        self,
        variant: VariantSpec,
        betting: Betting,
        variant_field: str,
        scale: int,
        chip_unit: int,
        antes: tuple[int, ...],
        blinds_or_straddles: tuple[int, ...],
        bring_in: int,
        small_bet: int,
        big_bet: int,
        min_bet: int,
        starting_stacks: tuple[int, ...],
        unknown_stacks: tuple[int, ...],
        actions: tuple[PhhAction, ...],
        seats: tuple[int, ...],
        button: int | None,
        posts: tuple[Post, ...] | None,
        dead: tuple[int, ...],
        rake_rule: RakeRule | None,
        rake: int | None,
        cap: int,
        heads_up_uncapped: bool,
        finishing_stacks: tuple[int, ...] | None,
        winnings: tuple[int, ...] | None,
        players: tuple[str, ...],
        context: HandContext,
        fields: Mapping[str, Any],
        name: str | None = None,
        run_it_twice: bool = False,
        runout_selections: tuple[tuple[int, int], ...] = (),
        bomb_pot: bool = False,
    ) -> None:
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "betting", betting)
        object.__setattr__(self, "variant_field", variant_field)
        object.__setattr__(self, "scale", scale)
        object.__setattr__(self, "chip_unit", chip_unit)
        object.__setattr__(self, "antes", antes)
        object.__setattr__(self, "blinds_or_straddles", blinds_or_straddles)
        object.__setattr__(self, "bring_in", bring_in)
        object.__setattr__(self, "small_bet", small_bet)
        object.__setattr__(self, "big_bet", big_bet)
        object.__setattr__(self, "min_bet", min_bet)
        object.__setattr__(self, "starting_stacks", starting_stacks)
        object.__setattr__(self, "unknown_stacks", unknown_stacks)
        object.__setattr__(self, "actions", actions)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "button", button)
        object.__setattr__(self, "posts", posts)
        object.__setattr__(self, "dead", dead)
        object.__setattr__(self, "rake_rule", rake_rule)
        object.__setattr__(self, "rake", rake)
        object.__setattr__(self, "cap", cap)
        object.__setattr__(self, "heads_up_uncapped", heads_up_uncapped)
        object.__setattr__(self, "finishing_stacks", finishing_stacks)
        object.__setattr__(self, "winnings", winnings)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "context", context)
        object.__setattr__(self, "fields", fields)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "run_it_twice", run_it_twice)
        object.__setattr__(self, "runout_selections", runout_selections)
        object.__setattr__(self, "bomb_pot", bomb_pot)

    def __reduce__(self) -> tuple[type[PhhHand], tuple[Any, ...]]:
        """Rebuilt (``copy.copy``) through the constructor, with every field in order."""
        return (PhhHand, tuple(getattr(self, f.name) for f in dataclasses.fields(self)))

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    def seat_of(self, player: int) -> int:
        return self.seats[player - 1]

    def player_of(self, seat: int) -> int:
        return self.seats.index(seat) + 1
