"""Login and registration throttling (docs/security.md, "Logging in"): growing delays per source address
and per account name, a rate per source address, and a global limit on login attempts per second; a rate
of registrations per source address.

Everything here is in memory, per process, with an injected monotonic clock. A refused attempt costs
nothing: it is answered before any password hash is computed. The account lock itself (after repeated
failures) is the store's (``Accounts.login``); a login from a known device passes all of this."""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = [
    "Backoff",
    "BackoffPolicy",
    "LoginGuard",
    "LoginLimits",
    "RateBucket",
    "RateBuckets",
    "RegisterGuard",
    "RegisterLimits",
    "TooManyAttempts",
    "TooManyRegistrations",
    "address_key",
]

Monotonic = Callable[[], float]


class TooManyAttempts(Exception):
    """A login attempt refused before its password was checked; try again in ``retry_after`` seconds."""

    code = "too_many_attempts"
    what = "too many login attempts"

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"{self.what}: try again in {retry_after} s")
        self.retry_after = retry_after


class TooManyRegistrations(TooManyAttempts):
    """A registration refused before anything was checked: too many from this address; try again in
    ``retry_after`` seconds."""

    code = "too_many_registrations"
    what = "too many new accounts from this address"


@dataclass(frozen=True)
class BackoffPolicy:
    """The first ``free`` - 1 failures cost nothing; the ``free``-th makes the next attempt wait ``base``
    seconds, and each one after it doubles the wait, up to ``cap``. A key with no failure for ``forget``
    seconds starts again from nothing."""

    free: int
    base: float
    cap: float
    forget: float

    def delay(self, failures: int) -> float:
        past = failures - self.free
        if past < 0:
            return 0.0
        return float(min(self.cap, self.base * 2 ** min(past, 62)))


@dataclass(slots=True)
class _Record:
    failures: int
    last: float
    until: float


class Backoff:
    """Failure counts and the time each key may try again, for at most ``max_keys`` keys (the least
    recently failed are forgotten first)."""

    def __init__(self, policy: BackoffPolicy, max_keys: int = 100_000) -> None:
        self.policy = policy
        self.max_keys = max_keys
        self._keys: OrderedDict[str, _Record] = OrderedDict()

    def wait(self, key: str, now: float) -> float:
        """Seconds ``key`` must still wait before its next attempt (0: it may try now)."""
        rec = self._keys.get(key)
        if rec is None:
            return 0.0
        if now - rec.last >= self.policy.forget:
            del self._keys[key]
            return 0.0
        return max(0.0, rec.until - now)

    def fail(self, key: str, now: float) -> None:
        rec = self._keys.get(key)
        if rec is None or now - rec.last >= self.policy.forget:
            rec = _Record(0, now, now)
        rec.failures += 1
        rec.last = now
        rec.until = now + self.policy.delay(rec.failures)
        self._keys[key] = rec
        self._keys.move_to_end(key)
        while len(self._keys) > self.max_keys:
            self._keys.popitem(last=False)

    def failures(self, key: str) -> int:
        rec = self._keys.get(key)
        return 0 if rec is None else rec.failures

    def clear(self, key: str) -> None:
        self._keys.pop(key, None)


