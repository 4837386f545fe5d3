"""The one way the board reader turns a measurement into evidence: a linear ramp."""

from __future__ import annotations

import numpy as np


def ramp(value: np.ndarray | float, zero: float, one: float) -> np.ndarray:
    """0 at `zero`, 1 at `one` (either order), linear between: every rule of the reader says
    where a measurement stops telling anything and where it tells surely."""
    return np.clip((np.asarray(value, np.float64) - zero) / (one - zero), 0.0, 1.0)
