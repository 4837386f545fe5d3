"""The whole appliance off the Pi: simulated camera, real vision, referee, GPIO on MockFactory.

Frames are processed one at a time (synchronously), so each step of a scripted game is checked
at the exact frame it happens: rulings, LED pins and the buzzer pin.
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

import rules
from device.appliance import build
from device.config import Config
from device.pipeline import Pipeline
from device.store import Store
from hardware.cameras import CameraError, CameraSource, RetryingSource
from hardware.panel import PanelConfig
from hardware.simcamera import SimulatedCamera, TableWorld
from tests.waiting import wait_until

PINS = PanelConfig()


@pytest.fixture
def factory():
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.close()


@pytest.fixture
def table(factory):
    """An appliance for 2-player Aggravation on the simulated table, frames driven by hand."""
    config = Config(
        game="aggravation", players=2, options={"opening": "first-seat"}, camera="",
        pins={"tempo": 0.05, "bounce_time": 0.01},
    )  # fmt: skip
    appliance = build(config, store=Store(":memory:"), pin_factory=factory)
    referee = appliance.referee
    world = TableWorld(placement=referee.game.placement(referee.state))
    camera = SimulatedCamera(referee.game.board, world, seed=3, fps=0)
    pipeline = Pipeline(referee, camera, frames_required=2)
    appliance.pipeline = pipeline
    values = iter([6, 3, 5, 2, 4, 1] * 20)
    referee._roll_die = lambda: next(values)

    def frames(n=3):
        for _ in range(n):
            pipeline.process(camera.read().image)

    frames(2)  # calibrate on the starting position
    yield appliance, world, frames
    appliance.close()


def lit(factory, pin: int) -> bool:
    return bool(factory.pin(pin).state)


def lit_since(factory, pin: int, mark: int) -> bool:
    """The pin went high at some point after its `mark`-th recorded state."""
    return any(s.state for s in factory.pin(pin).states[mark:])


def move_on_table(referee, world, text):
    game = referee.game
    move = next(m for m in game.legal_moves(referee.state) if str(m) == text)
    world.set(placement=game.placement(game.apply(referee.state, move)))


def test_button_roll_camera_move_illegal_and_put_back(table, factory):
    appliance, world, frames = table
    referee, panel = appliance.referee, appliance.panel
    # the roll button, pressed through its mock pin, rolls a 6
    pin = factory.pin(PINS.roll_button)
    pin.drive_low()
    time.sleep(0.03)
    pin.drive_high()
    assert wait_until(lambda: referee.snapshot()["phase"] == "move")
    assert referee.snapshot()["dice"] == 6
    # red starts a marble on the table; the camera sees it; green LED and extra turn
    mark = len(factory.pin(PINS.green).states)
    move_on_table(referee, world, "red red-b1->t09 (start)")
    frames(3)
    ruling = referee.snapshot()["ruling"]
    assert ruling["kind"] == "legal" and ruling["source"] == "camera"
    assert {e["kind"] for e in ruling["effects"]} == {"start", "extra_turn"}
    assert wait_until(lambda: lit_since(factory, PINS.green, mark))
    # the web page's roll does what the button does: a 3
    referee.roll("web")
    # red moves the marble 4 holes on a 3: illegal, red LED held
    placement = referee.game.placement(referee.state)
    wrong = dict(placement)
    del wrong["t09"]
    wrong["t13"] = "red"
    world.set(placement=wrong)
    frames(3)
    ruling = referee.snapshot()["ruling"]
    assert ruling["kind"] == "illegal" and ruling["clauses"][0]["id"] == "AGG-4.1"
    assert wait_until(lambda: lit(factory, PINS.red))
    time.sleep(0.2)
    assert lit(factory, PINS.red)  # held until the board is put right
    assert panel.status()["pattern"] == "illegal"
    world.set(placement=placement)
    frames(3)
    assert referee.snapshot()["ruling"]["kind"] == "restored"
    assert wait_until(lambda: not lit(factory, PINS.red))
    move_on_table(referee, world, "red t09->t12")
    frames(3)
    assert referee.snapshot()["ruling"]["kind"] == "legal"
    assert referee.snapshot()["to_move"] == 1


def test_hand_over_the_board_never_rules(table):
    appliance, world, frames = table
    referee = appliance.referee
    referee.roll()
    moves = referee.snapshot()["moves"]
    world.set(hand=True)
    frames(4)
    assert referee.snapshot()["moves"] == moves
    assert referee.snapshot()["ruling"]["kind"] == "roll"


def test_pass_is_announced_and_buzzer_chirps(table, factory):
    appliance, world, frames = table
    referee = appliance.referee
    referee._roll_die = lambda: 3  # nothing can start on a 3
    referee.roll()
    ruling = referee.snapshot()["ruling"]
    assert ruling["kind"] == "pass" and ruling["clauses"][0]["id"] == "AGG-7.2"
    buzzer = factory.pin(PINS.buzzer)
    assert wait_until(lambda: any(s.state for s in buzzer.states))


def test_win_plays_the_tune(table, factory):
    appliance, world, frames = table
    referee = appliance.referee
    game = referee.game
    index = game.board.index
    homes = tuple(sorted(index[f"red-h{j}"] for j in (2, 3, 4)))
    referee._state = game.initial_state()._replace(
        pieces=(tuple(sorted((index["t08"], *homes))), (-1, -1, -1, -1))
    )
    world.set(placement=game.placement(referee.state))
    frames(3)
    referee._roll_die = lambda: 1
    referee.roll()
    move_on_table(referee, world, "red t08->red-h1")
    frames(3)
    ruling = referee.snapshot()["ruling"]
    assert ruling["kind"] == "win"
    assert appliance.panel.status()["pattern"] == "win"
    assert game.outcome(referee.state).winners == (0,)


class FlakyCamera(CameraSource):
    """Delivers a few frames, then the cable is pulled."""

    name = "flaky"

    def __init__(self, frames: int) -> None:
        super().__init__()
        self.left = frames

    def _grab(self):
        if self.left <= 0:
            raise CameraError("flaky: device disappeared")
        self.left -= 1
        return np.full((120, 160, 3), 90, np.uint8), time.time()


def test_a_vanished_camera_is_reported_and_the_game_goes_on(factory):
    game = rules.get("aggravation", players=2, options={"opening": "first-seat"})
    config = Config(game=game.name, players=2, options={"opening": "first-seat"}, camera="")
    appliance = build(config, store=Store(":memory:"), pin_factory=factory)
    referee = appliance.referee
    opened = []

    def opener():
        opened.append(1)
        if len(opened) > 1:
            raise CameraError("flaky: no such device")
        return FlakyCamera(5)

    camera = RetryingSource(opener, name="flaky", initial_delay=0.01, max_delay=0.05)
    pipeline = Pipeline(referee, camera)
    appliance.pipeline = pipeline
    pipeline.start()
    try:
        assert wait_until(lambda: len(opened) >= 3)
        status = pipeline.status_json()["camera"]
        assert status["ok"] is False and "flaky" in status["error"]
        assert pipeline._thread.is_alive()  # still retrying, never dead
        referee.roll()  # the game carries on by hand
        assert referee.snapshot()["moves"] >= 1
    finally:
        appliance.close()
    assert not any(t.name == "boardref-camera" and t.is_alive() for t in threading.enumerate())


def test_a_corrupt_frame_is_reported_not_fatal(table):
    appliance, world, frames = table
    pipeline = appliance.pipeline
    with pytest.raises(ValueError):
        pipeline.process(np.zeros((0, 0, 3), np.uint8))
    frames(1)
    assert appliance.referee.snapshot()["phase"] == "roll"
