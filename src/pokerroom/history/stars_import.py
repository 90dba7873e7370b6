"""Reading PokerStars-format hold'em histories (ours and other rooms') into PHH (``pokerroom import``).

One hand per ``PokerStars Hand #`` (or ``Game #``) block: the header (number, tournament, game, stakes,
time), the table line with the button, seat lines, posts, ``Dealt to`` (the hero's cards; every player's
in an audit copy), actions, boards, shows and mucks, and the summary's collections. The PHH written has
the standard fields (``variant``, ``antes``, ``blinds_or_straddles``, ``min_bet`` or ``small_bet`` /
``big_bet``, ``starting_stacks``, ``actions`` with ``????`` for unknown cards, ``players``, ``seats``,
``hand``, ``table``, ``seat_count``, ``finishing_stacks`` as the text's own chips say, ``currency``, time
fields) and ours (``_button``, ``_posts`` when the blinds are not the plain small and big blind,
``_tournament_id``, ``_rake``). Games: every game of our export (``stars.GAME_NAMES``) as PokerStars names
it: Hold'em and Omaha (hi and hi/lo) in every structure, 7 Card Stud (hi/lo) and Razz (``*** 3rd STREET
***`` to ``*** RIVER ***``, the ante, ``brings in for``, ``completes it to``, each street's ``Dealt to``
cards), and the draw games (Triple Draw 2-7 Lowball, Single Draw 2-7 Lowball, 5 Card Draw:
``*** DEALING HANDS ***``, ``*** FIRST DRAW ***`` ..., ``discards N cards [..]``, ``stands pat``, the
hero's new cards), mixed-game headers (``HORSE (Razz Limit, ...)``) included. Other players' cards are
``????`` where the text does not show them; a stud hand's shown cards are put back on the streets they
were dealt on (PokerStars shows them in dealing order); a draw hand's shown cards are the final hand
(which of them were drawn cannot be told), so its deals keep ``????`` and the show names them.

A hand run twice (R-RIT) has each run's streets (``*** FIRST FLOP ***`` ... ``*** SECOND RIVER ***``) and
a showdown per run that repeats the shows: the boards are read in dealing order, each show once, and the
PHH says that every player still in agreed to run twice (``_run_it_twice``, ``_runout_count_selections``).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from pokerroom.cards import NotationError, parse_cards
from pokerroom.engine import Betting
from pokerroom.history.errors import HistoryError
from pokerroom.history.stars import GAME_NAMES
from pokerroom.history.tomlio import dump_table
from pokerroom.variants import VARIANTS

__all__ = ["StarsImportError", "read_pokerstars", "split_pokerstars"]

_START = re.compile(r"^PokerStars (?:Hand|Game) #", re.MULTILINE)
_HEADER = re.compile(
    r"^PokerStars (?:Hand|Game) #(?P<number>\d+):\s+"
    r"(?:Tournament #(?P<tournament>\d+),\s+(?P<buy_in>.*?)\s+)?"
    r"(?P<game>"
    + "|".join(re.escape(name) for name in sorted(GAME_NAMES.values(), key=len, reverse=True))
    + r") (?P<betting>No Limit|Pot Limit|Limit)"
    r"(?:\s+-\s+Level\s+(?P<level>[IVXLCDM\d]+))?"
    r"\s+\((?P<stakes>[^)]*)\)"
    r"(?:\s+-\s+(?P<date>\d{4}/\d{1,2}/\d{1,2})\s+(?P<time>\d{1,2}:\d{2}:\d{2})(?:\s+(?P<zone>[A-Z]+))?)?"
)
# A mixed game's header names the mix, then the hand's game (as PokerStars writes them, RULES.md §11.1):
# "HORSE (Hold'em Limit, $2/$4 USD) - ..." at a cash table, "Tournament #9, $10+$1 USD HORSE (Hold'em
# Limit) - Level II (200/400) - ..." in a tournament. ``_unmix`` rewrites it as the game's own header.
_MIXED = re.compile(
    r"^(?P<pre>PokerStars (?:Hand|Game) #\d+:\s+(?:Tournament #\d+,\s+\S+(?:\s+[A-Z]{3})?\s+)?)"
    r"(?P<mix>[^()]+?) \((?P<game>[^,()]+? (?:No Limit|Pot Limit|Limit))"
    r"(?:, (?P<stakes>[^)]*))?\)(?P<rest>.*)$"
)
_TABLE = re.compile(
    r"^Table '(?P<table>.*)' (?P<max>\d+)-max(?: \(Play Money\))?(?: Seat #(?P<button>\d+) is the button)?"
)
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>[^ ]+) in chips")
_POST = re.compile(
    r"^(?P<name>.+?): posts (?P<what>the ante|small blind|big blind|small & big blinds) (?P<amount>\S+)"
)
_DEALT = re.compile(r"^Dealt to (?P<name>.+?) (?:\[[^\]]*\] )?\[(?P<cards>[^\]]+)\]$")
# A board line; a hand run twice has each run's streets, "*** FIRST TURN *** [..] [.]" then "*** SECOND TURN
# *** [..] [.]", in the order PHH deals them (the shared cards once, run 1's streets, then run 2's).
_STREET = re.compile(r"^\*\*\* (?P<run>FIRST |SECOND )?(?:FLOP|TURN|RIVER) \*\*\*")
_BOARD = re.compile(
    r"^\*\*\* (?:FIRST |SECOND )?(?:FLOP|TURN|RIVER) \*\*\* (?:\[[^\]]*\] )?\[(?P<cards>[^\]]+)\]"
)
_ACTION = re.compile(
    r"^(?P<name>.+?): (?P<verb>folds|checks|calls|bets|raises)(?: (?P<a>\S+))?(?: to (?P<b>\S+))?"
    r"(?: and is all-in)?\s*$"
)
_BRING_IN = re.compile(r"^(?P<name>.+?): (?:brings in for (?P<a>\S+)|completes it to (?P<b>\S+))")
# Stud streets ("*** 3rd STREET ***" ... "*** RIVER ***") and draws ("*** DEALING HANDS ***", "*** FIRST
# DRAW ***", "*** DRAW ***"): the writer's words (stars.py).
_STUD_STREET = re.compile(r"^\*\*\* (?:(?P<n>[2-6])(?:nd|rd|th) STREET|RIVER) \*\*\*")
_DRAW_STREET = re.compile(r"^\*\*\* (?:DEALING HANDS|(?:FIRST |SECOND |THIRD |FOURTH )?DRAW) \*\*\*")
_DISCARD = re.compile(r"^(?P<name>.+?): (?:stands pat|discards (?P<n>\d+) cards?(?: \[(?P<cards>[^\]]+)\])?)")
_CODES = {name: code for code, name in GAME_NAMES.items()}
_SHOWS = re.compile(r"^(?P<name>.+?): shows \[(?P<cards>[^\]]+)\]")
_MUCKS = re.compile(r"^(?P<name>.+?): mucks hand")
_RETURNED = re.compile(r"^Uncalled bet \((?P<amount>[^)]+)\) returned to (?P<name>.+)$")
_COLLECTED = re.compile(r"^(?P<name>.+?) collected (?P<amount>\S+) from (?:the )?(?:main |side )?pot")
_RAKE = re.compile(r"\| Rake (?P<rake>\S+)")
_MUCKED = re.compile(r"^Seat \d+: (?P<name>.+?) (?:\([a-z ]+\) )*mucked \[(?P<cards>[^\]]+)\]")
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


class StarsImportError(HistoryError):
    """A PokerStars-format hand that cannot be read (``hand``: its number; ``line``: in the file)."""

    code = "stars_import"


def _roman(text: str) -> int:
    if text.isdigit():
        return int(text)
    total = 0
    for i, ch in enumerate(text):
        value = _ROMAN[ch]
        total += -value if i + 1 < len(text) and _ROMAN[text[i + 1]] > value else value
    return total


def split_pokerstars(text: str) -> list[tuple[int, str]]:
    """The hands of a file: (1-based line where the hand starts, its text)."""
    starts = [m.start() for m in _START.finditer(text)]
    if not starts:
        return []
    return [
        (text.count("\n", 0, s) + 1, text[s:e].strip("\n"))
        for s, e in zip(starts, [*starts[1:], len(text)], strict=True)
    ]


@dataclass
class _Player:
    seat: int
    name: str
    stack: Decimal
    paid: Decimal = Decimal(0)
    street: Decimal = Decimal(0)  # own bet in the current betting round
    won: Decimal = Decimal(0)
    ante: Decimal = Decimal(0)
    cards: str = ""


@dataclass
class _Hand:
    players: dict[str, _Player] = field(default_factory=dict)
    posts: list[tuple[str, str, Decimal]] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    order: list[str] = field(default_factory=list)  # PHH order: names
    level: Decimal = Decimal(0)
    folded: set[str] = field(default_factory=set)
    # stud: each street's deal, (index in ``actions``, the street (0: 3rd), the players dealt in)
    streets: list[tuple[int, int, list[str]]] = field(default_factory=list)
    known: dict[str, dict[int, str]] = field(default_factory=dict)  # stud: a player's cards by position
    drawn: dict[str, int] = field(default_factory=dict)  # draw: a discard's deal, its index in ``actions``
    bring_in: Decimal = Decimal(0)
    first_cards: dict[str, str] = field(default_factory=dict)  # draw: the hero's first five cards
    mucked: dict[str, int] = field(default_factory=dict)  # a muck at the showdown: its index in ``actions``
    shown: set[str] = field(default_factory=set)  # showed or mucked (each run's showdown repeats them)
    run_twice: bool = False


def _money(text: str, line: int, hand: str) -> Decimal:
    try:
        value = Decimal(re.sub(r"[^\d.]", "", text))
    except InvalidOperation:
        raise StarsImportError(f"not an amount: {text[:20]!r}", line=line, hand=hand) from None
    if not value.is_finite() or value < 0:
        raise StarsImportError("not an amount", line=line, hand=hand)
    return value


def _cards(text: str, line: int, hand: str) -> str:
    try:
        return "".join(str(c) for c in parse_cards(text))
    except NotationError:
        raise StarsImportError("bad card notation", line=line, hand=hand) from None


def read_pokerstars(text: str) -> list[tuple[int, str | StarsImportError]]:
    """Every hand of a PokerStars-format file as PHH text, or the error that hand gave (one bad hand does
    not hide the others): ``(hand number or 0, PHH text or error)``, in file order."""
    out: list[tuple[int, str | StarsImportError]] = []
    for line, block in split_pokerstars(text):
        m = re.match(r"PokerStars (?:Hand|Game) #(\d+)", block)
        number = int(m.group(1)) if m else 0
        try:
            out.append((number, hand_to_phh(block, first_line=line)))
        except StarsImportError as exc:
            exc.hand = exc.hand or str(number)
            out.append((number, exc))
    return out


def hand_to_phh(block: str, *, first_line: int = 1) -> str:
    """One PokerStars-format hold'em hand as PHH text."""
    lines = block.splitlines()
    mixed = _MIXED.match(lines[0]) if lines else None
    if mixed is not None:  # the hand's own game, with the mix kept as ``_mix``
        stakes = f" ({mixed['stakes']})" if mixed["stakes"] else ""
        lines[0] = f"{mixed['pre']}{mixed['game']}{stakes}{mixed['rest']}"
    head = _HEADER.match(lines[0]) if lines else None
    number = lines[0].split("#", 1)[1].split(":", 1)[0] if "#" in lines[0] else "?"
    if head is None:
        raise StarsImportError("not a hand of a game this reader knows", line=first_line, hand=number)
    game = _CODES[head["game"]]
    betting = {"No Limit": Betting.NO_LIMIT, "Pot Limit": Betting.POT_LIMIT, "Limit": Betting.FIXED_LIMIT}[
        head["betting"]
    ]
    v = VARIANTS[game]
    if betting not in v.structures:
        raise StarsImportError(f"{v.name} is not played {betting.value} here", line=first_line, hand=number)
    h = _Hand()
    table = _TABLE.match(lines[1]) if len(lines) > 1 else None
    if table is None or (table["button"] is None and not v.is_stud):
        raise StarsImportError("no table line with the button", line=first_line + 1, hand=number)
    button = int(table["button"]) if table["button"] is not None else 0  # stud: the seats in order
    i = 2
    while i < len(lines) and (s := _SEAT.match(lines[i])):
        h.players[s["name"]] = _Player(int(s["seat"]), s["name"], _money(s["stack"], first_line + i, number))
        i += 1
    if len(h.players) < 2:
        raise StarsImportError("a hand needs at least two seated players", line=first_line + i, hand=number)
    seats = sorted(h.players.values(), key=lambda p: p.seat)
    h.order = [p.name for p in seats if p.seat > button] + [p.name for p in seats if p.seat <= button]
    index = {name: k + 1 for k, name in enumerate(h.order)}
    rake = Decimal(0)
    dealt = False
    for k, text in enumerate(lines[i:], first_line + i):
        text = text.rstrip()
        if (p := _POST.match(text)) and p["name"] in h.players:
            who = p["name"]
            amount = _money(p["amount"], k, number)
            player = h.players[who]
            player.paid += amount
            if p["what"] == "the ante":
                player.ante += amount
            else:
                bb = _blinds_of(head["stakes"], betting)[1]
                live = amount if p["what"] != "small & big blinds" else amount - bb
                player.street += live
                h.level = max(h.level, player.street)
                h.posts.append((who, p["what"], amount))
        elif text.startswith("*** HOLE CARDS ***"):
            continue
        elif v.is_stud and _STUD_STREET.match(text):
            number_of = len(h.streets)  # 0: 3rd street, ..., 4: the river (7th)
            for player in h.players.values():
                player.street = Decimal(0)
            h.level = Decimal(0)
            h.streets.append((len(h.actions), number_of, [n for n in h.order if n not in h.folded]))
            h.actions.append("")  # the street's deal, written once every card is known
        elif v.is_draw and _DRAW_STREET.match(text):
            if text.startswith("*** DEALING HANDS"):  # (after the blinds: their bets stand)
                continue
            for player in h.players.values():
                player.street = Decimal(0)
            h.level = Decimal(0)
            h.drawn.clear()
        elif v.is_stud and (d := _DEALT.match(text)) and d["name"] in h.players:
            cards = _cards(d["cards"], k, number)
            n_cards = len(cards) // 2
            street_no = len(h.streets) - 1
            first = (0 if n_cards == 3 else 2) if street_no <= 0 else 2 + street_no
            for j in range(n_cards):
                h.known.setdefault(d["name"], {})[first + j] = cards[2 * j : 2 * j + 2]
        elif v.is_draw and (d := _DEALT.match(text)) and d["name"] in h.players and d["name"] in h.drawn:
            at = h.drawn.pop(d["name"])
            h.actions[at] = f"d dh p{index[d['name']]} {_cards(d['cards'], k, number)}"
        elif v.is_draw and (dc := _DISCARD.match(text)) and dc["name"] in h.players:
            pn = f"p{index[dc['name']]}"
            n_cards = int(dc["n"] or 0)
            if not n_cards:
                h.actions.append(f"{pn} sd")
                continue
            shown = _cards(dc["cards"], k, number) if dc["cards"] else "??" * n_cards
            h.actions.append(f"{pn} sd {shown}")
            h.drawn[dc["name"]] = len(h.actions)
            h.actions.append(f"d dh {pn} {'??' * n_cards}")
        elif (bi := _BRING_IN.match(text)) and bi["name"] in h.players:
            player = h.players[bi["name"]]
            pn = f"p{index[player.name]}"
            to = _money(bi["a"] or bi["b"], k, number)
            added = to - player.street
            player.street, player.paid = to, player.paid + added
            h.level = max(h.level, to)
            if bi["a"] is not None:
                h.bring_in = max(h.bring_in, to)
                h.actions.append(f"{pn} pb")
            else:
                h.actions.append(f"{pn} cbr {_plain(to)}")
        elif street := _STREET.match(text):
            dealt = True
            h.run_twice = h.run_twice or street["run"] is not None
            for player in h.players.values():
                player.street = Decimal(0)
            h.level = Decimal(0)
            b = _BOARD.match(text)
            if b is None:
                raise StarsImportError("a board line without cards", line=k, hand=number)
            h.actions.append(f"d db {_cards(b['cards'], k, number)}")
        elif (d := _DEALT.match(text)) and d["name"] in h.players:
            h.players[d["name"]].cards = _cards(d["cards"], k, number)
            if v.is_draw:
                h.first_cards.setdefault(d["name"], h.players[d["name"]].cards)
        elif (a := _ACTION.match(text)) and a["name"] in h.players:
            dealt = True
            player = h.players[a["name"]]
            pn = f"p{index[player.name]}"
            verb = a["verb"]
            if verb == "folds":
                h.folded.add(player.name)
                h.actions.append(f"{pn} f")
            elif verb in ("checks", "calls"):
                if verb == "calls":
                    added = _money(a["a"] or "0", k, number)
                    player.street += added
                    player.paid += added
                h.actions.append(f"{pn} cc")
            else:
                to = _money(a["b"] if verb == "raises" else a["a"] or "0", k, number)
                if verb == "bets":
                    to += player.street
                added = to - player.street
                player.street = to
                player.paid += added
                h.level = max(h.level, to)
                h.actions.append(f"{pn} cbr {_plain(to)}")
        elif (r := _RETURNED.match(text)) and r["name"] in h.players:
            amount = _money(r["amount"], k, number)
            h.players[r["name"]].paid -= amount
            h.players[r["name"]].street -= amount
        elif (sh := _SHOWS.match(text)) and sh["name"] in h.players:
            cards = _cards(sh["cards"], k, number)
            h.players[sh["name"]].cards = cards
            if v.is_stud:  # shown in dealing order: each card back on its street
                h.known[sh["name"]] = {j: cards[2 * j : 2 * j + 2] for j in range(len(cards) // 2)}
            if sh["name"] not in h.shown:  # a hand run twice shows it again at the second showdown
                h.shown.add(sh["name"])
                h.actions.append(f"p{index[sh['name']]} sm {cards}")
        elif (mk := _MUCKS.match(text)) and mk["name"] in h.players:
            if mk["name"] not in h.shown:
                h.shown.add(mk["name"])
                h.mucked[mk["name"]] = len(h.actions)
                h.actions.append(f"p{index[mk['name']]} sm")
        elif (c := _COLLECTED.match(text)) and c["name"] in h.players:
            h.players[c["name"]].won += _money(c["amount"], k, number)
        elif (mc := _MUCKED.match(text)) and mc["name"] in h.players:
            cards = _cards(mc["cards"], k, number)  # shown to the players dealt in
            h.players[mc["name"]].cards = cards
            if v.is_stud:
                h.known[mc["name"]] = {j: cards[2 * j : 2 * j + 2] for j in range(len(cards) // 2)}
        elif rk := _RAKE.search(text):
            rake = _money(rk["rake"], k, number)
    del dealt
    if v.is_stud:  # each street's deal, with every card the text shows anywhere
        for at, street_no, names in h.streets:
            first, count = (0, len(v.streets[0].deal)) if street_no == 0 else (2 + street_no, 1)
            deals = []
            for name in names:
                known = h.known.get(name, {})
                cards = "".join(known.get(j, "??") for j in range(first, first + count))
                deals.append(f"d dh p{index[name]} {cards}")
            h.actions[at] = "\n".join(deals)
        h.actions = [a for x in h.actions for a in x.split("\n") if a]
    elif v.is_draw:  # the first deal: the hero's cards (a show is the final hand, not the first)
        for name, at in h.mucked.items():  # a final hand the summary shows (our rules show it: §6.2)
            if h.players[name].cards and name not in h.folded:
                h.actions[at] = f"p{index[name]} sm {h.players[name].cards}"
        h.actions[:0] = _deals(h, index, v.streets[0].deal, drawn=True)
    else:  # the deal comes first, with every card the text shows anywhere (Dealt to, shows, mucked)
        h.actions[:0] = _deals(h, index, v.streets[0].deal)
    mix = mixed["mix"] if mixed is not None else ""
    return dump_table(_fields(h, head, table, v.code, betting, number, button, rake, mix))


def _blinds_of(stakes: str, betting: Betting) -> tuple[Decimal, Decimal]:
    """The nominal (small blind, big blind) of the header's stakes: ``SB/BB``; in Limit ``small bet/big
    bet``, where the big blind is the small bet and the small blind is as posted (0 here)."""
    parts = [Decimal(re.sub(r"[^\d.]", "", x) or "0") for x in stakes.split()[0].split("/")]
    if len(parts) != 2:
        return Decimal(0), Decimal(0)
    return (Decimal(0), parts[0]) if betting is Betting.FIXED_LIMIT else (parts[0], parts[1])


def _plain(d: Decimal) -> str:
    text = format(d.normalize(), "f")
    return text


def _amount(d: Decimal) -> int | Decimal:
    d = d.normalize()
    return int(d) if d == d.to_integral_value() else d


def _in_cents(fields: list[tuple[str, Any]]) -> bool:
    """Are all the amounts of the hand whole cents?"""
    amounts: list[Decimal] = []
    for key, value in fields:
        if key == "actions":
            amounts += [Decimal(a.split()[2]) for a in value if a.split()[1] == "cbr"]
        elif key in ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks"):
            amounts += [Decimal(x) for x in value]
        elif key in ("min_bet", "small_bet", "big_bet"):
            amounts.append(Decimal(value))
    return all((x * 100) == (x * 100).to_integral_value() for x in amounts)


def _deals(h: _Hand, index: dict[str, int], pattern: tuple[bool, ...], drawn: bool = False) -> list[str]:
    out = []
    for name in h.order:
        cards = h.players[name].cards if not drawn else h.first_cards.get(name, "")
        out.append(f"d dh p{index[name]} {cards[: 2 * len(pattern)] if cards else '??' * len(pattern)}")
    return out


def _fields(
    h: _Hand,
    head: re.Match[str],
    table: re.Match[str],
    game: str,
    betting: Betting,
    number: str,
    button: int,
    rake: Decimal,
    mix: str = "",
) -> list[tuple[str, Any]]:
    players = [h.players[n] for n in h.order]
    n = len(players)
    stakes = [_money(x, 1, number) for x in head["stakes"].split()[0].split("/")]
    v = VARIANTS[game]
    code = v.phh_codes.get(betting, game)
    blinds = [Decimal(0)] * n
    dead = [Decimal(0)] * n  # dead small blinds: PHH counts them in ``antes`` and ours in ``_dead``
    posts: list[str] = []
    sb, bb = _blinds_of(head["stakes"], betting)
    for who, what, amount in h.posts:
        k = h.order.index(who)
        # A short stack posts less than the blind (all-in): PHH records the blind itself.
        if what == "small blind" and (k == 0 if n > 2 else k == 1):
            blinds[0] += max(amount, sb)
            posts.append(f"p{k + 1} small_blind {_plain(max(amount, sb))}")
        elif what == "big blind" and (k == 1 if n > 2 else k == 0):
            blinds[1] += max(amount, bb)
            posts.append(f"p{k + 1} big_blind {_plain(max(amount, bb))}")
        elif what == "big blind":  # a player posting in
            posts.append(f"p{k + 1} live {_plain(amount)}")
        elif what == "small blind":
            dead[k] += amount
        else:  # small & big blinds: a live big blind and a dead small blind
            posts.append(f"p{k + 1} live {_plain(bb)}")
            dead[k] += amount - bb
    plain = len(posts) == sum(1 for b in blinds if b) and not any(dead)
    antes = [a + d for a, d in zip([p.ante for p in players], dead, strict=True)]
    if n == 2:
        antes.reverse()  # PHH reverse-assigns heads-up forced bets
    fields: list[tuple[str, Any]] = [("variant", code), ("_variant", game), ("_betting", betting.value)]
    if v.is_stud:  # every player's nominal ante (a short stack posts less, all-in) and the bring-in
        ante = max(antes, default=Decimal(0))
        fields.append(("antes", [_amount(ante) for _ in antes]))
        small = stakes[0] if stakes else Decimal(0)
        fields.append(("bring_in", _amount(h.bring_in or (small / 4).quantize(Decimal("0.01")))))
    else:
        fields.append(("antes", [_amount(a) for a in antes]))
        fields.append(("blinds_or_straddles", [_amount(b) for b in blinds]))
    if betting is Betting.FIXED_LIMIT:
        small, big = (stakes + [Decimal(0), Decimal(0)])[:2]
        fields += [("small_bet", _amount(small)), ("big_bet", _amount(big))]
    else:
        fields.append(("min_bet", _amount(stakes[1] if len(stakes) > 1 else stakes[0])))
    fields.append(("starting_stacks", [_amount(p.stack) for p in players]))
    fields.append(("actions", h.actions))
    fields.append(("hand", int(number)))
    if head["date"]:
        y, mo, d = (int(x) for x in head["date"].split("/"))
        hh, mm, ss = (int(x) for x in head["time"].split(":"))
        fields += [("time", dt.time(hh, mm, ss)), ("day", d), ("month", mo), ("year", y)]
        if head["zone"]:
            fields.append(("time_zone_abbreviation", head["zone"]))
    if head["level"]:
        fields.append(("level", _roman(head["level"])))
    fields.append(("seats", [p.seat for p in players]))
    fields.append(("seat_count", int(table["max"])))
    fields.append(("table", table["table"]))
    fields.append(("players", [p.name for p in players]))
    fields.append(("finishing_stacks", [_amount(p.stack - p.paid + p.won) for p in players]))
    currency = re.search(r"\b([A-Z]{3})\b", head["stakes"])
    if currency:
        fields.append(("currency", currency.group(1)))
        if _in_cents(fields):  # the engine counts cents, as the room did: a split's odd chip is a cent
            fields.append(("_minor_units", 100))
    if not v.is_stud:
        fields.append(("_button", button))
    if mix:
        fields.append(("_mix", mix))
    if not plain:
        fields.append(("_posts", posts))
        if any(dead):
            fields.append(("_dead", [_amount(d) for d in dead]))
    if rake:
        fields.append(("_rake", _amount(rake)))
    if h.run_twice:  # every player still in agreed (R-RIT); PHH has no runout action: docs/history.md
        fields.append(("_run_it_twice", True))
        answers = [f"p{k} 2" for k, name in enumerate(h.order, 1) if name not in h.folded]
        fields.append(("_runout_count_selections", answers))
    if head["tournament"]:
        fields += [("_tournament_id", head["tournament"]), ("_tournament_number", int(head["tournament"]))]
    return fields
