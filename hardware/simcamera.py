"""The simulated table as a camera source: what a camera would see of a virtual table.

A `TableWorld` holds the physical truth (tokens on spaces, dice in the tray, a hand over the
board); `SimulatedCamera` photographs it with `hardware.simtable.SimulatedTable`. The demo's
scripted players change the world; the referee only ever sees the frames.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import numpy as np

from rules.geometry import Board

from .cameras import CameraSource
from .simtable import SimDetail, SimulatedTable


@dataclass
class TableWorld:
    """The real table: guarded by a lock because players and the camera run on threads."""

    placement: dict[str, str] = field(default_factory=dict)
    dice: list = field(default_factory=list)  # values, or (value, tray name) pairs
    hand: bool = False
    throws: int = 0  # dice put down so far: a die lies where it was thrown until set again
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def set(self, *, placement=None, dice=None, hand=None) -> None:
        with self.lock:
            if placement is not None:
                self.placement = dict(placement)
            if dice is not None:
                self.dice = list(dice)
                self.throws += 1
            if hand is not None:
                self.hand = bool(hand)

    def view(self) -> tuple[dict[str, str], list, bool]:
        with self.lock:
            return dict(self.placement), list(self.dice), self.hand

    def view_thrown(self) -> tuple[dict[str, str], list, bool, int]:
        """`view()` and which throw the dice came from (where they lie depends on it)."""
        with self.lock:
            return dict(self.placement), list(self.dice), self.hand, self.throws


class SimulatedCamera(CameraSource):
    """Frames of `world` on `board`, at most `fps` per second (seeded, so reproducible).

    Like the Pi camera's main and lores streams, every frame comes with a full-resolution
    `detail` (`detail_scale` times finer; 0 for none), rendered only where it is read."""

    name = "sim"

    def __init__(
        self,
        board: Board,
        world: TableWorld,
        seed: int = 1,
        fps: float = 8.0,
        width: int = 1280,
        height: int = 960,
        detail_scale: float = 2.0,
    ) -> None:
        super().__init__()
        self.world = world
        self.fps = fps
        self.detail_scale = float(detail_scale)
        self.table = SimulatedTable(board, seed=seed, width=width, height=height, max_tilt_deg=20)
        self._next = 0.0

    def show(self, board: Board, placement: dict[str, str]) -> None:
        """Put another board on the virtual table (a new game was started)."""
        with self._lock:
            if board is not self.table.board:
                t = self.table
                self.table = SimulatedTable(
                    board, seed=t.seed, width=t.width, height=t.height, max_tilt_deg=20
                )
        self.world.set(placement=placement, dice=[], hand=False)

    def _grab(self) -> tuple[np.ndarray, float] | tuple[np.ndarray, float, SimDetail]:
        now = time.monotonic()
        if self.fps and now < self._next:
            time.sleep(self._next - now)
        self._next = time.monotonic() + (1.0 / self.fps if self.fps else 0.0)
        placement, dice, hand, throw = self.world.view_thrown()
        frame, _truth = self.table.render(placement, dice, hand=hand, dice_seed=throw)
        if self.detail_scale > 1.0:
            return frame, time.time(), self.table.detail(self.detail_scale)
        return frame, time.time()
