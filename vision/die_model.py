"""A small learnt second opinion on a die face, for the faces the pip reader is unsure of.

The pip reader (:mod:`vision.dice`) counts pips and declines a face it cannot vouch for:
motion blur smears a six's columns into two bars, a far die's pips shrink to a few pixels.
A person still reads such a die at a glance from its overall pattern. This module does that
with a small convolutional network (three conv layers, about 90k weights) run in plain numpy:
it looks at a square crop around a candidate face, normalised for position, size and
brightness, and gives the probability of "no top face here" and of each value 1-6.

The weights live in ``vision/data/die_model.npz``; ``python -m vision.train_die_model`` makes
them anew from labelled photos (it needs PyTorch, which the referee itself never does).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

CROP = 32  # the network's input: a CROP x CROP grey patch
CONTEXT = 1.5  # crop side, in face box sides (the face, a margin of die body and table)
WEIGHTS = Path(__file__).with_name("data") / "die_model.npz"
# other weights (say, trained on half the photos, to measure the reader on the other half)
# may be named by this environment variable or by :func:`use_weights`
WEIGHTS_ENV = "BOARDREF_DIE_WEIGHTS"
_chosen: Path | None = None


def weights_path() -> Path:
    """The weights the reader uses: those chosen by :func:`use_weights`, else those named by
    ``$BOARDREF_DIE_WEIGHTS``, else the shipped ones."""
    if _chosen is not None:
        return _chosen
    named = os.environ.get(WEIGHTS_ENV)
    return Path(named) if named else WEIGHTS


def use_weights(path: str | Path | None) -> None:
    """Read with the weights in ``path`` from now on (None: back to the default), so a
    benchmark can measure weights that never saw the photos it reads."""
    global _chosen
    _chosen = None if path is None else Path(path)


@dataclass(frozen=True)
class FaceOpinion:
    """The network's view of one candidate: probabilities of no face (index 0) and of each
    value 1-6 (indices 1-6)."""

    probs: tuple[float, ...]

    @property
    def value(self) -> int:
        """The most likely value, 0 for "no top face here"."""
        return int(np.argmax(self.probs))

    @property
    def probability(self) -> float:
        return float(max(self.probs))


def patch_matrix(cx: float, cy: float, face_size: float, angle_deg: float = 0.0) -> np.ndarray:
    """The 2x3 affine map from image pixels to patch pixels for a crop around (cx, cy)."""
    side = max(face_size * CONTEXT, 4.0)
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), float(angle_deg), CROP / side)
    m[0, 2] += CROP / 2 - cx
    m[1, 2] += CROP / 2 - cy
    return m


def raw_patch(
    grey: np.ndarray,
    cx: float,
    cy: float,
    face_size: float,
    angle_deg: float = 0.0,
    flip: bool = False,
) -> np.ndarray:
    """The uint8 CROP x CROP crop around a face box centre, turned by ``angle_deg`` and
    mirrored if asked (both for training: a die face reads the same turned or mirrored)."""
    m = patch_matrix(cx, cy, face_size, angle_deg)
    patch = cv2.warpAffine(
        grey, m, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return patch[:, ::-1] if flip else patch


def face_patch(grey: np.ndarray, cx: float, cy: float, face_size: float) -> np.ndarray:
    """The network's input for a face centred at (cx, cy) whose box side is ``face_size``
    pixels: a CROP x CROP float32 patch with zero mean and unit spread, so the lamp and the
    camera's exposure do not matter."""
    return normalise(raw_patch(grey, cx, cy, face_size).astype(np.float32))


def normalise(patch: np.ndarray) -> np.ndarray:
    """Zero mean, unit standard deviation (a flat patch stays flat)."""
    patch = patch.astype(np.float32) - float(patch.mean())
    return np.ascontiguousarray(patch / max(float(patch.std()), 4.0), dtype=np.float32)


def _weights(path: Path | None = None) -> dict[str, np.ndarray]:
    """The weights in use (:func:`weights_path`), the convolution kernels already laid out as
    :func:`_conv_relu_pool` multiplies by them."""
    return _load_weights(path or weights_path())


