"""Reading PHH (the open poker hand history standard, TOML) into checked :class:`PhhHand` data.

Amounts are converted to integers: ``scale`` minor units per PHH unit, from ``_minor_units`` when the
file has it, otherwise the smallest power of ten that makes every amount whole (``0.25`` -> 100).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from types import MappingProxyType
from typing import Any

from pokerroom.cards import Card, DeckSpec, Rank, Suit
from pokerroom.engine import Betting, ConfigError, RakeRule, VariantSpec
from pokerroom.engine.hand_deal import variant_facts
from pokerroom.history.errors import HistoryError, PhhActionError, PhhFieldError, PhhSyntaxError
from pokerroom.history.model import HandContext, PhhAction, PhhHand, Post, TournamentInfo
from pokerroom.history.tomlio import load
from pokerroom.variants import VARIANTS

__all__ = ["STANDARD_CODES", "parse_hand", "read_phh", "read_phhs"]

# PHH variant code -> (our game, structure), from the catalog's metadata.
STANDARD_CODES: dict[str, tuple[str, Betting]] = {
    code: (v.code, betting) for v in VARIANTS.values() for betting, code in v.phh_codes.items()
}

_MAX_DECIMALS = 6
_VERBS = {"f", "cc", "cbr", "pb", "sd", "sm"}
_POST_KINDS = {"small_blind", "big_blind", "straddle", "live", "dead"}
_PLAYER = re.compile(r"p([1-9][0-9]*)")
_HEADER = re.compile(r"^\s*\[\s*(\"?)([^\]\"]+)\1\s*\]", re.MULTILINE)
_ACTIONS_KEY = re.compile(r"^\s*actions\s*=", re.MULTILINE)


def read_phh(text: str) -> PhhHand:
    """Parse one ``.phh`` hand. Errors are :class:`~pokerroom.history.HistoryError` subclasses."""
    return parse_hand(load(text), text=text)


def read_phhs(text: str) -> list[tuple[int, PhhHand | HistoryError]]:
    """Parse a ``.phhs`` file: every ``[N]`` table is a hand. Returns ``(N, hand or error)`` pairs in
    file order, so one bad hand does not hide the others; a TOML syntax error fails the whole file."""
    data = load(text)
    offsets = {m.group(2).strip(): m.start() for m in _HEADER.finditer(text)}
    out: list[tuple[int, PhhHand | HistoryError]] = []
    for position, (name, table) in enumerate(data.items()):
        try:
            index = int(name)
        except ValueError:
            index = position + 1
        if not isinstance(table, dict):
            out.append((index, PhhSyntaxError("a .phhs file holds only [N] tables of hands", hand=name)))
            continue
        try:
            out.append((index, parse_hand(table, text=text, offset=offsets.get(name, 0), name=name)))
        except HistoryError as exc:
            exc.hand = name
            out.append((index, exc))
    return out


# ------------------------------------------------------------------------------------------ numbers


def _number(value: object, name: str, *, allow_inf: bool = False) -> Decimal:
    if type(value) is int and value >= 0:  # (nearly every amount)
        return Decimal(value)
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise PhhFieldError(f"expected a number, got {type(value).__name__}", field=name)
    d = Decimal(value)
    if d.is_nan() or d < 0 or (d.is_infinite() and not allow_inf):
        raise PhhFieldError("expected a non-negative finite number", field=name)
    return d


def _numbers(
    fields: Mapping[str, Any], name: str, n: int | None, *, allow_inf: bool = False
) -> list[Decimal]:
    value = fields.get(name)
    if not isinstance(value, list):
        raise PhhFieldError("expected an array of numbers", field=name)
    if n is not None and len(value) != n:
        raise PhhFieldError(f"expected {n} entries (one per player), got {len(value)}", field=name)
    return [_number(v, name, allow_inf=allow_inf) for v in value]


def _scale_of(amounts: Sequence[Decimal], given: object) -> int:
    finite = [a for a in amounts if a.is_finite()]
    if given is not None:
        if isinstance(given, bool) or not isinstance(given, int) or given < 1:
            raise PhhFieldError("expected a positive integer", field="_minor_units")
        if any((a * given) % 1 for a in finite):
            raise PhhFieldError("an amount is finer than the minor unit", field="_minor_units")
        return int(given)
    if all(a == a.to_integral_value() for a in finite):  # whole amounts (most files): no scaling
        return 1
    for k in range(1, _MAX_DECIMALS + 1):
        scale: int = 10**k
        if all((a * scale) % 1 == 0 for a in finite):
            return scale
    raise PhhFieldError(f"amounts may have at most {_MAX_DECIMALS} decimal places")


def _scaled(d: Decimal, scale: int) -> int:
    return int(d * scale)


# --------------------------------------------------------------------------------------------- cards

_RANKS = "23456789TJQKA"
_SUITS = "cdhs"


# Every card name the notation allows -> its card, and the same restricted to each deck: a card is one
# dictionary look-up (the errors below are those of the checks one by one).
_CARD_NAMES: dict[str, Card] = {r + s: Card(Rank.parse(r), Suit.parse(s)) for r in _RANKS for s in _SUITS}
# (by the deck's identity: an enum member's hash is a Python call; members live as long as their class)
_IN_DECK: dict[int, dict[str, Card]] = {
    id(spec): {name: card for name, card in _CARD_NAMES.items() if card in spec} for spec in DeckSpec
}


def _cards(text: str, spec: DeckSpec, index: int, label: str) -> tuple[Card | None, ...]:
    if len(text) % 2:
        raise PhhActionError(f"({label}) card notation has an odd length", action=index)
    known = _IN_DECK[id(spec)]
    cards: list[Card | None] = []
    for i in range(0, len(text), 2):
        name = text[i : i + 2]
        card = known.get(name)
        if card is not None:
            cards.append(card)
        elif name == "??":
            cards.append(None)
        elif name in _CARD_NAMES:
            raise PhhActionError(f"({label}) a card that is not in the {spec.size}-card deck", action=index)
        else:
            raise PhhActionError(f"({label}) invalid card notation at position {i}", action=index)
    return tuple(cards)


# ------------------------------------------------------------------------------------------- actions


class _Lines:
    """Finds the text line of each action, scanning forward from the ``actions`` key."""

    def __init__(self, text: str | None, offset: int) -> None:
        self.text = text or ""
        self.pos = _actions_key(self.text, offset)
        self.counted = 0  # the line of text[counted] is line_no: lines are counted once, going forward
        self.line_no = 1

    def find(self, action: str) -> int | None:
        if not self.text or not action:
            return None
        at = self.text.find(action, self.pos)
        if at < 0:
            return None
        self.pos = at + len(action)
        self.line_no += self.text.count("\n", self.counted, at)
        self.counted = at
        return self.line_no


def _actions_key(text: str, offset: int) -> int:
    """Where ``_ACTIONS_KEY`` first matches from ``offset`` (``offset`` when it does not).

    The usual file is answered without the expression: when the first "actions" at or after ``offset``
    starts a line that follows a line ending in a non-blank character, and is followed by blanks and
    "=", no match can start before it (one would need "actions" earlier, or only blanks between an earlier
    line start and this one) and the match starts there. Anything else goes to the expression."""
    at = text.find("actions", offset)
    if at - 2 >= offset and text[at - 1] == "\n" and not text[at - 2].isspace():
        end = at + 7
        while end < len(text) and (text[end] == " " or text[end] == "\t"):
            end += 1
        if end < len(text) and text[end] == "=":
            return at
    m = _ACTIONS_KEY.search(text, offset)
    return m.start() if m else offset


# Actions already read, for each (players, deck), by their text: the same text always reads the same,
# and most texts recur ("p2 f", "p3 cc", the same deal). Only successes are kept; a table is emptied
# when it is full. Each entry: the action (index and line of its first reading), its amount as written,
# and that amount as an integer when it is whole and not huge (``None`` otherwise).
_Seen = tuple[PhhAction, Decimal | None, int | None]
# (keyed by the player count and the deck's identity: an enum member's hash is a Python call; members live
# as long as their class, so no other object takes that identity)
_SEEN: dict[tuple[int, int], dict[str, _Seen]] = {}
_SEEN_MAX = 20_000


def _parse_action(
    raw: str, index: int, line: int | None, n: int, spec: DeckSpec, seen: dict[str, _Seen]
) -> _Seen:
    """The action ``raw`` as read before (its index and line are the first reading's: the caller puts
    its own), or read now."""
    known = seen.get(raw)
    if known is None:
        a, amount = _parse_new_action(raw, index, line, n, spec)
        # (a whole amount of at most 19 digits: a larger one, 1e999999 say, is left to the general reading,
        # which converts it only once the whole hand has been read, as before)
        whole = None
        if amount is not None and amount.adjusted() < 19 and amount == amount.to_integral_value():
            whole = int(amount)
        known = (a, amount, whole)
        if a.verb != "db" or len(a.cards) < 3:  # (a flop seldom comes again: not kept)
            if len(seen) >= _SEEN_MAX:
                seen.clear()
            seen[raw] = known
    return known


# Contexts are made by setting their slots (``_context``): HandContext is a frozen dataclass, whose
# generated __init__ sets each field through object.__setattr__.
_NEW = object.__new__


def _slot_setters(cls: type, names: tuple[str, ...]) -> tuple[Any, ...]:
    """The setters of a frozen slots dataclass's fields, which must be ``names`` in order (a change to
    the class must be made where its values are listed too)."""
    if tuple(f.name for f in dataclasses.fields(cls)) != names:  # pragma: no cover
        raise ImportError(f"reader.py: the fields of {cls.__name__} changed; update the reader")
    return tuple(cls.__dict__[name].__set__ for name in names)


def _by_slots(cls: type, setters: tuple[Any, ...], values: tuple[Any, ...]) -> Any:
    """``cls(*values)`` (every field, in order) without the generated ``__init__`` (nor a
    ``__post_init__``)."""
    made: Any = _NEW(cls)
    for setter, value in zip(setters, values, strict=True):
        setter(made, value)
    return made


def _parse_new_action(
    raw: str, index: int, line: int | None, n: int, spec: DeckSpec
) -> tuple[PhhAction, Decimal | None]:
    body, _, comment = raw.partition("#")
    tokens = body.split()
    if not tokens:
        return PhhAction(index, line, None, "", (), None, None, False, comment.strip()), None
    if tokens[0] == "d":
        if len(tokens) < 2 or tokens[1] not in ("dh", "db"):
            raise PhhActionError("the dealer's action must be 'dh' or 'db'", action=index, line=line)
        if tokens[1] == "db":
            if len(tokens) < 3:
                raise PhhActionError("(d db) needs cards", action=index, line=line)
            cards = _cards("".join(tokens[2:]), spec, index, "d db")
            if any(c is None for c in cards):
                raise PhhActionError("(d db) board cards must be known", action=index, line=line)
            return PhhAction(index, line, None, "db", cards, None, None, False, comment.strip()), None
        if len(tokens) != 4 or not (m := _PLAYER.fullmatch(tokens[2])):
            raise PhhActionError("(d dh) expects a player and cards", action=index, line=line)
        player = int(m.group(1))
        if player > n:
            raise PhhActionError(f"(d dh) there is no player p{player}", action=index, line=line)
        cards = _cards(tokens[3], spec, index, "d dh")
        return PhhAction(index, line, player, "dh", cards, None, None, False, comment.strip()), None
    m = _PLAYER.fullmatch(tokens[0])
    if not m:
        raise PhhActionError("an action starts with 'd' or a player 'pN'", action=index, line=line)
    player = int(m.group(1))
    if player > n:
        raise PhhActionError(f"there is no player p{player}", action=index, line=line)
    verb = tokens[1] if len(tokens) > 1 else ""
    if verb not in _VERBS:
        raise PhhActionError(f"(p{player}) unknown action verb", action=index, line=line)
    args = tokens[2:]
    label = f"p{player} {verb}"
    if verb in ("f", "cc", "pb"):
        if args:
            raise PhhActionError(f"({label}) takes no argument", action=index, line=line)
        return PhhAction(index, line, player, verb, (), None, None, False, comment.strip()), None
    if verb == "cbr":
        if len(args) != 1:
            raise PhhActionError(f"({label}) needs one amount", action=index, line=line)
        try:
            amount = Decimal(args[0])
        except InvalidOperation:
            raise PhhActionError(f"({label}) the amount is not a number", action=index, line=line) from None
        if not amount.is_finite() or amount <= 0:
            raise PhhActionError(f"({label}) the amount must be positive", action=index, line=line)
        return PhhAction(index, line, player, verb, (), None, None, False, comment.strip()), amount
    if len(args) > 1:
        raise PhhActionError(f"({label}) takes at most one card argument", action=index, line=line)
    if verb == "sd":
        cards = _cards(args[0], spec, index, label) if args else ()
        return PhhAction(index, line, player, verb, cards, None, None, False, comment.strip()), None
    # sm: show (cards or '-') or muck (no argument)
    if not args:
        return PhhAction(index, line, player, verb, (), None, False, False, comment.strip()), None
    if args[0] == "-":
        return PhhAction(index, line, player, verb, (), None, True, True, comment.strip()), None
    cards = _cards(args[0], spec, index, label)
    return PhhAction(index, line, player, verb, cards, None, True, False, comment.strip()), None


# -------------------------------------------------------------------------------------------- fields


def _variant(fields: Mapping[str, Any]) -> tuple[VariantSpec, Betting, str]:
    code = fields.get("variant")
    if not isinstance(code, str):
        raise PhhFieldError("the variant code is missing or not a string", field="variant")
    own = fields.get("_variant")
    betting_text = fields.get("_betting")
    betting: Betting | None = None
    if betting_text is not None:
        try:
            betting = Betting(betting_text)
        except ValueError:
            raise PhhFieldError("expected 'FL', 'PL' or 'NL'", field="_betting") from None
    if own is not None:
        if not isinstance(own, str) or own not in VARIANTS:
            raise PhhFieldError("unknown game", field="_variant")
        v = VARIANTS[own]
        if betting is None:
            std = STANDARD_CODES.get(code)
            betting = std[1] if std and std[0] == own else v.default_structure
    elif code in STANDARD_CODES:
        game, std_betting = STANDARD_CODES[code]
        v = VARIANTS[game]
        betting = betting or std_betting
    else:
        raise PhhFieldError(f"unsupported variant code {code[:20]!r}", field="variant")
    if betting not in v.structures:
        raise PhhFieldError(f"{v.name} is not played {betting.value}", field="_betting")
    return v, betting, code


def _string_list(fields: Mapping[str, Any], name: str, n: int) -> tuple[str, ...] | None:
    value = fields.get(name)
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != n or not all(isinstance(v, str) for v in value):
        raise PhhFieldError(f"expected {n} strings", field=name)
    return tuple(value)


def _runouts(fields: Mapping[str, Any], n: int) -> tuple[bool, tuple[tuple[int, int], ...]]:
    """``_run_it_twice`` (a boolean) and ``_runout_count_selections`` (``"pN 1"`` or ``"pN 2"`` each)."""
    allowed = fields.get("_run_it_twice", False)
    if not isinstance(allowed, bool):
        raise PhhFieldError("expected a boolean", field="_run_it_twice")
    raw = fields.get("_runout_count_selections", [])
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise PhhFieldError("expected an array of strings", field="_runout_count_selections")
    picks: list[tuple[int, int]] = []
    for item in raw:
        words = item.split()
        m = _PLAYER.fullmatch(words[0]) if len(words) == 2 else None
        if m is None or not 1 <= int(m.group(1)) <= n or words[1] not in ("1", "2"):
            raise PhhFieldError('expected "pN 1" or "pN 2"', field="_runout_count_selections")
        picks.append((int(m.group(1)), int(words[1])))
    if picks and not allowed:
        raise PhhFieldError("runout counts without _run_it_twice", field="_runout_count_selections")
    return allowed, tuple(picks)


def _int_field(fields: Mapping[str, Any], name: str) -> int | None:
    value = fields.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise PhhFieldError("expected an integer", field=name)
    return value


def _seats(fields: Mapping[str, Any], n: int, stud: bool) -> tuple[tuple[int, ...], int | None]:
    raw = fields.get("seats")
    if raw is None:
        seats = tuple(range(1, n + 1))
    else:
        if (
            not isinstance(raw, list)
            or len(raw) != n
            or not all(isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in raw)
            or len(set(raw)) != n
        ):
            raise PhhFieldError(f"expected {n} distinct positive seat numbers", field="seats")
        seats = tuple(raw)
    if stud:
        if list(seats) != sorted(seats):
            raise PhhFieldError("stud players must be listed from the lowest seat up", field="seats")
        return seats, None
    button = _int_field(fields, "_button")
    if button is None:
        button = seats[-1]
    elif button < 1:
        raise PhhFieldError("expected a positive seat number", field="_button")
    clockwise = sorted(seats, key=lambda s: (s <= button, s))
    if clockwise != list(seats):
        raise PhhFieldError("players must be listed clockwise from the left of the button", field="seats")
    return seats, button


def _posts(fields: Mapping[str, Any], n: int, scale: int) -> tuple[Post, ...] | None:
    raw = fields.get("_posts")
    if raw is None:
        return None
    if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
        raise PhhFieldError("expected an array of strings", field="_posts")
    posts = []
    for item in raw:
        parts = item.split()
        m = _PLAYER.fullmatch(parts[0]) if parts else None
        if len(parts) != 3 or not m or int(m.group(1)) > n or parts[1] not in _POST_KINDS:
            raise PhhFieldError("expected 'pN kind amount' entries", field="_posts")
        try:
            amount = Decimal(parts[2])
        except InvalidOperation:
            raise PhhFieldError("expected 'pN kind amount' entries", field="_posts") from None
        if not amount.is_finite() or amount < 0 or (amount * scale) % 1:
            raise PhhFieldError("bad amount", field="_posts")
        posts.append(Post(int(m.group(1)), parts[1], int(amount * scale)))
    return tuple(posts)


def _text(fields: Mapping[str, Any], name: str) -> str:
    value = fields.get(name)
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise PhhFieldError("expected a string or an integer", field=name)
    return str(value)


# A context without a time, a hand number or a tournament (most files: nothing for HandContext's
# __post_init__ to refuse) is made by setting its slots, as a hand is; any other goes through its
# constructor and its checks. (tests/history/test_reader_fast.py holds the two equal.)
_CONTEXT_FIELDS = (
    "hand_id",
    "table",
    "time",
    "players",
    "currency",
    "currency_symbol",
    "minor_units",
    "seat_count",
    "stakes",
    "tournament",
    "event",
    "venue",
    "time_zone_label",
    "hand_number",
    "proof",
    "mix",
)
_CONTEXT_SET = _slot_setters(HandContext, _CONTEXT_FIELDS)


def _context(
    fields: Mapping[str, Any], seats: Sequence[int], names: Sequence[str] | None, scale: int
) -> HandContext:
    time = fields.get("_time")
    if time is not None and (not isinstance(time, dt.datetime) or time.tzinfo is None):
        raise PhhFieldError("expected an offset date-time", field="_time")
    if time is None:
        year, month, day = (_int_field(fields, k) for k in ("year", "month", "day"))
        clock = fields.get("time")
        if year and month and day and isinstance(clock, dt.time) and "time_zone" not in fields:
            try:  # the standard: without a time zone (or a full location) the time is UTC
                time = dt.datetime.combine(dt.date(year, month, day), clock.replace(tzinfo=dt.UTC))
            except ValueError:
                raise PhhFieldError("not a valid date", field="day") from None
    seat_count = _int_field(fields, "seat_count")
    tournament = None
    if "_tournament_id" in fields:
        tournament = TournamentInfo(
            _text(fields, "_tournament_id"),
            name=_text(fields, "_tournament_name"),
            buy_in=_int_field(fields, "_buy_in") or 0,
            fee=_int_field(fields, "_fee") or 0,
            level=_int_field(fields, "level"),
            number=_int_field(fields, "_tournament_number"),
        )
    players = {s: name for s, name in zip(seats, names, strict=True) if name} if names else {}
    values = (
        _text(fields, "hand"),
        _text(fields, "table"),
        time,
        MappingProxyType(players),  # (as __post_init__ makes it)
        _text(fields, "currency"),
        _text(fields, "currency_symbol"),
        scale if _is_power_of_ten(scale) else 1,
        seat_count,
        _text(fields, "_stakes"),
        tournament,
        _text(fields, "event"),
        _text(fields, "venue"),
        _text(fields, "time_zone_abbreviation"),
        _int_field(fields, "_hand_number"),
        None,
        _text(fields, "_mix"),
    )
    if time is not None or tournament is not None or values[13] is not None:
        return HandContext(*values)
    context: HandContext = _by_slots(HandContext, _CONTEXT_SET, values)
    return context


def _is_power_of_ten(n: int) -> bool:
    while n > 1 and n % 10 == 0:
        n //= 10
    return n == 1


def parse_hand(
    fields: Mapping[str, Any], *, text: str | None = None, offset: int = 0, name: str | None = None
) -> PhhHand:
    """Check one hand's TOML table and convert it (``text`` only serves to report line numbers)."""
    variant, betting, code = _variant(fields)
    if not isinstance(fields.get("starting_stacks"), list) or not fields["starting_stacks"]:
        raise PhhFieldError("expected an array of starting stacks", field="starting_stacks")
    n = len(fields["starting_stacks"])
    # Nearly every file writes whole amounts: they are read as integers, without decimals; anything
    # else (or anything wrong) takes the general reading, which makes the checks in their order.
    amounts = _whole_amounts(fields, n, variant, betting, text, offset)
    if amounts is None:
        amounts = _amounts(fields, n, variant, betting, text, offset)
    return _hand(fields, variant, betting, code, n, amounts, name)


