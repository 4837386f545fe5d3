import cv2
import numpy as np
import pytest

import rules
from hardware.simtable import SimulatedTable
from rules.palette import UNKNOWN
from tests.boards import circle_board, cross_board, game_boards, grid_board
from tests.twin_photos import twin_frame
from vision import aruco
from vision import locate as locate_module
from vision.config import DEFAULT_CONFIG, VisionConfig
from vision.locate import detect_markers, identify_game, locate, marker_windows

BOARDS = [cross_board(), grid_board(), circle_board(), *game_boards()]


def _max_space_error_mm(board, truth_h, homography):
    pts = np.array([[[s.x, s.y] for s in board.spaces]], np.float64)
    img = cv2.perspectiveTransform(pts, truth_h)
    back = cv2.perspectiveTransform(img, homography)
    return float(np.abs(back - pts).max())


@pytest.mark.parametrize("seed", range(len(BOARDS) + 2))
def test_game_recognised_and_homography_accurate(seed):
    board = BOARDS[seed % len(BOARDS)]
    frame, truth = SimulatedTable(board, seed=seed).render({board.spaces[0].id: "red"})
    loc = locate(DEFAULT_CONFIG, frame, BOARDS)
    assert loc is not None and loc.board is board
    assert loc.markers == tuple(sorted(board.marker_ids)) and loc.source == "markers"
    assert _max_space_error_mm(board, truth.homography, loc.homography) < 0.5


def _cover_marker(frame, truth, board, marker_id):
    sq = np.array([board.marker_squares()[marker_id]], np.float64)
    poly = cv2.perspectiveTransform(sq, truth.homography)[0]
    centre = poly.mean(0)
    big = (centre + 1.6 * (poly - centre)).astype(np.int32)
    cv2.fillConvexPoly(frame, big, (60, 90, 130))  # a cup over the corner


def test_located_with_one_and_two_markers_covered():
    board = BOARDS[0]
    table = SimulatedTable(board, seed=11)
    frame, truth = table.render({})
    good = locate(DEFAULT_CONFIG, frame, BOARDS)
    covered, truth2 = table.render({}, index=5)
    _cover_marker(covered, truth2, board, board.marker_ids[0])
    loc = locate(DEFAULT_CONFIG, covered, BOARDS)
    assert loc is not None and len(loc.markers) == 3 and loc.source == "markers"
    assert _max_space_error_mm(board, truth2.homography, loc.homography) < 1.0
    _cover_marker(covered, truth2, board, board.marker_ids[2])
    loc = locate(DEFAULT_CONFIG, covered, BOARDS, last_homography=good.homography)
    assert loc is not None and len(loc.markers) == 2
    assert _max_space_error_mm(board, truth2.homography, loc.homography) < 1.5
    _cover_marker(covered, truth2, board, board.marker_ids[1])  # one marker left
    assert locate(DEFAULT_CONFIG, covered, BOARDS) is None  # not enough on its own
    loc = locate(DEFAULT_CONFIG, covered, BOARDS, last_homography=good.homography)
    assert loc is not None and loc.source == "last" and loc.markers == (board.marker_ids[3],)


def test_moved_camera_does_not_reuse_a_stale_homography():
    board = BOARDS[0]
    frame, _ = SimulatedTable(board, seed=1).render({})
    other = SimulatedTable(board, seed=2)
    stale = locate(DEFAULT_CONFIG, other.render({})[0], BOARDS).homography
    # hide three markers: the one left disagrees with the stale homography -> not located
    markers = [m for m in detect_markers(DEFAULT_CONFIG, frame) if m.id == board.marker_ids[0]]
    assert locate(DEFAULT_CONFIG, frame, BOARDS, stale, markers=markers) is None


def test_unknown_markers_and_blank_frames_are_not_a_game():
    assert identify_game([], BOARDS) is None
    blank = np.full((480, 640, 3), 200, np.uint8)
    assert locate(DEFAULT_CONFIG, blank, BOARDS) is None


@pytest.mark.parametrize(
    "bad",
    [np.zeros((0, 0, 3), np.uint8), np.zeros((100, 100, 3), np.float32), "frame.jpg",
     np.zeros((100, 100, 4), np.uint8)],
)  # fmt: skip
def test_corrupt_frames_raise_value_error(bad):
    with pytest.raises(ValueError):
        locate(DEFAULT_CONFIG, bad, BOARDS)


