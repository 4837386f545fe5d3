"""The plain photo reader (scale unknown, `boardref vision dice`) at every scale: a die is
read right or declined, never given a wrong value. Drawn dice in a crop around a board's
tray and the bundled real photos, shrunk until a die spans 40 down to 8 pixels, sharp and
blurred with noise, and one-die crops of the real photos framed by a small border."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from tests.drawn_dice import drawn_tray_crop
from vision.dice import read_dice
from vision.dice_eval import dataset_pairs, load_yolo_labels
from vision.dice_sweep import sweep as photo_sweep

DATA = Path(__file__).parent / "data" / "dice"
SIZES = (40, 32, 24, 16, 12, 8)
LOOKS = ((0.0, 0.0), (1.0, 4.0))  # Gaussian blur sigma (px), noise (grey levels)
TABLES = (("aggravation", 901), ("manji", 902), ("playground-battles", 903), ("manipulation", 904))


def test_drawn_dice_in_a_tray_crop_are_right_or_declined_at_every_scale():
    rng = np.random.default_rng(5)
    read = {}
    for die_px in SIZES:
        for look in LOOKS:
            for n, (name, table_seed) in enumerate(TABLES):
                value = 1 + (n + die_px + int(look[0])) % 6
                crop = drawn_tray_crop(name, table_seed, value, die_px, look, rng)
                got = [r.value for r in read_dice(crop)] if min(crop.shape[:2]) >= 16 else []
                assert got in ([value], []), (name, die_px, look, value, got)
                read[die_px] = read.get(die_px, 0) + bool(got)
    # the reader still reads drawn dice at a fair size (measured: 2 of 8 at 40 px, 3 at 32
    # px, 3 at 24 px; none below: 5, 5 and 6 before pip counts the face network disputes
    # were declined). On the code before the checks of this file's commit a crop here was
    # read wrong (a one at 40 px read as a two)
    assert read[40] + read[32] >= 4, read


def test_real_photos_shrunk_are_right_or_declined_at_every_scale():
    result = photo_sweep(dataset_pairs(DATA), die_sizes=(40, 32), looks=[LOOKS[1]])
    for size, n in result.items():
        assert n["wrong"] == 0, (size, n)
    # measured: 30 of 32 dice read at 40 px and 77 of 81 at 32 px, blurred and noisy
    n = result["40px blur 1 noise 4"]
    assert n["right"] >= 0.8 * n["dice"], n


def _tight_crops(border: int):
    """Each bundled die cropped tight to its label, 64 x 64 grey (as public single-die sets
    publish them), framed by ``border`` pixels of the crop's edge colour."""
    for image_path, label_path in dataset_pairs(DATA):
        image = cv2.imread(str(image_path))
        h, w = image.shape[:2]
        for lab in load_yolo_labels(label_path, w, h):
            x0, y0 = max(0, int(round(lab.x))), max(0, int(round(lab.y)))
            x1, y1 = min(w, int(round(lab.x + lab.w))), min(h, int(round(lab.y + lab.h)))
            tight = cv2.resize(image[y0:y1, x0:x1], (64, 64), interpolation=cv2.INTER_AREA)
            grey = cv2.cvtColor(tight, cv2.COLOR_BGR2GRAY)
            edge = float(np.median(np.concatenate([grey[0], grey[-1], grey[:, 0], grey[:, -1]])))
            framed = cv2.copyMakeBorder(grey, *[border] * 4, cv2.BORDER_CONSTANT, value=edge)
            yield cv2.cvtColor(framed, cv2.COLOR_GRAY2BGR), lab.value


def test_one_die_crops_with_a_small_border_are_right_or_declined():
    right = total = 0
    for border in (0, 8, 16, 32):
        for crop, value in _tight_crops(border):
            got = [r.value for r in read_dice(crop)]
            assert got in ([value], []), (border, value, got)
            right += got == [value]
            total += 1
    # measured: about half read (a crop cut tight may cut pips: declined); the code before
    # read a motion-blurred four framed by 8 px as a six
    assert right >= 0.3 * total, (right, total)