class _Amounts:
    """What the amounts and actions of a hand read to: minor units (``scale`` per PHH unit)."""

    __slots__ = (
        "actions",
        "antes",
        "blinds",
        "finishing",
        "rake",
        "scale",
        "singles",
        "starting",
        "unknown",
        "winnings",
    )

    def __init__(
        self,
        scale: int,
        starting: tuple[int, ...],
        unknown: tuple[int, ...],
        antes: tuple[int, ...],
        blinds: tuple[int, ...],
        singles: dict[str, int],
        finishing: tuple[int, ...] | None,
        winnings: tuple[int, ...] | None,
        rake: int | None,
        actions: tuple[PhhAction, ...],
    ) -> None:
        self.scale = scale
        self.starting = starting
        self.unknown = unknown
        self.antes = antes
        self.blinds = blinds
        self.singles = singles
        self.finishing = finishing
        self.winnings = winnings
        self.rake = rake
        self.actions = actions


def _whole(value: object, n: int) -> list[int] | None:
    """``value`` when it is a list of ``n`` plain non-negative integers, else ``None``."""
    if type(value) is not list or len(value) != n:
        return None
    for v in value:
        if type(v) is not int or v < 0:
            return None
    return value


def _times(values: list[int], scale: int) -> tuple[int, ...]:
    return tuple(values) if scale == 1 else tuple(v * scale for v in values)


