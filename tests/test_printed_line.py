"""A board's dotted track or a dashed line is no die face, whatever the face network sees
there: made-up pips, so the rule is checked apart from the pip finder and the network."""

from __future__ import annotations

import numpy as np

from vision.face_patterns import printed_line
from vision.pips import Pip

R = 3.0  # the spots' radius, pixels
FACE = (120.0, 100.0, 40.0)  # where the network read a face: centre x, y and side
REACH = 0.6  # face sides from its middle


def _spot(x: float, y: float, major: float = R, minor: float = R, angle: float = 0.0) -> Pip:
    return Pip(x, y, np.pi * major * minor, major, minor, angle, 120.0, 200.0)


def _dash(x: float, y: float, angle: float = 0.0) -> Pip:
    return _spot(x, y, major=4.0 * R, minor=R, angle=angle)


def test_four_spots_evenly_spaced_on_a_line_are_print():
    spots = [_spot(105 + 10 * k, 100 + 4 * k) for k in range(4)]
    assert printed_line(FACE, spots, REACH)


def test_a_track_whose_holes_differ_a_little_in_shape_is_print_too():
    # under a slanted lamp a track's holes come out a little drawn out, each its own way
    spots = [_spot(105 + 10 * k, 100, major=R * (1.0 + 0.1 * k), minor=R) for k in range(4)]
    assert printed_line(FACE, spots, REACH)


def test_a_six_is_no_line():
    # two columns of three: the most pips any face has in a line
    six = [_spot(x, y) for x in (110.0, 130.0) for y in (88.0, 100.0, 112.0)]
    assert not printed_line(FACE, six, REACH)


def test_three_in_a_line_with_a_fourth_off_its_spacing_is_no_line():
    # a three's diagonal and a touching die's pip just beyond it, but not one spacing on
    spots = [_spot(110 + 8 * k, 92 + 8 * k) for k in range(3)] + [_spot(139, 121)]
    assert not printed_line(FACE, spots, REACH)


def test_spots_of_another_size_do_not_make_a_line():
    spots = [_spot(105 + 10 * k, 100) for k in range(3)] + [_spot(135, 100, major=6.0, minor=6.0)]
    assert not printed_line(FACE, spots, REACH)


def test_three_dashes_end_to_end_are_a_dashed_line():
    spots = [_dash(100 + 20 * k, 100) for k in range(3)]
    assert printed_line(FACE, spots, REACH)
    turned = np.radians(30.0)
    u = np.array([np.cos(turned), np.sin(turned)])
    spots = [_dash(*(np.array([100.0, 90.0]) + 20 * k * u), angle=turned) for k in range(3)]
    assert printed_line(FACE, spots, REACH)


def test_smeared_pips_side_by_side_are_no_dashed_line():
    # a six's columns smeared along their length: bars side by side, not end to end
    bars = [_dash(100 + 14 * k, 100, angle=np.pi / 2) for k in range(3)]
    assert not printed_line(FACE, bars, REACH)


def test_two_dashes_or_pips_drawn_out_less_are_no_dashed_line():
    assert not printed_line(FACE, [_dash(100, 100), _dash(120, 100)], REACH)
    short = [_spot(100 + 20 * k, 100, major=2.5 * R, minor=R) for k in range(3)]
    assert not printed_line(FACE, short, REACH)


def test_only_spots_near_the_face_count():
    far = [_spot(105 + 10 * k, 160) for k in range(4)]  # a track below the face
    assert not printed_line(FACE, far, REACH)


def test_a_line_found_from_its_middle_spots_counts_both_ways():
    # a two on two of a track's holes, the track running on a hole either side of it
    spots = [_spot(105 + 10 * k, 100) for k in range(4)]
    assert printed_line(FACE, spots, REACH, through=spots[1:3])
    # ... while a two with one hole beside it makes three spots: no line
    assert not printed_line(FACE, spots[:3], REACH, through=spots[1:3])


def test_a_bar_lying_across_is_no_dash_of_the_line():
    across = _dash(100, 100, angle=np.pi / 2)
    assert not printed_line(FACE, [across, _dash(120, 100), _dash(140, 100)], REACH)
