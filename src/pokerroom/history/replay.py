"""Replaying a PHH hand through the engine.

The engine deals and runs every dealer step itself, so dealer lines of the history only script the
cards (:class:`ScriptedSource` hands the engine exactly the cards the history names; unknown cards and
burns are filled with cards the history never uses), and player lines become engine commands. Show and
muck lines answer the engine's show-or-muck prompts: who must show is decided by our rules
(RULES.md §6.2), so where the history differs the replay notes it instead of failing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from pokerroom.cards import Card, DeckSpec
from pokerroom.engine import (
    BetDecision,
    Blinds,
    BringIn,
    Call,
    Check,
    Command,
    Discard,
    Draw,
    EngineError,
    Fold,
    HandState,
    Muck,
    RaiseTo,
    RunTwice,
    RunTwiceDecision,
    SeatSetup,
    Show,
    ShowDecision,
    Stakes,
    Structure,
)
from pokerroom.engine.events import CardsShown
from pokerroom.engine.hand_deal import variant_facts
from pokerroom.engine.setup import Phase
from pokerroom.engine.stud import bring_in_seat, first_to_act
from pokerroom.history.errors import PhhActionError, PhhFieldError, PhhReplayError
from pokerroom.history.model import PhhAction, PhhHand

__all__ = ["Replay", "ScriptedSource", "replay"]

_BETTING: Final = Phase.BETTING
_DISCARD: Final = Phase.DISCARD
_SHOWDOWN: Final = Phase.SHOWDOWN
_RUN_TWICE: Final = Phase.RUN_TWICE
_DONE: Final = Phase.DONE


class ScriptedSource:
    """A :class:`~pokerroom.engine.CardSource` that deals the cards a history names.

    ``hole`` maps seats to the cards they receive in order (first deal, later streets, draws); ``board``
    lists the community cards; ``spare`` are cards the history never names, used for burns and for
    anything the history does not say (a partial hand). ``remaining`` counts like a real deck, so stud's
    "too few cards" rule and draw reshuffles happen where they would at the table.
    """

    def __init__(
        self, spec: DeckSpec, hole: dict[int, list[Card]], board: list[Card], spare: list[Card]
    ) -> None:
        self.spec = spec
        self._hole = {s: list(c) for s, c in hole.items()}
        self._board = list(board)
        self._spare = list(spare)
        self._stub = spec.size
        self.improvised = 0  # cards the history did not script (hole or board)
        # Every request of the engine in order: (purpose, seat) of a card taken, ("reshuffle", None) with
        # the reshuffled cards; a deck proof's check follows it (history/verify.py).
        self.log: list[tuple[str, int | None, tuple[Card, ...]]] = []

    def _spare_card(self) -> Card:
        if self._spare:
            return self._spare.pop(0)
        return self.spec.cards()[0]  # identity never matters here (burns of an exhausted deck)

    def take(self, purpose: str, seat: int | None) -> Card:
        self._stub -= 1
        self.log.append((purpose, seat, ()))
        if purpose in ("hole", "draw") and seat is not None:
            queue = self._hole.get(seat)
            if queue:
                return queue.pop(0)
            self.improvised += 1
        elif purpose == "board":
            if self._board:
                return self._board.pop(0)
            self.improvised += 1
        return self._spare_card()

    def remaining(self) -> int:
        return max(self._stub, 0)

    def reshuffle(self, cards: Sequence[Card]) -> None:
        self._stub = len(cards)
        self.log.append(("reshuffle", None, tuple(cards)))

    def unused_script(self) -> int:
        """Scripted cards the engine never asked for (the history dealt more than our rules do)."""
        return sum(map(len, self._hole.values())) + len(self._board)

    def to_data(self) -> dict[str, Any]:
        return {"kind": "scripted", "spec": self.spec.size}

    def __repr__(self) -> str:
        return f"ScriptedSource({self.spec.name})"


class _Token:
    """One dealt card of the history; ``card`` is ``None`` until known (shown later, or filled)."""

    __slots__ = ("card",)

    def __init__(self, card: Card | None) -> None:
        self.card = card


@dataclass(slots=True)
class _Script:
    hole: dict[int, list[_Token]] = field(default_factory=dict)  # per player, in dealing order
    board: list[_Token] = field(default_factory=list)
    discards: dict[int, list[_Token]] = field(default_factory=dict)  # action index -> discarded


_INDEXED: dict[int, tuple[tuple[Card, int], ...]] = {}


def _indexed(spec: DeckSpec) -> tuple[tuple[Card, int], ...]:
    """The deck's cards in order, each with its index (read once: a card's ``index`` is a Python attribute
    lookup for compiled code, and the cards left out of a deal are found at every replay). Kept by the
    deck's identity: an enum member's hash is a Python call, and members live as long as their class."""
    pairs = _INDEXED.get(id(spec))
    if pairs is None:
        pairs = _INDEXED[id(spec)] = tuple((c, c.index) for c in spec.cards())
    return pairs


def _script(hand: PhhHand) -> tuple[_Script, list[Card]]:
    """Follow the cards through the history; resolve unknown cards from later shows; fill the rest."""
    script = _Script()
    holding: dict[int, list[_Token]] = {p: [] for p in range(1, hand.player_count + 1)}

    def resolve(p: int, card: Card, a: PhhAction, what: str) -> _Token:
        for tok in holding[p]:  # (cards compared by index: Card.__eq__ is a Python call)
            if tok.card is not None and tok.card.index == card.index:
                return tok
        for tok in holding[p]:
            if tok.card is None:
                tok.card = card
                return tok
        raise PhhActionError(
            f"({a.label}) {what} a card the player does not hold", action=a.index, line=a.line
        )

    facts = variant_facts(hand.variant)
    draw = facts.is_draw
    dealt: set[int] = set()  # card indices (a card's hash is a Python call)
    for a in hand.actions:
        verb = a.verb
        if verb == "db" or verb == "dh":
            if not draw:
                for c in a.cards:
                    if c is not None:
                        if c.index in dealt:
                            raise PhhActionError(
                                f"({a.label}) a card is dealt twice", action=a.index, line=a.line
                            )
                        dealt.add(c.index)
            toks = [_Token(c) for c in a.cards]
            if verb == "db":
                script.board.extend(toks)
            else:
                assert a.actor is not None
                script.hole.setdefault(a.actor, []).extend(toks)
                holding[a.actor].extend(toks)
        elif verb == "sd" and a.actor is not None:
            gone: list[_Token] = []
            for c in a.cards:
                if c is not None:
                    tok = resolve(a.actor, c, a, "discards")
                else:
                    pool = [t for t in holding[a.actor] if t.card is None] or holding[a.actor]
                    pool = [t for t in pool if t not in gone]
                    if not pool:
                        raise PhhActionError(
                            f"({a.label}) discards more cards than the player holds",
                            action=a.index,
                            line=a.line,
                        )
                    tok = pool[0]
                holding[a.actor].remove(tok)
                gone.append(tok)
            script.discards[a.index] = gone
        elif verb == "sm" and a.actor is not None and a.show and not a.dash:
            for c in a.cards:
                if c is not None:
                    resolve(a.actor, c, a, "shows")
    known = [t.card.index for toks in script.hole.values() for t in toks if t.card is not None]
    known += [t.card.index for t in script.board if t.card is not None]
    used = set(known)
    if len(used) != len(known) and not draw:
        # a card may come back only through a draw game's reshuffle of the discards
        raise PhhActionError("the same card is dealt twice")
    spec = facts.deck_for(len(hand.starting_stacks))
    spare = [c for c, i in _indexed(spec) if i not in used]
    if facts.is_stud:
        _fill_stud_up_cards(hand, script, spare)
    for group in [*script.hole.values(), script.board]:
        for tok in group:
            if tok.card is None:
                if spare:
                    tok.card = spare.pop(0)
                else:
                    mine = {t.card.index for t in group if t.card is not None}
                    tok.card = next(c for c in spec.cards() if c.index not in mine)
    return script, spare


def _first_actors(hand: PhhHand, pattern: list[tuple[int, bool]]) -> dict[int, int]:
    """Street index -> the player who acts first on it in the record (3rd street: the bring-in)."""
    dealt = dict.fromkeys(range(1, hand.player_count + 1), 0)
    street = 0
    first: dict[int, int] = {}
    for a in hand.actions:
        if a.verb == "dh" and a.actor is not None:
            dealt[a.actor] += len(a.cards)
            if 0 < dealt[a.actor] <= len(pattern):
                street = max(street, pattern[dealt[a.actor] - 1][0])
        elif a.verb in ("f", "cc", "cbr", "pb") and a.actor is not None and street not in first:
            first[street] = a.actor
    return first


def _fill_stud_up_cards(hand: PhhHand, script: _Script, spare: list[Card]) -> None:
    """Stud with unknown up cards (``??`` of a player who never shows): who brings in and whose board acts
    first depend on them. The record says who did (the first player to act on each street), so unknown
    up cards are filled with spare cards that make the engine's own choice that player: the bring-in's
    card the lowest (razz: the highest), the first actor's board the best. The engine still checks
    everything it can know: a record whose known up cards contradict it is refused as before. A street
    where no filling agrees with the record keeps the default filling (the engine then says where the
    record and the rules part)."""
    v = hand.variant
    seats = hand.seats  # (hand.seat_of(q) is seats[q - 1])
    pattern = [(i, up) for i, street in enumerate(v.streets) for up in street.deal]
    where = {
        p: [pattern[k] if k < len(pattern) else (-1, False) for k in range(len(toks))]
        for p, toks in script.hole.items()
    }
    for street, target in sorted(_first_actors(hand, pattern).items()):
        ups = {
            p: [t for t, (s, up) in zip(toks, where[p], strict=True) if up and s <= street]
            for p, toks in script.hole.items()
            if any(s == street for s, _ in where[p])
        }
        unknown = [p for p, toks in ups.items() if any(t.card is None for t in toks)]
        if not unknown or target not in ups:
            continue
        seat = hand.seat_of(target)

        def agrees(boards: dict[int, list[Card]], street: int = street, seat: int = seat) -> bool:
            if street == 0:  # the bring-in: by the last (only) up card
                return (
                    bring_in_seat([(seats[q - 1], b[-1]) for q, b in boards.items()], v.bring_in_highest)
                    == seat
                )
            assert v.showing is not None
            return first_to_act([(seats[q - 1], b) for q, b in boards.items()], v.showing) == seat

        boards = {
            p: [t.card for t in toks if t.card is not None] for p, toks in ups.items() if p not in unknown
        }
        picks: list[tuple[_Token, Card]] = []
        # The first actor's own unknown card first (against the boards known so far), then each other
        # player's against his: the order of bring-in and of showing boards is decided pair by pair.
        for p in sorted(unknown, key=lambda q: q != target):
            holes = [t for t in ups[p] if t.card is None]
            board = [t.card for t in ups[p] if t.card is not None]
            # the first spare card that agrees (each try asks the engine's rule: stop at the first)
            taken = {c.index for _, c in picks}
            fit = next(
                (c for c in spare if c.index not in taken and agrees({**boards, p: [*board, c]})), None
            )
            if len(holes) != 1 or fit is None or (p != target and target not in boards):
                picks = []
                break
            picks.append((holes[0], fit))
            boards[p] = [*board, fit]
        for tok, card in picks:
            tok.card = card
            del spare[next(i for i, c in enumerate(spare) if c.index == card.index)]  # (spare.remove(card))


@dataclass(slots=True, init=False)
class Replay:
    """The outcome of a replay: the engine's hand, the finishing stacks in PHH player order (minor units),
    whether the hand reached its end, and notes where the history and our rules part ways."""

    hand: PhhHand
    state: HandState
    finishing_stacks: tuple[int, ...]
    complete: bool
    notes: list[str]
    deals: list[tuple[str, int | None, tuple[Card, ...]]] = field(default_factory=list)
    unused: int = 0  # cards the history names that the engine never dealt

    # (its own constructor, compiled: the dataclass decorator's is interpreted Python; the same
    # arguments and defaults)
    def __init__(
        self,
        hand: PhhHand,
        state: HandState,
        finishing_stacks: tuple[int, ...],
        complete: bool,
        notes: list[str],
        deals: list[tuple[str, int | None, tuple[Card, ...]]] | None = None,
        unused: int = 0,
    ) -> None:
        self.hand = hand
        self.state = state
        self.finishing_stacks = finishing_stacks
        self.complete = complete
        self.notes = notes
        self.deals = [] if deals is None else deals
        self.unused = unused

    @property
    def matches(self) -> bool | None:
        """Do the finishing stacks equal the file's (``None`` when the file has none)?"""
        if self.hand.finishing_stacks is None:
            return None
        known = [i for i in range(self.hand.player_count) if i + 1 not in self.hand.unknown_stacks]
        return all(self.finishing_stacks[i] == self.hand.finishing_stacks[i] for i in known)


