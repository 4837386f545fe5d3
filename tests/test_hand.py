"""The hand check: a foreign blob over the plain board, against the calibration's top view."""

import cv2
import numpy as np

from hardware.simtable import SimulatedTable
from tests.boards import cross_board
from vision import hand
from vision.bench import calibration_placement
from vision.calibrate import calibrate
from vision.config import DEFAULT_CONFIG
from vision.locate import locate


def _table_and_reference(seed: int):
    board = cross_board()
    table = SimulatedTable(board, seed=seed)
    start = calibration_placement(board)
    cal = calibrate(board, [(table.render(start, hand=False)[0], start)])
    return board, table, cal.top_view


def test_remembered_reference_is_not_reused_once_part_of_the_board_leaves_the_frame():
    board, table, reference = _table_and_reference(seed=5)
    frame, _ = table.render({}, hand=True, index=3)
    homography = locate(DEFAULT_CONFIG, frame, [board]).homography
    whole = hand.detect_hand(DEFAULT_CONFIG, frame, board, homography, reference)
    assert whole.hand
    half = frame.copy()
    half[:, : frame.shape[1] // 2] = 0  # as if the camera saw only the right half
    seen = hand.detect_hand(DEFAULT_CONFIG, half, board, homography, reference)
    hand._BALANCED_REFERENCE.clear()
    fresh = hand.detect_hand(DEFAULT_CONFIG, half, board, homography, reference)
    assert seen.area_fraction == fresh.area_fraction and seen.hand == fresh.hand
    assert np.array_equal(seen.blob, fresh.blob)
    assert seen.area_fraction != whole.area_fraction  # the half frame was judged on its own


def test_clear_board_has_no_blob_and_covers_no_space():
    board, table, reference = _table_and_reference(seed=6)
    frame, _ = table.render({"t1": "red"}, hand=False, index=2)
    homography = locate(DEFAULT_CONFIG, frame, [board]).homography
    seen = hand.detect_hand(DEFAULT_CONFIG, frame, board, homography, reference)
    assert not seen.hand and seen.area_fraction == 0.0 and seen.method == "reference"
    assert seen.covers(board, DEFAULT_CONFIG, margin_mm=4.0) == set()


def test_a_pale_arm_under_a_warm_lamp_is_a_hand_without_a_reference():
    """Light skin under a warm lamp, balanced against the paper, is yellower than darker skin
    (Lab hue about 83 degrees, seen on independent photo-like frames): still a hand."""
    board = cross_board()
    frame, _ = SimulatedTable(board, seed=7).render({}, hand=False, index=1)
    homography = locate(DEFAULT_CONFIG, frame, [board]).homography
    assert not hand.detect_hand(DEFAULT_CONFIG, frame, board, homography).hand
    to_image = np.linalg.inv(homography)
    w, h = board.width, board.height
    arm_mm = np.array(
        [[[-20, 0.45 * h], [0.6 * w, 0.45 * h], [0.6 * w, 0.58 * h], [-20, 0.58 * h]]]
    )
    arm_px = cv2.perspectiveTransform(arm_mm.astype(np.float64), to_image)[0].astype(np.int32)
    paper = np.median(frame[frame.sum(2) > 500], axis=0)  # the bright board paper
    skin = np.clip(paper * np.array([0.64, 0.82, 0.93]), 0, 255)  # B, G, R against the paper
    with_arm = frame.copy()
    cv2.fillPoly(with_arm, [arm_px], tuple(float(c) for c in skin))
    assert hand.detect_hand(DEFAULT_CONFIG, with_arm, board, homography).hand


def test_an_arm_over_a_crowded_grid_is_a_hand_though_no_plain_paper_shows_it():
    """Over Playground Battles' grid no plain paper is left beside the squares: a dark arm
    reaching in across the board's edge was seen on paper only at the margin, too little to
    count, and its skin was read as red stands (independent photo-like frames). An arm always
    comes in across the board's edge, where nothing of the game lies."""
    import rules
    from rules.palette import UNKNOWN
    from vision.observation import observe

    board = rules.get("playground-battles").board
    frame, _ = SimulatedTable(board, seed=3).render({}, hand=False, index=0)
    homography = locate(DEFAULT_CONFIG, frame, [board]).homography
    assert not hand.detect_hand(DEFAULT_CONFIG, frame, board, homography).hand
    w, h = board.width, board.height
    # a forearm about 30 mm wide, narrowing to the wrist
    arm_mm = np.array([[[w + 30, 0.47 * h], [0.45 * w, 0.47 * h + 5], [0.45 * w, 0.53 * h - 5],
                        [w + 30, 0.53 * h]]])  # fmt: skip
    to_image = np.linalg.inv(homography)
    arm_px = cv2.perspectiveTransform(arm_mm.astype(np.float64), to_image)[0].astype(np.int32)
    paper = np.median(frame[frame.sum(2) > 500], axis=0)
    skin = np.clip(paper * np.array([0.22, 0.3, 0.45]), 0, 255)  # dark skin, B, G, R
    with_arm = frame.copy()
    cv2.fillPoly(with_arm, [arm_px], tuple(float(c) for c in skin))
    assert hand.detect_hand(DEFAULT_CONFIG, with_arm, board, homography).hand
    # the appliance's flow, against the calibration's top view, finds it the same way
    reference = calibrate(board, [(frame, {})]).top_view
    assert hand.detect_hand(DEFAULT_CONFIG, with_arm, board, homography, reference).hand
    seen = observe(with_arm, [board]).spaces
    assert all(colour in (None, UNKNOWN) for colour, _ in seen.values())  # nothing stands there
    assert sum(colour == UNKNOWN for colour, _ in seen.values()) >= 6  # those under the arm


def test_only_runs_in_across_the_edge_and_reaching_deep_are_arms():
    board = cross_board()
    s = hand.board_scale(board, DEFAULT_CONFIG)
    h, w = round(board.height * s), round(board.width * s)
    deep = max(2, round(hand.ARM_DEEP_MM * s))
    reach = int(np.ceil(DEFAULT_CONFIG.hand_min_area * h * w / 8)) + 2 * deep  # rows of 8 px
    foreign = np.zeros((h, w), bool)
    foreign[h // 2 : h // 2 + 8, :reach] = True  # from the left edge, deep in: an arm
    foreign[2:4, w // 2 : w // 2 + 30] = True  # along the top edge only: not one
    foreign[h // 3 : h // 3 + 30, w // 2 : w // 2 + 30] = True  # inside, no edge: not one
    arm = hand._across_edge(foreign, board, DEFAULT_CONFIG)
    assert arm is not None and arm.dtype == np.uint8
    expected = np.zeros((h, w), bool)
    expected[h // 2 : h // 2 + 8, :reach] = True
    assert np.array_equal(arm > 0, expected)
    assert hand._across_edge(foreign & (arm == 0), board, DEFAULT_CONFIG) is None


def test_a_token_beside_a_hand_shows_only_in_its_own_hue():
    """A disc filled with a colour no skin has shows a token of that colour, not any other:
    a blue marble half under an arm does not make the arm's red reading a token."""
    from vision.round_hand import lab_hue

    board = cross_board()
    s = hand.board_scale(board, DEFAULT_CONFIG)
    h = round(board.height * s) + 1
    w = round(board.width * s) + 1
    not_skin = np.full((h, w), np.nan, np.float32)
    space = board.spaces[0]
    yy, xx = np.mgrid[:h, :w]
    near = (xx - space.x * s) ** 2 + (yy - space.y * s) ** 2 <= (board.token_radius * s) ** 2
    not_skin[near] = lab_hue("blue")
    seen = hand.HandResult(True, 0.1, "skin", np.zeros((h, w), np.uint8), not_skin)
    assert seen.shows_token(board, DEFAULT_CONFIG, space.id, lab_hue("blue"))
    assert not seen.shows_token(board, DEFAULT_CONFIG, space.id, lab_hue("red"))
    assert not seen.shows_token(board, DEFAULT_CONFIG, board.spaces[-1].id, lab_hue("blue"))


def test_a_fist_over_a_seats_row_hides_the_spaces_under_it_against_the_calibration():
    # the stress bench's hand condition, seed 3, Aggravation's fifth table: against the
    # calibration a fist over a seat's row was found on the paper between the holes only, no
    # space's centre lay in it, and the skin over a bare blue hole read as a red token
    import rules
    from hardware.phototable import PhotoTable
    from rules.palette import UNKNOWN
    from vision.observation import observe
    from vision.spaces import candidate_colours

    game = rules.get("aggravation")
    board = game.board
    rng = np.random.default_rng([3, 0x57E55])
    colours = candidate_colours(board)
    for k in range(5):
        table = PhotoTable(board, seed=30_000 + k, conditions="hand")
        density = rng.uniform(0.05, 0.5)
        placement = {
            s.id: colours[int(rng.integers(len(colours)))]
            for s in board.spaces
            if rng.random() < density
        }
    start = game.placement(game.initial_state())
    cal = calibrate(board, [(table.render(start, hand=False)[0], start)])
    frame, truth = table.render(placement)
    obs = observe(frame, [board], cal)
    assert truth.hand and obs.hand
    wrong = [s.id for s in board.spaces
             if obs.spaces[s.id][0] not in (UNKNOWN, truth.placement.get(s.id))]  # fmt: skip
    assert not wrong
    assert obs.spaces["blue-h1"][0] == UNKNOWN  # bare, under the fist's edge


# Playground Battles tables of the stress bench's hand condition (seed 0): against the
# calibration the changed blob stopped short of the hand's side, and the skin one to three
# token radii beside it read as a red stand on an empty back-row square (0.60, 0.80)
SKIN_BESIDE_CHANGE = [
    (3006, "i8", dict(a1="blue", b1="blue", d1="red", f1="blue", h1="red", b2="blue",
                      c2="red", d2="blue", e2="red", h2="blue", b3="red", f3="blue",
                      h3="blue", i3="blue", j3="red", c4="red", d4="red", f4="blue",
                      g4="red", j4="blue", a5="red", d5="blue", e5="blue", a6="blue",
                      c6="red", d6="red", f6="blue", g6="blue", h6="red", i6="red",
                      j6="red", a7="red", d7="red", e7="red", f7="blue", g7="blue",
                      h7="blue", i7="red", a8="red", e8="blue", g8="blue")),
    (3012, "b8", dict(i1="blue", j3="blue", g5="blue", j8="red")),
]  # fmt: skip


def test_skin_beside_the_change_against_the_calibration_is_no_token():
    import rules
    from hardware.phototable import PhotoTable
    from rules.palette import UNKNOWN
    from vision.observation import observe

    game = rules.get("playground-battles")
    board, start = game.board, game.placement(game.initial_state())
    for seed, bare, placement in SKIN_BESIDE_CHANGE:
        table = PhotoTable(board, seed=seed, conditions="hand")
        cal = calibrate(board, [(table.render(start, hand=False)[0], start)])
        frame, truth = table.render(placement)
        obs = observe(frame, [board], cal)
        assert truth.hand and obs.hand and bare not in truth.placement
        wrong = [s.id for s in board.spaces
                 if obs.spaces[s.id][0] not in (UNKNOWN, truth.placement.get(s.id))]  # fmt: skip
        assert not wrong, (seed, wrong)


def test_a_finger_over_half_a_battle_square_leaves_it_unclear_not_one_stand():
    """Twin photo (8300, 1), every condition: a red and a blue stand share square g3 and a
    finger lies over the blue one. The red one, in view beside the hand, was read as the
    square's only stand. On boards whose spaces hold two, a space beside a hand where a
    token could lie under it is read only as a battle, never as one stand."""
    from rules.palette import UNKNOWN
    from tests.twin_photos import misread, read_twin

    seen, truth = read_twin("playground-battles", 8300, 1, "all")
    assert truth["placement"]["g3"] == "red+blue" and "g3" not in truth["hidden_by_hand"]
    assert seen.spaces["g3"][0] == UNKNOWN
    assert not misread(seen.spaces, truth["placement"])
