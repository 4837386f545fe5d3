"""Dice at every scale: right or declined, never a wrong value; one die filling a photo;
trays read at a known scale, from a camera's full-resolution detail, once per change."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import rules
from hardware.cameras import CropDetail
from hardware.simtable import SimulatedTable
from vision.dice import read_dice
from vision.dice_eval import dataset_pairs, load_yolo_labels
from vision.dice_sweep import sweep
from vision.tray import TrayReader, native_px_per_mm, tray_regions, trays

DATA = Path(__file__).parent / "data" / "dice"


@pytest.mark.parametrize("look", [(0.0, 0.0), (1.0, 4.0)])
def test_real_photos_shrunk_to_a_few_pixels_are_right_or_declined(look):
    result = sweep(dataset_pairs(DATA), die_sizes=(24, 16, 12, 8), looks=[look])
    assert sum(n["dice"] for n in result.values()) > 300
    for size, n in result.items():
        assert n["wrong"] == 0, (size, n)
    # the floor declines dice whose face spans under 24 px of the photo
    # measured: 35 (sharp) and 27 (blurred, noisy) of 89 at 24 px; 0 of 102 at 8 px
    assert result[f"24px blur {look[0]:g} noise {look[1]:g}"]["right"] >= 20, result
    assert result[f"8px blur {look[0]:g} noise {look[1]:g}"]["right"] <= 10, result


def _one_die_crops(enlarge: float):
    """Square crops of the bundled photos around each labelled die, the die filling most of
    the crop, shrunk to 64 x 64 grey (as public single-die data sets publish them)."""
    for image_path, label_path in dataset_pairs(DATA):
        image = cv2.imread(str(image_path))
        h, w = image.shape[:2]
        for lab in load_yolo_labels(label_path, w, h):
            side = int(round(max(lab.w, lab.h) * enlarge))
            cx, cy = lab.x + lab.w / 2, lab.y + lab.h / 2
            x0, y0 = int(round(cx - side / 2)), int(round(cy - side / 2))
            padded = cv2.copyMakeBorder(image, side, side, side, side, cv2.BORDER_REPLICATE)
            crop = padded[y0 + side : y0 + 2 * side, x0 + side : x0 + 2 * side]
            crop = cv2.resize(crop, (64, 64), interpolation=cv2.INTER_AREA)
            yield cv2.cvtColor(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR), lab


@pytest.mark.parametrize("enlarge", [1.0, 1.25, 1.5])
def test_a_photo_that_is_one_die_is_read_or_declined(enlarge):
    right = total = 0
    for crop, lab in _one_die_crops(enlarge):
        values = [r.value for r in read_dice(crop)]
        assert values in ([lab.value], []), (lab, values)
        total += 1
        right += values == [lab.value]
    # measured on these photos: 1.0 -> 50/102 (the crop cuts the face: its pips may be cut
    # off, declined), 1.25 -> 81, 1.5 -> 79
    assert right >= {1.0: 35, 1.25: 65, 1.5: 60}[enlarge], (right, total)


@pytest.mark.parametrize("enlarge", [3.0, 4.0])
def test_a_small_die_in_a_small_photo_is_right_or_declined(enlarge):
    """A die filling a third or a quarter of a thumbnail: no close-up, and its pips a pixel
    or two. Measured: only ones are read (their pip is a big dark disc), 12 of 102 at 48 px;
    every other value is declined."""
    for crop, lab in _one_die_crops(enlarge):
        thumb = cv2.resize(crop, (48, 48), interpolation=cv2.INTER_AREA)
        assert [r.value for r in read_dice(thumb)] in ([lab.value], []), lab


def _tray_frame(name: str, seed: int, dice, width=1280, height=960, **kw):
    game = rules.get(name)
    table = SimulatedTable(game.board, seed=seed, width=width, height=height, **kw)
    frame, truth = table.render({}, dice, hand=False)
    return game.board, table, frame, np.linalg.inv(truth.homography)


@pytest.mark.parametrize("die_px", [20, 14, 8])
def test_drawn_dice_too_small_in_the_tray_are_declined(die_px):
    board, table, _, homography = _tray_frame("aggravation", 3, [5])
    tray = trays(board)[0]
    native = native_px_per_mm(np.linalg.inv(homography), tray.x + tray.w / 2, tray.y + tray.h / 2)
    k = die_px / (16.0 * native)
    for seed in range(4):
        board, _, frame, homography = _tray_frame(
            "aggravation", seed, [seed + 2], int(1280 * k), int(960 * k)
        )
        assert TrayReader().read(frame, board, homography) == []


def test_drawn_dice_at_every_scale_are_right_or_declined():
    read = 0
    for die_px in (48, 40, 32, 28):
        for seed in range(3):
            value = 1 + (seed + die_px) % 6
            board, _, frame, homography = _tray_frame("manji", 40 + seed, [value])
            tray = trays(board)[0]
            to_image = np.linalg.inv(homography)
            native = native_px_per_mm(to_image, tray.x + tray.w / 2, tray.y + tray.h / 2)
            k = die_px / (16.0 * native)
            small = cv2.resize(frame, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
            shrink = np.diag([1 / k, 1 / k, 1.0])
            got = [d.value for d in TrayReader().read(small, board, homography @ shrink)]
            assert got in ([value], []), (die_px, seed, value, got)
            read += bool(got)
    # measured: 5 of 12 (the simulated solids show their side faces; a miss is declined)
    assert read >= 4, read


def test_trays_are_read_from_the_full_resolution_detail():
    """A frame too coarse for the dice still gives them, read from the camera's detail."""
    board, table, frame, homography = _tray_frame("manji", 7, [3])
    coarse = cv2.resize(frame, None, fx=0.4, fy=0.4, interpolation=cv2.INTER_AREA)
    to_coarse = homography @ np.diag([1 / 0.4, 1 / 0.4, 1.0])
    assert TrayReader().read(coarse, board, to_coarse) == []
    detail = table.detail(2.0)  # 5x finer than the coarse frame
    sx = 2.0 / 0.4
    crops = {}
    for x0, y0, x1, y1 in tray_regions(board, to_coarse):
        box = (int(x0 * sx), int(y0 * sx), int(x1 * sx), int(y1 * sx))
        crops[box] = detail.crop(*box)
    got = TrayReader().read(coarse, board, to_coarse, CropDetail((sx, sx), crops))
    assert [d.value for d in got] == [3]
    d = got[0]  # the box is in the coarse frame's pixels, around the die
    truth = table.render({}, [3], hand=False, index=0)[1].dice[0]
    assert abs((d.x + d.w / 2) - 0.4 * (truth["x"] + truth["w"] / 2)) < 8


