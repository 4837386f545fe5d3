"""Vision settings shared by every stage, and the frame check every stage starts with."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class VisionConfig:
    # locate
    detect_scale: float = 0.5  # markers are searched on a frame scaled by this factor
    track: bool = True  # with a last homography, search only where the markers were
    refine_corners: bool = True  # sub-pixel refinement on the full-size frame
    min_marker_perimeter: float = 0.03  # of the larger image side
    max_marker_error_mm: float = 1.5  # seen marker corners must fit the homography this well
    # spaces
    sample_radius: float = 0.55  # sampled disc radius, as a fraction of board.hole_radius
    sample_grid: int = 7  # sample points per disc diameter
    min_confidence: float = 0.5  # below this a space reads UNKNOWN
    max_distance: float = 24.0  # LAB distance beyond which nothing known matches
    max_distance_unlearned: float = 45.0  # the same for a space never seen empty...
    token_clearance: float = 30.0  # ...which then must be at least this far from every token
    # hand
    hand_px: int = 256  # the hand check works on a top view this many pixels across
    hand_min_area: float = 0.005  # foreign blob area, as a fraction of the board's area
    hand_diff: float = 45.0  # change against the reference top view that counts as foreign


DEFAULT_CONFIG = VisionConfig()


def check_frame(image: object) -> np.ndarray:
    """A usable camera frame (HxWx3 or HxW uint8, non-empty) or a ValueError saying why not."""
    if not isinstance(image, np.ndarray):
        raise ValueError(f"a frame must be a numpy array, got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise ValueError(f"a frame must be uint8, got dtype {image.dtype}")
    if image.ndim not in (2, 3) or (image.ndim == 3 and image.shape[2] != 3):
        raise ValueError(f"a frame must be HxWx3 (BGR) or HxW (grey), got shape {image.shape}")
    if image.shape[0] < 16 or image.shape[1] < 16:
        raise ValueError(f"a frame must be at least 16x16 pixels, got shape {image.shape}")
    return image
