"""The tray reader's short cuts give what the long way gives.

Each short cut (work kept from one frame for the next, a search skipped when its answer
cannot change the reading, a figure settled without computing it) is checked against the
long way on the same input: same answer, and the kept work reused only while its input is
unchanged. No timings here: `boardref bench vision --parts simulated_dice` measures them."""

from __future__ import annotations

import numpy as np
import pytest

import vision.dice as dice
import vision.dice_opinion as opinion
import vision.face_layout as face_layout
import vision.tray as tray
from vision.die_model import FaceFind, FaceOpinion
from vision.pips import _median12


def _long_way_partitions(xy: np.ndarray) -> list[tuple[float, list[int], list[int]]]:
    """Every cut of a point set by a line (the reader's former way, spelt out)."""
    best: dict[frozenset, float] = {}
    everything = frozenset(range(len(xy)))
    for t in np.deg2rad(np.arange(0.0, 180.0, 10.0)):
        proj = xy @ np.array([np.cos(t), np.sin(t)])
        order = np.argsort(proj)
        gaps = np.diff(proj[order])
        for cut in range(1, len(xy)):
            part = frozenset(order[:cut].tolist())
            key = min(part, everything - part, key=sorted)
            if gaps[cut - 1] > best.get(key, -1.0):
                best[key] = float(gaps[cut - 1])
    out = [(g, sorted(k), sorted(everything - k)) for k, g in best.items()]
    out.sort(key=lambda t: -t[0])
    return out


def test_the_cuts_of_a_pip_group_are_the_long_ways_in_its_order():
    rng = np.random.default_rng(5)
    for n in (2, 3, 5, 6, 9, 14):
        for rounded in (False, True):  # whole pixels: many cuts tie
            xy = rng.normal(size=(n, 2)) * 20
            xy = np.round(xy) if rounded else xy
            every = _long_way_partitions(xy)
            assert dice._line_partitions(xy) == every
            for cap in (1, 3, 6):
                small = [c for c in every if len(c[1]) <= cap and len(c[2]) <= cap]
                assert dice._line_partitions(xy, cap, 16) == small[:16]


def test_a_low_percentile_is_judged_as_numpy_computes_it():
    rng = np.random.default_rng(6)
    for _ in range(3000):
        vals = rng.integers(0, 256, int(rng.integers(2, 90))).astype(np.float32)
        level = float(rng.choice([rng.uniform(0, 255), float(rng.integers(0, 256))]))
        want = float(np.percentile(vals, 5)) >= level
        assert dice._percentile_at_least(vals, 5.0, level) == want


def test_the_median_of_a_pips_surround_is_numpys():
    rng = np.random.default_rng(7)
    for _ in range(2000):
        ring = rng.integers(0, 256, 12).astype(np.float32)
        assert _median12(ring) == float(np.median(ring))


def test_a_six_fitted_eight_ways_at_once_fits_as_each_alone():
    rng = np.random.default_rng(8)
    turn = np.array([[0.8, 0.6], [-0.6, 0.8]])
    for _ in range(200):
        pts = face_layout.LAYOUTS[6] @ turn * 2.6 + rng.normal(size=(6, 2)) * 0.2
        together = face_layout.fit_layouts(pts, face_layout.SIX_STRETCHED)
        alone = [face_layout.fit_layouts(pts, lay[None])[0] for lay in face_layout.SIX_STRETCHED]
        assert together == alone


def _glance(seed: int, die_at: tuple[int, int] | None = None) -> tray._Glance:
    rng = np.random.default_rng(seed)
    grey = np.clip(150 + rng.normal(0, 2, (40, 120)), 0, 255).astype(np.uint8)
    if die_at is not None:
        x, y = die_at
        grey[y : y + 16, x : x + 16] = 240
        grey[y + 6 : y + 10, x + 6 : x + 10] = 30
    return tray._Glance(grey)


def test_a_glances_cell_means_are_worked_out_once_and_kept():
    look = _glance(1)
    first = look.means()
    assert look.means() is first  # the same arrays, not worked out again
    fresh = tray._cell_means(look.grey, tray.GLANCE_SHIFT)
    for kept, again in zip(first, fresh, strict=True):
        assert np.array_equal(kept, again)


def test_glances_of_another_size_are_not_compared():
    assert tray._difference(_glance(1), tray._Glance(np.zeros((41, 120), np.uint8))) is None


def test_what_changed_since_the_bare_tray_is_reused_only_as_it_was_worked_out():
    bare, thrown = _glance(1), _glance(2, die_at=(50, 12))
    changed = tray._difference(bare, thrown)
    assert changed is not None and changed.any()
    assert not tray._difference(bare, _glance(3)).any()  # noise alone: unchanged
    shape, die_px = (120, 360), 48.0
    afresh = tray._changed(bare, thrown, shape, die_px)
    assert tray._changed(bare, thrown, shape, die_px, changed) == afresh
    assert afresh and all(x0 > 0 for x0, _y0, _x1, _y1 in afresh)  # a window, not all


@pytest.fixture
def looks(monkeypatch):
    """Record the faces the network is asked to look at, and make it agree with each."""
    asked: list[tuple[float, float, float]] = []

    def fake(grey, starts, steps=2, weights=None):
        asked.extend(starts)
        return [FaceFind(x, y, s, FaceOpinion((0.0, 1.0, 0, 0, 0, 0, 0))) for x, y, s in starts]

    monkeypatch.setattr(opinion, "find_faces", fake)
    return asked


