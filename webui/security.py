"""Safety of the table: a per-session CSRF token on every POST, and the table PIN for changes.

Anyone on the Wi-Fi can open the page and watch. Every POST needs the session's CSRF token
(header ``X-CSRF-Token`` or form field ``csrf_token``), so another web page cannot make a
phone's browser post to the table. Changing the game additionally needs the table PIN (header
``X-Table-PIN`` or form field ``pin``) when the table has one.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from flask import abort, current_app, request, session

CSRF_KEY = "csrf_token"
PIN_HEADER = "X-Table-PIN"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def csrf_token() -> str:
    """This session's CSRF token, created on first use (stored in Flask's signed cookie)."""
    token = session.get(CSRF_KEY)
    if not isinstance(token, str) or len(token) < 32:
        token = secrets.token_urlsafe(32)
        session[CSRF_KEY] = token
    return token


def check_csrf() -> None:
    """before_request hook: refuse a POST (or any unsafe method) without the session's token."""
    if request.method in SAFE_METHODS:
        return
    expected = session.get(CSRF_KEY)
    sent = request.headers.get(CSRF_HEADER) or _form_value(CSRF_KEY)
    if not isinstance(expected, str) or not expected:
        abort(
            403,
            description="no CSRF token in this session: load the page (or GET "
            "/api/csrf) first and send its token in the X-CSRF-Token header",
        )
    # bytes: compare_digest refuses str with non-ASCII characters (a header of "ñ")
    if not sent or not hmac.compare_digest(
        str(sent).encode("utf-8", "surrogateescape"), expected.encode()
    ):
        abort(
            403,
            description="missing or wrong CSRF token: send the X-CSRF-Token header "
            "(or a csrf_token form field) from GET /api/csrf",
        )


def _form_value(name: str) -> str | None:
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        value = request.form.get(name)
        return value if value else None
    return None


@dataclass(frozen=True)
class PinLock:
    """The table-wide PIN lock-out as the page shows it."""

    seconds_left: int  # 0: not locked
    until: float  # wall-clock time (time.time()) the lock ends; 0 when not locked
    failures: int  # wrong PINs since the last right one

    def to_json(self) -> dict[str, Any]:
        until = time.strftime("%H:%M:%S", time.localtime(self.until)) if self.until else ""
        return {"locked": self.seconds_left > 0, "seconds": self.seconds_left, "until": until}

    def message(self) -> str:
        minutes, seconds = divmod(self.seconds_left, 60)
        wait = f"{minutes} min {seconds} s" if minutes else f"{seconds} s"
        return (
            f"too many wrong PINs at this table: changes are locked for {wait} "
            f"(until {self.to_json()['until']})"
        )


class PinGuard:
    """Slows down guessing the table PIN, from one address and from the whole table.

    One address gets `per_address` wrong PINs a `window`; more get 429 at once. The whole table
    gets `free_failures` wrong PINs in a row; then every PIN check is refused for `first_lock`
    seconds, doubling with each further lock-out up to `max_lock` (an hour), so spreading the
    guesses over many addresses does not help. The right PIN after a lock-out starts afresh,
    and so does an hour (`max_lock`) without a wrong PIN after the last lock ended: a slip
    last week counts no more, while waiting out a lock does not reset the delay.
    `clock` is injectable so tests never wait.
    """

    def __init__(
        self,
        per_address: int = 5,
        window: float = 60.0,
        free_failures: int = 5,
        first_lock: float = 60.0,
        max_lock: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_failures = per_address
        self.window = window
        self.free_failures = free_failures
        self.first_lock = first_lock
        self.max_lock = max_lock
        self.clock = clock
        self._failures: dict[str, list[float]] = {}
        self._in_a_row = 0  # wrong PINs at the table since the last right one
        self._locks = 0  # lock-outs since the last right PIN (the delay doubles each time)
        self._locked_until = 0.0  # on `clock`
        self._last_failure = float("-inf")  # on `clock`
        self._lock = threading.Lock()

    def locked(self, address: str) -> bool:
        """Whether this address has sent too many wrong PINs within the window."""
        now = self.clock()
        with self._lock:
            recent = [t for t in self._failures.get(address, []) if now - t < self.window]
            if recent:
                self._failures[address] = recent
            else:
                self._failures.pop(address, None)
            return len(recent) >= self.max_failures

    def table_lock(self) -> PinLock:
        """The table-wide lock-out now (seconds_left 0: PINs are being checked)."""
        with self._lock:
            left = self._locked_until - self.clock()
            if left <= 0:
                return PinLock(0, 0.0, self._in_a_row)
            return PinLock(int(left + 0.999), time.time() + left, self._in_a_row)

    def failed(self, address: str) -> None:
        now = self.clock()
        with self._lock:
            self._failures.setdefault(address, []).append(now)
            quiet_since = max(self._last_failure, self._locked_until)
            if now - quiet_since > self.max_lock:  # an hour's quiet after any lock: afresh
                self._in_a_row, self._locks = 0, 0
            self._last_failure = now
            self._in_a_row += 1
            if self._in_a_row >= self.free_failures * (self._locks + 1):
                delay = min(self.first_lock * 2**self._locks, self.max_lock)
                self._locks += 1
                self._locked_until = now + delay

    def reset(self, address: str) -> None:
        with self._lock:
            self._failures.pop(address, None)
            self._in_a_row = 0
            self._locks = 0
            self._locked_until = 0.0


def sent_pin() -> str | None:
    value = request.headers.get(PIN_HEADER)
    if value is None:
        value = _form_value("pin")
    if value is None and request.is_json:
        body = request.get_json(silent=True)
        if isinstance(body, dict) and isinstance(body.get("pin"), str):
            value = body["pin"]
    return value


def check_pin(table_pin: str) -> None:
    """Abort 403 unless the request carries the table PIN ("" means no PIN: open)."""
    if not table_pin:
        return
    guard: PinGuard = current_app.extensions["boardref.pin_guard"]
    address = request.remote_addr or "?"
    lock = guard.table_lock()
    if lock.seconds_left:
        abort(429, description=lock.message())
    if guard.locked(address):
        abort(429, description="too many wrong PINs from this device; wait a minute")
    pin = sent_pin()
    if pin is None or pin == "":
        abort(403, description="this needs the table PIN (X-Table-PIN header or pin field)")
    if not hmac.compare_digest(pin.encode("utf-8", "replace"), str(table_pin).encode()):
        guard.failed(address)
        abort(403, description="wrong table PIN")
    guard.reset(address)


def pin_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator: the view changes the game, so it needs the table PIN."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        from .api import get_table

        check_pin(getattr(get_table(), "pin", "") or "")
        return view(*args, **kwargs)

    return wrapped
