"""Scripted players for `boardref demo`: they play on the simulated table like people would.

They roll with the button or throw the die into the tray, reach over the board (a hand the
camera sees), move tokens, now and then make an illegal move and put it back when the referee
objects. They only ever change the physical world; the referee learns everything through the
camera, except when the camera cannot settle: then, like a player, they tap the move on the
page (a manual move, checked exactly as a camera move).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from typing import Any

from rules import Decline, Pass, Roll
from webui.table import TableError

log = logging.getLogger(__name__)


class ScriptedPlayers(threading.Thread):
    def __init__(
        self,
        referee: Any,
        camera: Any,
        *,
        seed: int = 0,
        illegal_rate: float = 0.12,
        pace: float = 1.0,
        patience: float | None = None,
    ) -> None:
        super().__init__(name="boardref-players", daemon=True)
        self.referee = referee
        self.camera = camera
        self.world = camera.world
        self.rng = random.Random(seed)
        self.illegal_rate = illegal_rate
        self.pace = pace
        self.patience = patience if patience is not None else max(3.0, 10 * pace)
        self._halt = threading.Event()
        self._game = None
        self.fallbacks = 0  # moves the camera could not settle, entered by hand instead
        self.dice_thrown = 0
        self.dice_unread = 0  # dice thrown into the tray the camera did not read (button used)
        self.dice_rethrown = 0  # dice thrown again when the referee took them for the last
        self.camera_moves = 0
        self.illegal_attempts = 0

    def stop(self) -> None:
        self._halt.set()

    def run(self) -> None:
        while not self._halt.is_set():
            try:
                self.step()
            except TableError as exc:
                log.info("scripted player: %s", exc)
            except Exception:  # keep the demo alive, but say what went wrong
                log.exception("scripted player failed")
                self._sleep(1.0)

    # one decision ------------------------------------------------------------------------------
    def step(self) -> None:
        ref = self.referee
        game, state = ref.game, ref.state
        if game is not self._game:
            self._game = game
            self.camera.show(game.board, game.placement(state))
            self._sleep(self.pace)
            return
        if game.outcome(state) is not None:
            self._sleep(6 * self.pace)
            ref.new_game(game.name, game.players, dict(game.options))
            return
        if ref.snapshot()["waiting_fix"]:
            self._sleep(self.pace)
            self._reach(game.placement(ref.state))  # put the board back as it was
            self._sleep(self.pace)
            return
        legal = game.legal_moves(state)
        if not legal:
            self._sleep(self.pace)
            return
        if all(isinstance(m, Roll | Decline) for m in legal):
            declines = [m for m in legal if isinstance(m, Decline)]
            if declines and self.rng.random() < 0.25:  # after a 6: may stop rolling
                self._sleep(self.pace)
                ref.manual_move(declines[0].to_json())
                return
            self._roll(len(ref.history()))
            return
        self._move(legal)

    def _roll(self, before: int) -> None:
        self._sleep(self.pace)
        if self.rng.random() < 0.5:
            self.world.set(dice=[])
            self.referee.roll("button")
            return
        value = self.rng.randint(1, 6)
        self.dice_thrown += 1
        throw = _thrown(self.referee.game.board, self.referee.state.to_move, value)
        for attempt in range(1 + RETHROWS):
            told = self.referee.snapshot()["ruling"]
            self.world.set(hand=True)
            self._sleep(0.4 * self.pace)
            self.world.set(dice=[throw], hand=False)
            if self._wait(
                lambda told=told: (
                    len(self.referee.history()) > before
                    or _throw_again(self.referee.snapshot()["ruling"], told)
                )
            ):
                if len(self.referee.history()) > before:
                    return
                # the die landed where the last one lay, showing its face: the referee
                # takes it for that die and asks for another throw, as a player would do
                self.dice_rethrown += attempt < RETHROWS
        self.dice_unread += 1
        self.referee.roll("button", value=value)

    def _move(self, legal: list) -> None:
        ref = self.referee
        game, state = ref.game, ref.state
        movable = [m for m in legal if not isinstance(m, Roll | Pass)]
        if not movable:
            self._sleep(self.pace)
            return
        move = self.rng.choice(movable)
        before = len(ref.history())
        expected = game.placement(state)
        target = game.camera_picture(state, move)
        self._sleep(self.pace)
        if target == expected:  # a choice with nothing to move (a declaration, a setup entry)
            ref.manual_move(move.to_json())
            return
        if self.rng.random() < self.illegal_rate and self._try_illegal(move, expected):
            return
        self._reach(target)
        if self._wait(lambda: len(ref.history()) > before):
            self.camera_moves += 1
            settled = game.placement(ref.state)
            if settled != target:  # a battle ruled: take the loser's stand off
                self._sleep(self.pace)
                self._reach(settled)
            return
        if ref.state is state and not ref.snapshot()["waiting_fix"]:
            self.fallbacks += 1
            ref.manual_move(move.to_json())

    def _try_illegal(self, move: Any, expected: dict[str, str]) -> bool:
        """Move the token somewhere it may not go; the referee should object."""
        frm = getattr(move, "frm", None)
        colour = expected.get(frm) if frm else None
        if colour is None:
            return False
        game, state = self.referee.game, self.referee.state
        reachable = {getattr(m, "to", None) for m in game.legal_moves(state)}
        empty = [
            s.id
            for s in game.board.spaces
            if s.id not in expected and s.id not in reachable and s.kind not in ("base", "home")
        ]
        if not empty:
            return False
        wrong = dict(expected)
        del wrong[frm]
        wrong[self.rng.choice(empty)] = colour
        self.illegal_attempts += 1
        self._reach(wrong)
        self._wait(lambda: self.referee.snapshot()["waiting_fix"])
        return True

    # the hands on the table ------------------------------------------------------------------
    def _reach(self, placement: dict[str, str]) -> None:
        self.world.set(hand=True)
        self._sleep(0.5 * self.pace)
        self.world.set(placement=placement, hand=False)

    def _wait(self, done) -> bool:
        deadline = time.monotonic() + self.patience
        while time.monotonic() < deadline and not self._halt.is_set():
            if done():
                return True
            time.sleep(0.1)
        return done()

    def _sleep(self, seconds: float) -> None:
        self._halt.wait(seconds)


# a die the referee asks to be thrown again (see _throw_again) is, at most this many times
RETHROWS = 2


def _throw_again(ruling: dict[str, Any] | None, before: dict[str, Any] | None) -> bool:
    """Did the referee just say the die in the tray was counted already and has not moved
    (a ruling other than ``before``, the one shown when the die was thrown)?"""
    if ruling is None or ruling is before or ruling == before:
        return False
    texts = [ruling.get("text", "")] + [e.get("text", "") for e in ruling.get("effects", [])]
    return any("throw it again" in t for t in texts)


def _thrown(board, seat: int, value: int) -> int | tuple[int, str]:
    """A die thrown by the player in `seat`: into their own tray where the board gives each
    player one (Manipulation), else into the shared tray."""
    for region in board.regions:
        if "tray" in region.name.lower() and region.owner == seat:
            return value, region.name
    return value
