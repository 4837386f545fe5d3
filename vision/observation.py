"""One frame -> one Observation: which game, where the board is, what is on every space.

`observe` chains the stages (locate, spaces, hand, dice) and times each one. It never guesses:
a space it cannot read with confidence is reported as UNKNOWN and listed in `unclear`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from rules.geometry import Board
from rules.palette import UNKNOWN
from vision.calibrate import Calibration
from vision.config import DEFAULT_CONFIG, VisionConfig, check_frame
from vision.contest import is_contest
from vision.hand import HandResult, detect_hand, rectify
from vision.locate import locate
from vision.register import BoardView, photo_view
from vision.round_hand import read_round_hand
from vision.spaces import sample_spaces
from vision.topview import nearest_spacing

HAND_SHADOW = 0.8  # with a hand in view, paper darker than this against the board is its shadow
# a battle (two stands) within this many spacings of a hand is not read: a rim of skin beside
# a stand looks like a second stand
BATTLE_HAND_REACH = 1.0


@dataclass(frozen=True)
class Observation:
    game: str | None  # the board's name, None when no known board is in view
    homography: np.ndarray | None  # image px -> board mm
    spaces: dict[str, tuple[str | None, float]]  # id -> (None | colour | UNKNOWN, confidence)
    placement: dict[str, str]  # occupied (or UNKNOWN) spaces only: id -> colour
    unclear: tuple[str, ...]  # spaces read UNKNOWN
    dice: list = field(default_factory=list)  # whatever the dice reader returned
    hand: bool = False
    timings_ms: dict[str, float] = field(default_factory=dict)
    markers: tuple[int, ...] = ()  # marker ids seen
    source: str = ""  # "markers" | "last" | "" (not located)
    # the frame as read (through the lens it measured) and the board's fit in it:
    # what a calibration learns from once the referee accepts the reading
    view: BoardView | None = field(default=None, repr=False, compare=False)

    @property
    def located(self) -> bool:
        return self.game is not None


def _calibration_for(calibration, board: Board) -> Calibration | None:
    if calibration is None:
        return None
    if isinstance(calibration, Calibration):
        return calibration if calibration.board == board.name else None
    if isinstance(calibration, Mapping):
        return calibration.get(board.name)
    raise TypeError(f"calibration must be a Calibration or a mapping, got {type(calibration)}")


def observe(
    frame: np.ndarray,
    boards: Sequence[Board],
    calibration: Calibration | Mapping[str, Calibration] | None = None,
    last_homography: np.ndarray | None = None,
    dice_reader: Callable[[np.ndarray], list] | None = None,
    config: VisionConfig = DEFAULT_CONFIG,
) -> Observation:
    """Read one BGR frame. `dice_reader(frame) -> list` is called when given (else no dice)."""
    check_frame(frame)
    if frame.ndim != 3:
        raise ValueError(f"observe needs a BGR frame (HxWx3), got shape {frame.shape}")
    if not boards:
        raise ValueError("observe needs at least one candidate board")
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    loc = locate(config, frame, list(boards), last_homography)
    t1 = time.perf_counter()
    timings["locate"] = (t1 - t0) * 1e3
    dice: list = []
    if dice_reader is not None:
        dice = list(dice_reader(frame))
        timings["dice"] = (time.perf_counter() - t1) * 1e3
    if loc is None:
        timings["total"] = (time.perf_counter() - t0) * 1e3
        return Observation(None, None, {}, {}, (), dice, False, timings)
    board = loc.board
    cal = _calibration_for(calibration, board)
    t2 = time.perf_counter()
    # where the spaces are: through the lens where it bends the frame, and the markers'
    # fit bent to the printed holes, as the calibration learnt them while the board lies
    # where it lay then, else as this photo shows them
    view = cal.view(frame, loc) if cal is not None else None
    view = view or photo_view(frame, loc)
    frame, fit, lens = view.frame, view.homography, view.lens
    t_fit = time.perf_counter()
    timings["fit"] = (t_fit - t2) * 1e3
    ref = cal.top_view if cal is not None else None
    # both warps of the frame one after the other: the second finds the board's pixels that
    # the first brought into the cache (reading the frame costs them more than their sums)
    hand_view = rectify(config, frame, board, fit, lens)
    t3 = time.perf_counter()
    samples = sample_spaces(config, frame, board, fit, loc.markers, lens)
    t4 = time.perf_counter()
    seen_hand = detect_hand(config, frame, board, fit, ref, hand_view)
    hand = seen_hand.hand
    t5 = time.perf_counter()
    timings["hand"] = (t3 - t_fit + t5 - t4) * 1e3
    # what lies under a hand (or close beside it) is not learnt from (a sleeve is no token,
    # nor skin a seat's tint), and read only as far as skin cannot have made the reading;
    # nor, below, what lies in its shadow, where the light is not the board's
    spaces = read_round_hand(config, samples, board, cal, seen_hand)
    timings["spaces"] = (t4 - t3 + time.perf_counter() - t5) * 1e3
    if hand:
        # (where no bare paper lies near a space, its shade is unknown, nan: nothing says a
        # shadow is there, and it is read as the rest of the board is)
        for sid in np.asarray(samples.ids)[samples.shade < HAND_SHADOW]:
            spaces[sid] = (UNKNOWN, 0.0)
        # skin beside a stand looks like a second stand: a battle near a hand is not read
        for sid in _battles_near(spaces, board, config, seen_hand):
            spaces[sid] = (UNKNOWN, 0.0)
    placement = {sid: colour for sid, (colour, _) in spaces.items() if colour is not None}
    unclear = tuple(sid for sid, (colour, _) in spaces.items() if colour == UNKNOWN)
    timings["total"] = (time.perf_counter() - t0) * 1e3
    return Observation(
        board.name, loc.homography, spaces, placement, unclear, dice, hand, timings,
        loc.markers, loc.source, view,
    )  # fmt: skip


def _battles_near(
    spaces: dict[str, tuple[str | None, float]],
    board: Board,
    config: VisionConfig,
    seen_hand: HandResult,
) -> list[str]:
    """The spaces read as a battle within BATTLE_HAND_REACH spacings of the hand."""
    battles = [sid for sid, (reading, _) in spaces.items() if is_contest(reading)]
    if not battles:
        return []
    reach = BATTLE_HAND_REACH * float(np.median(nearest_spacing(board)))
    near = seen_hand.covers(board, config, margin_mm=reach)
    return [sid for sid in battles if sid in near]