# Blinds and structures are immutable values that recur from hand to hand (a session's histories share
# their stakes): each is made once per distinct input (bounded tables, emptied when full).
_MEMO_MAX = 4096
_BLINDS: dict[tuple[object, ...], Blinds] = {}
_STRUCTURES: dict[tuple[object, ...], Structure] = {}
_SEATS: dict[tuple[int, int], SeatSetup] = {}  # (seat, starting stack): the seat as the replay sets it up
_K = TypeVar("_K")
_V = TypeVar("_V")
_A = TypeVar("_A")


def _memo(table: dict[_K, _V], key: _K, make: Callable[[_A], _V], arg: _A) -> _V:
    """``table[key]``, made by ``make(arg)`` the first time (the table emptied when it holds
    ``_MEMO_MAX``: a bound on what a long run keeps); nothing kept when ``make`` raises."""
    value = table.get(key)
    if value is None:
        value = make(arg)
        if len(table) >= _MEMO_MAX:
            table.clear()
        table[key] = value
    return value


def _memo_blinds(hand: PhhHand) -> Blinds:
    key = (
        variant_facts(hand.variant).is_stud,
        hand.bomb_pot,
        hand.seats,
        hand.antes,
        hand.dead,
        hand.blinds_or_straddles,
        hand.posts,
    )
    return _memo(_BLINDS, key, _blinds, hand)