def test_tracking_searches_the_last_boards_windows_and_finds_what_a_full_search_finds(
    monkeypatch,
):
    board = BOARDS[-1]  # last in the list: the other boards' windows would be tried first
    table = SimulatedTable(board, seed=3)
    first = locate(DEFAULT_CONFIG, table.render({})[0], BOARDS)
    frame, truth = table.render({}, index=1)
    searched = []
    real = locate_module.detect_markers

    def spy(config, image, rois=None):
        searched.append(rois)
        return real(config, image, rois)

    monkeypatch.setattr(locate_module, "detect_markers", spy)
    tracked = locate(DEFAULT_CONFIG, frame, BOARDS, last_homography=first.homography)
    assert searched == [marker_windows(board, first.to_image)]  # one look, no full search
    assert tracked is not None and tracked.board is board and tracked.source == "markers"
    full = {m.id: m.corners for m in real(DEFAULT_CONFIG, frame)}
    assert sorted(tracked.marker_corners) == sorted(full) == sorted(board.marker_ids)
    for marker_id, corners in tracked.marker_corners.items():
        assert np.abs(corners - full[marker_id]).max() < 0.05  # sub-pixel refinement's eps


def test_tracking_falls_back_to_a_full_search_when_the_markers_moved(monkeypatch):
    board = BOARDS[0]
    stale = locate(DEFAULT_CONFIG, SimulatedTable(board, seed=2).render({})[0], BOARDS)
    frame, truth = SimulatedTable(board, seed=7).render({})  # another camera pose
    searched = []
    windows, whole = locate_module.detect_markers, locate_module._search_frame

    def spy_windows(config, image, rois=None):
        searched.append("windows")
        return windows(config, image, rois)

    def spy_whole(config, image, boards):
        searched.append("frame")
        return whole(config, image, boards)

    monkeypatch.setattr(locate_module, "detect_markers", spy_windows)
    monkeypatch.setattr(locate_module, "_search_frame", spy_whole)
    loc = locate(DEFAULT_CONFIG, frame, BOARDS, last_homography=stale.homography)
    assert searched == ["windows"] * len(BOARDS) + ["frame"]  # every board's windows, then all
    assert loc is not None and loc.board is board and loc.source == "markers"
    assert _max_space_error_mm(board, truth.homography, loc.homography) < 0.5


def test_a_frame_searched_from_a_glance_gives_the_full_searchs_very_corners():
    for seed, board in enumerate(BOARDS):
        frame, _ = SimulatedTable(board, seed=40 + seed).render({})
        full = {m.id: m.corners for m in detect_markers(DEFAULT_CONFIG, frame)}
        glanced = locate_module._search_frame(DEFAULT_CONFIG, frame, BOARDS)
        assert {m.id for m in glanced} == set(full) == set(board.marker_ids)
        for marker in glanced:
            assert np.array_equal(marker.corners, full[marker.id])


def test_an_inconclusive_glance_searches_the_whole_frame():
    board = BOARDS[1]
    frame, truth = SimulatedTable(board, seed=9).render({})
    _cover_marker(frame, truth, board, board.marker_ids[2])  # three markers: windows find 3
    assert locate_module._glance(
        DEFAULT_CONFIG, cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY),
        cv2.resize(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), None, fx=0.5, fy=0.5,
                   interpolation=cv2.INTER_AREA), BOARDS,
    ) is None  # fmt: skip
    loc = locate(DEFAULT_CONFIG, frame, BOARDS)
    assert loc is not None and loc.board is board and len(loc.markers) == 3


def _marker_on_paper(side_px: int) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """One marker `side_px` wide on white in a 1280x960 grey frame, and a window around it."""
    frame = np.full((960, 1280), 235, np.uint8)
    marker = aruco.marker_image(7, side_px)
    frame[400 : 400 + side_px, 600 : 600 + side_px] = marker
    return frame, (600 - side_px, 400 - side_px, 600 + 2 * side_px, 400 + 2 * side_px)


def test_a_window_accepts_the_same_smallest_marker_as_the_full_frame():
    # ArUco scales its smallest outline by the image it is given; a window must not lower it.
    # Here the full search (0.1 * 640 px at detect_scale 0.5) wants a marker >= 32 px wide.
    config = VisionConfig(min_marker_perimeter=0.1)
    for side, seen in ((24, False), (48, True)):
        frame, window = _marker_on_paper(side)
        assert bool(detect_markers(config, frame)) is seen
        assert bool(detect_markers(config, frame, [window])) is seen


