"""A PokerStars-format text export of a hand, the format hand trackers read (docs/history.md).

The wording follows PokerStars hand histories, game by game: the header with the hand's global number
(``PokerStars Hand #123456: ...``; tournaments ``Tournament #42, ... - Level IV``), table and seat lines,
posts, ``*** HOLE CARDS ***`` (stud ``*** 3rd STREET ***`` ..., draw ``*** DEALING HANDS ***`` and
``*** FIRST DRAW ***`` / ``*** DRAW ***``), actions ("raises $0.20 to $0.30", "brings in for",
"completes it to", "discards 2 cards", "stands pat"), uncalled bets, boards, ``*** SHOW DOWN ***`` with
PokerStars' hand words (``stars_words.py``), collections per pot and half, and the summary.

``Dealt to`` lists the viewer's own cards only, so a tracker knows who the hero is; in stud also every
player's up cards, as PokerStars writes them. Other players' hole cards appear where they were shown
(``shows``, ``mucked``). ``viewer=None`` writes the audit copy, with every player's cards under
``Dealt to``. A seat as viewer gets that player's copy (RULES.md §6.6).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from pokerroom.cards import Card
from pokerroom.engine import Betting, HandState
from pokerroom.engine.events import (
    ActionTaken,
    BetReturned,
    BoardDealt,
    CardsDealt,
    CardsShown,
    Discarded,
    Drew,
    Mucked,
    Posted,
    PotAwarded,
    Reshuffled,
    RoundEnded,
    StreetStarted,
)
from pokerroom.eval import HandValue, evaluate
from pokerroom.history.model import HandContext
from pokerroom.history.stars_words import showdown_words, summary_words

__all__ = ["GAME_NAMES", "Values", "roman", "write_pokerstars"]

GAME_NAMES = {
    "holdem": "Hold'em",
    "irish": "Irish",
    "omaha": "Omaha",
    "omaha5": "5 Card Omaha",
    "omaha6": "6 Card Omaha",
    "omaha8": "Omaha Hi/Lo",
    "omaha8_5": "5 Card Omaha Hi/Lo",
    "stud": "7 Card Stud",
    "stud8": "7 Card Stud Hi/Lo",
    "razz": "Razz",
    "stud5": "5 Card Stud",
    "soko": "SOKO",
    "deuce7_triple": "Triple Draw 2-7 Lowball",
    "deuce7_single": "Single Draw 2-7 Lowball",
    "draw5": "5 Card Draw",
    "draw7a": "5 Card Draw 7-A",
    "shortdeck": "6+ Hold'em",
    "badugi": "Badugi",
}
_STRUCTURE = {Betting.NO_LIMIT: "No Limit", Betting.POT_LIMIT: "Pot Limit", Betting.FIXED_LIMIT: "Limit"}
_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "CAD": "C$", "AUD": "A$", "JPY": "¥"}
_STUD_STREETS = {"second": "2nd", "third": "3rd", "fourth": "4th", "fifth": "5th", "sixth": "6th"}
_DRAWS = ("FIRST", "SECOND", "THIRD", "FOURTH")
_NTH = ("1st", "2nd", "3rd", "4th")
_BOARD = {3: "FLOP", 4: "TURN", 5: "RIVER"}
_POSTS = {
    "ante": "the ante",
    "small_blind": "small blind",
    "big_blind": "big blind",
    "straddle": "straddle",
    "live": "big blind",
    "dead": "small blind",
}


def roman(n: int) -> str:
    """A level number as PokerStars writes it: ``Level IV``."""
    out = ""
    for value, letters in (
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        while n >= value:
            out += letters
            n -= value
    return out or str(n)


def _cards(cards: Sequence[Card | None]) -> str:
    return "[" + " ".join(str(c) for c in cards if c is not None) + "]"


class _Money:
    def __init__(self, ctx: HandContext) -> None:
        self.cash = bool(ctx.currency)
        self.symbol = ctx.currency_symbol or _SYMBOLS.get(ctx.currency, "")
        self.minor = ctx.minor_units

    def __call__(self, amount: int) -> str:
        if not self.cash:
            return str(amount)
        value = Decimal(amount) / self.minor
        if value == value.to_integral_value():
            return f"{self.symbol}{int(value)}"
        return f"{self.symbol}{value:.2f}" if self.minor <= 100 else f"{self.symbol}{value.normalize()}"


def _number(number: int | None, text_id: str) -> str:
    """The global number; else the id when it is digits; else 0 (trackers need digits)."""
    if number is not None:
        return str(number)
    return text_id if text_id.isdigit() else "0"


def _table_name(ctx: HandContext) -> str:
    """The table's name; in a tournament PokerStars' ``'<tournament#> <table#>'`` (trackers and pokerdf
    read the table's number from it), the table's number being the last digits of its name (1 without)."""
    t = ctx.tournament
    if t is None:
        return ctx.table or "1"
    digits = re.search(r"(\d+)\D*$", ctx.table)
    return f"{_number(t.number, t.tournament_id)} {digits.group(1) if digits else '1'}"


def _stakes(hand: HandState, money: _Money) -> str:
    s = hand.structure.stakes
    if hand.structure.betting is Betting.FIXED_LIMIT or hand.variant.is_stud:
        return f"{money(s.small_bet)}/{money(s.big_bet)}"
    return f"{money(s.small_blind)}/{money(s.big_blind)}"


def _header(hand: HandState, ctx: HandContext, money: _Money) -> str:
    game = f"{GAME_NAMES.get(hand.variant.code, hand.variant.name)} {_STRUCTURE[hand.structure.betting]}"
    stakes = ctx.stakes or _stakes(hand, money)
    when = ""
    if ctx.time is not None:
        zone = ctx.time_zone_label or ctx.time.tzname() or ""
        when = f" - {ctx.time.strftime('%Y/%m/%d %H:%M:%S')} {zone}".rstrip()
    hand_no = _number(ctx.hand_number, ctx.hand_id)
    t = ctx.tournament
    if t is not None:
        buy_in = f"{money(t.buy_in)}+{money(t.fee)}" + (f" {ctx.currency}" if ctx.currency else "")
        if not ctx.currency:
            buy_in = "Freeroll" if not (t.buy_in or t.fee) else f"{t.buy_in}+{t.fee}"
        level = f" - Level {roman(t.level)}" if t.level is not None else ""
        tournament = f"Tournament #{_number(t.number, t.tournament_id)}, {buy_in}"
        if ctx.mix:  # as PokerStars words a mixed game: the mix, then the hand's own game
            return f"PokerStars Hand #{hand_no}: {tournament} {ctx.mix} ({game}){level} ({stakes}){when}"
        return f"PokerStars Hand #{hand_no}: {tournament} {game}{level} ({stakes}){when}"
    currency = f" {ctx.currency}" if ctx.currency else ""
    if ctx.mix:  # "HORSE (Razz Limit, $2/$4 USD)"
        return f"PokerStars Hand #{hand_no}: {ctx.mix} ({game}, {stakes}{currency}){when}"
    return f"PokerStars Hand #{hand_no}: {game} ({stakes}{currency}){when}"


Values = dict[tuple[tuple[Card, ...], tuple[Card, ...]], tuple[HandValue, HandValue | None]]


def _values(
    hand: HandState, cards: Sequence[Card], memo: Values, board: Sequence[Card] | None = None
) -> tuple[HandValue, HandValue | None]:
    """The shown hand's high (and low) value on ``board`` (the hand's, or a run's when it ran twice);
    ``memo`` keeps them for the other viewers' texts."""
    board = hand.board if board is None else board
    key = tuple(cards), tuple(board)
    found = memo.get(key)
    if found is None:
        v = hand.variant
        high = evaluate(v.rule_for(hand.deck_spec), cards, board)
        found = memo[key] = high, (evaluate(v.low, cards, board) if v.low is not None else None)
    return found


_RUN_WORD = {1: "FIRST", 2: "SECOND"}  # run it twice (R-RIT), as PokerStars words it


class _Writer:
    """One pass over the hand's events, in PokerStars wording (see the module)."""

    def __init__(self, hand: HandState, ctx: HandContext, viewer: int | None, memo: Values) -> None:
        self.hand, self.ctx, self.viewer, self.memo = hand, ctx, viewer, memo
        self.money = _Money(ctx)
        self.name = ctx.name_of
        self.v = hand.variant
        self.lines: list[str] = []
        self.held: dict[int, list[Card]] = {s: [] for s in hand.order}  # cards shown under "Dealt to"
        self.level = 0
        self.street_name = ""
        self.draws = 0  # draws begun
        self.board: list[Card] = []
        self.runs: dict[int, list[Card]] = {}  # run it twice: each run's whole board
        self.shown_runs: set[int] = set()  # the runs whose showdown is written
        self.shows: list[CardsShown] = []
        self.mucks: list[Mucked] = []
        self.collected: dict[int, int] = dict.fromkeys(hand.order, 0)
        self.collected_runs: dict[tuple[int, int], int] = {}  # run it twice: (seat, run) -> chips won
        self.net_pots = [0] * len(hand.pots)  # each pot after its rake: what its winners collected
        self.folded_on: dict[int, str] = {}
        self.put_in: set[int] = set()  # put chips in other than an ante ("didn't bet" otherwise)
        self.showdown = False
        self.single_draw = sum(1 for s in self.v.streets if s.draw) == 1

    def own(self, seat: int) -> bool:
        return self.viewer is None or seat == self.viewer

    # ------------------------------------------------------------------------------------ lines

    def head(self) -> None:
        hand, ctx = self.hand, self.ctx
        self.lines.append(_header(hand, ctx, self.money))
        size = ctx.seat_count or max(hand.order)
        table = f"Table '{_table_name(ctx)}' {size}-max"
        if not ctx.currency and ctx.tournament is None:
            table += " (Play Money)"
        if hand.button is not None:
            table += f" Seat #{hand.button} is the button"
        self.lines.append(table)
        for seat in hand.order:
            stack = self.money(hand.players[seat].starting_stack)
            self.lines.append(f"Seat {seat}: {self.name(seat)} ({stack} in chips)")

    def dealt(self, e: CardsDealt) -> None:
        if not self.street_name:
            if self.v.is_stud:
                self.street_name = f"{_STUD_STREETS.get(self.v.streets[0].name, '3rd')} STREET"
            else:
                self.street_name = "DEALING HANDS" if self.v.is_draw else "HOLE CARDS"
            self.lines.append(f"*** {self.street_name} ***")
        new = [c for c, up in zip(e.cards, e.up, strict=True) if c is not None and (up or self.own(e.seat))]
        if not new:
            return
        before = self.held[e.seat]
        prefix = f" {_cards(before)}" if before else ""
        self.lines.append(f"Dealt to {self.name(e.seat)}{prefix} {_cards(new)}")
        before.extend(new)

    def street(self, e: StreetStarted) -> None:
        street = self.v.streets[e.index]
        self.level = 0
        if self.v.is_stud:
            self.street_name = (
                "RIVER" if e.name == "seventh" else f"{_STUD_STREETS.get(e.name, e.name)} STREET"
            )
            self.lines.append(f"*** {self.street_name} ***")
        elif street.draw:
            self.draws += 1
            self.street_name = "DRAW" if self.single_draw else f"{_DRAWS[self.draws - 1]} DRAW"
            self.lines.append(f"*** {self.street_name} ***")

    def board_dealt(self, e: BoardDealt) -> None:
        if e.run:  # "*** FIRST TURN *** [Ah Kd 7c] [2s]", each run on the cards both share
            board = self.runs.setdefault(e.run, list(self.board))
            old = list(board)
            board.extend(e.cards)
            self.street_name = f"{_RUN_WORD[e.run]} {_BOARD.get(len(board), 'BOARD')}"
            prefix = f" {_cards(old)}" if old else ""
            self.lines.append(f"*** {self.street_name} ***{prefix} {_cards(e.cards)}")
            return
        old = list(self.board)
        self.board.extend(e.cards)
        if self.v.is_stud:  # one community card when the deck runs short (RULES.md §5.7)
            self.lines.append(f"*** {self.street_name} *** [{e.cards[0]}] (community card)")
            return
        self.street_name = _BOARD.get(len(self.board), "BOARD")
        prefix = f" {_cards(old)}" if old else ""
        self.lines.append(f"*** {self.street_name} ***{prefix} {_cards(e.cards)}")

    def action(self, e: ActionTaken) -> None:
        who, m = self.name(e.seat), self.money
        all_in = " and is all-in" if e.all_in else ""
        if e.action == "fold":
            self.lines.append(f"{who}: folds")
            self.folded_on[e.seat] = self.street_name
            return
        if e.action == "check":
            self.lines.append(f"{who}: checks")
        elif e.action == "call":
            self.lines.append(f"{who}: calls {m(e.amount)}{all_in}")
        elif e.action == "bring_in":
            self.lines.append(f"{who}: brings in for {m(e.amount)}{all_in}")
        elif e.action == "bet":
            self.lines.append(f"{who}: bets {m(e.amount)}{all_in}")
        elif e.action == "complete":
            self.lines.append(f"{who}: completes it to {m(e.total)}{all_in}")
        else:
            self.lines.append(f"{who}: raises {m(e.total - self.level)} to {m(e.total)}{all_in}")
        self.level = max(self.level, e.total)
        self.put_in.add(e.seat)

    def drew(self, e: Drew) -> None:
        who, n = self.name(e.seat), len(e.discarded)
        kept = [c for c in self.held[e.seat] if c not in e.discarded]
        if n == 0:
            self.lines.append(
                f"{who}: stands pat on {_cards(kept)}" if self.own(e.seat) else f"{who}: stands pat"
            )
            return
        word = f"{n} card{'s' * (n != 1)}"
        if not self.own(e.seat):
            self.lines.append(f"{who}: discards {word}")
            return
        self.lines.append(f"{who}: discards {word} {_cards(e.discarded)}")
        self.lines.append(f"Dealt to {who} {_cards(kept)} {_cards(e.received)}")
        self.held[e.seat] = [*kept, *(c for c in e.received if c is not None)]

    def discarded(self, e: Discarded) -> None:
        """Irish (never dealt by PokerStars): the discard after the flop betting, in the draw's words."""
        own = self.own(e.seat)
        self.lines.append(
            f"{self.name(e.seat)}: discards {len(e.cards)} cards" + (f" {_cards(e.cards)}" if own else "")
        )
        if own:
            self.held[e.seat] = [c for c in self.held[e.seat] if c not in e.cards]

    def awarded(self, e: PotAwarded) -> None:
        hand = self.hand
        if e.run and self.shows and e.run not in self.shown_runs:  # one showdown per run
            self.showdown = True
            self.shown_runs.add(e.run)
            self.lines.append(f"*** {_RUN_WORD[e.run]} SHOW DOWN ***")
            for s in self.shows:
                final = hand.hole_cards(s.seat)
                words = showdown_words(*_values(hand, final, self.memo, self.runs[e.run]), bool(self.v.low))
                self.lines.append(f"{self.name(s.seat)}: shows {_cards(final)} ({words})")
        elif self.shows and not self.showdown:
            self.showdown = True
            self.lines.append("*** SHOW DOWN ***")
            for s in self.shows:
                final = hand.hole_cards(s.seat)
                words = showdown_words(*_values(hand, final, self.memo), bool(self.v.low))
                self.lines.append(f"{self.name(s.seat)}: shows {_cards(final)} ({words})")
            for mk in self.mucks:
                self.lines.append(f"{self.name(mk.seat)}: mucks hand")
        pot = "pot"
        if len(hand.pots) > 1:
            sides = len(hand.pots) - 1
            pot = "main pot" if e.pot == 0 else ("side pot" if sides == 1 else f"side pot-{e.pot}")
        if e.pot < len(self.net_pots):
            self.net_pots[e.pot] += e.amount
        for seat, share in zip(e.winners, e.shares, strict=True):
            self.collected[seat] += share
            self.collected_runs[seat, e.run] = self.collected_runs.get((seat, e.run), 0) + share
            self.lines.append(f"{self.name(seat)} collected {self.money(share)} from {pot}")
        if self.v.low and self.showdown and e.half == "" and e.pot == 0:
            self.lines.append("No low hand qualified")
        if not self.shows and len(e.winners) == 1:
            self.lines.append(f"{self.name(e.winners[0])}: doesn't show hand")

    # ---------------------------------------------------------------------------------- summary

    def folded_text(self, seat: int) -> str:
        where = self.folded_on.get(seat, "")
        if where == "HOLE CARDS":
            when = "before Flop"
        elif where in ("FLOP", "TURN", "RIVER") and not self.v.is_stud:
            when = f"on the {where.title()}"
        elif where == "RIVER":
            when = "on the River"
        elif where == "DEALING HANDS":
            when = "before the Draw"
        elif where == "DRAW":
            when = "after the Draw"
        elif where.endswith(" DRAW"):
            when = f"after the {_NTH[_DRAWS.index(where.split()[0])]} Draw"
        else:
            when = f"on the {where.replace('STREET', 'Street')}"
        didnt = " (didn't bet)" if seat not in self.put_in else ""
        return f"folded {when}{didnt}"

    def showed_text(self, seat: int) -> str:
        """``showed [..] and won ($x) with ...``; a hand run twice describes each board's result on that
        board, as PokerStars does: ``and lost with ..., and won ($y) with ...``."""
        hand, m = self.hand, self.money
        final = hand.hole_cards(seat)
        results = []
        runs = sorted(self.runs.items()) if self.runs else [(0, None)]
        for run, board in runs:
            high, low = _values(hand, final, self.memo, board)
            won = self.collected_runs.get((seat, run), 0)
            result = f"won ({m(won)})" if won else "lost"
            results.append(f"{result} with {summary_words(high, low, bool(self.v.low))}")
        return f"showed {_cards(final)} and " + ", and ".join(results)

    def summary(self) -> None:
        hand, m = self.hand, self.money
        self.lines.append("*** SUMMARY ***")
        # The total includes the rake; the main and side pots are what their winners collected (net), as
        # PokerStars writes them: collected + rake = total.
        pots = self.net_pots
        pot_text = f"Total pot {m(hand.pot_total())}"
        if len(pots) > 1:
            pot_text += f" Main pot {m(pots[0])}."
            if len(pots) == 2:
                pot_text += f" Side pot {m(pots[1])}."
            else:
                pot_text += "".join(f" Side pot-{k} {m(p)}." for k, p in enumerate(pots[1:], 1))
        self.lines.append(f"{pot_text} | Rake {m(hand.rake)}")
        if self.runs:
            self.lines.append("Hand was run twice")
            for run, board in sorted(self.runs.items()):
                self.lines.append(f"{_RUN_WORD[run]} Board {_cards(board)}")
        elif self.board and not self.v.is_stud:
            self.lines.append(f"Board {_cards(self.board)}")
        shown = {s.seat for s in self.shows}
        mucked = {mk.seat: mk for mk in self.mucks}
        posted = [e for e in hand.events if isinstance(e, Posted)]
        for seat in hand.order:
            role = " (button)" if seat == hand.button else ""
            if any(p.seat == seat and p.what == "small_blind" for p in posted):
                role += " (small blind)"
            elif any(p.seat == seat and p.what == "big_blind" for p in posted):
                role += " (big blind)"
            p = hand.players[seat]
            if p.folded:
                text = self.folded_text(seat)
            elif seat in shown:
                text = self.showed_text(seat)
            elif seat in mucked and (self.viewer is None or self.viewer in hand.order):
                text = f"mucked {_cards(mucked[seat].cards)}"
            elif seat in mucked:
                text = "mucked"
            else:
                text = f"collected ({m(self.collected[seat])})"
            self.lines.append(f"Seat {seat}: {self.name(seat)}{role} {text}")


def write_pokerstars(
    hand: HandState, context: HandContext | None = None, viewer: int | None = None, memo: Values | None = None
) -> str:
    """The hand in PokerStars wording; a seat as ``viewer`` hides what that player may not see. ``memo``
    (a dict shared by the calls that write one hand for each of its players) keeps the shown hands' values
    so that each is evaluated once."""
    w = _Writer(hand, context or HandContext(), viewer, {} if memo is None else memo)
    w.head()
    for e in hand.events:
        if isinstance(e, Posted):
            all_in = " and is all-in" if e.all_in else ""
            w.lines.append(f"{w.name(e.seat)}: posts {_POSTS[e.what]} {w.money(e.amount)}{all_in}")
            if e.what not in ("ante", "dead"):
                w.level = max(w.level, e.amount)
            if e.what != "ante":
                w.put_in.add(e.seat)
        elif isinstance(e, StreetStarted):
            w.street(e)
        elif isinstance(e, CardsDealt):
            w.dealt(e)
        elif isinstance(e, BoardDealt):
            w.board_dealt(e)
        elif isinstance(e, ActionTaken):
            w.action(e)
        elif isinstance(e, BetReturned):
            w.lines.append(f"Uncalled bet ({w.money(e.amount)}) returned to {w.name(e.seat)}")
        elif isinstance(e, RoundEnded):
            w.level = 0
        elif isinstance(e, Reshuffled):
            w.lines.append("The deck is reshuffled")
        elif isinstance(e, Drew):
            w.drew(e)
        elif isinstance(e, Discarded):
            w.discarded(e)
        elif isinstance(e, CardsShown):
            if all(s.seat != e.seat for s in w.shows):
                w.shows.append(e)
        elif isinstance(e, Mucked):
            w.mucks.append(e)
        elif isinstance(e, PotAwarded):
            w.awarded(e)
    w.summary()
    proof = w.ctx.proof
    if proof is not None:  # docs/fairness.md: the deck proof (this viewer's openings), after the summary
        mine = proof if viewer is None else proof.for_viewer(hand.events, viewer)
        w.lines += [f"Deck root (SHA-256): {proof.root}", f"Deck proof: {mine.to_text()}"]
    return "\n".join(w.lines) + "\n"
