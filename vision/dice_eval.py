"""Measure the die reader against YOLO-labelled photos.

``python -m vision.dice_eval FOLDER [--drop 0.12] [--weights FILE --unseen]``: with ``--drop``
the pip finder misses a random fraction of the pips (three seeds), to check that missed pips
never give wrong values; ``--weights FILE --unseen`` reads, with other face-network weights,
only the photos they did not learn from.

``evaluate(pairs)`` takes ``(image_path, label_path)`` pairs (or ``(image, labels)`` already
loaded) and returns the found-with-right-value rate, the false alarm rate and ms per image.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

import vision.dice
from vision.dice import DiceConfig, DieReading, read_dice


@dataclass(frozen=True)
class LabelledDie:
    value: int  # 1..6
    x: float
    y: float
    w: float
    h: float  # pixel box


def load_yolo_labels(path: str | Path, width: int, height: int) -> list[LabelledDie]:
    """Read a YOLO label file (``CLASS CX CY W H`` per line, CLASS 0..5 = value 1..6)."""
    out = []
    for line in Path(path).read_text().splitlines():
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 5:
            raise ValueError(f"{path}: bad label line {line!r}")
        c, cx, cy, bw, bh = int(parts[0]), *map(float, parts[1:])
        if not 0 <= c <= 5:
            raise ValueError(f"{path}: class {c} outside 0..5")
        x0, y0 = (cx - bw / 2) * width, (cy - bh / 2) * height
        out.append(LabelledDie(c + 1, x0, y0, bw * width, bh * height))
    return out


def dataset_pairs(folder: str | Path) -> list[tuple[Path, Path]]:
    """(image, label) pairs for every ``NAME.jpg`` with a ``NAME.txt`` beside it."""
    folder = Path(folder)
    pairs = []
    for img in sorted(folder.glob("*.jpg")) + sorted(folder.glob("*.png")):
        lab = img.with_suffix(".txt")
        if lab.exists():
            pairs.append((img, lab))
    return pairs


def match(readings: list[DieReading], labels: list[LabelledDie]) -> list[tuple[int, int]]:
    """Pair readings with labels: a pair needs each box centre inside the other box (enlarged
    by half its size, since labels box the top face and readings may box the whole die);
    greedy by centre distance. Returns (reading index, label index) pairs."""
    cands = []
    for i, r in enumerate(readings):
        rc = np.array([r.x + r.w / 2, r.y + r.h / 2])
        for j, lab in enumerate(labels):
            lc = np.array([lab.x + lab.w / 2, lab.y + lab.h / 2])
            dx, dy = abs(rc - lc)
            sx = max(r.w, lab.w, 8.0)
            sy = max(r.h, lab.h, 8.0)
            if dx <= 0.75 * sx and dy <= 0.75 * sy:
                cands.append((float(np.hypot(dx, dy)), i, j))
    cands.sort()
    used_r, used_l, pairs = set(), set(), []
    for _, i, j in cands:
        if i in used_r or j in used_l:
            continue
        used_r.add(i)
        used_l.add(j)
        pairs.append((i, j))
    return pairs


def evaluate(
    image_label_pairs: Iterable[tuple],
    config: DiceConfig | None = None,
    details: bool = False,
) -> dict:
    """Run the reader over labelled photos.

    Each pair is ``(image_path, label_path)`` or ``(image_bgr, [LabelledDie, ...])``.
    Returns ``images``, ``dice`` (labelled), ``found_right`` (count and ``found_right_rate``),
    ``wrong_value``, ``missed``, ``false_alarms`` (readings matching no labelled die) and
    ``false_alarm_rate`` (per reading), ``ms_per_image``; with ``details`` also per-image rows.
    """
    config = config or DiceConfig()
    n_img = n_dice = right = wrong = missed = fa = n_read = 0
    t_total = 0.0
    rows = []
    for image, labels in image_label_pairs:
        name = str(image) if not isinstance(image, np.ndarray) else f"#{n_img}"
        if not isinstance(image, np.ndarray):
            image = cv2.imread(str(image))
            if image is None:
                raise ValueError(f"cannot read image {name}")
        if not isinstance(labels, list):
            labels = load_yolo_labels(labels, image.shape[1], image.shape[0])
        t0 = time.perf_counter()
        readings = read_dice(image, config)
        t_total += time.perf_counter() - t0
        pairs = match(readings, labels)
        r_ok = sum(1 for i, j in pairs if readings[i].value == labels[j].value)
        r_wrong = len(pairs) - r_ok
        n_img += 1
        n_dice += len(labels)
        right += r_ok
        wrong += r_wrong
        missed += len(labels) - len(pairs)
        fa += len(readings) - len(pairs)
        n_read += len(readings)
        if details:
            rows.append(
                {
                    "image": name,
                    "labels": [lab.value for lab in labels],
                    "readings": [r.value for r in readings],
                    "right": r_ok,
                    "wrong": r_wrong,
                    "missed": len(labels) - len(pairs),
                    "false_alarms": len(readings) - len(pairs),
                }
            )
    out = {
        "images": n_img,
        "dice": n_dice,
        "readings": n_read,
        "found_right": right,
        "found_right_rate": right / n_dice if n_dice else 0.0,
        "wrong_value": wrong,
        "missed": missed,
        "false_alarms": fa,
        "false_alarm_rate": fa / n_read if n_read else 0.0,
        "ms_per_image": 1000.0 * t_total / n_img if n_img else 0.0,
    }
    if details:
        out["rows"] = rows
    return out


@contextmanager
def dropped_pips(fraction: float, seed: int) -> Iterator[None]:
    """Within this block the die reader's pip finder misses a random ``fraction`` of the pips
    it finds (as a detector would on a poorly lit or blurred die): a stress test, since a
    reader must never turn a missed pip into a wrong value. Deterministic for a seed."""
    real = vision.dice.find_pips
    rng = np.random.default_rng(seed)

    def lossy(*args, **kwargs):
        pips = real(*args, **kwargs)
        keep = rng.random(len(pips)) >= fraction
        return [p for p, k in zip(pips, keep, strict=True) if k]

    vision.dice.find_pips = lossy
    try:
        yield
    finally:
        vision.dice.find_pips = real


def evaluate_dropped(
    image_label_pairs: list[tuple],
    fraction: float = 0.12,
    seeds: Iterable[int] = (0, 1, 2),
    config: DiceConfig | None = None,
) -> list[dict]:
    """:func:`evaluate` once per seed with :func:`dropped_pips` in force."""
    out = []
    for seed in seeds:
        with dropped_pips(fraction, seed):
            out.append({"seed": seed, **evaluate(image_label_pairs, config)})
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m vision.dice_eval FOLDER`` prints the figures for a labelled folder as JSON.

    ``--weights FILE`` reads with other face-network weights; ``--unseen`` reads only the
    photos those weights did not learn from (weights trained on half the photos, reading
    the other half: the honest measure of the network)."""
    import argparse
    import json
    import sys

    from vision import die_model

    ap = argparse.ArgumentParser(description="Measure the die reader on labelled photos.")
    ap.add_argument("folder")
    ap.add_argument("--drop", type=float, help="the pip finder misses this fraction of pips")
    ap.add_argument("--weights", help="face-network weights to read with (default: shipped)")
    ap.add_argument("--unseen", action="store_true", help="only photos the weights never saw")
    ap.add_argument("--details", action="store_true", help="per-photo rows too")
    args = ap.parse_args(argv)
    if args.weights:
        die_model.use_weights(args.weights)
    pairs = dataset_pairs(args.folder)
    if args.unseen:
        seen = die_model.trained_on()
        pairs = [(img, lab) for img, lab in pairs if img.name not in seen]
    if not pairs:
        print(f"no labelled images to read in {args.folder}", file=sys.stderr)
        return 1
    if args.drop is None:
        print(json.dumps(evaluate(pairs, details=args.details), indent=2))
    else:
        print(json.dumps(evaluate_dropped(pairs, args.drop), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