def _memo_structure(hand: PhhHand) -> Structure:
    key = (
        variant_facts(hand.variant).is_stud,
        id(hand.betting),  # (an enum member's hash is a Python call; members live as long as their class)
        hand.blinds_or_straddles[0],
        hand.chip_unit,
        hand.small_bet,
        hand.big_bet,
        hand.bring_in,
        hand.min_bet,
        hand.cap,
        hand.heads_up_uncapped,
    )
    return _memo(_STRUCTURES, key, _structure, hand)  # (a refusal raises: only playable ones are kept)


def _blinds(hand: PhhHand) -> Blinds:
    """Forced bets by seat. PHH arrays are positional (p1 = small blind); heads-up they are
    reverse-assigned (p1, the big blind, posts ``blinds_or_straddles[1]`` and ``antes[1]``)."""
    n = hand.player_count
    seat = hand.seat_of
    players = list(range(1, n + 1))
    per_player_antes = list(reversed(hand.antes)) if n == 2 else list(hand.antes)
    net_antes = [a - d for a, d in zip(per_player_antes, hand.dead, strict=True)]
    antes = tuple((seat(p), amt) for p, amt in zip(players, net_antes, strict=True) if amt > 0)
    dead = tuple((seat(p), d) for p, d in zip(players, hand.dead, strict=True) if d > 0)
    if hand.variant.is_stud:
        return Blinds(antes=antes)
    if hand.bomb_pot:  # RULES.md §11.2: antes only
        return Blinds(antes=antes, bomb_pot=True)
    if hand.posts is not None:
        small = big = None
        straddles: list[tuple[int, int]] = []
        live: list[tuple[int, int]] = []
        for post in hand.posts:
            entry = (seat(post.player), post.amount)
            if post.kind == "small_blind":
                small = entry
            elif post.kind == "big_blind":
                big = entry
            elif post.kind == "straddle":
                straddles.append(entry)
            elif post.kind == "live":
                live.append(entry)
        return Blinds(small, big, tuple(straddles), tuple(live), dead, antes)
    b = hand.blinds_or_straddles
    if n == 2:
        small = (seat(2), b[0]) if b[0] > 0 else None
        big = (seat(1), b[1]) if b[1] > 0 else None
        return Blinds(small, big, (), (), dead, antes)
    small = (seat(1), b[0]) if b[0] > 0 else None
    big = (seat(2), b[1]) if b[1] > 0 else None
    straddles = [(seat(p), amt) for p, amt in zip(players[2:], b[2:], strict=True) if amt > 0]
    return Blinds(small, big, tuple(straddles), (), dead, antes)


