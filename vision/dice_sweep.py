"""The die reader at every scale: labelled photos shrunk until a die spans a few pixels.

A die seen too small, blurred or noisy must be declined, never misread. ``sweep(pairs)``
shrinks each labelled photo so that its dice span ``die_px`` pixels (the median die of the
photo), blurs it and adds sensor noise, and counts for each size the dice read right, read
wrong (a reading matched to a die of another value) and not read, and the false alarms.

``python -m vision.dice_sweep FOLDER``
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence

import cv2
import numpy as np

from vision.dice import DiceConfig, read_dice
from vision.dice_eval import LabelledDie, dataset_pairs, load_yolo_labels, match

DIE_SIZES = (40, 32, 24, 16, 12, 8)  # a die's side, pixels
# the blur (Gaussian sigma, pixels of the shrunk photo) and noise (grey levels) of each look
LOOKS = ((0.0, 0.0), (1.0, 4.0))


def degrade(
    image: np.ndarray,
    labels: list[LabelledDie],
    die_px: float,
    blur: float,
    noise: float,
    rng: np.random.Generator,
) -> tuple[np.ndarray, list[LabelledDie]] | None:
    """The photo shrunk so that its median die spans ``die_px``, blurred and noisy, and its
    labels moved along; None when that would enlarge it."""
    sides = [max(lab.w, lab.h) for lab in labels]
    if not sides:
        return None
    k = die_px / float(np.median(sides))
    if k >= 1.0:
        return None
    small = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    if min(small.shape[:2]) < 16:
        return None
    img = small.astype(np.float32)
    if blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    if noise > 0:
        img += rng.normal(0.0, noise, img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    moved = [LabelledDie(lab.value, lab.x * k, lab.y * k, lab.w * k, lab.h * k) for lab in labels]
    return out, moved


def sweep(
    pairs: Iterable[tuple],
    die_sizes: Sequence[float] = DIE_SIZES,
    looks: Sequence[tuple[float, float]] = LOOKS,
    config: DiceConfig | None = None,
    seed: int = 0,
) -> dict:
    """{"<die_px>px blur <b> noise <n>": {"dice", "right", "wrong", "not_read",
    "false_alarms"}} over the labelled photos (``(image path, label path)`` pairs)."""
    config = config or DiceConfig()
    rng = np.random.default_rng(seed)
    photos = []
    for image_path, label_path in pairs:
        image = cv2.imread(str(image_path))
        if image is None:
            raise ValueError(f"cannot read image {image_path}")
        photos.append((image, load_yolo_labels(label_path, image.shape[1], image.shape[0])))
    out: dict[str, dict] = {}
    for size in die_sizes:
        for blur, noise in looks:
            n = dict(dice=0, right=0, wrong=0, not_read=0, false_alarms=0)
            for image, labels in photos:
                made = degrade(image, labels, size, blur, noise, rng)
                if made is None:
                    continue
                img, moved = made
                readings = read_dice(img, config)
                paired = match(readings, moved)
                right = sum(1 for i, j in paired if readings[i].value == moved[j].value)
                n["dice"] += len(moved)
                n["right"] += right
                n["wrong"] += len(paired) - right
                n["not_read"] += len(moved) - len(paired)
                n["false_alarms"] += len(readings) - len(paired)
            out[f"{size:g}px blur {blur:g} noise {noise:g}"] = n
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m vision.dice_sweep FOLDER", file=sys.stderr)
        return 2
    print(json.dumps(sweep(dataset_pairs(args[0])), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