def _sure(value: int, x: float) -> dict:
    return {
        "value": value,
        "idx": list(range(value)),
        "centre": np.array([x, 50.0]),
        "box": (x - 20, 30.0, x + 20, 70.0),
        "confidence": 0.9,
    }


def test_a_sure_five_or_six_in_a_top_view_is_not_shown_to_the_network(looks):
    grey = np.full((100, 400), 200, np.uint8)
    faces = [_sure(5, 50), _sure(2, 150), _sure(6, 250), _sure(4, 350)]
    kept = opinion.combine(grey, [], faces, 0.6, face_px=40.0, square_view=True)
    assert kept == faces  # all stand: nothing vetoes a five or a six, nor these two
    assert sorted(x for x, _y, _s in looks) == [150, 350]


def test_photos_of_unknown_scale_still_show_every_sure_face_to_the_network(looks):
    grey = np.full((100, 400), 200, np.uint8)
    opinion.combine(grey, [], [_sure(5, 50), _sure(6, 250)], 0.6)
    # (each from its own search, and once more right where the counter found it: in a photo
    # the network may veto a face it is sure is none)
    assert sorted({round(x) for x, _y, _s in looks}) == [50, 250]


def _same_face(a: dict | None, b: dict | None) -> bool:
    if a is None or b is None:
        return a is b
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("square", [True, False])
def test_a_face_refused_before_its_turn_is_searched_is_refused_by_the_search(monkeypatch, square):
    rng = np.random.default_rng(9)
    grey = np.full((200, 200), 220, np.uint8)
    config = dice.DiceConfig(
        square_die_px=48.0 if square else None,
        spacing=(1.6, dice.SQUARE_SPACING_MAX if square else 3.4),
    )
    refused = 0
    for _ in range(300):
        n = int(rng.integers(2, 10))
        centre = rng.uniform(60, 140, 2)
        xy = centre + rng.normal(0, 14, (n, 2))
        for x, y in xy.astype(int):
            grey[y - 2 : y + 3, x - 2 : x + 3] = 40
        r = float(rng.uniform(2.5, 4.0))
        pips = [dice.Pip(float(x), float(y), 40.0, r, r * 0.9, 0.3, 150.0, 220.0) for x, y in xy]
        idx = sorted(rng.choice(n, int(rng.integers(2, min(n, 6) + 1)), replace=False).tolist())
        short = dice._fit_face(grey, pips, idx, config)
        with monkeypatch.context() as m:
            m.setattr(dice, "settled_before_the_turn", lambda *a: False)
            long = dice._fit_face(grey, pips, idx, config)
        assert _same_face(short, long)
        refused += short is None
        grey[:] = 220
    assert refused > 30  # the short cut was taken often enough to be tested


def test_the_networks_layers_give_what_numpys_pad_and_pooling_gave():
    from vision import die_model

    rng = np.random.default_rng(10)
    weights = die_model._weights()
    for n, size, layer in ((1, 32, 1), (3, 16, 2), (2, 8, 3)):
        w, b = weights[f"conv{layer}.weight"], weights[f"conv{layer}.bias"]
        x = rng.normal(size=(n, size, size, w.shape[0] // 9)).astype(np.float32)
        pad = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
        shifted = [pad[:, dy : dy + size, dx : dx + size, :] for dy in range(3) for dx in range(3)]
        out = np.concatenate(shifted, axis=3) @ w
        out += b
        np.maximum(out, 0.0, out=out)
        want = out.reshape(n, size // 2, 2, size // 2, 2, -1).max(axis=(2, 4))
        assert np.array_equal(die_model._conv_relu_pool(x, w, b), want)


def _long_way_difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Two glances compared at each shift in turn (the reader's former way)."""
    k = tray.GLANCE_SHIFT
    means_a, rows, cols = tray._cell_means(a, k)
    means_b, _, _ = tray._cell_means(b, k)
    cells = means_a[np.ix_(rows, cols)]
    least = np.abs(cells - means_b[np.ix_(rows, cols)])
    height, width = means_b.shape
    for dy in range(-k, k + 1):
        for dx in range(-k, k + 1):
            ys, xs = np.clip(rows + dy, 0, height - 1), np.clip(cols + dx, 0, width - 1)
            least = np.minimum(least, np.abs(cells - means_b[np.ix_(ys, xs)]))
    changed = (least >= tray.SAME_VIEW).astype(np.uint8)
    changed[0, :] = changed[-1, :] = 0
    changed[:, 0] = changed[:, -1] = 0
    return changed


def test_glances_compared_at_every_shift_at_once_differ_where_shift_by_shift_they_did():
    rng = np.random.default_rng(11)
    for _ in range(100):
        h, w = int(rng.integers(30, 70)), int(rng.integers(30, 320))
        a = rng.integers(0, 256, (h, w)).astype(np.uint8)
        spots = rng.random((h, w)) < 0.3
        b = np.clip(a + rng.integers(-60, 60, (h, w)) * spots, 0, 255).astype(np.uint8)
        got = tray._difference(tray._Glance(a), tray._Glance(b))
        assert np.array_equal(got, _long_way_difference(a, b))
