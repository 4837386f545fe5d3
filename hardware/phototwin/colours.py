"""Real token colours: what a red or blue piece looks like when it is made of plastic or glass.

A manufacturer's "red" is rarely the palette's red: one set is orange-red, another crimson. Each
colour name therefore has a few anchor colours (sRGB, measured by eye from common game pieces) and
a set's colour is drawn between two neighbouring anchors, then nudged a little per token (plastic
batches differ). Values are linear-light reflectances / transmittances in 0..1.
"""

from __future__ import annotations

import numpy as np

# sRGB anchors per colour name, from the most orange/light to the most bluish/dark variant.
ANCHORS: dict[str, tuple[tuple[int, int, int], ...]] = {
    "red": ((232, 64, 28), (218, 30, 30), (196, 18, 40), (168, 16, 48)),
    "blue": ((40, 130, 215), (28, 84, 196), (26, 52, 160), (44, 40, 150)),
    "yellow": ((252, 232, 60), (250, 206, 22), (244, 184, 16), (236, 168, 30)),
    "green": ((110, 190, 40), (46, 160, 64), (18, 120, 60), (16, 140, 110)),
    "purple": ((150, 80, 190), (118, 48, 160), (92, 40, 130)),
    "orange": ((250, 150, 30), (242, 120, 20), (226, 96, 24)),
    "white": ((246, 244, 236), (236, 236, 230), (248, 240, 222)),
    "black": ((40, 40, 40), (24, 24, 28), (30, 28, 26)),
}
# Skin tones for the hand that now and then reaches over the board (sRGB).
SKIN = ((236, 192, 160), (214, 160, 122), (176, 120, 84), (120, 78, 52), (88, 58, 40))


def srgb_to_linear(srgb: np.ndarray) -> np.ndarray:
    """sRGB values 0..1 -> linear light (the IEC 61966-2-1 curve)."""
    c = np.asarray(srgb, np.float32)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4).astype(np.float32)


def linear_to_srgb(lin: np.ndarray) -> np.ndarray:
    """Linear light 0..1 -> sRGB 0..1."""
    c = np.clip(lin, 0.0, 1.0)
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * np.power(c, 1 / 2.4) - 0.055).astype(
        np.float32
    )


def _between(anchors: tuple[tuple[int, int, int], ...], rng: np.random.Generator) -> np.ndarray:
    k = int(rng.integers(len(anchors) - 1)) if len(anchors) > 1 else 0
    a = np.array(anchors[k], np.float32)
    b = np.array(anchors[min(k + 1, len(anchors) - 1)], np.float32)
    return a + (b - a) * float(rng.random())


def set_colour(name: str, rng: np.random.Generator) -> np.ndarray:
    """One token set's colour (linear RGB albedo) for a colour name, drawn from its range."""
    if name not in ANCHORS:
        raise ValueError(f"no real-world colour range for {name!r}; known: {sorted(ANCHORS)}")
    return srgb_to_linear(_between(ANCHORS[name], rng) / 255.0)


def token_colour(base: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One token of a set: the set's colour, a few percent off per channel (batch variation)."""
    return np.clip(base * rng.uniform(0.94, 1.06, 3).astype(np.float32), 0.0, 1.0)


def skin_colour(rng: np.random.Generator) -> np.ndarray:
    """A skin tone (linear RGB albedo) for the hand."""
    return srgb_to_linear(_between(SKIN, rng) / 255.0)
