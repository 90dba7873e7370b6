"""One entry of a PHH hand's ``actions`` (:class:`PhhAction`, exported by ``pokerroom.history``).

This module is compiled with the reader and the replay (setup.py, docs/engine-speed.md): an action is
then a native class whose fields the compiled reader sets and the compiled replay reads directly. A
file of the public PHH dataset has about 23 actions; as a frozen dataclass each took about 1 us to
make (nine slot writes through Python calls) and every field read was a Python attribute lookup.

It behaves as the frozen dataclass did: made positionally or by keyword with the same defaults, equal
and hashed by its fields, the same ``repr``, refused any assignment (``AttributeError``), copied and
pickled. In the compiled build the attributes are read-only slots of the native class; run from source
(``POKERROOM_PURE=1``, no compiler) a field can be set once, by ``__init__``, and never again. One
difference from the dataclass: the compiled constructor checks its arguments against their declared
types (a list of cards, say, is a ``TypeError``), as every compiled function does; the reader only ever
passes the declared types.
"""

from __future__ import annotations

from typing import ClassVar, Final

from pokerroom.cards import Card

__all__ = ["ACTION_FIELDS", "PhhAction"]

ACTION_FIELDS: Final = ("index", "line", "actor", "verb", "cards", "amount", "show", "dash", "comment")


class PhhAction:
    """One entry of ``actions``. ``actor`` is the 1-based player number (``None``: the dealer).

    ``verb`` is ``dh``, ``db``, ``f``, ``cc``, ``cbr``, ``pb``, ``sd``, ``sm`` or ``""`` (a no-op or a
    commentary). ``cards`` holds ``None`` for unknown cards; ``amount`` is in minor units; ``show`` is
    True/False for ``sm`` with/without cards; ``dash`` for ``sm -``. ``index`` is the entry's place in
    ``actions`` (from 0), ``line`` its line in the file (``None`` when not known).
    """

    __match_args__: ClassVar[tuple[str, ...]] = ACTION_FIELDS

    def __init__(
        self,
        index: int,
        line: int | None,
        actor: int | None,
        verb: str,
        cards: tuple[Card | None, ...] = (),
        amount: int | None = None,
        show: bool | None = None,
        dash: bool = False,
        comment: str = "",
    ) -> None:
        self.index: Final = index
        self.line: Final = line
        self.actor: Final = actor
        self.verb: Final = verb
        self.cards: Final = cards
        self.amount: Final = amount
        self.show: Final = show
        self.dash: Final = dash
        self.comment: Final = comment

    @property
    def label(self) -> str:
        """Actor and verb only (no cards), for error messages."""
        who = "d" if self.actor is None else f"p{self.actor}"
        return f"{who} {self.verb}".strip()

    def astuple(self) -> tuple[object, ...]:
        """The fields in order (:data:`ACTION_FIELDS`): what equality, hashing and pickling use."""
        return (
            self.index,
            self.line,
            self.actor,
            self.verb,
            self.cards,
            self.amount,
            self.show,
            self.dash,
            self.comment,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PhhAction):
            return NotImplemented
        return self.astuple() == other.astuple()

    def __hash__(self) -> int:
        return hash(self.astuple())

    def __repr__(self) -> str:
        pairs = zip(ACTION_FIELDS, self.astuple(), strict=True)
        return f"PhhAction({', '.join(f'{name}={value!r}' for name, value in pairs)})"

    def __reduce__(self) -> tuple[type[PhhAction], tuple[object, ...]]:
        return (PhhAction, self.astuple())


def _set_once(self: PhhAction, name: str, value: object) -> None:
    """Run from source, a field is set by ``__init__`` and never again (the compiled class's fields are
    read-only slots)."""
    if name not in ACTION_FIELDS or hasattr(self, name):
        raise AttributeError(f"cannot assign to field {name!r} of an immutable PhhAction")
    object.__setattr__(self, name, value)


def _refuse_delete(self: PhhAction, name: str) -> None:
    raise AttributeError(f"cannot delete field {name!r} of an immutable PhhAction")


if __file__.endswith(".py"):  # run from source: the same immutability as the compiled class
    setattr(PhhAction, "__setattr__", _set_once)  # noqa: B010
    setattr(PhhAction, "__delattr__", _refuse_delete)  # noqa: B010
