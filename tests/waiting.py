"""Waiting in tests on a condition, never on a clock: a busy machine only makes a test slower."""

from __future__ import annotations

import time
from collections.abc import Callable

GENEROUS = 60.0  # seconds: a bound for a hung test, never a speed measurement


def wait_until(condition: Callable[[], object], timeout: float = GENEROUS) -> bool:
    """Poll `condition` until it holds or `timeout` passes; its last answer."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return bool(condition())