def _structure(hand: PhhHand) -> Structure:
    small = hand.blinds_or_straddles[0]
    unit = hand.chip_unit
    try:
        if hand.variant.is_stud:
            stakes = Stakes(0, 0, hand.small_bet, hand.big_bet, 0, hand.bring_in, unit)
        elif hand.small_bet:
            stakes = Stakes(small, hand.small_bet, hand.small_bet, hand.big_bet, 0, 0, unit)
        else:
            stakes = Stakes(small, hand.min_bet, 0, 0, 0, 0, unit)
        return Structure(hand.betting, stakes, cap=hand.cap, heads_up_uncapped=hand.heads_up_uncapped)
    except EngineError as exc:
        raise PhhFieldError(f"the stakes cannot be played: {exc}") from None


# The cards of a history: each player's in dealing order, the board, the cards of each discard (by the
# index of its action), and the cards the history never names.
_Deal = tuple[dict[int, list[Card]], list[Card], dict[int, tuple[Card, ...]], list[Card]]


def _deal(hand: PhhHand) -> _Deal:
    """The cards the history deals: :func:`_known_deal` when it names every card and discards none,
    else :func:`_script`, which resolves unknown cards from later shows and fills the rest."""
    known = _known_deal(hand)
    if known is not None:
        return known
    script, spare = _script(hand)
    hole = {p: [t.card for t in toks if t.card is not None] for p, toks in script.hole.items()}
    board = [t.card for t in script.board if t.card is not None]
    discards = {i: tuple(t.card for t in toks if t.card is not None) for i, toks in script.discards.items()}
    return hole, board, discards, spare