@pytest.mark.parametrize("side_px", [26, 30])
def test_small_blurred_turned_markers_are_read(side_px):
    """A board far from the camera: markers ~25 px wide, turned, defocused and JPEG'd, as in
    photo-like frames the reader was not developed on. Their bits are read from each cell's
    middle (the cell edges are smeared into their neighbours)."""
    frame = np.full((480, 640), 120, np.uint8)
    ids = [3, 7, 12, 30]
    for n, marker_id in enumerate(ids):
        card = np.full((4 * side_px, 4 * side_px), 235, np.uint8)  # the white card around it
        big = aruco.marker_image(marker_id, 8 * side_px)
        card[
            side_px // 2 : side_px // 2 + 3 * side_px, side_px // 2 : side_px // 2 + 3 * side_px
        ] = cv2.resize(big, (3 * side_px, 3 * side_px), interpolation=cv2.INTER_AREA)
        turn = cv2.getRotationMatrix2D((2 * side_px, 2 * side_px), 37 + 11 * n, 1 / 3)
        card = cv2.warpAffine(card, turn, card.shape[::-1], borderValue=235)
        x, y = 40 + 150 * n, 200
        frame[y : y + card.shape[0], x : x + card.shape[1]] = card
    frame = cv2.GaussianBlur(frame, (0, 0), 1.2)
    ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 75])
    frame = cv2.cvtColor(cv2.imdecode(jpeg, cv2.IMREAD_GRAYSCALE), cv2.COLOR_GRAY2BGR)
    found = {m.id for m in detect_markers(DEFAULT_CONFIG, frame)}
    assert found == set(ids)


@pytest.mark.parametrize("name", ["aggravation", "manji"])
def test_a_far_board_missing_markers_at_search_scale_is_fitted_on_all_four(name):
    """The board at under half its usual size: the half-scale search finds two markers, and a
    fit on two small markers misplaces far spaces; the others are looked for at full size."""
    board = rules.get(name).board
    frame, _ = SimulatedTable(board, seed=3).render({}, hand=False, index=0)
    small = cv2.resize(frame, None, fx=0.45, fy=0.45, interpolation=cv2.INTER_AREA)
    far = np.full_like(frame, 90)
    y, x = (frame.shape[0] - small.shape[0]) // 2, (frame.shape[1] - small.shape[1]) // 2
    far[y : y + small.shape[0], x : x + small.shape[1]] = small
    far = cv2.GaussianBlur(far, (0, 0), 0.8)
    found = locate(DEFAULT_CONFIG, far, [board])
    assert found is not None and set(found.markers) == set(board.marker_ids)


def test_two_markers_place_the_board_only_through_its_holes():
    """A fit on two markers is within 1.5 mm at their corners yet half a spacing out across
    the board (independent photo-like frames: 8 spaces misread): alone it places nothing, and
    the board is placed only by a fit grown from them through its holes (vision.two_markers,
    tests/test_two_markers.py), or by the last fit they still agree with."""
    board = BOARDS[0]
    table = SimulatedTable(board, seed=11)
    good = locate(DEFAULT_CONFIG, table.render({})[0], BOARDS)
    covered, truth = table.render({}, index=5)
    _cover_marker(covered, truth, board, board.marker_ids[0])
    _cover_marker(covered, truth, board, board.marker_ids[2])
    grown = locate(DEFAULT_CONFIG, covered, BOARDS)
    assert grown is not None and grown.source == "two markers and holes"
    assert _max_space_error_mm(board, truth.homography, grown.homography) < 1.0
    kept = locate(DEFAULT_CONFIG, covered, BOARDS, last_homography=good.homography)
    assert kept is not None and kept.source == "last"


def _far_frame(frame, truth_h, fx):
    """The frame shrunk by `fx` into the middle of a grey one (a board twice as far away),
    and the board mm -> px homography of the shrunk frame."""
    small = cv2.resize(frame, None, fx=fx, fy=fx, interpolation=cv2.INTER_AREA)
    far = np.full_like(frame, 90)
    y, x = (frame.shape[0] - small.shape[0]) // 2, (frame.shape[1] - small.shape[1]) // 2
    far[y : y + small.shape[0], x : x + small.shape[1]] = small
    shrink = np.array([[fx, 0, x + 0.5 * fx - 0.5], [0, fx, y + 0.5 * fx - 0.5], [0, 0, 1]])
    return cv2.GaussianBlur(far, (0, 0), 0.6), shrink @ truth_h


