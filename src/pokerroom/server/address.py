"""Which table, pool or tournament a message names: one pure function for every kind of message.

An operator's command (server/commands.py) carries its own address. A client message names a table
(``table``), a Rush pool (``pool``) or a tournament (``tournament``), or nothing but the room itself
(``ping``, ``hello``, ``last_hands``, ``verify_hand``). The one-process routes (server/routes.py) find
the endpoint at that address; a cluster's gateway (server/cluster/) finds the host that holds it.
Nothing else reads a message to learn where it goes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from pydantic import BaseModel

from pokerroom.server import protocol as p

__all__ = ["ROOM", "Address", "address_of"]

Kind = Literal["table", "pool", "tournament", "room"]


@dataclass(frozen=True, slots=True)
class Address:
    kind: Kind
    ident: str = ""  # the table, pool or tournament id ("" for the room)


ROOM = Address("room")

_TABLE: tuple[type[BaseModel], ...] = (
    p.Subscribe,
    p.Unsubscribe,
    p.Act,
    p.Chat,
    p.Sit,
    p.Leave,
    p.TopUp,
    p.SitOut,
    p.SitIn,
    p.Settings,
    p.WaitingList,
    p.AnswerPost,
    p.ChooseGame,
)
_POOL: tuple[type[BaseModel], ...] = (p.PoolJoin, p.PoolLeave, p.QuickFold, p.PoolAct)
_TOURNAMENT: tuple[type[BaseModel], ...] = (
    p.TournamentRegister,
    p.TournamentUnregister,
    p.TournamentFollow,
    p.TournamentChat,
)
# (``contribute`` goes to the room's dealer, which holds every table's and pool's next seed: fairdeal.py)
_ROOM: tuple[type[BaseModel], ...] = (p.Ping, p.Hello, p.LastHands, p.VerifyHand, p.Contribute)


class Addressed(Protocol):
    """An operator's command (server/commands.py): it says what it acts on."""

    @property
    def address(self) -> Address: ...


def address_of(msg: BaseModel | Addressed) -> Address:
    """The address of a validated client message (``protocol.parse_client``) or of an operator's
    command."""
    if not isinstance(msg, BaseModel):
        return msg.address
    if isinstance(msg, _TABLE):
        return Address("table", msg.table)  # type: ignore[attr-defined]
    if isinstance(msg, _POOL):
        return Address("pool", msg.pool)  # type: ignore[attr-defined]
    if isinstance(msg, _TOURNAMENT):
        return Address("tournament", msg.tournament)  # type: ignore[attr-defined]
    if isinstance(msg, _ROOM):
        return ROOM
    raise TypeError(f"no address for {type(msg).__name__}")