def _known_deal(hand: PhhHand) -> _Deal | None:
    """The deal of a history that names every card it deals and discards none (most histories), read
    as :func:`_script` reads it, with the same errors in the same order, without following each card;
    ``None`` at the first unknown card or discard (:func:`_script` then reads the history)."""
    facts = variant_facts(hand.variant)
    draw = facts.is_draw
    hole: dict[int, list[Card]] = {}
    board: list[Card] = []
    dealt: set[int] = set()  # card indices
    for a in hand.actions:
        verb = a.verb
        if verb == "dh" or verb == "db":
            cards = a.cards
            for c in cards:
                if c is None:
                    return None
                if not draw:
                    if c.index in dealt:
                        raise PhhActionError(
                            f"({a.label}) a card is dealt twice", action=a.index, line=a.line
                        )
                    dealt.add(c.index)
            if verb == "db":
                board.extend(cards)  # type: ignore[arg-type]
            else:
                assert a.actor is not None
                hole.setdefault(a.actor, []).extend(cards)  # type: ignore[arg-type]
        elif verb == "sd" and a.actor is not None:
            return None
        elif verb == "sm" and a.actor is not None and a.show and not a.dash:
            held = {c.index for c in hole.get(a.actor, ())}
            for c in a.cards:
                if c is not None and c.index not in held:
                    raise PhhActionError(
                        f"({a.label}) shows a card the player does not hold", action=a.index, line=a.line
                    )
    if draw:  # (cards may come back through a reshuffle: not checked above)
        dealt = {c.index for cards in hole.values() for c in cards} | {c.index for c in board}
    spare = [c for c, i in _indexed(facts.deck_for(len(hand.starting_stacks))) if i not in dealt]
    return hole, board, {}, spare