@pytest.mark.parametrize("name", ["aggravation", "manji"])
def test_a_board_whose_markers_are_too_small_at_search_scale_is_searched_at_full_size(name):
    """At a third of its usual size the half-scale search reads fewer than three of the
    board's markers (independent photo-like frames of boards far from the camera were not
    located at all); the whole frame is then searched at full size."""
    board = rules.get(name).board
    frame, truth = SimulatedTable(board, seed=3).render({}, hand=False, index=0)
    far, far_h = _far_frame(frame, truth.homography, 0.33)
    found = locate(DEFAULT_CONFIG, far, [board])
    assert found is not None and len(found.markers) >= 3
    assert _max_space_error_mm(board, far_h, found.homography) < 1.5


def test_a_marker_whose_corners_disagree_is_left_out_of_the_fit():
    """A hand over a marker's edge, or glare on it, bends its corners: the other three still
    place the board (an independent photo-like frame with a hand near a corner was not
    located: the four-marker fit was 1.7 mm out)."""
    board = BOARDS[0]
    frame, truth = SimulatedTable(board, seed=4).render({})
    markers = detect_markers(DEFAULT_CONFIG, frame)
    assert locate(DEFAULT_CONFIG, frame, [board], markers=markers) is not None
    bent = [
        m
        if m.id != board.marker_ids[1]
        else type(m)(m.id, m.corners + [[0, 0], [20, 8], [20, 8], [0, 0]])
        for m in markers
    ]
    found = locate(DEFAULT_CONFIG, frame, [board], markers=bent)
    assert found is not None and found.source == "markers"
    assert _max_space_error_mm(board, truth.homography, found.homography) < 0.5


def _space_offsets_mm(board, truth: dict, homography: np.ndarray) -> np.ndarray:
    """(N, 2) mm: where the fit puts each space the photo shows, less where it is printed."""
    ids = board.ids()
    px = np.array([[truth["spaces_px"][s] for s in ids]], np.float64)
    mm = cv2.perspectiveTransform(px, homography)[0]
    return mm - np.array([[board.spaces[i].x, board.spaces[i].y] for i in range(len(ids))])


def _worst_space_mm(board, truth: dict, homography: np.ndarray) -> float:
    """How far (mm, along either axis) the fit puts the space furthest from its print."""
    return float(np.abs(_space_offsets_mm(board, truth, homography)).max())


def _unplaced_reading(tmp_path, name: str, seed: int, index: int) -> dict:
    """`vision read` on a twin photo (every condition) whose board cannot be placed."""
    from device.vision_cli import read_board
    from hardware.phototwin import render

    jpeg, _ = render(name, seed, index, "all")
    frame = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert locate(DEFAULT_CONFIG, frame, [rules.get(name).board]) is None
    photo = tmp_path / f"{name}.jpg"
    photo.write_bytes(jpeg)  # (the photo as the camera wrote it)
    reading = read_board(name, str(photo))
    assert reading["located"] is False and reading["placement"] == {}
    return reading


@pytest.mark.parametrize(
    ("name", "seed", "index"), [("aggravation", 2008, 0), ("manipulation", 2008, 0)]
)
def test_markers_under_glare_are_read_against_their_own_neighbourhood(name, seed, index):
    """Glare on a glossy print fades across a marker: its black cells on the bright side come
    out lighter than its white cells elsewhere, and ArUco found the outline but rejected the
    bits. Two of four markers were found and the board was not located (independent twin
    frames, dev seed 2008, set "all"); the missing ones are read with their contrast
    flattened over two of their cells, where the other two say they are."""

    board = rules.get(name).board
    frame, truth = twin_frame(name, seed, index, "all")
    assert len({m.id for m in detect_markers(DEFAULT_CONFIG, frame)}) == 2
    found = locate(DEFAULT_CONFIG, frame, [board])
    assert found is not None and set(found.markers) == set(board.marker_ids)
    assert _worst_space_mm(board, truth, found.homography) < 3.5


