"""A PokerStars-style text export of a hand (the format hand trackers read).

The wording follows PokerStars hand histories: header, table and seat lines, posts, ``*** HOLE CARDS
***`` (stud: ``*** 3rd STREET ***``; draw: ``*** DEALING HANDS ***``), actions ("raises $0.20 to
$0.30", "is all-in"), uncalled bets, streets with their boards, ``*** SHOW DOWN ***`` and the summary.
A viewer seat gets that player's copy (RULES.md §6.6); ``viewer=None`` writes the audit copy with every
player's cards.
"""

from __future__ import annotations

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
    RoundEnded,
    StreetStarted,
)
from pokerroom.eval import evaluate
from pokerroom.history.model import HandContext
from pokerroom.history.writer import _visible

__all__ = ["GAME_NAMES", "write_pokerstars"]

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
_BOARD = {3: "FLOP", 4: "TURN", 5: "RIVER"}


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
    hand_no = ctx.hand_id or "0"
    t = ctx.tournament
    if t is not None:
        buy_in = f"{money(t.buy_in)}+{money(t.fee)}" + (f" {ctx.currency}" if ctx.currency else "")
        if not ctx.currency:
            buy_in = "Freeroll" if not (t.buy_in or t.fee) else f"{t.buy_in}+{t.fee}"
        level = f" - Level {t.level}" if t.level is not None else ""
        tournament = f"Tournament #{t.tournament_id}, {buy_in}"
        return f"PokerStars Hand #{hand_no}: {tournament} {game}{level} ({stakes}){when}"
    currency = f" {ctx.currency}" if ctx.currency else ""
    return f"PokerStars Hand #{hand_no}: {game} ({stakes}{currency}){when}"


def _describe(hand: HandState, cards: Sequence[Card]) -> str:
    v = hand.variant
    high = evaluate(v.rule_for(hand.deck_spec), cards, hand.board)
    if v.low is None:
        return high.description
    low = evaluate(v.low, cards, hand.board)
    return f"HI: {high.description}; LO: {low.description}" if low else f"HI: {high.description}"


