"""vision.exact gives numpy's numbers bit for bit: the board reader's readings must not change
when it takes the quicker path (nor when numpy changes how it reduces)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.exact import column_sums, max3, mean3, median, min3, quantile


def _same(a, b) -> bool:
    """Equal values, dtype and shape, and the same sign on every zero."""
    a, b = np.asarray(a), np.asarray(b)
    return (
        a.dtype == b.dtype
        and a.shape == b.shape
        and np.array_equal(a, b, equal_nan=True)
        and np.array_equal(np.signbit(a), np.signbit(b))
    )


def _samples(rng, shape, dtype):
    scale = rng.choice([0.01, 1.0, 255.0], size=shape)
    values = rng.normal(0.5, 1.0, shape) * scale
    return values.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_channel_reductions_match_numpy(dtype):
    rng = np.random.default_rng(14)
    for _ in range(50):
        shape = (*rng.integers(1, 40, size=int(rng.integers(1, 3))), 3)
        a = _samples(rng, tuple(shape), dtype)
        assert _same(mean3(a), a.mean(-1))
        assert _same(max3(a), a.max(-1))
        assert _same(min3(a), a.min(-1))
    zeros = np.array([[-0.0, -0.0, -0.0], [-0.0, 0.0, -0.0], [0.0, -0.0, 0.0], [-0.0, 1.0, -1.0]])
    for a in (zeros, zeros.astype(np.float32)):
        assert _same(mean3(a), a.mean(-1)) and _same(max3(a), a.max(-1))
        assert _same(min3(a), a.min(-1))
    pixels = rng.integers(0, 256, (30, 13, 3)).astype(np.uint8)
    assert _same(max3(pixels), pixels.max(2)) and _same(min3(pixels), pixels.min(2))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.uint8])
def test_median_matches_numpy(dtype):
    rng = np.random.default_rng(15)
    for n in [*range(1, 12), 57, 1000, 5001]:
        a = _samples(rng, (n,), np.float64)
        a = (np.abs(a) * 10).astype(dtype) if np.dtype(dtype).kind in "iu" else a.astype(dtype)
        assert _same(median(a), np.median(a))
    for shape, axis in (((7, 3), 0), ((40, 3), 0), ((9, 6, 3), 1), ((9, 5, 3), 1)):
        a = _samples(rng, shape, np.float64)
        assert _same(median(a, axis=axis), np.median(a, axis=axis))
        a32 = a.astype(np.float32)
        assert _same(median(a32, axis=axis), np.median(a32, axis=axis))


def test_median_hands_the_unusual_to_numpy():
    with_nan = np.array([1.0, np.nan, 3.0])
    assert _same(median(with_nan), np.median(with_nan))
    for zeros in ([-0.0], [-0.0, -0.0], [-0.0, 0.0, -0.0], [1.0, -1.0, -0.0, -0.0]):
        assert _same(median(np.array(zeros)), np.median(np.array(zeros)))
        assert _same(median(np.array(zeros, np.float32)), np.median(np.array(zeros, np.float32)))
    with pytest.warns(RuntimeWarning):
        assert np.isnan(median(np.array([], np.float64)))


def test_quantile_matches_numpy():
    rng = np.random.default_rng(16)
    for n in [*range(1, 15), 33, 100, 997]:
        a = _samples(rng, (n,), np.float64)
        for q in (0.0, 0.2, 0.25, 0.5, 0.7, 0.9, 1.0, float(rng.random())):
            assert _same(quantile(a, q), np.quantile(a, q)), (n, q)
    ties = np.array([0.5, 0.5, 0.5, 0.2, 0.2])
    assert _same(quantile(ties, 0.2), np.quantile(ties, 0.2))
    with_nan = np.array([0.1, np.nan])
    assert _same(quantile(with_nan, 0.2), np.quantile(with_nan, 0.2))


def test_column_sums_match_numpy():
    rng = np.random.default_rng(16)
    for n in (1, 2, 7, 600, 5200):
        a = _samples(rng, (n, 3), np.float32)
        a[rng.random(n) < 0.3] = 0.0
        assert _same(column_sums(a), a.sum(0))
    zeros = np.array([[-0.0, 1.0, -0.0], [-0.0, 2.0, 0.0]], np.float32)
    assert _same(column_sums(zeros), zeros.sum(0))  # all -0.0 sums to numpy's 0.0
    odd = np.array([[np.nan, 1.0], [2.0, 3.0]], np.float32)
    assert _same(column_sums(odd), odd.sum(0))  # NaN and other dtypes: numpy's own
    wide = _samples(rng, (40, 3), np.float64)
    assert _same(column_sums(wide), wide.sum(0))


def test_chroma_planes_work_out_chroma_bit_for_bit():
    from vision.tokens import _chroma_planes_of, chroma

    rng = np.random.default_rng(17)
    image = (rng.random((37, 41, 3)) * rng.choice([0.01, 1.0, 3.0], (37, 41, 3))).astype(np.float32)
    image[::5, ::3] = 0.0  # below the brightness floor
    for got, want in zip(_chroma_planes_of(image), chroma(*np.moveaxis(image, 2, 0)), strict=True):
        assert _same(got, want)


def test_hue_bins_match_numpys_floor_division():
    from vision.tokens import HUE_BIN_DEG, HUE_BINS, _degree_bins, hue_bins, hue_deg

    def numpys(d):
        return (d % 360.0 // HUE_BIN_DEG).astype(np.int64) % HUE_BINS

    rng = np.random.default_rng(19)
    scale = rng.choice([1e-6, 0.01, 1.0], (2, 20000))
    cx, cy = (rng.normal(0.0, 1.0, (2, 20000)) * scale).astype(np.float32)
    assert _same(hue_bins(cx, cy), (hue_deg(cx, cy) // HUE_BIN_DEG).astype(np.int64) % HUE_BINS)
    x64, y64 = cx.astype(np.float64), cy.astype(np.float64)
    assert _same(hue_bins(x64, y64), (hue_deg(x64, y64) // HUE_BIN_DEG).astype(np.int64) % 72)
    # every float32 angle within 2000 steps of each bin's edge, of 0 and of +-180
    edges = np.arange(0.0, 181.0, HUE_BIN_DEG).astype(np.float32).view(np.int32)
    at = (edges[:, None] + np.arange(-2000, 2001, dtype=np.int32)[None, :]).ravel()
    near = at[at >= 0].view(np.float32)
    near = near[near <= 180.0]
    for d in (near, -near, np.float32([0.0, -0.0, 1e-45, -1e-45, 180.0, -180.0])):
        assert _same(_degree_bins(d), numpys(d))
    angles = rng.uniform(-180.0, 180.0, 100000).astype(np.float32)
    assert _same(_degree_bins(angles), numpys(angles))


def test_ramp_one_is_ramp_for_one_value():
    from vision.confidence import ramp, ramp_one

    rng = np.random.default_rng(20)
    values = [*rng.normal(0.0, 1.0, 500), *rng.normal(0.0, 30.0, 100), np.float32(0.3)]
    values += [0.0, -0.0, 0.14, 0.2, 1.0, np.inf, -np.inf, np.nan, np.float32(np.nan)]
    for zero, one in ((0.1, 0.25), (0.16, 0.22), (14.0, 20.0), (0.5, 0.3), (-0.2, 0.0)):
        for value in values:
            assert _same(ramp_one(value, zero, one), float(ramp(value, zero, one))), value
