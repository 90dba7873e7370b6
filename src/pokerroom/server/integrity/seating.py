"""The same-table rule (issue 30): with the room option ``separate_linked`` on, a player whose kept logins
share an address or a device with a player already at a cash table, in a Rush pool or registered in a
tournament is refused (``shared_connection``) before anything is booked. The refusal names nobody and
nothing of the other account: the player learns only that someone there shares his connection."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pokerroom.server.errors import Refused
from pokerroom.server.ids import store_id
from pokerroom.server.integrity.settings import IntegritySettings
from pokerroom.store import Store

__all__ = ["SeatRule", "check_seat"]

SeatRule = Callable[[], IntegritySettings]  # the room's settings now (a reload may change them)


def _ids(players: Iterable[str]) -> list[int]:
    out = []
    for p in players:
        try:
            out.append(store_id(p))
        except ValueError:  # (a key that is no store account: nothing kept about it)
            continue
    return out


async def check_seat(
    rule: SeatRule | None, store: Store, player: str, others: Iterable[str], where: str
) -> None:
    """Refuse ``player`` a place (``where``: "table", "pool" or "tournament") shared with ``others`` when
    the option is on and one of them is linked to him."""
    if rule is None or not rule().separate_linked:
        return
    me = _ids([player])
    if not me:
        return
    linked = await store.logins.linked_among(me[0], _ids(others))
    if linked:
        raise Refused(
            "shared_connection",
            f"a player in this {where} shares your address or device: the room keeps such players apart",
            where=where,
        )
