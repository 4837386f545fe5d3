"""The OpenCV 4.6 ArUco path (Raspberry Pi OS Bookworm's apt python3-opencv), run on OpenCV 5.

CI has only OpenCV 5, so these tests swap `cv2.aruco` for a stand-in with 4.6's surface: no
ArucoDetector or generateImageMarker, the functional names with 4.6's signatures, a
DetectorParameters that must not be called (in 4.6 it makes an object that segfaults when read).
The stand-in delegates to the real modern API, so the board is really found in the frame.
Under a real 4.6 these tests skip and the rest of the suite runs that path (docs/development.md,
"OpenCV 4.6").
"""

from collections import Counter
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from hardware.artwork import render_board
from hardware.simtable import SimulatedTable
from tests.boards import cross_board, game_boards
from vision import aruco, locate
from vision.config import DEFAULT_CONFIG

BOARDS = [cross_board(), *game_boards()]

pytestmark = pytest.mark.skipif(
    not hasattr(cv2.aruco, "ArucoDetector"),
    reason="the stand-in delegates to OpenCV >= 4.7; under a real 4.6 the other tests run its path",
)


def _aruco46(real) -> tuple[SimpleNamespace, Counter]:
    """A cv2.aruco lookalike exposing only what OpenCV 4.6 has; counts the calls it gets."""
    calls: Counter = Counter()

    def detector_parameters_create():
        calls["DetectorParameters_create"] += 1
        return real.DetectorParameters()

    def detector_parameters():
        raise AssertionError("4.6's DetectorParameters() crashes when read: use _create")

    def detect_markers(image, dictionary, corners=None, ids=None, parameters=None, rejected=None):
        assert corners is None and ids is None, "4.6 takes parameters by name, not position"
        calls["detectMarkers"] += 1
        params = parameters if parameters is not None else real.DetectorParameters()
        return real.ArucoDetector(dictionary, params).detectMarkers(image)

    def draw_marker(dictionary, marker_id, side_pixels, img=None, border_bits=1):
        calls["drawMarker"] += 1
        return real.generateImageMarker(dictionary, marker_id, side_pixels, img, border_bits)

    names = ("DICT_4X4_50", "CORNER_REFINE_NONE", "getPredefinedDictionary")
    stand_in = SimpleNamespace(
        **{name: getattr(real, name) for name in names},
        Dictionary_get=real.getPredefinedDictionary,
        DetectorParameters=detector_parameters,
        DetectorParameters_create=detector_parameters_create,
        detectMarkers=detect_markers,
        drawMarker=draw_marker,
    )
    return stand_in, calls


@pytest.fixture
def opencv46(monkeypatch) -> Counter:
    """Run the test body against the 4.6-shaped cv2.aruco; detectors made before are dropped."""
    stand_in, calls = _aruco46(cv2.aruco)
    monkeypatch.setattr(cv2, "aruco", stand_in)
    monkeypatch.setattr(locate, "_DETECTORS", {})
    return calls


def _space_error_mm(board, truth_h, homography) -> float:
    pts = np.array([[[s.x, s.y] for s in board.spaces]], np.float64)
    back = cv2.perspectiveTransform(cv2.perspectiveTransform(pts, truth_h), homography)
    return float(np.abs(back - pts).max())


def test_the_stand_in_has_no_modern_names(opencv46):
    for name in ("ArucoDetector", "generateImageMarker"):
        assert not hasattr(cv2.aruco, name)


def test_markers_are_drawn_with_draw_marker_and_match_the_modern_ones(opencv46):
    img = aruco.marker_image(7, 96)
    assert opencv46["drawMarker"] == 1
    dictionary = cv2.aruco.getPredefinedDictionary(aruco.DICTIONARY_ID)
    assert img.shape == (96, 96) and img.dtype == np.uint8
    assert np.array_equal(img, cv2.aruco.drawMarker(dictionary, 7, 96))


@pytest.mark.parametrize("seed", [0, 3])
def test_board_drawn_and_located_through_the_46_api(opencv46, seed):
    board = BOARDS[seed % len(BOARDS)]
    table = SimulatedTable(board, seed=seed)
    frame, truth = table.render({board.spaces[0].id: "red"})
    assert opencv46["drawMarker"] == len(board.marker_ids)  # the board's markers
    loc = locate.locate(DEFAULT_CONFIG, frame, BOARDS)
    assert opencv46["detectMarkers"] >= 1 and opencv46["DetectorParameters_create"] >= 1
    assert loc is not None and loc.board is board and loc.source == "markers"
    assert loc.markers == tuple(sorted(board.marker_ids))
    assert _space_error_mm(board, truth.homography, loc.homography) < 0.5
    # tracking: the next frame is searched in windows where each game's markers would be
    frame2, truth2 = table.render({board.spaces[0].id: "red"}, index=1)
    calls = opencv46["detectMarkers"]
    tracked = locate.locate(DEFAULT_CONFIG, frame2, BOARDS, last_homography=loc.homography)
    assert opencv46["detectMarkers"] - calls >= len(board.marker_ids)  # one per window
    assert tracked is not None and tracked.board is board
    assert _space_error_mm(board, truth2.homography, tracked.homography) < 0.5


def test_46_path_gives_the_modern_results(request):
    board = BOARDS[0]
    modern_art = render_board(board)
    frame, _ = SimulatedTable(board, seed=5).render({})
    modern = {m.id: m.corners for m in locate.detect_markers(DEFAULT_CONFIG, frame)}
    calls = request.getfixturevalue("opencv46")  # from here on, the 4.6-shaped cv2.aruco
    assert np.array_equal(render_board(board), modern_art)
    old = {m.id: m.corners for m in locate.detect_markers(DEFAULT_CONFIG, frame)}
    assert calls["detectMarkers"] == 1 and sorted(old) == sorted(modern) == sorted(board.marker_ids)
    for marker_id, corners in modern.items():
        assert np.abs(old[marker_id] - corners).max() < 1e-6
