"""`boardref roll --url`: ask a running appliance to roll, exactly as its button does."""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.request
from typing import Any


class RemoteError(Exception):
    """The appliance could not be reached or refused; the message says which and why."""


def roll(url: str, timeout: float = 5.0) -> dict[str, Any]:
    """POST /api/roll with a session and its CSRF token; returns the new state."""
    base = url.rstrip("/")
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    try:
        with opener.open(f"{base}/api/csrf", timeout=timeout) as response:
            token = json.load(response)["csrf_token"]
        request = urllib.request.Request(
            f"{base}/api/roll",
            data=b"{}",
            method="POST",
            headers={"Content-Type": "application/json", "X-CSRF-Token": token},
        )
        with opener.open(request, timeout=timeout) as response:
            return json.load(response)
    except urllib.error.HTTPError as exc:
        try:
            message = json.load(exc).get("error", exc.reason)
        except ValueError:
            message = exc.reason
        raise RemoteError(f"{base} refused the roll ({exc.code}): {message}") from None
    except (urllib.error.URLError, OSError, KeyError, ValueError) as exc:
        raise RemoteError(f"cannot reach the appliance at {base}: {exc}") from None
