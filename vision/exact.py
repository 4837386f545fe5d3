"""numpy's reductions the board reader runs on every frame, bit for bit, without their overhead.

On the reader's small arrays numpy's `median` and `quantile` spend tens of microseconds in
Python before any arithmetic, and a reduction over a short last axis (a pixel's three channels)
is ten or more times slower than three plane-wise operations. These give the very same numbers
(the same operations in the same order; `tests/test_vision_exact.py` holds them to numpy's),
and hand anything unusual (NaN, empty, other dtypes) to numpy itself.
"""

from __future__ import annotations

import math

import cv2
import numpy as np


def mean3(a: np.ndarray) -> np.ndarray:
    """`a.mean(-1)` over three channels: numpy adds them in this order to 0.0 and divides by 3.
    (Adding 0.0 last gives the same sum: it only turns an all-zero sum's -0.0 into numpy's 0.0.)"""
    total = a[..., 0] + a[..., 1]
    total += a[..., 2]
    total += 0.0
    total /= 3
    return total


def max3(a: np.ndarray) -> np.ndarray:
    """`a.max(-1)` over three channels (exact: no rounding)."""
    return np.maximum(np.maximum(a[..., 0], a[..., 1]), a[..., 2])


def min3(a: np.ndarray) -> np.ndarray:
    """`a.min(-1)` over three channels (exact: no rounding)."""
    return np.minimum(np.minimum(a[..., 0], a[..., 1]), a[..., 2])


def column_sums(a: np.ndarray) -> np.ndarray:
    """`a.sum(0)` of a 2-D float32 array: numpy adds its rows one after another (a reduction
    over the first axis is not pairwise), as cv2.reduce does, four times quicker. (Adding 0.0
    gives numpy's 0.0 where a column's zeros are all -0.0.)"""
    if a.ndim != 2 or a.dtype != np.float32 or not _plain(a):
        return a.sum(0)
    total = cv2.reduce(a, 0, cv2.REDUCE_SUM, dtype=cv2.CV_32F).reshape(a.shape[1])
    total += 0.0
    return total


def _plain(a: np.ndarray) -> bool:
    """Float32/64 without NaN, or integers: what the fast paths below reproduce exactly."""
    if a.size == 0:
        return False
    if a.dtype in (np.float32, np.float64):
        return not np.isnan(a).any()
    return a.dtype.kind in "iu"


def median(values, axis: int | None = None):
    """`np.median(values, axis)`: the middle value, or the mean of the middle two (their sum,
    then halved, in numpy's accumulating dtype: float64 for integers)."""
    a = np.asarray(values)
    if not _plain(a) or (axis is None and a.ndim != 1):
        return np.median(a, axis=axis)
    if a.dtype.kind in "iu":
        a = a.astype(np.float64)
    axis = 0 if axis is None else axis
    s = np.sort(a, axis=axis)
    if axis != 0:  # (moveaxis costs more than the sort of a few values: only when needed)
        s = np.moveaxis(s, axis, 0)
    half = len(s) // 2  # numpy's mean of the middle one or two (summed to 0.0, as `mean3`)
    if len(s) % 2:
        return (s[half] + 0.0) / 1
    return (s[half - 1] + s[half] + 0.0) / 2


def quantile(values, q: float):
    """`np.quantile(values, q)` of a 1-D float64 array (numpy's default, linear method):
    numpy's own interpolation formula between the two neighbouring sorted values."""
    a = np.asarray(values)
    if a.ndim != 1 or a.dtype != np.float64 or not _plain(a) or not 0.0 <= q <= 1.0:
        return np.quantile(a, q)
    s = np.sort(a)
    virtual = (len(s) - 1) * q
    if virtual >= len(s) - 1:
        low = high = len(s) - 1
        gamma = virtual + 1.0  # numpy's, from the index it moves to the last (-1)
    else:
        low = math.floor(virtual)
        high = low + 1
        gamma = virtual - low
    below, above = s[low], s[high]
    diff = above - below
    if gamma >= 0.5:
        return above - diff * (1 - gamma)
    return below + diff * gamma