def test_a_four_whose_corner_pip_is_lost_in_its_shaded_edge_is_not_read_as_a_two():
    """A drawn four in Playground Battles' tray at 32 px, blurred and noisy: its top-left pip
    ran into the die's dark shaded edge and the pip finder missed it; two of the other three,
    a side of the four, were fitted as a two's diagonal and read as a two with confidence 0.69
    (`bench vision --parts drawn_dice_sweep --seed 5 --frames 24`, found at stop 29). The third
    lay one spacing from them, square to their line, just where a face's grid puts a pip and
    no two has one: the two is declined. Eleven of twelve noise draws read a two before."""
    for k in range(12):
        crop = drawn_tray_crop(
            "playground-battles", 39606, 4, 32, (1.0, 4.0), np.random.default_rng(k)
        )
        assert all(d.value == 4 for d in read_dice(crop))


def test_a_two_whose_second_pip_runs_into_the_dark_edge_is_not_read_as_a_one():
    """A drawn two in Manipulation's tray at 24 px, blurred and noisy (the drawn sweep's seed
    3): its bottom-right pip lies against the side face's dark edge, so the pip finder lost
    it (its surround is not bright all round) and the top-left pip was read as a one. That
    blob is as dark and round as a pip, darker than the edge it touches, with bright face
    between it and the found pip, and the face ends just behind the found pip, as behind a
    two's corner pip: the one is declined. 23 of 24 noise draws read a one before."""
    for k in range(12):
        crop = drawn_tray_crop("manipulation", 23762, 2, 24, (1.0, 4.0), np.random.default_rng(k))
        assert all(d.value == 2 for d in read_dice(crop)), k


def test_a_one_beside_a_side_face_pip_at_its_edge_is_still_read():
    """Drawn ones at 40 px (the sweep's seeds 0 and 5) show a side face's pip just past the
    top face's edge, where a two's lost partner would lie: their face reaches as far behind
    the pip as ahead of it, so they are still read (without that test both were declined)."""
    for game, table_seed in (("manji", 6), ("manipulation", 39604)):
        crop = drawn_tray_crop(game, table_seed, 1, 40, (0.0, 0.0), np.random.default_rng(0))
        assert [d.value for d in read_dice(crop)] == [1], game


def test_a_die_a_few_pixels_wide_and_a_printed_disc_are_no_two_filling_the_photo():
    """A drawn die of 8 px in Playground Battles' tray crop (146 x 75 px; the drawn sweep's
    seed 106): the crop is under 160 px, so the reader tries it as one die filling the photo,
    and there the tiny die and a brown disc printed below the tray looked like the two pips
    of one big two (confidence 0.96). A die's pips are painted alike; in a close-up each pip
    spans many pixels, so each must be a shade of the body around it, and the brown disc is
    not: declined. Both looks read a two before."""
    for value, look in ((6, (0.0, 0.0)), (5, (1.0, 4.0))):
        for k in range(4):
            crop = drawn_tray_crop(
                "playground-battles", 839417, value, 8, look, np.random.default_rng(k)
            )
            assert all(d.value == value for d in read_dice(crop)), (value, look, k)


def test_two_faces_of_one_die_about_as_top_like_are_declined_without_the_nadir():
    """A drawn die in Aggravation's tray seen low (the drawn sweep's seed 109): its top face
    (a four; a three in the second look) and the side face beside it (a six) look about as
    much like a top face, with no table or crease between them. A plain photo does not say
    where the camera's nadir is, the one thing that tells which face is the top (a side
    face lies between its top face and the nadir): both are declined. The code before read
    the six (the four sharp at 40 px; the three at 32 px, blurred, for 4 of 6 noise draws)."""
    crop = drawn_tray_crop("aggravation", 863171, 4, 40, (0.0, 0.0), np.random.default_rng(0))
    assert all(d.value == 4 for d in read_dice(crop))
    for k in range(6):
        crop = drawn_tray_crop("aggravation", 863171, 3, 32, (1.0, 4.0), np.random.default_rng(k))
        assert all(d.value == 3 for d in read_dice(crop)), k


def test_a_strong_four_is_no_six_the_network_sees_with_its_side_face():
    """A drawn four in Aggravation's tray at 40 px, blurred and noisy (the drawn sweep's seed
    112), turned so that its side face's two pips line up beside its own: the pip counter
    fitted the four (layout and bare body strong) but doubted it as part of a bigger face, and
    the face network, seeing the top and side faces together, read a six. A six holds a
    four's pips, but a strong four showed bare body where a six's middle pips would lie: the
    network's six is not read. 7 of 8 noise draws read a six before."""
    for k in range(8):
        crop = drawn_tray_crop("aggravation", 886928, 4, 40, (1.0, 4.0), np.random.default_rng(k))
        assert all(d.value == 4 for d in read_dice(crop)), k
