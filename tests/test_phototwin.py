"""The independent photo-like table (hardware.phototwin): reproducible, its truth agrees with its
pictures, and each condition does what it says. No reader figures here: those are in
`boardref bench vision --twin`."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import cv2
import numpy as np
import pytest

import rules
from device.bench_twin import DEFAULT_SETS, figures, judge
from hardware.phototwin import render, render_scene, sample
from hardware.phototwin.render import render_linear
from hardware.phototwin.scene import CONDITION_SETS, spacing
from hardware.phototwin.tiles import artwork_point, printed_at, tiles_for
from vision.aruco import detector_parameters, make_detector, marker_dictionary

GAME = "the-right-moves"  # the fewest spaces: the quickest photos


def _decode(jpeg: bytes) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)


def _markers(image: np.ndarray) -> dict[int, np.ndarray]:
    params = detector_parameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX  # sub-pixel corners
    detect = make_detector(marker_dictionary(), params)
    corners, ids = detect(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    found = (
        {}
        if ids is None
        else {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}
    )
    return found


def test_same_seed_and_index_give_the_same_photo_and_others_differ():
    first, truth = render(GAME, 7, 3, "issue14")
    again, truth_again = render(GAME, 7, 3, "issue14")
    other, _ = render(GAME, 7, 4, "issue14")
    assert first == again and truth == truth_again
    assert first != other
    assert _decode(first).shape == (960, 1280, 3)


def test_a_piece_changes_the_photo_at_its_own_space_only():
    scene = sample(GAME, 11, 0, "plain")
    piece = next(p for p in scene.pieces if p.colour == "red")
    without = replace(
        scene,
        pieces=tuple(p for p in scene.pieces if p is not piece),
        placement={k: v for k, v in scene.placement.items() if k != piece.space},
    )
    with_img, truth = (lambda r: (_decode(r[0]), r[1]))(render_scene(scene))
    # light before the camera's auto exposure (which meters the whole board) and noise
    lit, _ = render_linear(scene)
    unlit, _ = render_linear(without)
    diff = np.abs(lit - unlit).sum(2)
    u, v = truth["spaces_px"][piece.space]
    yy, xx = np.mgrid[0:960, 0:1280]
    dist = np.hypot(xx - u, yy - v)
    px_per_mm = truth["camera"]["focal_px"] / truth["camera"]["height_mm"]
    near = dist < 0.6 * piece.size * px_per_mm
    far = dist > 6 * piece.size * px_per_mm  # beyond the piece and its shadow
    assert diff[near].mean() > 0.1 * lit[far].mean()
    assert diff[far].max() < 1e-6
    # the added piece is red: at its space red outweighs green and blue
    b, g, r = (with_img[near].astype(float).mean(0)).tolist()
    assert r > 1.5 * g and r > 1.5 * b
    assert truth["placement"][piece.space] == "red"


@pytest.mark.parametrize("k1", [-0.05, 0.05])
def test_printed_markers_land_where_the_truth_says_with_lens_distortion(k1):
    scene = sample(GAME, 3, 1, ("lens", "tilt"))
    # geometry only: without the lens's colour fringes, which blur the small markers' edges
    scene = replace(
        scene, camera=replace(scene.camera, k1=k1), sensor=replace(scene.sensor, fringe=0)
    )
    image, truth = (lambda r: (_decode(r[0]), r[1]))(render_scene(scene))
    found = _markers(image)
    centre = np.array([639.5, 479.5])
    plain = replace(scene, camera=replace(scene.camera, k1=0.0))
    for marker_id, corners in truth["markers_px"].items():
        seen = found[int(marker_id)]
        assert np.abs(seen - np.array(corners)).max() < 1.0
        # barrel (k1 < 0) pulls the corners towards the middle, pincushion pushes them out
        undistorted = plain.camera.project(
            np.array([(*c, 0.0) for c in scene.board.marker_squares()[int(marker_id)]])
        )
        moved = np.hypot(*(seen - centre).T) - np.hypot(*(undistorted - centre).T)
        assert (np.sign(moved) == np.sign(k1)).all() and np.abs(moved).mean() > 1


def test_the_bench_draws_the_opt_in_sets_only_when_asked():
    assert {"plain", "issue14", "all", "glare", "hand"} <= set(DEFAULT_SETS)
    assert not {"start", "issue14_glare"} & set(DEFAULT_SETS)
    glare = sample("manji", 5, 9, "issue14_glare")
    assert glare.light.sheen > 0 and glare.hand is None


def test_each_condition_changes_its_own_aspect_and_keeps_the_placement():
    game = "manipulation"
    plain = sample(game, 5, 9, "plain")
    assert plain.sensor.jpeg_quality == 95 and plain.camera.k1 == 0.0 and plain.hand is None
    assert np.allclose(plain.camera.rotation[2, 2], 1.0)  # no tilt: looking straight down
    for name in CONDITION_SETS:
        if name == "start":  # the one set that draws another placement (tested below)
            continue
        scene = sample(game, 5, 9, name)
        assert scene.placement == plain.placement, name
    assert 70 <= sample(game, 5, 9, "jpeg").sensor.jpeg_quality <= 90
    assert sample(game, 5, 9, "lens").camera.k1 != 0.0
    tilt = np.degrees(np.arccos(sample(game, 5, 9, "tilt").camera.rotation[2, 2]))
    assert 0 < tilt <= 12
    assert sample(game, 5, 9, "hand").hand is not None
    assert not np.allclose(sample(game, 5, 9, "white_balance").sensor.wb_gains, 1.0)
    assert sample(game, 5, 9, "glare").light.sheen > 0
    assert plain.light.body_shadow is None and sample(game, 5, 9, "shadow").light.body_shadow
    board = plain.board

    def off(scene):
        return max(
            np.hypot(p.x - board.space(p.space).x, p.y - board.space(p.space).y)
            for p in scene.pieces
        )

    assert off(plain) <= 1.0 + 1e-6
    assert 1.0 < off(sample(game, 5, 9, "off_centre")) <= spacing(board) / 4 + 1e-6


@pytest.mark.parametrize("name", rules.names())
def test_the_start_set_puts_each_game_at_its_start_under_the_issues_conditions(name):
    """Random placements never fill a seat's holes with its own pieces, as a game's start
    does (dull checkers there were once read empty): the "start" set draws the start."""
    game = rules.get(name)
    scene = sample(name, 7, 0, "start")
    assert scene.placement == dict(game.placement(game.initial_state()))
    assert {p.space for p in scene.pieces} == set(scene.placement)
    issue = sample(name, 7, 0, "issue14")  # the same photo otherwise: camera, light, hand
    corners = np.array([(0, 0, 0), (scene.board.width, scene.board.height, 0)], float)
    assert np.allclose(scene.camera.project(corners), issue.camera.project(corners))
    assert (scene.hand is None) == (issue.hand is None)


def test_unknown_condition_is_named():
    with pytest.raises(ValueError, match="sunset"):
        sample(GAME, 1, 1, ("sunset",))


def test_judge_counts_each_kind_of_miss():
    game = rules.get(GAME)
    a, b, c, d, e = (s.id for s in game.board.spaces[:5])
    truth = {"placement": {a: "red", b: "blue", c: "red", d: "blue"}, "hand": False}
    spaces = {s.id: {"colour": None} for s in game.board.spaces}
    spaces.update(
        {
            a: {"colour": "red"},
            b: {"colour": None},
            c: {"colour": "blue"},
            d: {"colour": "?"},
            e: {"colour": "red"},
        }
    )
    verdict = judge(game, truth, {"located": True, "spaces": spaces, "hand": False})
    n = verdict["counts"]
    assert (n["right"], n["unclear"], n["wrong"], n["tokens"], n["tokens_read"]) == (
        len(game.board.spaces) - 4,
        1,
        3,
        4,
        1,
    )
    kinds = Counter(m["kind"] for m in verdict["misses"])
    assert kinds == {
        "piece read as empty": 1,
        "piece read as another colour": 1,
        "unclear piece": 1,
        "colour where there is none": 1,
    }
    unlocated = judge(game, truth, {"located": False, "spaces": {}, "hand": False})["counts"]
    assert unlocated["unclear"] == len(game.board.spaces) and unlocated["unlocated"] == 1


def test_spaces_under_a_hand_are_counted_apart_from_those_in_view():
    """A hand over a space's middle leaves unclear as the only right answer there: the bench
    gives the share of the spaces in view read right beside the share of all of them."""
    game = rules.get(GAME)
    ids = [s.id for s in game.board.spaces]
    a, b, c = ids[:3]
    truth = {"placement": {a: "red", b: "blue"}, "hand": True, "hidden_by_hand": [a, c]}
    spaces = {sid: {"colour": None} for sid in ids}
    spaces.update({a: {"colour": "?"}, b: {"colour": "?"}})  # c: hidden but empty, read so
    n = judge(game, truth, {"located": True, "spaces": spaces, "hand": True})["counts"]
    f = figures(n, [])
    assert f["misses_under_hand"] == 1 and f["counts"]["hidden_by_hand"] == 2
    in_view = len(ids) - 2
    assert f["spaces_in_view_right_pct"] == round(100 * (in_view - 1) / in_view, 2)
    assert f["spaces_right_pct"] == round(100 * (len(ids) - 2) / len(ids), 2)


def test_taped_sheets_cover_the_board_and_move_their_own_print():
    board = rules.get("manipulation").board
    sheets = tiles_for(board, np.random.default_rng(0))
    assert len(sheets) == 4  # 380 x 380 mm on A4: two across, two down
    xs, ys = np.meshgrid(np.linspace(0, board.width, 60), np.linspace(0, board.height, 60))
    perfect = tuple(replace(t, dx=0.0, dy=0.0, angle=0.0) for t in sheets)
    ax, ay, covered, _ = artwork_point(perfect, xs, ys)
    assert covered.all() and np.allclose(ax, xs, atol=1e-3) and np.allclose(ay, ys, atol=1e-3)
    # a space printed on a displaced sheet is found where that sheet put it
    space = board.spaces[0]
    tx, ty = printed_at(sheets, space.x, space.y)
    assert 0 < np.hypot(tx - space.x, ty - space.y) < 3
    ax, ay, covered, _ = artwork_point(sheets, np.array([tx]), np.array([ty]))
    assert covered[0] and abs(ax[0] - space.x) < 1e-3 and abs(ay[0] - space.y) < 1e-3
    scene = sample("manipulation", 2, 2, "tiles")
    piece = scene.pieces[0]
    home = printed_at(scene.paper.tiles, *(lambda s: (s.x, s.y))(board.space(piece.space)))
    assert np.hypot(piece.x - home[0], piece.y - home[1]) <= 1.0 + 1e-6


def test_a_battles_two_stands_stand_foot_to_foot_never_through_each_other():
    """Two stands on one square once shared their ground (one 1 mm from the other, wholly
    hidden under it from above: a photo no reader could tell); a battle is put down as a pair."""
    from hardware.phototwin.pieces import stand_parts

    battles = 0
    for seed in range(5200, 5206):
        for index in range(4):
            scene = sample("playground-battles", seed, index, "all")
            by_space: dict[str, list] = {}
            for piece in scene.pieces:
                by_space.setdefault(piece.space, []).append(piece)
            for pair in (p for p in by_space.values() if len(p) == 2):
                battles += 1
                a, b = pair
                foot_depth = 2 * stand_parts(a.size)[0][1]
                assert abs(a.x - b.x) < 1e-6  # face to face across the square
                assert abs(a.y - b.y) >= foot_depth
    assert battles >= 3
