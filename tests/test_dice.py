"""The die reader on real photos (bundled) and on synthetic dice drawn with cv2."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.phototwin.dicefaces import LAYOUT  # pip centres on a face, grid -1, 0, 1
from vision.dice import DiceConfig, DieReading, read_dice, read_dice_all
from vision.dice_eval import dataset_pairs, evaluate, load_yolo_labels, match

DATA = Path(__file__).parent / "data" / "dice"


def draw_die(
    img: np.ndarray,
    value: int,
    centre: tuple[float, float],
    side: float,
    angle_deg: float,
    body=(235, 240, 240),
    pip=(20, 20, 20),
) -> None:
    """Draw the top face of a die (rounded square with pips), rotated, anti-aliased."""
    cx, cy = centre
    t = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    half = side / 2
    r_corner = side * 0.12
    # rounded square as a polygon
    pts = []
    for sx, sy, a0 in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        ccx, ccy = sx * (half - r_corner), sy * (half - r_corner)
        for a in np.deg2rad(np.arange(a0, a0 + 91, 10)):
            pts.append((ccx + r_corner * np.cos(a), ccy + r_corner * np.sin(a)))
    poly = (np.array(pts) @ rot.T + [cx, cy]) * 16
    cv2.fillPoly(img, [poly.astype(np.int32)], body, cv2.LINE_AA, shift=4)
    spacing = side * 0.27
    radius = side * 0.095
    for gx, gy in LAYOUT[value]:
        p = rot @ np.array([gx * spacing, gy * spacing]) + [cx, cy]
        cv2.circle(img, tuple(int(v) for v in p * 16), int(radius * 16), pip, -1, cv2.LINE_AA, 4)


def draw_slanted_face(img, value, centre, side, squash, body) -> None:
    """A face seen at a slant: drawn upright, then squashed vertically by ``squash``."""
    n = 200
    patch = np.zeros((n, n, 3), np.uint8)
    draw_die(patch, value, (n / 2, n / 2), n * 0.98, 0, body=body)
    s = side / n
    warp = np.array(
        [[s, 0, centre[0] - s * n / 2], [0, s * squash, centre[1] - s * squash * n / 2]],
        np.float32,
    )
    size = (img.shape[1], img.shape[0])
    warped = cv2.warpAffine(patch, warp, size, flags=cv2.INTER_AREA)
    solid = np.zeros((n, n, 3), np.uint8)
    draw_die(solid, value, (n / 2, n / 2), n * 0.98, 0, body=(255, 255, 255), pip=(255, 255, 255))
    inside = cv2.warpAffine(solid[..., 0], warp, size, flags=cv2.INTER_AREA) > 128
    img[inside] = warped[inside]


def table(h=480, w=640, colour=(120, 150, 170)) -> np.ndarray:
    rng = np.random.default_rng(0)
    img = np.full((h, w, 3), colour, np.uint8)
    noise = rng.normal(0, 3, (h, w, 1))
    return np.clip(img + noise, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("angle", [0, 17, 45, 70])
def test_synthetic_die_reads_its_value(value, angle):
    """The pip counter reads every drawn face. (With the face network too the reading is the
    same or none: the network learnt from photos, and a drawn five turned 45 degrees looks
    like a four to it, so the two disagree and neither is believed.)"""
    img = table()
    draw_die(img, value, (300, 220), 64, angle)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    assert [r.value for r in read_dice(img)] in ([value], [])
    readings = read_dice(img, DiceConfig(face_network=False))
    assert [r.value for r in readings] == [value]
    r = readings[0]
    assert r.x <= 300 <= r.x + r.w and r.y <= 220 <= r.y + r.h
    assert 0.0 <= r.confidence <= 1.0


def test_several_synthetic_dice_including_touching_ones():
    img = table()
    dice = {(150, 150): 3, (400, 130): 6, (200, 350): 5, (262, 350): 2, (480, 360): 4}
    for (x, y), v in dice.items():
        draw_die(img, v, (x, y), 60, 5 * v)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    readings = read_dice(img)
    got = {}
    for r in readings:
        cx, cy = r.x + r.w / 2, r.y + r.h / 2
        key = min(dice, key=lambda p: np.hypot(p[0] - cx, p[1] - cy))
        got[key] = r.value
    assert got == dice
    assert len(readings) == len(dice)


def test_coloured_dice_by_configuration():
    img = table(colour=(60, 120, 60))
    draw_die(img, 5, (320, 240), 70, 30, body=(40, 40, 200), pip=(240, 240, 240))
    img = cv2.GaussianBlur(img, (3, 3), 0)
    config = DiceConfig(body_bgr=(40, 40, 200), pip_bgr=(240, 240, 240))
    assert [r.value for r in read_dice(img, config)] == [5]


def test_blank_and_plain_images_give_no_dice():
    assert read_dice(np.zeros((480, 640, 3), np.uint8)) == []
    assert read_dice(np.full((480, 640, 3), 255, np.uint8)) == []
    assert read_dice(table()) == []
    rng = np.random.default_rng(1)
    assert read_dice(rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)) == []


def test_grey_image_accepted():
    img = table()
    draw_die(img, 4, (320, 240), 64, 10)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    assert [r.value for r in read_dice(grey)] == [4]


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros((0, 0, 3), np.uint8),
        np.zeros((480, 640, 2), np.uint8),
        np.zeros((5, 5, 3), np.uint8),
        np.zeros((480, 640, 3), np.float64),
        np.zeros((2, 3, 4, 5), np.uint8),
        None,
        "image.jpg",
    ],
)
def test_bad_input_raises_value_error(bad):
    with pytest.raises(ValueError):
        read_dice(bad)


def test_min_confidence_drops_readings():
    img = table()
    draw_die(img, 3, (320, 240), 64, 10)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    everything = read_dice_all(img)
    assert everything and all(isinstance(r, DieReading) for r in everything)
    top = max(r.confidence for r in everything)
    strict = DiceConfig(min_confidence=min(1.0, top + 1e-6))
    assert read_dice(img, strict) == [r for r in everything if r.confidence >= top + 1e-6]
    assert read_dice(img, DiceConfig(min_confidence=0.0)) == everything


@pytest.mark.parametrize(
    "kwargs",
    [
        {"min_confidence": 1.5},
        {"spacing": (3.0, 2.0)},
        {"body_bgr": (300, 0, 0)},
        {"max_pip_radius": 0.0},
    ],
)
def test_bad_config_raises_value_error(kwargs):
    with pytest.raises(ValueError):
        DiceConfig(**kwargs)


def test_load_yolo_labels_and_match(tmp_path):
    p = tmp_path / "x.txt"
    p.write_text("4 0.5 0.5 0.1 0.1\n0 0.25 0.25 0.05 0.05\n")
    labels = load_yolo_labels(p, 640, 480)
    assert [lab.value for lab in labels] == [5, 1]
    assert labels[0].x == pytest.approx(288.0) and labels[0].h == pytest.approx(48.0)
    reading = DieReading(5, 290, 220, 60, 50, 0.9)
    assert match([reading], labels) == [(0, 0)]
    p.write_text("7 0.5 0.5 0.1 0.1\n")
    with pytest.raises(ValueError):
        load_yolo_labels(p, 640, 480)


def _bundled():
    pairs = dataset_pairs(DATA)
    assert len(pairs) >= 30
    return pairs


def test_real_photos_accuracy():
    # measured: 95/102 right, 0 wrong values, 1 false alarm (the misses are heavily
    # motion-blurred dice, chosen on purpose); floors sit a little below
    result = evaluate(_bundled())
    assert result["found_right_rate"] >= 0.91, result
    assert result["wrong_value"] == 0, result
    assert result["false_alarms"] <= 2, result


def test_real_photos_upside_down():
    """The reader learns from the photo which way side faces show: turning the camera round
    must not turn side faces into readings."""
    items = []
    for img, lab in _bundled():
        im = cv2.imread(str(img))
        h, w = im.shape[:2]
        labels = [
            type(lab_)(lab_.value, w - lab_.x - lab_.w, h - lab_.y - lab_.h, lab_.w, lab_.h)
            for lab_ in load_yolo_labels(lab, w, h)
        ]
        items.append((cv2.rotate(im, cv2.ROTATE_180), labels))
    result = evaluate(items)
    # measured: 95/102 right, 0 wrong, 3 false alarms
    assert result["found_right_rate"] >= 0.91, result
    assert result["wrong_value"] == 0, result
    assert result["false_alarms"] <= 5, result


def test_evaluate_counts_wrong_values_and_false_alarms():
    img = table()
    draw_die(img, 3, (200, 200), 64, 0)
    draw_die(img, 6, (420, 260), 64, 30)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    from vision.dice_eval import LabelledDie

    labels = [LabelledDie(4, 180, 180, 40, 40)]  # wrong value for the three; six unlabelled
    result = evaluate([(img, labels)])
    assert result["found_right"] == 0 and result["wrong_value"] == 1
    assert result["false_alarms"] == 1 and result["dice"] == 1
    assert result["ms_per_image"] > 0


@pytest.mark.parametrize("scale", [0.5, 2.0])
def test_image_size_does_not_matter(scale):
    img = table()
    draw_die(img, 5, (200, 200), 64, 20)
    draw_die(img, 2, (420, 300), 64, 60)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    resized = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    readings = read_dice(resized)
    assert sorted(r.value for r in readings) == [2, 5]
    five = next(r for r in readings if r.value == 5)
    assert abs(five.x + five.w / 2 - 200 * scale) < 8 * scale


def test_die_cut_by_the_image_border_is_not_read():
    img = table()
    draw_die(img, 6, (320, 240), 64, 0)
    draw_die(img, 6, (630, 240), 64, 0)  # its right column is outside: the rest looks like 3
    img = cv2.GaussianBlur(img, (3, 3), 0)
    assert [(r.value, r.x < 400) for r in read_dice(img)] == [(6, True)]


@pytest.mark.parametrize("gain", [0.4, 1.3])
def test_exposure_does_not_change_readings(gain):
    pairs = _bundled()[:12]
    items = []
    for img, lab in pairs:
        im = cv2.imread(str(img))
        im = np.clip(im * gain, 0, 255).astype(np.uint8)
        items.append((im, load_yolo_labels(lab, im.shape[1], im.shape[0])))
    result = evaluate(items)
    assert result["wrong_value"] == 0, result
    assert result["found_right_rate"] >= 0.85, result


@pytest.mark.parametrize("angle", [0, 45])
def test_two_touching_ones_are_two_ones_not_a_two(angle):
    img = table()
    draw_die(img, 1, (300, 240), 60, angle)
    draw_die(img, 1, (361, 240), 60, angle)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    assert [r.value for r in read_dice(img)] == [1, 1]


def test_four_channel_image_accepted():
    img = table()
    draw_die(img, 6, (320, 240), 64, 30)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    bgra = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    assert [r.value for r in read_dice(bgra)] == [6]


@pytest.mark.parametrize(
    "top, side_value, top_squash, side_squash",
    [(2, 5, 0.8, 0.5), (1, 6, 0.85, 0.45), (3, 4, 0.75, 0.6), (4, 6, 0.9, 0.4)],
)
def test_side_face_below_the_top_face_is_not_read(top, side_value, top_squash, side_squash):
    """A die seen from above at a slant: top face slightly squashed, the side face facing the
    camera (below it in the photo) squashed more and a little shaded."""
    img = table()
    side = 64
    draw_slanted_face(img, top, (320, 220), side, top_squash, (235, 240, 240))
    below = 220 + side * (top_squash + side_squash) / 2
    draw_slanted_face(img, side_value, (320, below), side, side_squash, (200, 205, 205))
    img = cv2.GaussianBlur(img, (3, 3), 0)
    # (the face network, unsure these drawn faces are a top face, may have the die declined)
    assert [r.value for r in read_dice(img)] in ([top], [])


@pytest.mark.parametrize("length", [5, 9, 13])
@pytest.mark.parametrize("angle", [0, 30, 60, 90])
def test_motion_blur_never_gives_a_wrong_value(length, angle):
    """Motion blur smears every pip the same way: the reader may lose a die, never misread
    it (light blur loses nothing)."""
    dice = {(200, 200): (6, 10), (420, 260): (2, 40), (300, 380): (3, 70), (500, 110): (5, 20)}
    img = table()
    for centre, (value, turn) in dice.items():
        draw_die(img, value, centre, 56, turn)
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0
    c = (length - 1) / 2.0
    kernel = cv2.warpAffine(kernel, cv2.getRotationMatrix2D((c, c), angle, 1.0), kernel.shape)
    img = cv2.filter2D(img, -1, kernel / kernel.sum())
    readings = read_dice(img)
    for r in readings:
        centre = min(dice, key=lambda p: np.hypot(r.x + r.w / 2 - p[0], r.y + r.h / 2 - p[1]))
        assert r.value == dice[centre][0], (r, centre)
    if length <= 5:
        assert len(readings) == 4


def test_missed_pips_rarely_give_a_wrong_value():
    """A pip detector that misses a random 12% of pips must make the reader report nothing
    rather than a wrong value (a six missing pips is not a two). Measured on the bundled photos
    (seeds 0, 1, 2): 1, 1, 0 wrong values (4, 4, 8 before the image checks); 0 is not reached
    on every seed (on the 310-photo set 6/12/15 remain, mostly sixes and fours that lost two
    pips)."""
    from vision.dice_eval import evaluate_dropped

    results = evaluate_dropped(_bundled(), fraction=0.12, seeds=(0, 1, 2))
    wrong = [r["wrong_value"] for r in results]
    assert max(wrong) <= 2 and sum(wrong) <= 4, wrong
    # the reader still finds most dice
    assert min(r["found_right"] for r in results) >= 55, results


def test_dropped_pips_harness_restores_the_pip_finder():
    import vision.dice
    from vision.dice_eval import dropped_pips

    real = vision.dice.find_pips
    with dropped_pips(1.0, 0):
        assert read_dice(cv2.imread(str(_bundled()[0][0]))) == []
    assert vision.dice.find_pips is real
