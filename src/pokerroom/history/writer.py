"""Writing a finished (or running) engine hand as PHH, as the audit copy or one player's copy.

Per-viewer copies follow RULES.md §6.6: a player sees his own cards, face-up stud cards, hands shown at
the table (showdown or all-in exposure) and, because he was dealt in, hands mucked at showdown; never
folded hands, draw discards or Irish discards of others. Hidden cards are written ``??``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from pokerroom.cards import Card
from pokerroom.engine import Betting, HandState
from pokerroom.engine.events import (
    ActionTaken,
    BoardDealt,
    CardsDealt,
    CardsShown,
    Discarded,
    Drew,
    Mucked,
    Posted,
    PotAwarded,
    RunTwiceAnswered,
)
from pokerroom.engine.snapshot import blinds_of
from pokerroom.history.errors import HistoryError
from pokerroom.history.model import HandContext
from pokerroom.history.tomlio import dump_table, format_value, load

__all__ = ["phh_fields", "phh_order", "write_phh", "write_phhs"]


def phh_order(hand: HandState) -> list[int]:
    """The seats in PHH player order: clockwise from the first seat left of the button (button last);
    stud: from the lowest seat."""
    seats = sorted(hand.order)
    if hand.button is None:
        return seats
    b = hand.button
    return [s for s in seats if s > b] + [s for s in seats if s <= b]


def _cards(cards: Sequence[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


class _Amounts:
    def __init__(self, minor_units: int) -> None:
        self.minor_units = minor_units

    def __call__(self, amount: int) -> int | Decimal:
        if self.minor_units == 1:
            return amount
        value = Decimal(amount) / Decimal(self.minor_units)
        return int(value) if value == value.to_integral_value() else value.normalize()

    def text(self, amount: int) -> str:
        return format_value(self(amount))


def _visible(hand: HandState, viewer: int | None) -> dict[int, set[Card]]:
    """For each other seat, the cards of his final hand this viewer may see (shown, or mucked and the
    viewer was dealt in)."""
    dealt_in = viewer is not None and viewer in hand.order
    seen: dict[int, set[Card]] = {}
    for e in hand.events:
        if isinstance(e, CardsShown):
            seen.setdefault(e.seat, set()).update(e.cards)
        elif isinstance(e, Mucked) and dealt_in:
            seen.setdefault(e.seat, set()).update(c for c in e.cards if c is not None)
    return seen


def _final_deals(hand: HandState) -> set[tuple[int, Card]]:
    """(event index, card) of every card dealt that is still in its player's hand at the end. A card can
    be dealt to one player twice (discarded, reshuffled, drawn again): only the last deal of it is final."""
    held: dict[int, dict[Card, int]] = {}
    for i, e in enumerate(hand.events):
        if isinstance(e, CardsDealt):
            for c in e.cards:
                if c is not None:
                    held.setdefault(e.seat, {})[c] = i
        elif isinstance(e, Drew):
            mine = held.setdefault(e.seat, {})
            for c in e.discarded:
                if c is not None:
                    mine.pop(c, None)
            for c in e.received:
                if c is not None:
                    mine[c] = i
        elif isinstance(e, Discarded):
            for c in e.cards:
                if c is not None:
                    held.setdefault(e.seat, {}).pop(c, None)
    return {(i, c) for cards in held.values() for c, i in cards.items()}


def _actions(hand: HandState, viewer: int | None, player: dict[int, int], amount: _Amounts) -> list[str]:
    seen = _visible(hand, viewer)
    final = _final_deals(hand)
    index = 0  # the event being written

    def see(seat: int, card: Card | None, up: bool = False) -> Card | None:
        if viewer is None or seat == viewer or up:
            return card
        if card is not None and card in seen.get(seat, ()) and (index, card) in final:
            return card  # shown at the end, and this deal of it is the one that stayed in the hand
        return None

    def own(seat: int) -> bool:
        return viewer is None or seat == viewer

    out: list[str] = []
    exposed: set[int] = set()  # all-in exposure (RULES.md §6.5): later stud cards are face up too
    for index, e in enumerate(hand.events):  # noqa: B007  (``see`` reads ``index``)
        if isinstance(e, CardsDealt):
            cards = [see(e.seat, c, u or e.seat in exposed) for c, u in zip(e.cards, e.up, strict=True)]
            out.append(f"d dh p{player[e.seat]} {_cards(cards)}")
        elif isinstance(e, BoardDealt):
            out.append(f"d db {_cards(e.cards)}")
        elif isinstance(e, ActionTaken):
            p = f"p{player[e.seat]}"
            if e.action == "fold":
                out.append(f"{p} f")
            elif e.action in ("check", "call"):
                out.append(f"{p} cc")
            elif e.action == "bring_in":
                out.append(f"{p} pb")
            else:
                out.append(f"{p} cbr {amount.text(e.total)}")
        elif isinstance(e, Drew):
            pn = player[e.seat]
            discards = [c if own(e.seat) else None for c in e.discarded]
            out.append(f"p{pn} sd {_cards(discards)}".rstrip())
            if e.received:
                out.append(f"d dh p{pn} {_cards([see(e.seat, c) for c in e.received])}")
        elif isinstance(e, Discarded):
            out.append(f"p{player[e.seat]} sd {_cards([c if own(e.seat) else None for c in e.cards])}")
        elif isinstance(e, CardsShown):
            if e.reason == "all_in":
                exposed.add(e.seat)
            out.append(f"p{player[e.seat]} sm {_cards(e.cards)}")
        elif isinstance(e, Mucked):
            out.append(f"p{player[e.seat]} sm")
    return out


def _posts(hand: HandState) -> list[tuple[Posted, int]]:
    """Each forced bet with its nominal amount (a short stack posts less than the blind: the history
    records the blind, and the engine posts what the stack allows)."""
    blinds = blinds_of(hand)  # the table's decision; None: the default blinds
    stakes = hand.structure.stakes
    nominal: dict[tuple[int, str], int] = {}
    if blinds is None:
        for seat in hand.order:
            nominal[(seat, "small_blind")] = stakes.small_blind
            nominal[(seat, "big_blind")] = stakes.big_blind
            nominal[(seat, "ante")] = stakes.ante
    else:
        for key, what in (("small", "small_blind"), ("big", "big_blind")):
            if blinds[key]:
                nominal[(blinds[key][0], what)] = blinds[key][1]
        for key, what in (("straddles", "straddle"), ("live", "live"), ("dead", "dead")):
            for seat, amt in blinds[key]:
                nominal[(seat, what)] = amt
        for seat in hand.order:
            nominal[(seat, "ante")] = stakes.ante
        for seat, amt in blinds["antes"] or ():
            nominal[(seat, "ante")] = amt
    return [
        (e, max(e.amount, nominal.get((e.seat, e.what), 0))) for e in hand.events if isinstance(e, Posted)
    ]


def phh_fields(
    hand: HandState, viewer: int | None = None, context: HandContext | None = None
) -> list[tuple[str, Any]]:
    """The PHH fields of a hand, in writing order (see :func:`write_phh`)."""
    ctx = context or HandContext()
    if viewer is not None and (not isinstance(viewer, int) or isinstance(viewer, bool)):
        raise HistoryError("the viewer must be a seat number or None", field="viewer")
    amount = _Amounts(ctx.minor_units)
    v = hand.variant
    betting = hand.structure.betting
    stakes = hand.structure.stakes
    order = phh_order(hand)
    player = {seat: i + 1 for i, seat in enumerate(order)}
    n = len(order)
    heads_up = n == 2
    antes = [0] * n
    dead = [0] * n
    blinds = [0] * n
    posts: list[str] = []
    for e, due in _posts(hand):
        i = player[e.seat] - 1
        if e.what == "ante":
            antes[i] += due
        elif e.what == "dead":
            dead[i] += due
            posts.append(f"p{i + 1} dead {amount.text(due)}")
        else:
            blinds[i] += due
            posts.append(f"p{i + 1} {e.what} {amount.text(due)}")
    ante_array = [a + d for a, d in zip(antes, dead, strict=True)]
    if heads_up:  # PHH reverse-assigns heads-up forced bets: the arrays are written [small, big]
        ante_array.reverse()
        blinds.reverse()
    code = v.phh_codes.get(betting, v.code)
    fields: list[tuple[str, Any]] = [("variant", code), ("_variant", v.code), ("_betting", betting.value)]
    fields.append(("antes", [amount(a) for a in ante_array]))
    if v.is_stud:
        fields.append(("bring_in", amount(stakes.bring_in)))
    else:
        fields.append(("blinds_or_straddles", [amount(b) for b in blinds]))
    if betting is Betting.FIXED_LIMIT:
        fields += [("small_bet", amount(stakes.small_bet)), ("big_bet", amount(stakes.big_bet))]
    else:
        fields.append(("min_bet", amount(hand.structure.min_bet)))
    starting = {s: hand.players[s].starting_stack for s in order}
    fields.append(("starting_stacks", [amount(starting[s]) for s in order]))
    fields.append(("actions", _actions(hand, viewer, player, amount)))
    if ctx.event:
        fields.append(("event", ctx.event))
    if ctx.venue:
        fields.append(("venue", ctx.venue))
    if ctx.time is not None:
        t = ctx.time
        fields += [
            ("time", t.timetz().replace(tzinfo=None)),
            ("day", t.day),
            ("month", t.month),
            ("year", t.year),
        ]
        key = getattr(t.tzinfo, "key", None)
        if isinstance(key, str):
            fields.append(("time_zone", key))
        if t.tzname():
            fields.append(("time_zone_abbreviation", t.tzname()))
        fields.append(("_time", t))
    if ctx.hand_id:
        fields.append(("hand", int(ctx.hand_id) if ctx.hand_id.isdigit() else ctx.hand_id))
    if ctx.tournament is not None and ctx.tournament.level is not None:
        fields.append(("level", ctx.tournament.level))
    fields.append(("seats", order))
    if ctx.seat_count is not None:
        fields.append(("seat_count", ctx.seat_count))
    if ctx.table:
        fields.append(("table", ctx.table))
    if ctx.players:
        fields.append(("players", [ctx.players.get(s, "") for s in order]))
    stacks = hand.stacks()
    fields.append(("finishing_stacks", [amount(stacks[s]) for s in order]))
    if hand.is_over:
        won = dict.fromkeys(order, 0)
        for ev in hand.events:
            if isinstance(ev, PotAwarded):
                for seat, share in zip(ev.winners, ev.shares, strict=True):
                    won[seat] += share
        fields.append(("winnings", [amount(won[s]) for s in order]))
    if ctx.currency:
        fields.append(("currency", ctx.currency))
    if ctx.currency_symbol:
        fields.append(("currency_symbol", ctx.currency_symbol))
    # ---- pokerroom extensions (user-defined fields, docs/history.md)
    if hand.button is not None:
        fields.append(("_button", hand.button))
    if posts:
        fields.append(("_posts", posts))
    if any(dead):
        fields.append(("_dead", [amount(d) for d in dead]))
    if ctx.minor_units != 1:
        fields.append(("_minor_units", ctx.minor_units))
    if stakes.chip_unit != 1:
        fields.append(("_chip_unit", amount(stakes.chip_unit)))
    if hand.structure.cap != 4:
        fields.append(("_cap", hand.structure.cap))
    if not hand.structure.heads_up_uncapped:
        fields.append(("_heads_up_uncapped", False))
    if (blinds_of(hand) or {}).get("bomb_pot"):  # RULES.md §11.2: no preflop betting, the flop at once
        fields.append(("_bomb_pot", True))
    if hand.run_it_twice:  # R-RIT: the table allowed it; each answer as "pN 2" (yes) or "pN 1" (no)
        fields.append(("_run_it_twice", True))
        answers = [e for e in hand.events if isinstance(e, RunTwiceAnswered)]
        if answers:
            picks = [f"p{player[e.seat]} {2 if e.agree else 1}" for e in answers]
            fields.append(("_runout_count_selections", picks))
    if hand.rake_rule is not None:
        fields += [
            ("_rake", amount(hand.rake)),
            ("_rake_percent_bp", hand.rake_rule.percent_bp),
            ("_rake_cap", hand.rake_rule.cap),
        ]
    if ctx.stakes:
        fields.append(("_stakes", ctx.stakes))
    if ctx.mix:  # a mixed table (RULES.md §11.1): the mix; ``variant`` is this hand's own game
        fields.append(("_mix", ctx.mix))
    if ctx.hand_number is not None:
        fields.append(("_hand_number", ctx.hand_number))
    if ctx.tournament is not None:
        fields.append(("_tournament_id", ctx.tournament.tournament_id))
        if ctx.tournament.number is not None:
            fields.append(("_tournament_number", ctx.tournament.number))
        if ctx.tournament.name:
            fields.append(("_tournament_name", ctx.tournament.name))
        fields += [("_buy_in", ctx.tournament.buy_in), ("_fee", ctx.tournament.fee)]
    if viewer is not None:
        fields.append(("_viewer", player.get(viewer, 0)))
    if ctx.proof is not None:  # docs/fairness.md: `pokerroom verify` checks it
        fields.append(("_deck_proof", _proof_text(hand, viewer, ctx)))
    return fields


def _proof_text(hand: HandState, viewer: int | None, ctx: HandContext) -> str:
    """The deck proof a copy carries: the full opening in the audit copy (server side only); in a
    player's copy only the openings of the cards it shows (R184)."""
    assert ctx.proof is not None
    return (ctx.proof if viewer is None else ctx.proof.for_viewer(hand.events, viewer)).to_text()