def write_pokerstars(hand: HandState, context: HandContext | None = None, viewer: int | None = None) -> str:
    """The hand in PokerStars wording; a seat as ``viewer`` hides what that player may not see."""
    ctx = context or HandContext()
    money = _Money(ctx)
    name = ctx.name_of
    v = hand.variant
    seen = _visible(hand, viewer)
    lines = [_header(hand, ctx, money)]
    size = ctx.seat_count or max(hand.order)
    table = f"Table '{ctx.table or '1'}' {size}-max"
    if not ctx.currency and ctx.tournament is None:
        table += " (Play Money)"
    if hand.button is not None:
        table += f" Seat #{hand.button} is the button"
    lines.append(table)
    for seat in hand.order:
        lines.append(f"Seat {seat}: {name(seat)} ({money(hand.players[seat].starting_stack)} in chips)")

    def suffix(all_in: bool) -> str:
        return " and is all-in" if all_in else ""

    exposed: set[int] = set()  # all-in exposure (RULES.md §6.5): later cards of these hands are public

    def visible(seat: int, card: Card | None, up: bool) -> bool:
        return viewer is None or seat == viewer or up or seat in exposed or card in seen.get(seat, ())

    held: dict[int, list[Card | None]] = {s: [] for s in hand.order}  # what the reader knows of each hand
    level = 0
    first_deal = True
    street_name = ""
    board: list[Card] = []
    shows: list[CardsShown] = []
    mucks: list[Mucked] = []
    collected: dict[int, int] = dict.fromkeys(hand.order, 0)
    folded_on: dict[int, str] = {}
    bets_this_hand: set[int] = set()
    showdown = False
    for e in hand.events:
        if isinstance(e, Posted):
            what = {
                "ante": "the ante",
                "small_blind": "small blind",
                "big_blind": "big blind",
                "straddle": "straddle",
                "live": "big blind",
                "dead": "small blind",
            }[e.what]
            lines.append(f"{name(e.seat)}: posts {what} {money(e.amount)}{suffix(e.all_in)}")
            if e.what != "ante" and e.what != "dead":
                level = max(level, e.amount)
            bets_this_hand.add(e.seat)
        elif isinstance(e, StreetStarted):
            street = v.streets[e.index]
            level = 0
            if v.is_stud:
                street_name = (
                    "RIVER" if e.name == "seventh" else f"{_STUD_STREETS.get(e.name, e.name)} STREET"
                )
                lines.append(f"*** {street_name} ***")
            elif street.draw:
                street_name = f"{_DRAWS[sum(s.draw for s in v.streets[: e.index])]} DRAW"
                lines.append(f"*** {street_name} ***")
        elif isinstance(e, CardsDealt):
            if first_deal:
                first_deal = False
                if v.is_stud:
                    street_name = f"{_STUD_STREETS.get(v.streets[0].name, '3rd')} STREET"
                elif v.is_draw:
                    street_name = "DEALING HANDS"
                else:
                    street_name = "HOLE CARDS"
                lines.append(f"*** {street_name} ***")
            new = [c if visible(e.seat, c, u) else None for c, u in zip(e.cards, e.up, strict=True)]
            before = [c for c in held[e.seat] if c is not None]
            held[e.seat].extend(new)
            if any(c is not None for c in new):
                prev = f" {_cards(before)}" if before else ""
                if prev:
                    lines.append(f"Dealt to {name(e.seat)}{prev} {_cards(new)}")
                else:
                    lines.append(f"Dealt to {name(e.seat)} {_cards(new)}")
        elif isinstance(e, BoardDealt):
            old = list(board)
            board.extend(e.cards)
            if v.is_stud:
                lines.append(f"*** {street_name} *** [{e.cards[0]}] (community card)")
                continue  # stud: one community card when the deck runs short (RULES.md §5.7)
            street_name = _BOARD.get(len(board), "BOARD")
            lines.append(
                f"*** {street_name} *** {_cards(old)} {_cards(e.cards)}"
                if old
                else f"*** {street_name} *** {_cards(e.cards)}"
            )
        elif isinstance(e, ActionTaken):
            who = name(e.seat)
            if e.action == "fold":
                lines.append(f"{who}: folds")
                folded_on[e.seat] = street_name
            elif e.action == "check":
                lines.append(f"{who}: checks")
            elif e.action == "call":
                lines.append(f"{who}: calls {money(e.amount)}{suffix(e.all_in)}")
            elif e.action == "bring_in":
                lines.append(f"{who}: brings in for {money(e.amount)}{suffix(e.all_in)}")
            elif e.action == "bet":
                lines.append(f"{who}: bets {money(e.amount)}{suffix(e.all_in)}")
            elif e.action == "complete":
                lines.append(f"{who}: completes it to {money(e.total)}{suffix(e.all_in)}")
            else:
                lines.append(f"{who}: raises {money(e.total - level)} to {money(e.total)}{suffix(e.all_in)}")
            level = max(level, e.total)
            if e.action != "fold":
                bets_this_hand.add(e.seat)
        elif isinstance(e, BetReturned):
            lines.append(f"Uncalled bet ({money(e.amount)}) returned to {name(e.seat)}")
        elif isinstance(e, RoundEnded):
            level = 0
        elif isinstance(e, Drew):
            n = len(e.discarded)
            if n == 0:
                lines.append(f"{name(e.seat)}: stands pat")
            elif viewer is None or viewer == e.seat:
                lines.append(
                    f"{name(e.seat)}: discards {n} card{'s' * (n != 1)} and draws {_cards(e.received)}"
                )
            else:
                lines.append(f"{name(e.seat)}: discards {n} card{'s' * (n != 1)}")
            kept = [c for c in held[e.seat] if c not in e.discarded]
            shown_new = [c if visible(e.seat, c, False) else None for c in e.received]
            held[e.seat] = [*kept[: len(kept)], *shown_new]
        elif isinstance(e, Discarded):
            own = viewer is None or viewer == e.seat
            lines.append(
                f"{name(e.seat)}: discards {len(e.cards)} cards" + (f" {_cards(e.cards)}" if own else "")
            )
        elif isinstance(e, CardsShown):
            shows.append(e)
            if e.reason == "all_in":
                exposed.add(e.seat)
        elif isinstance(e, Mucked):
            mucks.append(e)
        elif isinstance(e, PotAwarded):
            if shows and not showdown:
                showdown = True
                lines.append("*** SHOW DOWN ***")
                for s in shows:
                    final = hand.hole_cards(s.seat)
                    lines.append(f"{name(s.seat)}: shows {_cards(final)} ({_describe(hand, final)})")
                for m in mucks:
                    lines.append(f"{name(m.seat)}: mucks hand")
            pot = "pot"
            if len(hand.pots) > 1:
                pot = "main pot" if e.pot == 0 else f"side pot-{e.pot}"
            for seat, share in zip(e.winners, e.shares, strict=True):
                collected[seat] += share
                lines.append(f"{name(seat)} collected {money(share)} from {pot}")
            if not shows and len(e.winners) == 1:
                lines.append(f"{name(e.winners[0])}: doesn't show hand")
    lines.append("*** SUMMARY ***")
    total = hand.pot_total()
    pots = hand.pots
    pot_text = f"Total pot {money(total)}"
    if len(pots) > 1:
        pot_text += f" Main pot {money(pots[0].amount)}." + "".join(
            f" Side pot-{k} {money(p.amount)}." for k, p in enumerate(pots[1:], 1)
        )
    lines.append(f"{pot_text} | Rake {money(hand.rake)}")
    if board:
        lines.append(f"Board {_cards(board)}")
    shown = {s.seat: s for s in shows}
    mucked = {m.seat: m for m in mucks}
    for seat in hand.order:
        role = ""
        if seat == hand.button:
            role = " (button)"
        posted = [e for e in hand.events if isinstance(e, Posted) and e.seat == seat]
        if any(p.what == "small_blind" for p in posted):
            role = " (small blind)"
        elif any(p.what == "big_blind" for p in posted):
            role = " (big blind)"
        p = hand.players[seat]
        if p.folded:
            where = folded_on.get(seat, "")
            when = {
                "HOLE CARDS": "before Flop",
                "DEALING HANDS": "before the Draw",
                "FLOP": "on the Flop",
                "TURN": "on the Turn",
                "RIVER": "on the River",
            }.get(where, f"on the {where.replace('STREET', 'Street').replace('DRAW', 'Draw')}")
            didnt = " (didn't bet)" if seat not in bets_this_hand else ""
            text = f"folded {when}{didnt}".rstrip()
        elif seat in shown:
            final = hand.hole_cards(seat)
            result = f"won ({money(collected[seat])})" if collected[seat] else "lost"
            text = f"showed {_cards(final)} and {result} with {_describe(hand, final)}"
        elif seat in mucked and (viewer is None or viewer in hand.order):
            text = f"mucked {_cards(mucked[seat].cards)}"
        elif seat in mucked:
            text = "mucked"
        else:
            text = f"collected ({money(collected[seat])})"
        lines.append(f"Seat {seat}: {name(seat)}{role} {text}")
    return "\n".join(lines) + "\n"
