"""The real games' boards through the whole vision path, as the device runs it."""

import pytest

import rules
from hardware.simtable import SimulatedTable
from rules.rng import SeededChooser
from tests.boards import circle_board, cross_board, grid_board
from vision.calibrate import calibrate
from vision.config import DEFAULT_CONFIG
from vision.locate import locate
from vision.observation import observe
from vision.stabilise import Stabiliser

GAMES = rules.names()
OTHERS = [cross_board(), grid_board(), circle_board()]


def _positions(game, seed, every=6, count=4):
    """Placements along a random legal game: the start, then every few moves."""
    chooser = SeededChooser(seed)
    state = game.initial_state()
    out = []
    for step in range(every * count):
        if game.outcome(state) is not None:
            break
        state = game.apply(state, chooser.choose(game.legal_moves(state)))
        if step % every == every - 1:
            out.append(dict(game.placement(state)))
    return out


def test_every_game_has_its_own_markers():
    seen = {}
    for name in GAMES:
        ids = rules.get(name).board.marker_ids
        assert len(set(ids)) == 4 and all(0 <= i < 50 for i in ids)
        for i in ids:
            assert i not in seen, f"{name} and {seen[i]} share marker {i}"
            seen[i] = name


@pytest.mark.parametrize("name", GAMES)
def test_game_board_read_through_a_game(name):
    game = rules.get(name)
    board = game.board
    boards = [board, *OTHERS]
    table = SimulatedTable(board, seed=41)
    start = dict(game.placement(game.initial_state()))
    frame, _ = table.render(start, hand=False)
    loc = locate(DEFAULT_CONFIG, frame, boards)
    assert loc is not None and loc.board is board
    # the device calibrates from the starting position alone
    cal = calibrate(board, [(frame, start)], homographies=[loc.homography])
    last = loc.homography
    stabiliser = Stabiliser(frames_required=2)
    for placement in _positions(game, seed=5):
        for _ in range(2):
            frame, truth = table.render(placement, [3], hand=False)
            obs = observe(frame, boards, cal, last)
            assert obs.game == board.name and not obs.hand
            assert obs.unclear == () and obs.placement == truth.placement
            last = obs.homography
            stable = stabiliser.push(obs)
        assert stable is not None and stable.placement == placement
