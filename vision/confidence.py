"""The one way the board reader turns a measurement into evidence: a linear ramp."""

from __future__ import annotations

import numpy as np


def ramp(value: np.ndarray | float, zero: float, one: float) -> np.ndarray:
    """0 at `zero`, 1 at `one` (either order), linear between: every rule of the reader says
    where a measurement stops telling anything and where it tells surely."""
    return np.clip((np.asarray(value, np.float64) - zero) / (one - zero), 0.0, 1.0)


def ramp_one(value: float, zero: float, one: float) -> float:
    """`float(ramp(value, zero, one))` for one float64 value, without numpy's cost per call (a
    per-space loop asks for many): the same division, and numpy's clip (NaN stays NaN, -0.0
    becomes 0.0)."""
    v = (float(value) - zero) / (one - zero)
    if v != v:
        return v
    v = v if v > 0.0 else 0.0
    return v if v < 1.0 else 1.0
