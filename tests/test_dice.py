"""The die reader on real photos (bundled) and on synthetic dice drawn with cv2."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.dice import DiceConfig, DieReading, read_dice, read_dice_all
from vision.dice_eval import dataset_pairs, evaluate, load_yolo_labels, match

DATA = Path(__file__).parent / "data" / "dice"

# pip centres on a face, in units of the half-spacing (grid -1, 0, 1)
LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


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


def table(h=480, w=640, colour=(120, 150, 170)) -> np.ndarray:
    rng = np.random.default_rng(0)
    img = np.full((h, w, 3), colour, np.uint8)
    noise = rng.normal(0, 3, (h, w, 1))
    return np.clip(img + noise, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("angle", [0, 17, 45, 70])
def test_synthetic_die_reads_its_value(value, angle):
    img = table()
    draw_die(img, value, (300, 220), 64, angle)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    readings = read_dice(img)
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
    everything = read_dice_all(img)
    assert everything and all(isinstance(r, DieReading) for r in everything)
    assert read_dice(img, DiceConfig(min_confidence=1.01)) == []


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


def test_real_photos_accuracy():
    pairs = dataset_pairs(DATA)
    assert len(pairs) >= 30
    result = evaluate(pairs)
    # measured when written: see the commit message / report; floors sit a bit below
    assert result["found_right_rate"] >= 0.88, result
    assert result["wrong_value"] <= 2, result
    assert result["false_alarms"] <= 3, result


@pytest.mark.parametrize("scale", [0.5, 2.0])
def test_image_size_does_not_matter(scale):
    img = table()
    draw_die(img, 5, (200, 200), 64, 20)
    draw_die(img, 2, (420, 300), 64, 60)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    small = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    readings = read_dice(small)
    assert sorted(r.value for r in readings) == [2, 5]
    five = next(r for r in readings if r.value == 5)
    assert abs(five.x + five.w / 2 - 200 * scale) < 8 * scale
