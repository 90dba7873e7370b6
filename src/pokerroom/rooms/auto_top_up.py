"""Auto top-up (auto-rebuy) at a cash table (issue 31; docs/client.md, "Auto top-up"): a seated player
names a stack (his *target*, within the table's buy-in limits) and, between hands, the table tops him up
to it from his wallet whenever he has less, a busted stack included. The chips come as an ordinary
:class:`~pokerroom.rooms.effects.TopUp` (``auto=True``) that the server books in the ledger exactly as a
manual top-up; a refused booking (the balance, a limit the player set) takes the chips back and turns the
setting off (:meth:`CashTable.refuse_auto_top_up`). Pure: the rules only, no money moves here."""

from __future__ import annotations

from pokerroom.rooms.errors import BuyInOutOfRange

__all__ = ["check_target", "top_up_amount"]


def check_target(target: object, buy_in_range: tuple[int, int], chip_unit: int) -> int:
    """``target`` as a checked stack: 0 (off), or a multiple of the chip unit within the buy-in limits
    (``(min, max)``, max 0: no maximum). Raises :class:`BuyInOutOfRange`."""
    lo, hi = buy_in_range
    if isinstance(target, bool) or not isinstance(target, int):
        raise BuyInOutOfRange(0, lo, hi)
    if target == 0:
        return 0
    if target < lo or (hi and target > hi) or target % chip_unit:
        raise BuyInOutOfRange(target, lo, hi)
    return target


def top_up_amount(chips: int, target: int, chip_unit: int) -> int:
    """The chips to add to a stack of ``chips`` (with any top-up already on its way) to bring it to
    ``target`` (0: none), in whole chip units; 0 when it has as much already."""
    if target <= 0 or chips >= target:
        return 0
    return (target - chips) // chip_unit * chip_unit