def _seat(seat_stack: tuple[int, int]) -> SeatSetup:
    return SeatSetup(seat_stack[0], seat_stack[1], False)


def start_state(hand: PhhHand) -> tuple[HandState, ScriptedSource, dict[int, tuple[Card, ...]]]:
    """The engine hand at its start, dealt from the history's cards (before any player action), its
    card source, and the cards of each discard by the index of its action."""
    by_player, board, discards, spare = _deal(hand)
    spec = variant_facts(hand.variant).deck_for(len(hand.starting_stacks))
    seats = hand.seats
    hole = {seats[p - 1]: cards for p, cards in by_player.items()}
    source = ScriptedSource(spec, hole, board, spare)
    structure = _memo_structure(hand)
    try:  # (each seat set up once per seat and stack: SeatSetup is an immutable value, as Blinds are)
        state = HandState.start(
            variant=hand.variant,
            structure=structure,
            seats=[_memo(_SEATS, p, _seat, p) for p in zip(seats, hand.starting_stacks, strict=True)],
            deck=source,
            button=hand.button,
            blinds=_memo_blinds(hand),
            rake=hand.rake_rule,
            hand_id=hand.context.hand_id,
            run_it_twice=hand.run_it_twice,
        )
    except EngineError as exc:
        raise PhhReplayError(f"the hand cannot start: {exc}", engine_code=exc.code) from None
    return state, source, discards


def _raise_to(state: HandState, seat: int, amount: int, pending: object) -> int:
    """A raise-to as the record writes it, read as a legal one. Live dealers and other rooms' histories
    write a raise that no opponent can call in full at the amount that can be called (a razz hand of the
    2023 WSOP: a bet of 600,000 with 150,000 behind, "raised to 750,000"): a raise-to from the largest
    total any opponent can reach up to the full raise is that full raise; the excess comes back as an
    uncalled bet, so the chips are the same. Live play keeps RULES.md: this is the replay's reading."""
    if not isinstance(pending, BetDecision) or pending.seat != seat or not pending.raise_kind:
        return amount
    if pending.allows(amount, state.structure.stakes.chip_unit) or amount >= pending.min_to:
        return amount
    level = pending.bet + pending.to_call
    reach = max((q.bet + q.stack for s, q in state.players.items() if s != seat and not q.folded), default=0)
    if level < amount and reach <= amount:
        return pending.min_to
    return amount


# The commands of one seat and no amount (fold, check, call) are immutable values: each is made once per
# seat (bounded tables, emptied when full), as the blinds and structures above are.
_FOLDS: dict[int, Fold] = {}
_CHECKS: dict[int, Check] = {}
_CALLS: dict[int, Call] = {}


def _command(
    state: HandState,
    hand: PhhHand,
    a: PhhAction,
    discards: dict[int, tuple[Card, ...]],
    notes: list[str],
) -> Command:
    assert a.actor is not None
    seat = hand.seats[a.actor - 1]
    verb = a.verb
    if verb == "f":
        return _memo(_FOLDS, seat, Fold, seat)
    if verb == "cc":
        # (``pending`` builds the decision with all its options: asked only where the command needs it)
        if state.phase is _BETTING:
            pending = state.pending
            if isinstance(pending, BetDecision) and pending.seat == seat and pending.check:
                return _memo(_CHECKS, seat, Check, seat)
        return _memo(_CALLS, seat, Call, seat)
    if verb == "cbr":
        assert a.amount is not None
        amount = _raise_to(state, seat, a.amount, state.pending) if state.phase is _BETTING else a.amount
        if amount != a.amount:
            notes.append(
                f"p{a.actor} raises to {a.amount} (all any opponent can call): read as the full raise to "
                f"{amount}; the excess comes back uncalled"
            )
        return RaiseTo(seat, amount)
    if verb == "pb":
        return BringIn(seat)
    # sd: a draw, or the Irish discard
    cards = discards.get(a.index, ())
    if state.phase is _DISCARD:
        return Discard(seat, cards)
    return Draw(seat, cards)


