"""A fair six-sided die for the roll button.

The default source is the operating system's CSPRNG (``secrets.SystemRandom``), so nobody at the
table can predict or bias a roll. Tests inject a seeded ``random.Random`` instead.
"""

from __future__ import annotations

import random
import secrets

__all__ = ["roll_die", "SIDES"]

SIDES = 6

_system_rng = secrets.SystemRandom()


def roll_die(rng: random.Random | None = None) -> int:
    """Return a uniformly distributed die face, 1..6.

    ``rng`` is anything with ``randrange(start, stop)`` (``random.Random``,
    ``secrets.SystemRandom``); None uses the system CSPRNG.
    """
    source = _system_rng if rng is None else rng
    value = source.randrange(1, SIDES + 1)
    if not 1 <= value <= SIDES:  # a broken injected RNG must not reach the rules core
        raise ValueError(f"die RNG returned {value!r}, outside 1..{SIDES}")
    return int(value)
