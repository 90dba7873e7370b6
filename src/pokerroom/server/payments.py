"""Payment providers of the cashier (issue 29): what a deposit's reference must be, and the check made
when an operator approves a request. No provider here talks to a network.

- :class:`ManualProvider` (the default): the operator confirms by hand that the money arrived (a bank
  transfer, cash at the club's desk) or was paid out, as Poker Mavens operators do; approving *is* the
  confirmation.
- :class:`TestProvider`: confirms or fails deterministically (a reference or destination containing
  ``fail`` fails), for tests and for rehearsing the console.

A room chooses its provider with ``[room] payments`` in its configuration (``"manual"``, the default, or
``"test"``).
A provider that fails leaves the request pending and books nothing (docs/cashier.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from pokerroom.store.cashier import CashierRequest, InvalidCashierRequest

__all__ = [
    "MANUAL",
    "PROVIDERS",
    "ManualProvider",
    "PaymentCheck",
    "PaymentProvider",
    "TestProvider",
    "provider_of",
]


@dataclass(frozen=True)
class PaymentCheck:
    """A provider's answer: ``ok``, and a note for the operator (never a secret)."""

    ok: bool
    note: str = ""


class PaymentProvider(Protocol):
    name: str
    reference_label: str  # what the player is asked for with a deposit (shown in the cashier)

    def check_reference(self, reference: str) -> None:
        """Raise :class:`InvalidCashierRequest` when a deposit's reference is not what this provider
        needs."""

    async def confirm_deposit(self, request: CashierRequest) -> PaymentCheck:
        """Has the money of this deposit arrived?"""

    async def pay_withdrawal(self, request: CashierRequest) -> PaymentCheck:
        """Pay this withdrawal out (or say it was paid)."""


class ManualProvider:
    """The operator matches the money to the request by its reference and approves: nothing to call."""

    name = "manual"
    reference_label = "the reference of your payment (a bank transfer's reference, a receipt number)"

    def check_reference(self, reference: str) -> None:
        if not reference.strip():
            raise InvalidCashierRequest("a deposit needs the reference of the payment")

    async def confirm_deposit(self, request: CashierRequest) -> PaymentCheck:
        return PaymentCheck(True, "confirmed by the operator")

    async def pay_withdrawal(self, request: CashierRequest) -> PaymentCheck:
        return PaymentCheck(True, "paid out by the operator")


class TestProvider:
    """Deterministic: a deposit whose reference, or a withdrawal whose destination, contains ``fail``
    fails; every other confirms. Records what it was asked (``calls``)."""

    __test__ = False  # (not a pytest class)
    name = "test"
    reference_label = "a test reference (one containing 'fail' fails)"

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def check_reference(self, reference: str) -> None:
        if not reference.strip():
            raise InvalidCashierRequest("a deposit needs a reference")

    async def confirm_deposit(self, request: CashierRequest) -> PaymentCheck:
        self.calls.append(("deposit", request.id))
        return _answer(request)

    async def pay_withdrawal(self, request: CashierRequest) -> PaymentCheck:
        self.calls.append(("withdrawal", request.id))
        return _answer(request)


def _answer(request: CashierRequest) -> PaymentCheck:
    if "fail" in request.reference.lower():
        return PaymentCheck(False, "the test provider refused this payment")
    return PaymentCheck(True, "confirmed by the test provider")


MANUAL = ManualProvider()
PROVIDERS: dict[str, PaymentProvider] = {"manual": MANUAL, "test": TestProvider()}


def provider_of(settings: Any) -> PaymentProvider:
    """The provider a room's settings name (``RoomSettings.payments``)."""
    return PROVIDERS[getattr(settings, "payments", "manual")]