@cache
def _load_weights(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        wts = {k: data[k].astype(np.float32) for k in data.files if k != "trained_on"}
    for i in (1, 2, 3):
        wts[f"conv{i}.weight"] = _conv_matrix(wts[f"conv{i}.weight"])
    return wts


def trained_on(path: Path | None = None) -> frozenset[str]:
    """The names of the labelled photos the network in use learnt from (a benchmark on
    those photos flatters it)."""
    with np.load(path or weights_path()) as data:
        return (
            frozenset(str(n) for n in data["trained_on"]) if "trained_on" in data else frozenset()
        )


def model_available(path: Path | None = None) -> bool:
    """Are the weights there (a source checkout or an installed package both ship them)?"""
    return (path or weights_path()).exists()


def _conv_relu_pool(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """3x3 convolution (padding 1), ReLU and 2x2 max pooling on a batch laid out (N, H, W, C)
    (channels last, so the nine shifted copies join without a transpose); ``w`` is laid out
    (dy, dx, C_in, C_out) flattened to (9 C_in, C_out), as :func:`_conv_matrix` makes it."""
    n, h, wd, c = x.shape
    # a border of zeros (np.pad's result; its own cost was half the network's)
    pad = np.zeros((n, h + 2, wd + 2, c), x.dtype)
    pad[:, 1:-1, 1:-1, :] = x
    cols = np.concatenate(
        [pad[:, dy : dy + h, dx : dx + wd, :] for dy in range(3) for dx in range(3)], axis=3
    )
    out = cols @ w
    out += b
    np.maximum(out, 0.0, out=out)
    # 2x2 max pooling as two pairwise maxima (the same maxima, at half the cost)
    quads = out.reshape(n, h // 2, 2, wd // 2, 2, -1)
    rows = np.maximum(quads[:, :, 0], quads[:, :, 1])
    return np.maximum(rows[:, :, :, 0], rows[:, :, :, 1])


def _conv_matrix(w: np.ndarray) -> np.ndarray:
    """A (C_out, C_in, 3, 3) convolution kernel as the (9 C_in, C_out) matrix that
    :func:`_conv_relu_pool` multiplies by."""
    return np.ascontiguousarray(w.transpose(2, 3, 1, 0).reshape(-1, w.shape[0]))


def forward(patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For a batch of patches (N, CROP, CROP): class probabilities (N, 7), and the way to
    the nearest die's face (N, 3): its centre's offset from the patch centre in patch sides
    (x, y) and the log of its true box side over the assumed one."""
    wts = _weights()
    x = patches.reshape(len(patches), CROP, CROP, 1).astype(np.float32)
    for i in (1, 2, 3):
        x = _conv_relu_pool(x, wts[f"conv{i}.weight"], wts[f"conv{i}.bias"])
    x = x.transpose(0, 3, 1, 2).reshape(len(x), -1)  # flattened as PyTorch does: (C, H, W)
    x = np.maximum(x @ wts["fc1.weight"].T + wts["fc1.bias"], 0.0)
    out = x @ wts["fc2.weight"].T + wts["fc2.bias"]
    logits = out[:, :7] - out[:, :7].max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True), out[:, 7:]


@dataclass(frozen=True)
class FaceFind:
    """Where the network settled on a face, and what it sees there."""

    cx: float
    cy: float
    size: float  # box side, pixels
    opinion: FaceOpinion


def find_faces(
    grey: np.ndarray, starts: list[tuple[float, float, float]], steps: int = 2
) -> list[FaceFind]:
    """From rough guesses (centre x, y and box side, e.g. a lone pip or a face the pip reader
    doubts), follow the network's way to the face ``steps`` times, then judge the face there.
    Guesses within about half a face of the true centre and within a factor 1.6 of its size
    arrive."""
    if not starts:
        return []
    at = np.array(starts, np.float64)
    for step in range(steps + 1):
        probs, way = forward(np.stack([face_patch(grey, x, y, s) for x, y, s in at]))
        if step == steps:
            break
        side = np.maximum(at[:, 2] * CONTEXT, 4.0)
        at[:, 0] += way[:, 0] * side
        at[:, 1] += way[:, 1] * side
        at[:, 2] *= np.exp(np.clip(way[:, 2], -0.7, 0.7))
    return [
        FaceFind(float(x), float(y), float(s), FaceOpinion(tuple(float(v) for v in row)))
        for (x, y, s), row in zip(at, probs, strict=True)
    ]


def steady_opinion(grey: np.ndarray, find: FaceFind) -> FaceOpinion:
    """The network's opinion of a found face, looked at four ways (turned by quarter turns
    and mirrored): a die's value does not change when its picture is turned, so a reading
    that does is not one to trust. Gives each class's smallest probability over the looks,
    renormalised: a value the looks agree on keeps a high probability."""
    patch = face_patch(grey, find.cx, find.cy, find.size)
    looks = np.stack([patch, np.rot90(patch, 1), np.rot90(patch, 2), patch[:, ::-1]])
    probs, _ = forward(np.ascontiguousarray(looks))
    low = probs.min(axis=0)
    return FaceOpinion(tuple(float(v) for v in low / max(float(low.sum()), 1e-9)))