def _end_of_line(text: str, at: int) -> int:
    """The index of the first line break at or after ``at`` (the text's length when none)."""
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def _whole_amounts(
    fields: Mapping[str, Any], n: int, variant: VariantSpec, betting: Betting, text: str | None, offset: int
) -> _Amounts | None:
    """The amounts of a hand that writes only whole amounts, read as integers; ``None`` for any other
    hand, or at anything that :func:`_amounts` would refuse before the actions (it then reads the hand
    again and raises its error, in its order)."""
    stacks = _whole(fields.get("starting_stacks"), n)
    if stacks is None:
        return None
    antes = _whole(fields["antes"], n) if "antes" in fields else [0] * n
    if antes is None:
        return None
    facts = variant_facts(variant)
    if facts.is_stud:
        if "blinds_or_straddles" in fields:
            given = _whole(fields["blinds_or_straddles"], n)
            if given is None or any(given):
                return None
        blinds = [0] * n
    else:
        given = _whole(fields.get("blinds_or_straddles"), n)
        if given is None:
            return None
        blinds = given
    singles: dict[str, int] = {}
    needed = ("small_bet", "big_bet") if betting is Betting.FIXED_LIMIT else ("min_bet",)
    for key in ("bring_in", "small_bet", "big_bet", "min_bet", "_chip_unit"):
        if key in fields:
            value = fields[key]
            if type(value) is not int or value < 0:
                return None
            singles[key] = value
        elif key in needed or (key == "bring_in" and facts.is_stud):
            return None
    finishing = _whole(fields["finishing_stacks"], n) if "finishing_stacks" in fields else None
    winnings = _whole(fields["winnings"], n) if "winnings" in fields else None
    rake = fields.get("_rake")
    if (
        ("finishing_stacks" in fields and finishing is None)
        or ("winnings" in fields and winnings is None)
        or ("_rake" in fields and (type(rake) is not int or rake < 0))
    ):
        return None
    raw_actions = fields.get("actions")
    if type(raw_actions) is not list or n < 2:
        return None
    for raw in raw_actions:
        if type(raw) is not str:
            return None
    try:
        facts.check_players(n)
    except ConfigError:
        return None
    scale = fields.get("_minor_units")
    if scale is None:
        scale = 1
    elif type(scale) is not int or scale < 1:
        return None
    if 0 in stacks:
        return None
    spec = facts.deck_for(n)
    lines = _Lines(text, offset)
    seen = _SEEN.get((n, id(spec)))
    if seen is None:
        seen = _SEEN[n, id(spec)] = {}
    actions: list[PhhAction] = []
    # (_Lines.find, inline: the line of each action, counting lines once going forward; ``eol``, the end
    # of the line of text[counted], spares the count while the actions stay on one line)
    whole_text, pos, counted, line_no = lines.text, lines.pos, lines.counted, lines.line_no
    eol = _end_of_line(whole_text, counted)
    for i, raw in enumerate(raw_actions):
        line: int | None = None
        if whole_text and raw:
            at = whole_text.find(raw, pos)
            if at >= 0:
                pos = at + len(raw)
                if at > eol:
                    line_no += whole_text.count("\n", counted, at)
                    counted = at
                    eol = _end_of_line(whole_text, at)
                line = line_no
        known = seen.get(raw)
        if known is None:
            try:
                known = _parse_action(raw, i, line, n, spec, seen)
            except PhhActionError as exc:
                exc.line = exc.line or line
                raise
        a, amount, whole = known
        if amount is None:
            actions.append(PhhAction(i, line, a.actor, a.verb, a.cards, None, a.show, a.dash, a.comment))
        elif whole is None:  # an amount with decimals: the scale is not 1
            return None
        else:
            actions.append(PhhAction(i, line, a.actor, a.verb, (), whole * scale, None, False, a.comment))
    return _Amounts(
        scale,
        _times(stacks, scale),
        (),
        _times(antes, scale),
        _times(blinds, scale),
        {k: v * scale for k, v in singles.items()},
        _times(finishing, scale) if finishing is not None else None,
        _times(winnings, scale) if winnings is not None else None,
        rake * scale if rake is not None else None,
        tuple(actions),
    )