@dataclass(slots=True)
class RateBucket:
    """``rate`` tokens a second up to ``burst``. With ``debt`` > 0 a refused attempt costs a token too, down
    to ``-debt`` tokens: a client that keeps trying while refused (instead of waiting the ``Retry-After`` it
    was told) stays refused for as long as it keeps trying."""

    rate: float
    burst: float
    debt: float = 0.0
    tokens: float | None = field(default=None)
    stamp: float = 0.0

    def take(self, now: float) -> float:
        """Take one token: 0.0 if there was one, else the seconds until there will be."""
        tokens = self.burst if self.tokens is None else self.tokens
        tokens = min(self.burst, tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = now
        if tokens >= 1:
            self.tokens = tokens - 1
            return 0.0
        self.tokens = max(-self.debt, tokens - 1) if self.debt > 0 else tokens
        return (1 - self.tokens) / self.rate


class RateBuckets:
    """One :class:`RateBucket` per key, for at most ``max_keys`` keys (the least recently used are forgotten
    first: a forgotten key starts again with a full bucket)."""

    def __init__(self, rate: float, burst: float, debt: float = 0.0, max_keys: int = 100_000) -> None:
        self.rate, self.burst, self.debt = rate, burst, debt
        self.max_keys = max_keys
        self._keys: OrderedDict[str, RateBucket] = OrderedDict()

    def take(self, key: str, now: float) -> float:
        bucket = self._keys.get(key)
        if bucket is None:
            bucket = self._keys[key] = RateBucket(self.rate, self.burst, self.debt)
        wait = bucket.take(now)
        self._keys.move_to_end(key)
        while len(self._keys) > self.max_keys:
            self._keys.popitem(last=False)
        return wait

    def __len__(self) -> int:
        return len(self._keys)


def address_key(host: str | None) -> str:
    """The throttling key of a client address: an IPv4 address, or the /64 network of an IPv6 one (one
    machine usually has a whole /64)."""
    if not host:
        return "unknown"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _seconds(wait: float) -> int:
    return 0 if wait <= 0 else max(1, math.ceil(wait))


@dataclass(frozen=True)
class LoginLimits:
    """The login throttle's numbers (docs/security.md).

    - ``address`` / ``name``: growing delays after failures, per source address and per name;
    - ``address_rate`` / ``address_burst``: login attempts a second per source address, whatever their
      outcome (a success, a failure, or a refusal: a refused attempt costs its address a token too, down
      to ``-address_burst``). ``None`` turns it off. It must stay below ``rate``, so that no one address
      can take the whole global limit;
    - ``rate`` / ``burst``: login attempts a second over all clients (each costs an argon2 check), taken
      only by attempts that every per-address and per-name limit let through; ``None`` turns it off."""

    address: BackoffPolicy = BackoffPolicy(free=5, base=1.0, cap=300.0, forget=3600.0)
    name: BackoffPolicy = BackoffPolicy(free=2, base=1.0, cap=60.0, forget=3600.0)
    rate: float | None = 4.0
    burst: float = 20.0
    address_rate: float | None = 1.0
    address_burst: float = 10.0


class LoginGuard:
    """Decides, before any password is checked, whether a login attempt may go ahead."""

    def __init__(self, limits: LoginLimits | None = None, *, clock: Monotonic = time.monotonic) -> None:
        self.limits = limits or LoginLimits()
        self.clock = clock
        self.addresses = Backoff(self.limits.address)
        self.names = Backoff(self.limits.name)
        rate, per_address = self.limits.rate, self.limits.address_rate
        self.bucket = None if rate is None else RateBucket(rate, self.limits.burst)
        self.address_buckets = (
            None
            if per_address is None
            else RateBuckets(per_address, self.limits.address_burst, debt=self.limits.address_burst)
        )

    def check(self, address: str, name: str, *, known_device: bool) -> int:
        """0 if the attempt may go ahead, else the whole seconds to wait (for ``Retry-After``). A known
        device is not throttled here. Every other attempt counts against its address's rate first, allowed
        or not; the global limit is taken last, only by an attempt that every other limit lets through,
        so that one address (whose rate is below the global one) cannot take it all."""
        if known_device:
            return 0
        now = self.clock()
        wait = 0.0 if self.address_buckets is None else self.address_buckets.take(address, now)
        wait = max(wait, self.addresses.wait(address, now), self.names.wait(name, now))
        if wait <= 0 and self.bucket is not None:
            wait = self.bucket.take(now)
        return _seconds(wait)

    def failed(self, address: str, name: str | None) -> None:
        """A failed attempt from ``address`` (at ``name``, when a password was checked for it)."""
        now = self.clock()
        self.addresses.fail(address, now)
        if name is not None:
            self.names.fail(name, now)

    def succeeded(self, name: str) -> None:
        """The right password for ``name``: its delays are over. The address keeps its count, so that an
        attacker cannot reset it by logging in to an account of his own between guesses."""
        self.names.clear(name)


@dataclass(frozen=True)
class RegisterLimits:
    """Registrations per source address (docs/security.md): ``burst`` in a row, then ``rate`` a second
    (the default: 5, then one every 10 minutes). Every attempt counts, whatever its outcome (each one that
    gets as far costs an argon2 hash); a refused one does not. ``rate`` None turns the limit off.

    ``local``: whether callers on the room's own machine (a loopback address, and no proxy's forwarding
    header) are limited too; by default they are not (``pokerroom bots`` registers its bots from there)."""

    rate: float | None = 1 / 600
    burst: float = 5.0
    local: bool = False


class RegisterGuard:
    """Decides, before anything is checked, whether a registration from an address may go ahead."""

    def __init__(self, limits: RegisterLimits | None = None, *, clock: Monotonic = time.monotonic) -> None:
        self.limits = limits or RegisterLimits()
        self.clock = clock
        rate = self.limits.rate
        self.buckets = None if rate is None else RateBuckets(rate, self.limits.burst)

    def check(self, address: str, *, local: bool) -> int:
        """0 if the registration may go ahead (it counts against its address), else the whole seconds to
        wait (for ``Retry-After``)."""
        if self.buckets is None or (local and not self.limits.local):
            return 0
        return _seconds(self.buckets.take(address, self.clock()))
