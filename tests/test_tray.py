"""Dice read in the board's tray on simulated frames: right or nothing, never a wrong value."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import rules
from hardware.simtable import SimulatedTable
from vision.observation import observe
from vision.tray import DIE_MM, TrayReader, native_px_per_mm, read_tray_dice


def frames(name: str, seeds, values=range(1, 7)):
    game = rules.get(name)
    start = game.placement(game.initial_state())
    for seed in seeds:
        table = SimulatedTable(game.board, seed=seed)
        for value in values:
            frame, _truth = table.render(start, [value], hand=False)
            yield game.board, frame, value


@pytest.mark.parametrize("name", ["aggravation", "manji", "manipulation"])
def test_tray_dice_are_right_or_not_read(name):
    read = right = 0
    for board, frame, value in frames(name, seeds=(101, 102, 103)):
        obs = observe(frame, [board])
        assert obs.homography is not None
        dice = read_tray_dice(frame, board, obs.homography)
        assert all(d.value == value for d in dice), f"{name}: read {dice}, threw {value}"
        read += bool(dice)
        right += any(d.value == value for d in dice)
    assert right == read
    # measured (frames alone, no full-resolution detail): 9 of 18 on Aggravation and Manji,
    # 11 on Manipulation (before the die's known size judged ones and the network's "no
    # face" stopped vetoing round-pipped faces: 6, 8 and 6); a miss is declined, never wrong
    assert read >= 6, f"only {read} of 18 throws read on {name}"


def test_a_frame_too_coarse_for_dice_reads_none():
    board, frame, _value = next(frames("aggravation", seeds=(7,), values=(5,)))
    small = cv2.resize(frame, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    obs = observe(small, [board])
    assert obs.homography is not None
    assert read_tray_dice(small, board, obs.homography) == []


def test_manipulation_dice_say_whose_tray():
    game = rules.get("manipulation")
    trays = {r.name: r.owner for r in game.board.regions if "tray" in r.name}
    assert len(trays) == 4 and len(set(trays.values())) == 4


def test_demo_camera_throws_with_fine_pips_are_read_right():
    """The demo's own camera (seed 1: tilted, a detail twice as fine) over a table whose dice
    have fine pips (0.08 of the side, 0.3 out: more than 3.4 pip radii apart): every value
    thrown is read right, as the demo needs. The reader once declined all of its ones and
    most fours and fives, so the demo waited a minute for the button."""
    from hardware.simcamera import SimulatedCamera, TableWorld

    game = rules.get("aggravation")
    camera = SimulatedCamera(game.board, TableWorld(), seed=1, fps=0)
    camera.show(game.board, game.placement(game.initial_state()))
    look = camera.table._die_look
    assert look.pip_offset / look.pip_radius > 3.6  # the fine-pipped design this is about
    misread = []
    for value in (1, 4, 5, 1, 4, 2, 3, 6):
        camera.world.set(dice=[value], hand=False)
        frame = camera.read()
        obs = observe(frame.image, [game.board])
        assert obs.homography is not None
        dice = TrayReader().read(frame.image, game.board, obs.homography, frame.detail)
        if [d.value for d in dice] != [value]:
            misread.append((value, [d.value for d in dice]))
    assert misread == []


def test_bench_throws_through_the_demo_camera_count_every_die():
    """`bench vision`'s demo_world_dice: every die thrown is counted once (read right, read
    wrong or not read), cameras are drawn afresh every few throws, and no die reads wrong."""
    from device.dice_bench import DEMO_THROWS_PER_CAMERA, demo_world

    games = [rules.get("aggravation"), rules.get("the-right-moves")]  # the latter: no tray
    out = demo_world(games, DEMO_THROWS_PER_CAMERA + 1, seed=3)
    assert list(out) == ["aggravation"]
    n = out["aggravation"]
    assert n["dice"] == DEMO_THROWS_PER_CAMERA + 1
    assert n["right"] + n["wrong"] + n["not_read"] == n["dice"]
    assert n["wrong"] == 0
    assert n["camera_seeds"] == [3000, 3001]


def test_a_ones_pip_and_its_side_faces_pip_are_no_two_in_a_top_view():
    # a one at 32 px in Manipulation's red tray, seen low: its pip and the top-left pip of
    # its front face's five (drawn out 1.47, 0.86 of its size) fitted a two's diagonal and
    # outranked the one (drawn sweep seed 529); a two seen square on has round pips alike
    board = rules.get("manipulation").board
    seed = 529 * 7919 + 5
    _, truth = SimulatedTable(board, seed=seed).render({}, hand=False)
    tray = next(r for r in board.regions if r.name == "tray-red")
    native = native_px_per_mm(truth.homography, tray.x + tray.w / 2, tray.y + tray.h / 2)
    k = 32 / (DIE_MM * native)
    table = SimulatedTable(board, seed=seed, width=int(1280 * k), height=int(960 * k))
    frame, truth = table.render({}, [(1, "tray-red")], hand=False)
    dice = TrayReader().read(frame, board, np.linalg.inv(truth.homography))
    assert [d.value for d in dice] in ([1], [])
