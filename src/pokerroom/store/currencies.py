"""The currencies a room may have: ISO 4217 codes of money in use, and ``PLAY`` (play money).

``check_room_currency`` is the one check for a currency named by an operator or a player: in a
configuration file (``[room] currencies``, a table's, pool's or tournament's ``currency``), in a console
adjustment, in a cashier request."""

from __future__ import annotations

from collections.abc import Collection

from pokerroom.store.errors import InvalidCurrency
from pokerroom.store.kinds import PLAY

__all__ = ["ISO_4217", "check_room_currency", "is_room_currency_code"]

# The active ISO 4217 currency codes (funds codes, precious metals, testing and "no currency" codes left
# out: a room does not hold XAU or XXX).
_CODES = """
    AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD
    CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD
    GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT
    LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR
    NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP
    STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XCG
    XOF XPF YER ZAR ZMW ZWG
"""
ISO_4217 = frozenset(_CODES.split())


def is_room_currency_code(code: object) -> bool:
    """Is ``code`` a currency a room may have: an ISO 4217 code (upper case) or ``PLAY``?"""
    return isinstance(code, str) and (code == PLAY or code in ISO_4217)


def check_room_currency(code: object, currencies: Collection[str] | None = None) -> str:
    """``code`` if it is ``PLAY`` or an ISO 4217 code and, when ``currencies`` (the room's) is given, one
    of them; else :class:`InvalidCurrency` (``euro``, ``eur``, ``XYZ``, a number ...)."""
    if not is_room_currency_code(code):
        raise InvalidCurrency(code, "not an ISO 4217 currency code or PLAY")
    assert isinstance(code, str)
    if currencies is not None and code not in currencies:
        raise InvalidCurrency(code, "the room has no such currency")
    return code
