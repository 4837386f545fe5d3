"""Real dice in the photo-like twin's trays (hardware.phototwin.dice, dicefaces, capture) and
the tray reader on them, as `bench vision --parts twin_dice` runs it. Figures are the bench's;
these check that the twin draws what it says and that the reader reads a plain case right."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import rules
from device.twin_dice import CONDITIONS, score
from hardware.cameras import CropDetail
from hardware.phototwin.capture import capture, detail_camera, detail_scale, tray_windows
from hardware.phototwin.dice import Die, throw
from hardware.phototwin.dicefaces import LAYOUT, faces_from, faces_of
from hardware.phototwin.render import render_linear
from hardware.phototwin.scene import sample
from vision.observation import observe
from vision.tray import TrayDie, TrayReader, trays

PHOTOS = Path(__file__).parent / "data" / "dice"
GAME = "aggravation"


@pytest.fixture(scope="module")
def faces():
    return faces_from(tuple(str(p) for p in sorted(PHOTOS.glob("*.jpg"))))


def test_faces_are_cut_only_where_the_pips_count_the_label(faces):
    assert {f.value for f in faces} == set(range(1, 7))
    photo = sorted(PHOTOS.glob("*.jpg"))[0]
    labelled = len(photo.with_suffix(".txt").read_text().split("\n"))
    assert len(faces_of(photo)) <= labelled
    for face in faces:
        tex = face.texture.mean(2)
        # the pips are dark where the value's layout puts them, the face's rim is bare body
        assert tex[2, :].min() > 0.6 and tex[:, -3].min() > 0.6, face.source
        dark = tex < 0.45
        assert dark.sum() > 0, face.source
        assert len(LAYOUT[face.value]) == face.value


def test_a_throw_lays_a_die_wholly_inside_each_tray_or_leaves_it_empty(faces):
    board = rules.get(GAME).board
    regions = trays(board)
    empty = 0
    for k in range(30):
        scene = throw(sample(GAME, 3, k, CONDITIONS), faces, regions)
        empty += not scene.dice
        tray = regions[0]
        for die in scene.dice:
            c, s = np.cos(die.yaw), np.sin(die.yaw)
            for u, v in ((-8, -8), (8, -8), (8, 8), (-8, 8)):  # the footprint's corners
                x, y = die.x + c * u - s * v, die.y + s * u + c * v
                assert tray.x < x < tray.x + tray.w and tray.y < y < tray.y + tray.h
            assert {s.value for s in die.sides}.isdisjoint({die.value, 7 - die.value})
    assert 0 < empty < 15


def test_a_window_of_the_fine_image_is_that_part_of_the_whole_fine_image(faces):
    """(The table's wood is worked out at half resolution: a window's grid differs a little.)"""
    scene = sample(GAME, 5, 0, CONDITIONS, (320, 240))
    scene = throw(scene, faces, trays(scene.board))
    fine = replace(scene, camera=detail_camera(scene, 2.0))
    whole, _ = render_linear(fine)
    x0, y0, x1, y1 = tray_windows(scene, trays(scene.board), 2.0)[0]
    part, _ = render_linear(fine, (x0, y0, x1, y1))
    differ = np.abs(part - whole[y0:y1, x0:x1]).max(2)
    assert (differ > 1e-3).mean() < 0.02 and differ.max() < 0.1


def _read(scene, size):
    board = scene.board
    frame, crops = capture(scene, trays(board))
    assert frame.shape[:2] == (size[1], size[0])
    obs = observe(frame, [board])
    assert obs.homography is not None
    scale = detail_scale(scene)
    detail = CropDetail((scale, scale), crops)
    return TrayReader().read(frame, board, obs.homography, detail)


def test_a_real_die_in_the_twins_tray_is_read_right(faces):
    board = rules.get(GAME).board
    scene = sample(GAME, 21, 0, CONDITIONS, (1280, 960))
    scene = throw(scene, faces, trays(board))
    tray = trays(board)[0]
    five = next(f for f in faces if f.value == 5)
    sides = tuple(next(f for f in faces if f.value == v) for v in (1, 6, 3, 4))
    die = Die(tray.name, 5, tray.x + 60, tray.y + tray.h / 2, 0.0, 0.3, five, sides)
    scene = replace(scene, dice=(die,))
    read = _read(scene, (1280, 960))
    assert [(d.tray, d.value) for d in read] == [(tray.name, 5)]


def test_an_empty_tray_of_the_twin_is_not_read_as_a_die():
    scene = replace(sample(GAME, 22, 0, CONDITIONS, (1280, 960)), dice=())
    assert _read(scene, (1280, 960)) == []


def test_score_counts_right_wrong_not_read_and_false_alarms():
    def die(tray, value):
        return TrayDie(value, 0, 0, 10, 10, 1.0, tray, None)

    truth = {"a": 3, "b": 4, "c": None, "d": None, "e": 2}
    read = [die("a", 3), die("b", 5), die("c", 1)]
    assert score(truth, read) == dict(
        dice=3, right=1, wrong=1, not_read=1, empty_trays=2, false_alarms=1
    )