def test_manipulation_reads_every_tray_and_credits_its_seat():
    board = rules.get("manipulation").board
    names = {r.owner: r.name for r in trays(board)}
    read = {}
    for seed in (11, 12, 13):
        throw = [(1 + (seat + seed) % 6, names[seat]) for seat in range(4)]
        table = SimulatedTable(board, seed=seed, width=1640, height=1232)
        frame, truth = table.render({}, throw, hand=False)
        homography = np.linalg.inv(truth.homography)
        got = TrayReader().read(frame, board, homography, table.detail(2.0))
        for d in got:
            assert names[d.owner] == d.tray
            assert (d.value, d.tray) in throw, (d, throw)
            read[(seed, d.owner)] = d.value
    assert len(read) >= 8, read


def test_an_unchanged_tray_is_not_read_again():
    board, table, frame, homography = _tray_frame("aggravation", 5, [4])
    reader = TrayReader()
    first = reader.read(frame, board, homography, table.detail(2.0))
    assert reader.trays_read == 1
    again, _ = table.render({}, [4], hand=False, index=0)  # the same moment, noise and all
    assert reader.read(again, board, homography, table.detail(2.0)) == first
    assert reader.trays_read == 0
    moved, truth = table.render({}, [4], hand=False, index=1)  # thrown again elsewhere
    reader.read(moved, board, np.linalg.inv(truth.homography), table.detail(2.0))
    assert reader.trays_read == 1


def test_after_a_bare_tray_only_what_changed_is_read(monkeypatch):
    import vision.tray as tray_module

    board = rules.get("aggravation").board
    table = SimulatedTable(board, seed=5)
    reader = TrayReader()
    bare, truth = table.render({}, [], hand=False)
    homography = np.linalg.inv(truth.homography)
    assert reader.read(bare, board, homography, table.detail(2.0)) == []
    parts = []
    real = tray_module.read_dice

    def spy(image, config, **kw):
        parts.append(image.shape[:2])
        return real(image, config, **kw)

    monkeypatch.setattr(tray_module, "read_dice", spy)
    thrown, truth = table.render({}, [6], hand=False)
    got = reader.read(thrown, board, np.linalg.inv(truth.homography), table.detail(2.0))
    assert [d.value for d in got] == [6]
    view_w = (board.regions[0].w + 2 * tray_module.MARGIN_MM) * 3.0
    assert parts and all(w < 0.5 * view_w for _h, w in parts), parts
