"""ArUco across OpenCV versions: the one module that knows which cv2.aruco API is installed.

Raspberry Pi OS Bookworm's apt python3-opencv is 4.6.0, whose aruco module has only the
functional API (DetectorParameters_create, detectMarkers, drawMarker). OpenCV 4.7 brought
ArucoDetector, DetectorParameters() and generateImageMarker, and OpenCV 5 dropped the old names.
Each helper looks at `cv2.aruco` when called, not at import, so a test can put a 4.6-shaped
stand-in there. getPredefinedDictionary exists in 4.6 and 5 alike, so it needs no fallback.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import cv2
import numpy as np

DICTIONARY_ID = cv2.aruco.DICT_4X4_50  # the project's boards all print DICT_4X4_50 markers

# image -> (marker corners, ids or None), as cv2.aruco's detectMarkers returns them
Detect = Callable[[np.ndarray], tuple[Sequence[np.ndarray], np.ndarray | None]]


def marker_dictionary() -> Any:
    """The DICT_4X4_50 dictionary that boards print and the camera reads."""
    return cv2.aruco.getPredefinedDictionary(DICTIONARY_ID)


def detector_parameters() -> Any:
    """Detector parameters with OpenCV's defaults.

    4.6 has a DetectorParameters class too, but an instance made by calling it directly crashes
    the process (segfault) when read: DetectorParameters_create must win where it exists.
    """
    aruco = cv2.aruco
    if hasattr(aruco, "DetectorParameters_create"):
        return aruco.DetectorParameters_create()
    return aruco.DetectorParameters()


def make_detector(dictionary: Any, params: Any) -> Detect:
    """A reusable marker detector: ArucoDetector (>= 4.7) or 4.6's detectMarkers."""
    aruco = cv2.aruco
    if hasattr(aruco, "ArucoDetector"):
        detector = aruco.ArucoDetector(dictionary, params)
        return lambda image: detector.detectMarkers(image)[:2]
    # 4.6: the third positional argument is `corners`, so parameters must be named
    return lambda image: aruco.detectMarkers(image, dictionary, parameters=params)[:2]


def rejected_outlines(dictionary: Any, params: Any, image: np.ndarray) -> list[np.ndarray]:
    """The square outlines a detection found but whose bits it could not read (4x2 each)."""
    aruco = cv2.aruco
    if hasattr(aruco, "ArucoDetector"):
        rejected = aruco.ArucoDetector(dictionary, params).detectMarkers(image)[2]
    else:
        rejected = aruco.detectMarkers(image, dictionary, parameters=params)[2]
    return [np.asarray(r, np.float64).reshape(4, 2) for r in rejected]


def marker_image(marker_id: int, side_px: int) -> np.ndarray:
    """One marker as a grey side_px x side_px image: generateImageMarker or 4.6's drawMarker."""
    aruco = cv2.aruco
    draw = getattr(aruco, "generateImageMarker", None) or aruco.drawMarker
    return draw(marker_dictionary(), int(marker_id), int(side_px))