def _amounts(
    fields: Mapping[str, Any], n: int, variant: VariantSpec, betting: Betting, text: str | None, offset: int
) -> _Amounts:
    """The amounts of any hand (decimals, ``inf`` stacks), with every check of the amounts and actions."""
    stud = variant.is_stud
    stacks_d = _numbers(fields, "starting_stacks", n, allow_inf=True)
    antes_d = _numbers(fields, "antes", n) if "antes" in fields else [Decimal(0)] * n
    if stud:
        blinds_d = _numbers(fields, "blinds_or_straddles", n) if "blinds_or_straddles" in fields else []
        if any(blinds_d):
            raise PhhFieldError("stud games have a bring-in, not blinds", field="blinds_or_straddles")
        blinds_d = [Decimal(0)] * n
    else:
        if "blinds_or_straddles" not in fields:
            raise PhhFieldError("required for this variant", field="blinds_or_straddles")
        blinds_d = _numbers(fields, "blinds_or_straddles", n)
    singles: dict[str, Decimal] = {}
    needed = ("small_bet", "big_bet") if betting is Betting.FIXED_LIMIT else ("min_bet",)
    for key in ("bring_in", "small_bet", "big_bet", "min_bet", "_chip_unit"):
        if key in fields:
            singles[key] = _number(fields[key], key)
        elif key in needed or (key == "bring_in" and stud):
            raise PhhFieldError("required for this variant", field=key)
    finishing_d = _numbers(fields, "finishing_stacks", n) if "finishing_stacks" in fields else None
    winnings_d = _numbers(fields, "winnings", n) if "winnings" in fields else None
    rake_d = _number(fields["_rake"], "_rake") if "_rake" in fields else None
    raw_actions = fields.get("actions")
    if not isinstance(raw_actions, list) or not all(isinstance(a, str) for a in raw_actions):
        raise PhhFieldError("expected an array of strings", field="actions")
    if n < 2:
        raise PhhFieldError("a hand needs at least two players", field="starting_stacks")
    try:
        variant.check_players(n)
    except ConfigError as exc:
        raise PhhFieldError(str(exc), field="starting_stacks") from None
    spec = variant.deck_for(n)
    lines = _Lines(text, offset)
    seen = _SEEN.get((n, id(spec)))
    if seen is None:
        seen = _SEEN[n, id(spec)] = {}
    actions: list[PhhAction] = []
    amounts: list[Decimal] = []
    raw_amounts: list[tuple[int, Decimal]] = []
    for i, raw in enumerate(raw_actions):
        line = lines.find(raw)
        try:
            a, amount, _ = _parse_action(raw, i, line, n, spec, seen)
        except PhhActionError as exc:
            exc.line = exc.line or line
            raise
        actions.append(PhhAction(i, line, a.actor, a.verb, a.cards, None, a.show, a.dash, a.comment))
        if amount is not None:
            raw_amounts.append((i, amount))
            amounts.append(amount)
    every = [*stacks_d, *antes_d, *blinds_d, *singles.values(), *amounts]
    every += [*(finishing_d or []), *(winnings_d or [])] + ([rake_d] if rake_d is not None else [])
    scale = _scale_of(every, fields.get("_minor_units"))
    for i, amount in raw_amounts:
        a = actions[i]
        actions[i] = PhhAction(
            a.index, a.line, a.actor, a.verb, amount=_scaled(amount, scale), comment=a.comment
        )
    unknown = tuple(i + 1 for i, s in enumerate(stacks_d) if s.is_infinite())
    known_total = sum((s for s in stacks_d if s.is_finite()), Decimal(0))
    stand_in = _scaled(max(known_total, Decimal(1)), scale) * 100 + 10**9
    starting = tuple(stand_in if s.is_infinite() else _scaled(s, scale) for s in stacks_d)
    if any(s <= 0 for s in starting):
        raise PhhFieldError("every starting stack must be positive", field="starting_stacks")
    return _Amounts(
        scale,
        starting,
        unknown,
        tuple(_scaled(a, scale) for a in antes_d),
        tuple(_scaled(b, scale) for b in blinds_d),
        {k: _scaled(v, scale) for k, v in singles.items()},
        tuple(_scaled(s, scale) for s in finishing_d) if finishing_d is not None else None,
        tuple(_scaled(s, scale) for s in winnings_d) if winnings_d is not None else None,
        _scaled(rake_d, scale) if rake_d is not None else None,
        tuple(actions),
    )


