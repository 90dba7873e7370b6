"""The first part of a hand's state: its data, the seats in dealing order, forced bets and the deal.

:class:`~pokerroom.engine.state.HandState` is built in three layers, one module each, so that no module
is long: :class:`HandDeal` (this module: the hand's data, the table order, posting the forced bets,
dealing and burning, choosing the stud bring-in), :class:`~pokerroom.engine.hand_betting.HandBetting`
(betting rounds, pots) and ``HandState`` itself (the progression of streets, draws, the showdown, the
public queries and ``apply``). A layer calls only the layers below it. The three are compiled together
by mypyc (``setup.py``); the split changes neither behaviour nor speed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from pokerroom.cards import Card, DeckSpec
from pokerroom.engine.betting import BetDecision, PlayerState, Round
from pokerroom.engine.commands import Command
from pokerroom.engine.deck import CardSource, ListDeck
from pokerroom.engine.errors import ConfigError
from pokerroom.engine.events import BoardDealt, Burned, CardsDealt, CardsShown, Event, Posted
from pokerroom.engine.pots import Pot
from pokerroom.engine.setup import Blinds, Phase, SeatSetup
from pokerroom.engine.showdown import ShownTracker
from pokerroom.engine.spec import VariantSpec
from pokerroom.engine.stakes import Betting, RakeRule, Structure
from pokerroom.engine.stud import bring_in_seat
from pokerroom.eval import HandValue

# Enum members as module constants: the compiled engine reads a constant instead of looking the member up
# on its enum class at every comparison.
_BETTING: Final = Phase.BETTING
_FL: Final = Betting.FIXED_LIMIT

__all__ = ["HandDeal", "VariantFacts", "check_start", "variant_facts"]


_COUNTS_MAX: Final = 32  # player counts answered from the facts; any other is asked of the variant


class VariantFacts:
    """What a hand asks of its variant at every start, asked of the variant once.

    ``VariantSpec`` is an interpreted frozen dataclass: each of its properties (``is_stud``, ``is_draw``)
    and checks (``check_players``, ``deck_for``, ...) is a Python call from the compiled engine and the
    PHH replay, a dozen of them a hand. The variant stays the one that decides: these are its own answers,
    taken for every player count it can be dealt to and every structure, and a question outside those
    (a player count it refuses, say) is put to the variant itself, which raises its own error."""

    def __init__(self, variant: VariantSpec) -> None:
        self.variant = variant
        self.is_stud: bool = variant.is_stud
        self.is_draw: bool = variant.is_draw
        counts = range(min(variant.max_players, _COUNTS_MAX) + 1)  # (a table seats ten at most)
        self._decks: tuple[DeckSpec, ...] = tuple(variant.deck_for(n) for n in counts)
        self._rules: tuple[tuple[DeckSpec, str], ...] = tuple((d, variant.rule_for(d)) for d in DeckSpec)
        players: list[bool] = []
        for n in counts:
            try:
                variant.check_players(n)
            except ConfigError:
                players.append(False)
            else:
                players.append(True)
        self._players: tuple[bool, ...] = tuple(players)
        structures: list[Betting] = []
        for b in Betting:
            try:
                variant.check_structure(b)
            except ConfigError:
                continue
            structures.append(b)
        self._structures: tuple[Betting, ...] = tuple(structures)

    def deck_for(self, players: int) -> DeckSpec:
        """``variant.deck_for(players)``."""
        if 0 <= players < len(self._decks):
            return self._decks[players]
        return self.variant.deck_for(players)

    def rule_for(self, deck: DeckSpec) -> str:
        """``variant.rule_for(deck)``."""
        for d, rule in self._rules:
            if d is deck:
                return rule
        return self.variant.rule_for(deck)

    def check_players(self, players: int) -> None:
        """``variant.check_players(players)``: its ConfigError for a count it refuses."""
        if not (0 <= players < len(self._players) and self._players[players]):
            self.variant.check_players(players)

    def check_structure(self, betting: Betting) -> None:
        """``variant.check_structure(betting)``: its ConfigError for a structure it refuses."""
        for b in self._structures:
            if b is betting:
                return
        self.variant.check_structure(betting)


# Facts by the variant's identity (a variant's hash is a Python call over all its fields): each entry
# holds its variant, so no other object can take that identity while the entry is kept. Bounded: emptied
# when full (a long run that makes variants of its own).
_FACTS: dict[int, VariantFacts] = {}
_FACTS_MAX: Final = 256


def variant_facts(variant: VariantSpec) -> VariantFacts:
    """The :class:`VariantFacts` of ``variant``, made the first time it is asked for."""
    facts = _FACTS.get(id(variant))
    if facts is None or facts.variant is not variant:
        facts = VariantFacts(variant)
        if len(_FACTS) >= _FACTS_MAX:
            _FACTS.clear()
        _FACTS[id(variant)] = facts
    return facts


def _pairs(value: object) -> bool:
    if not isinstance(value, tuple):
        return False
    for p in value:  # a loop, not all(...): a replay checks a forced bet per seat at every hand's start
        if not (isinstance(p, tuple) and len(p) == 2 and type(p[0]) is int and type(p[1]) is int):
            return False
    return True


def check_start(seats: object, button: object, blinds: object, hand_id: object) -> None:
    """Raise :class:`ConfigError` unless the data a hand starts with has the declared types and values.

    ``HandState.start`` calls this first: the rest of the engine reads these values as their declared
    types, and compiled code would stop on a float stack or a string seat with a bare ``TypeError``.
    This function is compiled too, so it reads every field of a seat and of the blinds as a plain object
    (``getattr``), never as its declared type. Numbers must be plain ``int`` (not ``bool``, not a float
    that happens to be whole)."""
    if not isinstance(seats, list | tuple):
        raise ConfigError("seats must be a sequence of SeatSetup")
    numbers: set[int] = set()
    for s in seats:  # one pass: this runs at the start of every hand
        if not isinstance(s, SeatSetup):
            raise ConfigError("seats must be a sequence of SeatSetup")
        seat: object = getattr(s, "seat")  # noqa: B009
        if type(seat) is not int or seat < 1 or seat in numbers:
            raise ConfigError("seats must be distinct positive integers")
        numbers.add(seat)
        stack: object = getattr(s, "stack")  # noqa: B009
        if type(stack) is not int or stack <= 0:
            raise ConfigError("every player dealt in needs a positive integer stack")
        if type(getattr(s, "auto_muck")) is not bool:  # noqa: B009
            raise ConfigError("auto_muck must be True or False")
    if button is not None and not (type(button) is int and button > 0):
        raise ConfigError("the button must be a seat number")
    if blinds is not None:
        if not isinstance(blinds, Blinds):
            raise ConfigError("blinds must be a Blinds record")
        small: object = getattr(blinds, "small")  # noqa: B009
        big: object = getattr(blinds, "big")  # noqa: B009
        straddles: object = getattr(blinds, "straddles")  # noqa: B009
        live: object = getattr(blinds, "live")  # noqa: B009
        dead: object = getattr(blinds, "dead")  # noqa: B009
        antes: object = getattr(blinds, "antes")  # noqa: B009
        one = tuple(b for b in (small, big) if b is not None)
        if not _pairs(one) or not all(
            _pairs(m) for m in (straddles, live, dead, () if antes is None else antes)
        ):
            raise ConfigError("forced bets must be (seat, amount) pairs of integers")
        bomb_pot: object = getattr(blinds, "bomb_pot")  # noqa: B009
        if type(bomb_pot) is not bool:
            raise ConfigError("bomb_pot must be True or False")
        if bomb_pot and (one or straddles or live or dead or not antes):
            raise ConfigError("a bomb pot has antes and no blinds")
    if type(hand_id) is not str:
        raise ConfigError("the hand id must be a string")


class HandDeal:
    """A hand's data, its seats in dealing order, its forced bets and its deal (see the module)."""

    variant: VariantSpec
    structure: Structure
    players: dict[int, PlayerState]
    order: tuple[int, ...]
    button: int | None
    board: list[Card]
    events: list[Event]
    commands: list[Command]

    def _init(
        self,
        variant: VariantSpec,
        structure: Structure,
        seats: Sequence[SeatSetup],
        deck: CardSource,
        button: int | None,
        blinds: Blinds | None,
        rake: RakeRule | None,
        hand_id: str,
        run_it_twice: bool = False,
    ) -> None:
        facts = variant_facts(variant)
        facts.check_structure(structure.betting)
        facts.check_players(len(seats))
        numbers = [s.seat for s in seats]  # checked by check_start
        expected = facts.deck_for(len(seats))
        if deck.spec is not expected:
            raise ConfigError(
                f"{variant.name} with {len(seats)} players is dealt from a {expected.size}-card deck"
            )
        stakes = structure.stakes
        self._stud = facts.is_stud  # read at every street: kept here, not asked of the variant
        self._min_bet = structure.min_bet  # (a property of an interpreted class: asked once a hand)
        if self._stud:
            if structure.betting is not _FL or stakes.bring_in <= 0:
                raise ConfigError("stud games are fixed limit with a bring-in")
            if stakes.bring_in >= stakes.small_bet:
                raise ConfigError("the bring-in must be less than the small bet")
        elif blinds is None and stakes.big_blind <= 0:
            raise ConfigError("a blind game needs a big blind")
        if self._stud and stakes.big_blind_ante:
            raise ConfigError("a stud game has no big blind to post a big-blind ante")
        if blinds is not None and blinds.bomb_pot:
            streets = variant.streets
            if self._stud or len(streets) < 2 or not streets[1].board:
                raise ConfigError(f"{variant.name} has no flop: it cannot be played as a bomb pot")
        if type(run_it_twice) is not bool:
            raise ConfigError("run_it_twice must be True or False")
        if run_it_twice and not variant.has_shared_board:
            raise ConfigError(f"{variant.name} has no shared board: it cannot be run twice")
        self.variant = variant
        self.structure = structure
        self.hand_id = hand_id
        self.rake_rule = rake
        self.deck = deck
        # The deck as it was before the deal: a ListDeck keeps its original order, other sources (replays)
        # are asked now.
        self._deck_data: dict[str, Any] | None = None if isinstance(deck, ListDeck) else deck.to_data()
        self.players = {s.seat: PlayerState(s.seat, s.stack, s.stack, s.auto_muck) for s in seats}
        self.order = tuple(sorted(numbers))
        self._rings: dict[int | None, tuple[int, ...]] = {}
        self._live = len(numbers)  # players who have not folded
        self._pot = 0  # everything put in, after uncalled returns
        self._decision_cache: BetDecision | None = None
        if self._stud:
            self.button = None
        else:
            self.button = max(self.order) if button is None else button
        self.board = []
        self.events = []
        self.commands = []
        self.phase = _BETTING
        self.street = 0
        self.rnd = Round(structure)
        self.to_act: int | None = None
        self.aggressors: dict[int, int] = {}
        self.discards: list[Card] = []  # draw-game discards available for a reshuffle
        self.exposed = False
        self.reached_second_street = False
        self.pots: list[Pot] = []
        self.rake = 0
        self._show_queue: list[int] = []
        self._tracker: ShownTracker | None = None
        self._values: dict[int, tuple[HandValue, HandValue | None]] = {}
        self._rule = facts.rule_for(deck.spec)
        self._blinds = blinds
        self._dead: dict[int, int] | None = None  # unequal antes: dead money (hand_betting)
        self._last_blind: int | None = self.button
        # The first betting round's order when a straddler who is not the player after the big blind acts
        # last (the Mississippi straddle, RULES.md §11.2); None: the usual clockwise order.
        self._ring0: tuple[int, ...] | None = None
        # Run it twice (R-RIT, state.py): allowed by the table; the street the runs start from (-1: not
        # offered yet); the seats asked and their answers; how many runs; the second run's whole board.
        self._rit = run_it_twice
        self._rit_next = -1
        self._rit_seats: tuple[int, ...] = ()
        self._rit_answers: dict[int, bool] = {}
        self.runs = 1
        self.board2: list[Card] = []
        self._start_args: dict[str, Any] = {
            "seats": [(s.seat, s.stack, s.auto_muck) for s in seats],
            "button": button,
            "blinds": blinds,
            "rake": rake,
            "hand_id": hand_id,
            "run_it_twice": run_it_twice,
        }

    # ------------------------------------------------------------------------------------ navigation

    def _after(self, seat: int | None) -> tuple[int, ...]:
        """Dealt-in seats clockwise, starting with the first one after ``seat`` (stud: from seat 1)."""
        cached = self._rings.get(seat)
        if cached is None:
            order = self.order
            if seat is None:
                cached = order
            else:
                cached = tuple(s for s in order if s > seat) + tuple(s for s in order if s <= seat)
            self._rings[seat] = cached
        return cached

    def _active(self) -> list[PlayerState]:
        players = self.players
        active = []
        for s in self.order:
            p = players[s]
            if not p.folded:
                active.append(p)
        return active

    def _odd_chip_order(self, seats: Sequence[int]) -> tuple[int, ...]:
        wanted = set(seats)
        return tuple(s for s in self._after(self.button) if s in wanted)

    def _emit(self, event: Event) -> None:
        self.events.append(event)

    # ------------------------------------------------------------------------------- forced bets, deal

    def _antes(self, blinds: Blinds | None) -> dict[int, int]:
        """Each seat's ante: the table's decision (``Blinds.antes``), else one ante for the whole table
        posted by the big blind (a big-blind ante), else the stakes' ante from everybody."""
        stakes = self.structure.stakes
        if blinds is not None and blinds.antes is not None:
            return dict(blinds.antes)
        if stakes.big_blind_ante:
            big = blinds.big if blinds is not None else None
            return {big[0]: stakes.ante} if big is not None and stakes.ante > 0 else {}
        return dict.fromkeys(self.order, stakes.ante)

    def _post_antes(self, antes: dict[int, int]) -> None:
        """Antes first, before any blind (but a short big blind posts his blind first and the rest toward
        his big-blind ante: R255, ``state._short_big_blind_ante``). When the antes are not all equal
        they are dead money of the main pot (``side_pots``)."""
        unequal = len({antes.get(s, 0) for s in self.order}) > 1
        dead: dict[int, int] = {}
        for seat in self._after(self.button):
            if antes.get(seat, 0) > 0:
                p = self.players[seat]
                before = p.paid
                self._post(p, antes[seat], "ante", live=False)
                dead[seat] = p.paid - before
        if unequal and dead:
            self._dead = dead

    def _default_blinds(self) -> Blinds:
        stakes = self.structure.stakes
        seats = list(self._after(self.button))
        if len(seats) == 2:
            button_seat = self.button if self.button in self.players else seats[-1]
            other = seats[0] if seats[0] != button_seat else seats[1]
            return Blinds(small=(button_seat, stakes.small_blind), big=(other, stakes.big_blind))
        return Blinds(small=(seats[0], stakes.small_blind), big=(seats[1], stakes.big_blind))

    def _check_seat(self, seat: int) -> PlayerState:
        if seat not in self.players:
            raise ConfigError(f"seat {seat} is not dealt in")
        return self.players[seat]

    def _post_blinds(self, b: Blinds) -> None:
        rnd = self.rnd
        self._last_blind = self.button
        for seat, amount in b.dead:
            self._post(self._check_seat(seat), amount, "dead", live=False)
        level = 0
        raises = 0
        if b.small is not None and b.small[1] > 0:
            self._post(self._check_seat(b.small[0]), b.small[1], "small_blind", live=True)
            self._last_blind = b.small[0]
        if b.big is not None:
            self._post(self._check_seat(b.big[0]), b.big[1], "big_blind", live=True)
            level = b.big[1]
            self._last_blind = b.big[0]
        for seat, amount in b.straddles:
            self._post(self._check_seat(seat), amount, "straddle", live=True)
            if level and amount > level:
                raises += 1
            level = max(level, amount)
            self._last_blind = seat
        if b.straddles and b.big is not None:
            self._straddle_order(b.big[0], [seat for seat, _ in b.straddles])
        for seat, amount in b.live:
            self._post(self._check_seat(seat), amount, "live", live=True)
        for p in self.players.values():
            if p.bet > level:
                level = p.bet
        rnd.level = level
        if level:
            rnd.counted = level
            rnd.wagers = 1 + raises
            if self.structure.betting is not _FL:
                rnd.min_raise = max(level, self._min_bet)  # preflop R starts at the BB (§3.5)

    def _straddle_order(self, big: int, straddlers: list[int]) -> None:
        """RULES.md §11.2: the first round's action starts after the big blind and skips the straddlers, who
        act last (in the order they straddled). When that is the clockwise order from the last straddler
        (a straddle under the gun) nothing changes; otherwise (Mississippi) the round keeps its own order."""
        after_big = self._after(big)
        ring = tuple(s for s in after_big if s not in straddlers) + tuple(straddlers)
        if ring != self._after(straddlers[-1]):
            self._ring0 = ring

    def _ring_from(self, seat: int) -> tuple[int, ...]:
        """The seats to act after ``seat`` in the current betting round, ending with ``seat``."""
        ring = self._ring0
        if ring is not None and self.street == 0:
            i = ring.index(seat)
            return ring[i + 1 :] + ring[: i + 1]
        return self._after(seat)

    def _post(self, p: PlayerState, amount: int, what: str, live: bool) -> None:
        paid = min(amount, p.stack)
        p.stack -= paid
        p.paid += paid
        self._pot += paid
        if live:
            p.bet += paid
        if p.stack == 0:
            p.all_in = True
        self._emit(Posted(p.seat, paid, what, p.all_in))

    def _open_round(self, street: int) -> None:
        s = self.variant.streets[street]
        structure = self.structure
        rnd = Round(structure)
        if structure.betting is _FL:
            rnd.unit = structure.stakes.big_bet if s.big_bet else structure.stakes.small_bet
        else:
            rnd.min_raise = self._min_bet
        rnd.stud_first_round = self._stud and street == 0
        not_folded = 0
        for p in self.players.values():
            if not p.folded:
                not_folded += 1
            p.bet = 0
            p.acted = False
            p.level_seen = 0
            p.wagers_seen = 0
        rnd.capped_round = not (structure.heads_up_uncapped and not_folded == 2)
        self.rnd = rnd

    def _take(self, purpose: str, seat: int | None) -> Card:
        deck = self.deck
        if isinstance(deck, ListDeck):  # the compiled build then calls ListDeck.take directly
            return deck.take(purpose, seat)
        return deck.take(purpose, seat)

    def _deal_street(self, index: int) -> None:
        street = self.variant.streets[index]
        receivers = [s for s in self._after(self.button) if not self.players[s].folded]
        if street.deal:
            n = len(receivers)
            if self._stud and len(street.deal) == 1 and index > 0:
                stub = self.deck.remaining()
                if stub < n:  # one community card for everybody (RULES.md §5.7)
                    if stub >= 2:
                        self._take("burn", None)
                        self._emit(Burned())
                    card = self._take("board", None)
                    self.board.append(card)
                    self._emit(BoardDealt((card,)))
                    return
                if stub >= n + 1 and street.burn:
                    self._take("burn", None)
                    self._emit(Burned())
            elif street.burn:
                self._take("burn", None)
                self._emit(Burned())
            dealt: dict[int, list[Card]] = {s: [] for s in receivers}
            for _ in street.deal:
                for seat in receivers:
                    dealt[seat].append(self._take("hole", seat))
            for seat in receivers:
                p = self.players[seat]
                p.hole.extend(dealt[seat])
                p.up.extend(street.deal)
                self._emit(CardsDealt(seat, tuple(dealt[seat]), street.deal))
                if self.exposed:  # hands are face up after an all-in exposure: so are later cards (§6.5)
                    self._emit(CardsShown(seat, tuple(p.hole), "all_in"))
        elif street.burn and street.board:
            self._take("burn", None)
            self._emit(Burned())
        if street.board:
            cards = tuple(self._take("board", None) for _ in range(street.board))
            self.board.extend(cards)
            self._emit(BoardDealt(cards))

    def _choose_bring_in(self) -> None:
        candidates = [(p.seat, p.upcards()[-1]) for p in self._active() if not p.all_in]
        if not candidates or self.betting_closed():  # nobody to bet against: no betting round (§3.1)
            return
        seat = bring_in_seat(candidates, self.variant.bring_in_highest)
        self.rnd.bring_in_seat = seat
        self.rnd.bring_in = self.structure.stakes.bring_in

    def betting_closed(self) -> bool:
        """At most one active player can still bet: no more betting rounds (RULES.md §3.1)."""
        betting = 0
        for p in self.players.values():
            if not p.folded and not p.all_in:
                betting += 1
                if betting > 1:
                    return False
        return True
