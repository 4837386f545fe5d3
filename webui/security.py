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
    if not sent or not hmac.compare_digest(str(sent), expected):
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


class PinGuard:
    """Compares sent PINs with the table's, slowing down guessing from one address."""

    def __init__(self, max_failures: int = 5, window: float = 60.0) -> None:
        self.max_failures = max_failures
        self.window = window
        self._failures: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def locked(self, address: str) -> bool:
        now = time.monotonic()
        with self._lock:
            recent = [t for t in self._failures.get(address, []) if now - t < self.window]
            if recent:
                self._failures[address] = recent
            else:
                self._failures.pop(address, None)
            return len(recent) >= self.max_failures

    def failed(self, address: str) -> None:
        with self._lock:
            self._failures.setdefault(address, []).append(time.monotonic())

    def reset(self, address: str) -> None:
        with self._lock:
            self._failures.pop(address, None)


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
    if guard.locked(address):
        abort(429, description="too many wrong PINs from this device; wait a minute")
    pin = sent_pin()
    if pin is None or pin == "":
        abort(403, description="this needs the table PIN (X-Table-PIN header or pin field)")
    if not hmac.compare_digest(pin.encode(), str(table_pin).encode()):
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
