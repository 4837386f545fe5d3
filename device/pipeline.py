"""Camera frames -> vision -> stable observations -> the referee, on a thread of its own.

The loop never blocks the referee: it reads the newest frame, observes it, and hands a reading
to the referee only when it is stable and different from the last one handed over. The newest
annotated frame is kept for the web page's camera view.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from vision.annotate import annotate
from vision.calibrate import Calibration, calibrate, refine
from vision.observation import Observation, observe
from vision.stabilise import Stabiliser
from vision.tray import TrayReader, tray_regions

from .faults import camera_text
from .trays import die_moved

log = logging.getLogger(__name__)


@dataclass
class PipelineStatus:
    ok: bool = False
    source: str = ""
    error: str | None = None
    frames: int = 0
    reason: str = "starting"
    fps: float = 0.0
    timings_ms: dict[str, float] = field(default_factory=dict)
    tray_px_per_mm: dict[str, float] = field(default_factory=dict)  # below 1.6: no dice

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "source": self.source,
            "error": self.error,
            "frames": self.frames,
            "reason": self.reason,
            "fps": round(self.fps, 1),
            "timings_ms": {k: round(v, 1) for k, v in self.timings_ms.items()},
            "tray_px_per_mm": {k: round(v, 2) for k, v in self.tray_px_per_mm.items()},
        }


class Pipeline:
    """Runs the camera loop for one referee; `start()` / `stop()`; `jpeg()` for the stream."""

    def __init__(
        self,
        referee: Any,
        camera: Any,
        *,
        source_name: str = "camera",
        frames_required: int = 3,
        read_dice: bool = True,
        unclear_after: int = 6,
        silent_after: float = 5.0,
    ) -> None:
        self.referee = referee
        self.camera = camera
        self.stabiliser = Stabiliser(frames_required)
        self.read_dice = read_dice
        self.unclear_after = unclear_after
        self.status = PipelineStatus(source=source_name)
        self.calibration: Calibration | None = None
        self._calibrated_for: str | None = None
        self._last_h: np.ndarray | None = None
        self._last_key: tuple | None = None
        self._last_boxes: list = []  # the dice boxes of the reading last handed over
        self._unclear_frames = 0
        self._latest: np.ndarray | None = None
        self._latest_lock = threading.Lock()
        self.trays = TrayReader()  # remembers each tray's reading until its view changes
        self._detail_regions: list | None = None  # the tray rectangles asked of the camera
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._watchdog: threading.Thread | None = None
        self.observations = 0
        # A camera that gives no frame for `silent_after` seconds is a fault the table sees.
        self.silent_after = silent_after
        self._last_frame = time.monotonic()
        self._last_frame_wall = time.time()
        self.silent_since: float | None = None  # wall-clock time of the last frame, if silent

    # lifecycle -----------------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is None:
            self._last_frame, self._last_frame_wall = time.monotonic(), time.time()
            self._thread = threading.Thread(target=self._run, name="boardref-camera", daemon=True)
            self._thread.start()
            self._watchdog = threading.Thread(
                target=self._watch, name="boardref-camera-watchdog", daemon=True
            )
            self._watchdog.start()

    def _watch(self) -> None:
        """Once a second: has the camera gone silent? (its frames() may block forever)."""
        while not self._stop.wait(1.0):
            self.check_camera()

    def check_camera(self, now: float | None = None) -> bool:
        """Tell the referee once when no frame came for `silent_after` seconds; True while
        the camera is silent. `now`: time.monotonic() (tests pass their own)."""
        now = time.monotonic() if now is None else now
        if self.silent_since is None and now - self._last_frame > self.silent_after:
            self.silent_since = self._last_frame_wall
            log.warning("camera: no frame since %s", time.ctime(self.silent_since))
            tell = getattr(self.referee, "camera_silent", None)
            if callable(tell):
                tell(self.silent_since)
        return self.silent_since is not None

    def frame_arrived(self) -> None:
        """A frame came: the camera is alive (and, after a silence, the table is told)."""
        self._last_frame, self._last_frame_wall = time.monotonic(), time.time()
        if self.silent_since is not None:
            self.silent_since = None
            log.warning("camera: frames again")
            tell = getattr(self.referee, "camera_back", None)
            if callable(tell):
                tell()

    def stop(self) -> None:
        self._stop.set()
        close = getattr(self.camera, "close", None)
        if close:
            close()
        for thread in (self._thread, self._watchdog):
            if thread is not None:
                thread.join(timeout=5)

    def jpeg(self) -> bytes | None:
        with self._latest_lock:
            frame = self._latest
        if frame is None:
            return None
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 75])
        return data.tobytes() if ok else None

    def status_json(self) -> dict[str, Any]:
        camera_status = getattr(self.camera, "status", None)
        merged = self.status.to_json()
        if callable(camera_status):
            extra = camera_status()
            merged["ok"] = merged["ok"] and extra.get("ok", True)
            merged["error"] = merged["error"] or extra.get("error")
        if self.silent_since is not None:
            merged["ok"] = False
            merged["fault"] = camera_text(self.silent_since)
        return {"camera": merged}

    # the loop ------------------------------------------------------------------------------
    def _run(self) -> None:
        started = time.perf_counter()
        try:
            for frame in self.camera.frames():
                if self._stop.is_set():
                    break
                self.frame_arrived()
                image = getattr(frame, "image", frame)
                try:
                    self.process(image, getattr(frame, "detail", None))
                except ValueError as exc:  # a corrupt frame: say so, keep the game
                    self.status.error = f"bad frame: {exc}"
                    log.warning("bad frame: %s", exc)
                self.status.frames += 1
                elapsed = time.perf_counter() - started
                self.status.fps = self.status.frames / elapsed if elapsed > 0 else 0.0
        except Exception as exc:  # the camera went away for good: report, never kill the game
            self.status.ok = False
            self.status.error = f"camera stopped: {exc}"
            log.exception("camera loop stopped")

    def process(self, image: np.ndarray, detail: Any = None) -> Observation:
        """Observe one frame and hand the referee anything new. Returns the observation.

        ``detail``: the camera's full-resolution image of the same moment, if it gives one
        (the trays are read from it; the board from ``image``)."""
        game = self.referee.game
        board = game.board
        if self._calibrated_for != board.name:
            self.calibration, self._calibrated_for = None, board.name
            self._last_key = None
            self.stabiliser.reset()
            self.trays.forget()
        obs = observe(image, [board], self.calibration, self._last_h)
        self.observations += 1
        if obs.homography is not None:
            self._last_h = obs.homography
        dice = []
        timings = dict(obs.timings_ms)
        wanted = self.read_dice and self.referee.awaiting_roll()
        if wanted and obs.homography is not None and not obs.hand:
            dice = self.trays.read(image, board, obs.homography, detail)
            timings.update(self.trays.timings_ms)
            self.status.tray_px_per_mm = dict(self.trays.px_per_mm)
        if not wanted or obs.homography is not None:
            self._ask_detail(board, obs.homography if wanted else None)
        self.status.timings_ms = timings
        with self._latest_lock:
            self._latest = annotate(image, board, obs, dice)
        if obs.game is None:
            self.status.ok, self.status.reason = True, "board not in view"
            return obs
        self.status.ok, self.status.error = True, None
        if self.calibration is None and not obs.hand:
            self._calibrate(image, board, obs)
            obs = observe(image, [board], self.calibration, self._last_h)
        stable = self.stabiliser.push(replace(obs, dice=dice))  # the dice must hold still too
        self.status.reason = self.stabiliser.reason
        if obs.hand:
            self._unclear_frames = 0
            self._hand_over(dice)
        elif obs.unclear:
            self._unclear_frames += 1
            if self._unclear_frames == self.unclear_after:
                self.referee.observe(obs.placement, unclear=obs.unclear)
        elif stable is not None:
            self._unclear_frames = 0
            values = tuple(d.value for d in stable.dice)
            owners = tuple(getattr(d, "owner", None) for d in stable.dice)
            boxes = [_box(d) for d in stable.dice]
            key = (tuple(sorted(stable.placement.items())), values, owners)
            # The stabiliser holds the values still; a die seen elsewhere is a new throw too.
            moved = key == self._last_key and any(
                a is not None and b is not None and die_moved(a, b)
                for a, b in zip(self._last_boxes, boxes, strict=False)
            )
            # While storage cannot save, the move was not taken: hand it over every frame, so
            # play resumes by itself when storage works again.
            paused = getattr(getattr(self.referee, "faults", None), "paused", False)
            if key != self._last_key or moved or paused:
                self._last_key, self._last_boxes = key, boxes
                self.referee.observe(
                    stable.placement, dice=list(values), dice_owners=list(owners),
                    dice_boxes=boxes,
                )  # fmt: skip
                self._learn(board, stable)
        return obs

    def _ask_detail(self, board: Any, homography: np.ndarray | None) -> None:
        """Tell the camera which rectangles of its full-resolution image the next frames
        need (the trays while a roll is awaited, nothing otherwise); said only on a change
        of more than a few pixels."""
        want = getattr(self.camera, "want_detail", None)
        if want is None:
            return
        regions = tray_regions(board, homography) if homography is not None else None
        old = self._detail_regions
        if regions is None and old is None:
            return
        if regions is not None and old is not None and len(regions) == len(old):
            if all(max(abs(a - b) for a, b in zip(r, o, strict=True)) <= 4 for r, o in
                   zip(regions, old, strict=True)):  # fmt: skip
                return
        self._detail_regions = regions
        want(regions)

    def _learn(self, board: Any, stable: Observation) -> None:
        """The referee agrees with this reading: let the calibration learn from the frame
        (spaces seen empty for the first time, a lamp drifting slowly)."""
        game = self.referee.game
        if self.calibration is None or game.board is not board:
            return
        expected = game.placement(self.referee.state)
        if game.canonical(expected) != game.canonical(stable.placement) or stable.view is None:
            return
        self.calibration = refine(
            self.calibration, board, stable.view, expected, markers_seen=stable.markers
        )

    def _hand_over(self, dice: list) -> None:
        if self._last_key is not None:
            self._last_key = None
            self.referee.observe(None, hand=True)

    def _calibrate(self, image: np.ndarray, board: Any, obs: Observation) -> None:
        """Learn the real tokens, paint and lamp from the position the referee expects."""
        expected = self.referee.game.placement(self.referee.state)
        try:
            self.calibration = calibrate(board, [(image, expected)], homographies=[obs.homography])
        except ValueError as exc:
            log.warning("calibration failed: %s", exc)


def _box(die: Any) -> tuple[int, int, int, int] | None:
    """A die's box (x, y, w, h) in the frame, if the reader gave one."""
    try:
        return (int(die.x), int(die.y), int(die.w), int(die.h))
    except AttributeError:
        return None