@pytest.mark.parametrize(("seed", "index", "plainly_read"), [(5401, 0, 3), (6600, 1, 2)])
def test_a_board_with_too_few_markers_read_is_placed_by_the_searchs_fallbacks(
    seed, index, plainly_read
):
    """Two twin photos of The Right Moves (every condition; rendered as held out, so found).
    Seed 5401, photo 0: a board far off, out of focus and JPEG-compressed, its markers 30 px
    wide, each cell's bits smeared into its neighbours; ArUco read one of four. Where fewer
    than three of a board's markers are read, the frame is read once more letting one wrong
    bit per marker be corrected. Seed 6600, photo 1: a small board under glare with an arm
    over one marker; that read one of the other three (ArUco found their outlines and
    rejected the bits), and with one found nothing says where the others lie to look closer.
    Then the whole frame is read once more with its contrast flattened over cells the size
    of the markers found. Either way the fit still needs three markers that agree with the
    board's layout."""
    board = rules.get("the-right-moves").board
    frame, truth = twin_frame("the-right-moves", seed, index, "all")
    assert len({m.id for m in detect_markers(DEFAULT_CONFIG, frame)}) < plainly_read
    found = locate(DEFAULT_CONFIG, frame, [board])
    assert found is not None and len(found.markers) >= 3
    # (its A4 sheets are taped a little off their places: no marker fit places every space
    # exactly; the reader looks over each space's whole cell)
    assert _worst_space_mm(board, truth, found.homography) < 5.0


def test_three_markers_that_fit_a_strong_lens_loosely_do_not_place_the_board(tmp_path):
    """A wide lens close above (k1 near 0.05), tilted, its fourth marker unread: three markers
    fitted as a plane missed their corners by 1.48 mm, which passed, and put spaces up to 11 mm
    off where the fourth was missing; five tokens were read on their neighbours' spaces with
    confidence (twin seed 5600, photo 1, all conditions: rendered as held out, so found). Three
    markers leave no fourth to check the fit: they must fit closer, else nothing is read, and
    the message says the markers were seen."""
    frame, _ = twin_frame("manji", 5600, 1, "all")
    assert len({m.id for m in detect_markers(DEFAULT_CONFIG, frame)}) == 3
    reading = _unplaced_reading(tmp_path, "manji", 5600, 1)
    assert "are in view but do not fit" in reading["message"]


def test_the_message_names_markers_found_only_by_the_searchs_fallbacks(tmp_path, monkeypatch):
    """A bent sheet under glare, an arm over its fourth marker: the search found three
    markers only with its contrast flattened, and they did not fit the flat board, so
    nothing was read; but the message, made from a plain detection, said fewer than three
    were in view (twin seed 6900, photo 3, every condition; rendered as held out, measured
    once). It names what the search itself found. (Since the markers' shared bleeding is
    taken out of their fit, `vision.marker_spread`, this photo is placed; here that is turned
    off, as for a sheet bent further.)"""
    monkeypatch.setattr("vision.locate.spread_fit", lambda *_: None)
    frame, _ = twin_frame("aggravation", 6900, 3, "all")
    assert len({m.id for m in detect_markers(DEFAULT_CONFIG, frame)}) < 3
    reading = _unplaced_reading(tmp_path, "aggravation", 6900, 3)
    assert "markers [0, 1, 2] are in view but do not fit" in reading["message"]


def test_three_bleeding_markers_of_a_bent_sheet_place_it_and_nothing_is_misread():
    """The same photo with the markers' bleeding taken out of their fit: placed, and the
    spaces the holes' fit cannot confirm are unclear, none misread."""
    from vision.observation import observe

    board = rules.get("aggravation").board
    frame, truth = twin_frame("aggravation", 6900, 3, "all")
    found = locate(DEFAULT_CONFIG, frame, [board])
    assert found is not None and found.markers == (0, 1, 2)
    spaces = observe(frame, [board]).spaces
    wrong = [s for s, (c, _) in spaces.items() if c not in (truth["placement"].get(s), UNKNOWN)]
    assert wrong == []
    assert sum(c != UNKNOWN for c, _ in spaces.values()) > len(spaces) / 2


def test_three_markers_of_a_small_board_in_the_frame_place_it_by_how_few_pixels_they_miss():
    """A hand over one corner marker of a board filling little of the frame: the other three
    missed their corners by 1.21 mm, over the 1.2 mm a fit on three may miss by, and nothing was
    read, though the fit placed every space within a millimetre (twin seed 6000, photo 0,
    issue conditions: rendered as held out, measured once, so found). In the image the miss
    was under two pixels: corner noise, no lens bend."""
    from vision.observation import observe

    board = rules.get("playground-battles").board
    frame, truth = twin_frame("playground-battles", 6000, 0, "issue14")
    found = locate(DEFAULT_CONFIG, frame, [board])
    assert found is not None and len(found.markers) == 3 and found.error_mm > 1.2
    assert np.hypot(*_space_offsets_mm(board, truth, found.homography).T).max() < 2.0
    spaces = observe(frame, [board]).spaces
    wrong = [s for s, (c, _) in spaces.items() if c not in (truth["placement"].get(s), UNKNOWN)]
    assert wrong == []