def _hand(
    fields: Mapping[str, Any],
    variant: VariantSpec,
    betting: Betting,
    code: str,
    n: int,
    amounts: _Amounts,
    name: str | None,
) -> PhhHand:
    """The checks after the amounts and actions, and the hand."""
    scale = amounts.scale
    stud = variant_facts(variant).is_stud
    seats, button = _seats(fields, n, stud)
    names = _string_list(fields, "players", n)
    rake_rule = None
    if "_rake_percent_bp" in fields or "_rake_cap" in fields:
        try:
            rake_rule = RakeRule(
                _int_field(fields, "_rake_percent_bp") or 0, _int_field(fields, "_rake_cap") or 0
            )
        except ConfigError as exc:
            raise PhhFieldError(str(exc), field="_rake_percent_bp") from None
    dead_raw = fields.get("_dead")
    if dead_raw is None:
        dead: tuple[int, ...] = (0,) * n
    else:
        whole = _whole(dead_raw, n)
        if whole is not None:
            dead = tuple(d * scale for d in whole)
        else:
            dead = tuple(_scaled(d, scale) for d in _numbers(fields, "_dead", n))
    antes = amounts.antes
    if any(d > a for d, a in zip(dead, antes, strict=True)):
        raise PhhFieldError("dead money is part of the antes array and cannot exceed it", field="_dead")
    run_it_twice, selections = _runouts(fields, n)
    cap = _int_field(fields, "_cap") or 4
    hu = fields.get("_heads_up_uncapped", True)
    if not isinstance(hu, bool):
        raise PhhFieldError("expected a boolean", field="_heads_up_uncapped")
    bomb_pot = fields.get("_bomb_pot", False)
    if not isinstance(bomb_pot, bool):
        raise PhhFieldError("expected a boolean", field="_bomb_pot")
    if bomb_pot and (stud or any(amounts.blinds)):
        raise PhhFieldError("a bomb pot has antes and no blinds", field="_bomb_pot")
    singles = amounts.singles
    # (PhhHand is compiled with the reader: one native call; its fields in order)
    return PhhHand(
        variant,
        betting,
        code,
        scale,
        singles.get("_chip_unit", 1),
        antes,
        amounts.blinds,
        singles.get("bring_in", 0),
        singles.get("small_bet", 0),
        singles.get("big_bet", 0),
        singles.get("min_bet", 0),
        amounts.starting,
        amounts.unknown,
        amounts.actions,
        seats,
        button,
        _posts(fields, n, scale),
        dead,
        rake_rule,
        amounts.rake,
        cap,
        hu,
        amounts.finishing,
        amounts.winnings,
        names or (),
        _context(fields, seats, names, scale),
        dict(fields),
        name,
        run_it_twice,
        selections,
        bomb_pot,
    )