def write_phh(hand: HandState, viewer: int | None = None, context: HandContext | None = None) -> str:
    """The hand as PHH text. ``viewer=None`` is the full audit copy (every card); a seat number gives
    that player's copy, with every card he may not see written ``??`` (RULES.md §6.6)."""
    return dump_table(phh_fields(hand, viewer, context))


def _dump(fields: list[tuple[str, Any]]) -> str:
    return dump_table(fields) if fields else ""


def write_phh_views(
    hand: HandState, viewers: Iterable[int], context: HandContext | None = None
) -> dict[int, str]:
    """Each viewer's PHH copy of the hand, the same texts as ``write_phh(hand, viewer, context)`` for each
    (a test holds them equal): the fields no viewer changes are built and written once, and only each
    copy's ``actions`` (the cards it may see) and ``_viewer`` are written per viewer."""
    ctx = context or HandContext()
    fields = phh_fields(hand, None, ctx)
    keys = [k for k, _ in fields]
    at = keys.index("actions")
    # (``_viewer`` goes where phh_fields puts it: before the deck proof, else last; the proof is the
    # viewer's own)
    proof = keys.index("_deck_proof") if "_deck_proof" in keys else len(fields)
    head, middle = (_dump(part) for part in (fields[:at], fields[at + 1 : proof]))
    order = phh_order(hand)
    player = {seat: i + 1 for i, seat in enumerate(order)}
    amount = _Amounts(ctx.minor_units)
    out = {}
    for viewer in viewers:
        if not isinstance(viewer, int) or isinstance(viewer, bool):
            raise HistoryError("the viewer must be a seat number or None", field="viewer")
        actions = dump_table([("actions", _actions(hand, viewer, player, amount))])
        mine = dump_table([("_viewer", player.get(viewer, 0))])
        tail = dump_table([("_deck_proof", _proof_text(hand, viewer, ctx))]) if ctx.proof else ""
        out[viewer] = head + actions + middle + mine + tail
    return out


def write_phhs(hands: Iterable[str | HandState]) -> str:
    """A ``.phhs`` file: each hand (PHH text from :func:`write_phh`, or a hand written as its audit copy)
    under a ``[N]`` table, numbered from 1."""
    parts = []
    for i, h in enumerate(hands, 1):
        text = write_phh(h) if isinstance(h, HandState) else h
        data = load(text)
        if any(isinstance(v, dict) for v in data.values()):
            raise HistoryError("a hand in a .phhs file must be one flat table", hand=str(i))
        parts.append(f"[{i}]\n{text.rstrip()}\n")
    return "\n".join(parts)
