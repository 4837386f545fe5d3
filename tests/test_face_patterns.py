"""A line of pips beside a line like it is a column of a bigger face, not a die's three:
made-up pips, so the rule is checked apart from the pip finder."""

from __future__ import annotations

import numpy as np

from vision.face_patterns import unless_pattern_continues
from vision.pips import Pip

R = 3.0  # the pips' radius, pixels
INK = 120.0  # how dark they are against the body


def _pip(x: float, y: float, major: float = R, minor: float = R, contrast: float = INK) -> Pip:
    return Pip(x, y, np.pi * major * minor, major, minor, 0.0, contrast, 200.0)


def _three(a: float = 2.4) -> tuple[dict, list[Pip]]:
    """A three fitted to a row of pips 10 px apart (a six's row looks just so), its grid's
    half-spacing ``a`` pip radii."""
    pips = [_pip(100, 100), _pip(110, 100), _pip(120, 100)]
    face = {"value": 3, "idx": [0, 1, 2], "a": a, "confidence": 0.9, "wh": np.eye(2) / R}
    return face, pips


def _two_run_together(x: float, y: float, **kw) -> Pip:
    """Two pips 10 px apart merged into one blob, as blur merges a six's close pips:
    second moments of two discs at +-5 px give a long semi-axis of 2 sqrt(25 + R^2 / 4)."""
    return _pip(x, y, major=2 * np.sqrt(25 + R**2 / 4), **kw)


def test_a_row_beside_a_row_whose_pips_run_together_is_no_three():
    face, pips = _three()
    pips += [_two_run_together(105, 80), _pip(120, 80)]
    out = unless_pattern_continues(face, pips)
    assert out["confidence"] == 0.0 and out.get("no_face")


def test_a_row_beside_part_of_a_row_is_still_read():
    face, pips = _three()
    pips += [_pip(120, 80)]  # one pip where the other row's third would be: no row
    assert unless_pattern_continues(face, pips)["confidence"] == 0.9


def test_a_thin_stroke_or_a_faint_blob_is_no_pips_run_together():
    for blob in (_pip(105, 80, major=10.0, minor=1.0), _two_run_together(105, 80, contrast=40)):
        face, pips = _three()
        pips += [blob, _pip(120, 80)]
        assert unless_pattern_continues(face, pips)["confidence"] == 0.9


def test_a_three_whose_pips_nearly_touch_is_a_column_of_a_six():
    # a six's column fitted as a three lies 1/sqrt(2) as far apart as the six's grid: a
    # six at 32 px read as a three at 1.71 pip radii, one of its other column's pips lost
    # (the real photos' threes read right: 1.98 and more)
    face, pips = _three(a=1.71)
    out = unless_pattern_continues(face, pips)
    assert out["confidence"] == 0.0 and out.get("no_face")
    face, pips = _three(a=2.0)
    assert unless_pattern_continues(face, pips)["confidence"] == 0.9


def test_a_three_of_a_track_whose_next_hole_looks_a_little_otherwise_is_no_face():
    # three of a board's track holes fitted as a three; the next hole, half cut by the
    # photo's edge, is drawn out 1.5 and a little smaller: not the three's own shape, but
    # one of four spots evenly spaced on a line, which no die face has
    face, pips = _three()
    pips.append(_pip(130, 100, major=1.25 * R, minor=0.83 * R))
    out = unless_pattern_continues(face, pips)
    assert out["confidence"] == 0.0 and out.get("no_face")


def test_a_three_whose_next_spot_is_cut_by_the_photos_edge_is_no_face():
    # three of a track's holes; the fourth, cut by the crop's edge to a sliver drawn out
    # 2.5 and half their size, lies where the line's next spot would be (drawn sweep seed
    # 541: read as a three)
    face, pips = _three()
    pips.append(_pip(128, 100, major=0.95 * R, minor=0.38 * R))
    assert unless_pattern_continues(face, pips)["confidence"] == 0.9  # no edge: no telling
    out = unless_pattern_continues(face, pips, shape=(200, 130))
    assert out["confidence"] == 0.0 and out.get("no_face")


def test_a_three_beside_a_blob_cut_by_the_edge_elsewhere_is_still_read():
    face, pips = _three()
    pips.append(_pip(128, 115, major=0.95 * R, minor=0.38 * R))  # off the line
    assert unless_pattern_continues(face, pips, shape=(200, 130))["confidence"] == 0.9


def test_a_three_with_a_spot_in_line_but_off_its_spacing_is_still_read():
    face, pips = _three()
    pips.append(_pip(135, 100, major=1.25 * R, minor=0.83 * R))  # 1.5 spacings beyond
    assert unless_pattern_continues(face, pips)["confidence"] == 0.9


def test_two_pips_whose_line_runs_on_one_spacing_beyond_are_no_two():
    """The network, looking at a window shifted off a three's corner, read its last two pips
    as a two: the third lies one spacing beyond, in line, alike."""
    from vision.face_patterns import line_runs_on

    two = [_pip(100, 100), _pip(110, 106)]
    assert line_runs_on(two, [_pip(120, 112)])
    assert line_runs_on(two[::-1], [_pip(90, 94)])  # (either end)


def test_a_two_with_no_pip_in_line_beyond_it_or_a_different_one_there_is_a_two():
    from vision.face_patterns import line_runs_on

    two = [_pip(100, 100), _pip(110, 106)]
    assert not line_runs_on(two, [])
    assert not line_runs_on(two, [_pip(120, 100)])  # (beside the line, not on it)
    assert not line_runs_on(two, [_pip(120, 112, major=3 * R, minor=3 * R)])  # (a bigger blob)
    assert not line_runs_on(two, [_pip(126, 121)])  # (on the line, but two spacings out)


def test_a_three_the_counter_missed_is_not_read_as_the_two_a_shifted_window_shows():
    """A 16 mm die showing three, as the Camera Module 3's full resolution sees it in
    Manipulation's red tray (the photo-like twin's render of a real die, three_30.jpg of the
    bundled photos' set and licence, tests/data/dice/LICENSE): its diagonal pips lie 42 px
    apart. The pip counter found the pips but fitted no face; the network, looking where it
    saw a bar of shadow at the die's edge, read two of them as a two, 0.99 sure. Declined."""
    from pathlib import Path

    import cv2

    from vision.dice import DiceConfig, read_dice_all

    photo = Path(__file__).parent / "data" / "die_cases" / "three_in_a_tray_crop.png"
    readings = read_dice_all(cv2.imread(str(photo)))
    assert all(r.value == 3 or r.confidence < DiceConfig().min_confidence for r in readings)


def test_a_three_whose_corner_pip_at_the_dies_edge_looks_smaller_is_read_in_a_trays_view():
    """The three of `three_in_a_tray_crop.png` as the tray reader sees it (square to the
    table, 48 px per die side): its bottom-left pip, at the die's shaded edge, is 0.83 of the
    others' radius, and was not grouped with them: the die was not read."""
    from pathlib import Path

    import cv2

    from vision.dice import DiceConfig, read_dice

    photo = Path(__file__).parent / "data" / "die_cases" / "three_in_a_tray_view.png"
    assert [r.value for r in read_dice(cv2.imread(str(photo)), DiceConfig(), die_px=48.0)] == [3]