def replay(hand: PhhHand, *, strict_cards: bool = False) -> Replay:
    """Build the hand in the engine and apply the history's actions.

    An action the engine refuses raises :class:`PhhReplayError` (with the engine's error code and the
    action's index and line). With ``strict_cards`` a history that names more or fewer cards than the
    engine deals is an error; otherwise it is noted.
    """
    state, source, discards = start_state(hand)
    notes: list[str] = []
    shows: dict[int, PhhAction] = {}
    for a in hand.actions:
        verb = a.verb
        if a.actor is None or verb == "dh":
            continue
        if verb == "sm":
            shows[a.actor] = a
            continue
        # The engine's phase says what it waits for (its ``pending`` is built from it, at a cost)
        phase = state.phase
        if phase is _DONE:
            raise PhhReplayError(
                f"({a.label}) the hand is already over under our rules",
                action=a.index,
                line=a.line,
                engine_code="hand_over",
            )
        if phase is _RUN_TWICE:
            _answer_runouts(state, hand, notes)
        if state.phase is _SHOWDOWN:
            _answer_shows(state, hand, shows, notes)
        cmd = _command(state, hand, a, discards, notes)
        try:
            state.apply(cmd)
        except EngineError as exc:
            raise PhhReplayError(
                f"({a.label}) refused by the engine: {exc}", action=a.index, line=a.line, engine_code=exc.code
            ) from None
    if state.phase is _RUN_TWICE:
        _answer_runouts(state, hand, notes)
    if state.phase is _SHOWDOWN:
        _answer_shows(state, hand, shows, notes)
    if shows:
        for event in state.events:
            if isinstance(event, CardsShown) and event.reason == "showdown":
                p = hand.player_of(event.seat)
                if p in shows and shows[p].show is False:
                    notes.append(f"p{p} mucks in the history, but our rules show that hand (RULES.md §6.2)")
    unused = source.unused_script()
    if source.improvised:
        notes.append(f"the history does not name {source.improvised} card(s) the engine dealt")
    if unused:
        notes.append(f"{unused} card(s) of the history were never dealt by the engine")
    if (source.improvised or unused) and strict_cards:
        raise PhhReplayError("the history's cards do not match the deal", engine_code="cards")
    stacks = state.stacks()
    seats = hand.seats
    return Replay(
        hand,
        state,
        tuple(stacks[seat] for seat in seats),
        state.is_over,
        notes,
        source.log,
        unused,
    )


def _answer_runouts(state: HandState, hand: PhhHand, notes: list[str]) -> None:
    """Run it twice (R-RIT): the history's answers in their order; a player the history has no answer
    for answers no (as a timeout would)."""
    for player, count in hand.runout_selections:
        pending = state.pending
        if not isinstance(pending, RunTwiceDecision):
            break
        seat = hand.seat_of(player)
        try:
            state.apply(RunTwice(seat, count == 2))
        except EngineError as exc:
            raise PhhReplayError(
                f"(p{player} runout count) refused by the engine: {exc}",
                field="_runout_count_selections",
                engine_code=exc.code,
            ) from None
    while isinstance(state.pending, RunTwiceDecision):
        seat = state.pending.seats[0]
        notes.append(f"p{hand.player_of(seat)} has no runout count in the history; read as one run")
        state.apply(RunTwice(seat, False))


def _answer_shows(state: HandState, hand: PhhHand, shows: dict[int, PhhAction], notes: list[str]) -> None:
    while isinstance(state.pending, ShowDecision):
        seat = state.pending.seat
        p = hand.player_of(seat)
        a = shows.get(p)
        if a is None:
            notes.append(f"p{p} neither shows nor mucks in the history; mucked")
        cmd: Command = Show(seat) if a is not None and a.show else Muck(seat)
        state.apply(cmd)
