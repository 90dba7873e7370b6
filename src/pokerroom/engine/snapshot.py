"""Snapshots: a hand as plain data, and back (crash recovery, the journal, audits).

A snapshot is the hand's start data (variant as data, structure, seats, forced bets, the deck as it was
before the deal) plus every accepted command. Restoring replays the commands; because the engine is
deterministic the restored hand is identical, event for event, and it stays readable across internal
changes of :class:`~pokerroom.engine.state.HandState`. Snapshots contain the deck: server side only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from pokerroom.cards import DeckSpec
from pokerroom.engine.commands import Command, command_from_dict
from pokerroom.engine.deck import ListDeck
from pokerroom.engine.errors import EngineError, RestoreError
from pokerroom.engine.setup import Blinds, SeatSetup
from pokerroom.engine.spec import ForcedBets, Showing, Street, VariantSpec
from pokerroom.engine.stakes import Betting, RakeRule, Stakes, Structure

__all__ = ["blinds_of", "dump_hand", "load_hand", "spec_from_dict", "spec_to_dict"]

VERSION = 1


def spec_to_dict(v: VariantSpec) -> dict[str, Any]:
    return {
        "code": v.code,
        "name": v.name,
        "family": v.family,
        "deck": v.deck.size,
        "streets": [
            {
                "name": s.name,
                "deal": list(s.deal),
                "board": s.board,
                "burn": s.burn,
                "draw": s.draw,
                "discard": s.discard,
                "big_bet": s.big_bet,
                "open_pair": s.open_pair,
            }
            for s in v.streets
        ],
        "high": v.high,
        "low": v.low,
        "forced": v.forced.value,
        "structures": [b.value for b in v.structures],
        "default_structure": v.default_structure.value,
        "min_players": v.min_players,
        "max_players": v.max_players,
        "table_sizes": list(v.table_sizes),
        "showing": v.showing.value if v.showing else None,
        "bring_in_highest": v.bring_in_highest,
        "max_draw": v.max_draw,
        "deck_for_five": v.deck_for_five.size if v.deck_for_five else None,
        "high_with_sixes": v.high_with_sixes,
        "phh_codes": {b.value: code for b, code in v.phh_codes.items()},
    }


def spec_from_dict(d: dict[str, Any]) -> VariantSpec:
    return VariantSpec(
        code=d["code"],
        name=d["name"],
        family=d["family"],
        deck=DeckSpec(d["deck"]),
        streets=tuple(
            Street(
                s["name"],
                tuple(s["deal"]),
                s["board"],
                s["burn"],
                s["draw"],
                s["discard"],
                s["big_bet"],
                s["open_pair"],
            )
            for s in d["streets"]
        ),
        high=d["high"],
        low=d["low"],
        forced=ForcedBets(d["forced"]),
        structures=tuple(Betting(b) for b in d["structures"]),
        default_structure=Betting(d["default_structure"]),
        min_players=d["min_players"],
        max_players=d["max_players"],
        table_sizes=tuple(d["table_sizes"]),
        showing=Showing(d["showing"]) if d["showing"] else None,
        bring_in_highest=d["bring_in_highest"],
        max_draw=d["max_draw"],
        deck_for_five=DeckSpec(d["deck_for_five"]) if d["deck_for_five"] else None,
        high_with_sixes=d["high_with_sixes"],
        phh_codes={Betting(b): code for b, code in d["phh_codes"].items()},
    )


def _pairs(items: Any) -> tuple[tuple[int, int], ...]:
    return tuple((int(a), int(b)) for a, b in items)


def _blinds_to_dict(b: Blinds | None) -> dict[str, Any] | None:
    if b is None:
        return None
    return {
        "small": list(b.small) if b.small else None,
        "big": list(b.big) if b.big else None,
        "straddles": [list(x) for x in b.straddles],
        "live": [list(x) for x in b.live],
        "dead": [list(x) for x in b.dead],
        "antes": [list(x) for x in b.antes] if b.antes is not None else None,
        "bomb_pot": b.bomb_pot,
    }


def _blinds_from_dict(d: dict[str, Any] | None) -> Blinds | None:
    if d is None:
        return None
    return Blinds(
        small=(int(d["small"][0]), int(d["small"][1])) if d["small"] else None,
        big=(int(d["big"][0]), int(d["big"][1])) if d["big"] else None,
        straddles=_pairs(d["straddles"]),
        live=_pairs(d["live"]),
        dead=_pairs(d["dead"]),
        antes=_pairs(d["antes"]) if d["antes"] is not None else None,
        bomb_pot=bool(d.get("bomb_pot", False)),  # absent from snapshots made before bomb pots
    )


class _Recorded(Protocol):
    """What a snapshot reads of a hand (``HandState``; not imported here: the state imports this module)."""

    @property
    def _start_args(self) -> dict[str, Any]: ...
    @property
    def structure(self) -> Structure: ...
    @property
    def variant(self) -> VariantSpec: ...
    @property
    def commands(self) -> Sequence[Command]: ...

    def deck_data(self) -> dict[str, Any]: ...


class _Replayable(Protocol):
    def apply(self, command: Command) -> Any: ...


H = TypeVar("H", bound=_Replayable)


def blinds_of(hand: _Recorded) -> dict[str, Any] | None:
    """The hand's forced-bet arrangement as its snapshot gives it (``None``: the default blinds), without
    making the whole snapshot (the deck and every command) as :meth:`HandState.snapshot` does."""
    return _blinds_to_dict(hand._start_args["blinds"])


def dump_hand(hand: _Recorded) -> dict[str, Any]:
    args = hand._start_args
    s = hand.structure
    rake: RakeRule | None = args["rake"]
    return {
        "version": VERSION,
        "variant": spec_to_dict(hand.variant),
        "structure": {
            "betting": s.betting.value,
            "stakes": {
                "small_blind": s.stakes.small_blind,
                "big_blind": s.stakes.big_blind,
                "small_bet": s.stakes.small_bet,
                "big_bet": s.stakes.big_bet,
                "ante": s.stakes.ante,
                "bring_in": s.stakes.bring_in,
                "chip_unit": s.stakes.chip_unit,
                "big_blind_ante": s.stakes.big_blind_ante,
            },
            "cap": s.cap,
            "heads_up_uncapped": s.heads_up_uncapped,
        },
        "seats": [list(x) for x in args["seats"]],
        "button": args["button"],
        "blinds": blinds_of(hand),
        "rake": [rake.percent_bp, rake.cap] if rake else None,
        "hand_id": args["hand_id"],
        "run_it_twice": args["run_it_twice"],
        "deck": hand.deck_data(),
        "commands": [c.to_dict() for c in hand.commands],
    }


def load_hand(data: Any, start: Callable[..., H]) -> H:
    """The hand a snapshot describes, rebuilt with ``start`` (``HandState.start``) and its commands."""
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise RestoreError("not a hand snapshot of a known version")
    try:
        st = data["structure"]
        structure = Structure(
            Betting(st["betting"]), Stakes(**st["stakes"]), st["cap"], st["heads_up_uncapped"]
        )
        if data["deck"].get("kind") != "list":
            raise RestoreError("only list decks can be restored")
        hand = start(
            variant=spec_from_dict(data["variant"]),
            structure=structure,
            seats=[SeatSetup(int(a), int(b), bool(c)) for a, b, c in data["seats"]],
            deck=ListDeck.from_data(data["deck"]),
            button=data["button"],
            blinds=_blinds_from_dict(data["blinds"]),
            rake=RakeRule(*data["rake"]) if data["rake"] else None,
            hand_id=data["hand_id"],
            run_it_twice=data.get("run_it_twice", False),  # absent from snapshots made before R-RIT
        )
        for raw in data["commands"]:
            hand.apply(command_from_dict(raw))
    except RestoreError:
        raise
    except (EngineError, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise RestoreError(f"the snapshot does not replay: {type(exc).__name__}") from None
    return hand
