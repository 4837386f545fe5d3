"""Colour calibration: what each empty space and each token colour look like on this table.

Learned from frames whose placement is known: the empty board, and/or the starting position
(every game starts with known tokens on known spaces). Each space keeps its own empty
appearance, so a hole printed in a player's colour is "empty" for that hole and never a token;
each token colour keeps the median appearance of the real tokens under the real lamp.
Colours are in the normalised LAB space produced by `vision.spaces.sample_spaces`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import cv2
import numpy as np

from rules.geometry import Board
from rules.palette import PALETTE

# boardref's printed holes are a neutral mid-grey (hardware.artwork.HOLE_BGR = 112): without a
# learned calibration an empty space is expected to look like that.
DEFAULT_EMPTY_BGR = (112, 112, 112)


def _lab_of_bgr(bgr) -> tuple[float, float, float]:
    px = np.array([[bgr]], np.float32) / 255.0
    lab = cv2.cvtColor(px, cv2.COLOR_BGR2LAB)[0, 0]
    return (float(lab[0]), float(lab[1]), float(lab[2]))


def palette_lab(colour: str) -> tuple[float, float, float]:
    r, g, b = PALETTE[colour].rgb
    return _lab_of_bgr((b, g, r))


@dataclass
class Calibration:
    """Per-space empty references and per-colour token references (normalised LAB)."""

    board: str
    empty: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    colours: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    default_empty: tuple[float, float, float] = field(
        default_factory=lambda: _lab_of_bgr(DEFAULT_EMPTY_BGR)
    )
    # spaces never seen empty: their empty reference is borrowed from similar spaces
    borrowed: set[str] = field(default_factory=set)
    # a small top view of the board (vision.hand.rectify) for spotting hands; not in to_json
    top_view: np.ndarray | None = field(default=None, repr=False, compare=False)

    def empty_lab(self, space_id: str) -> tuple[float, float, float]:
        return self.empty.get(space_id, self.default_empty)

    def learned_empty(self, space_id: str) -> bool:
        """Whether this space's empty appearance was seen (not borrowed or defaulted)."""
        return space_id in self.empty and space_id not in self.borrowed

    def colour_lab(self, colour: str) -> tuple[float, float, float]:
        if colour in self.colours:
            return self.colours[colour]
        return palette_lab(colour)

    def to_json(self) -> dict:
        def r(v):
            return [round(float(x), 2) for x in v]

        return {
            "board": self.board,
            "empty": {k: r(v) for k, v in self.empty.items()},
            "colours": {k: r(v) for k, v in self.colours.items()},
            "default_empty": r(self.default_empty),
            "borrowed": sorted(self.borrowed),
        }

    @classmethod
    def from_json(cls, data: dict) -> Calibration:
        def t(v):
            return tuple(float(x) for x in v)

        return cls(
            board=str(data["board"]),
            empty={k: t(v) for k, v in data.get("empty", {}).items()},
            colours={k: t(v) for k, v in data.get("colours", {}).items()},
            default_empty=t(data.get("default_empty", _lab_of_bgr(DEFAULT_EMPTY_BGR))),
            borrowed=set(data.get("borrowed", ())),
        )


def default_calibration(board: Board) -> Calibration:
    """No learning: grey empty holes and the palette's nominal token colours."""
    return Calibration(board.name)


def _check_consistent(board: Board, empty_samples: dict, colour_samples: dict) -> None:
    """Refuse to learn from a frame that does not show the placement it was given."""
    from vision.spaces import candidate_colours, lab_distance

    empties = [v for vals in empty_samples.values() for v in vals]
    empty_med = np.median(empties, 0) if empties else None
    for colour, vals in colour_samples.items():
        vals = np.array(vals, np.float32)
        med = np.median(vals, 0)
        stray = lab_distance(vals, med) > 20.0
        if stray.mean() > 0.2:
            raise ValueError(
                f"calibration for {board.name!r}: {int(stray.sum())} of {len(vals)} {colour} "
                "tokens do not look alike; is the board set up as expected?"
            )
        nominal = np.array(palette_lab(colour), np.float32)
        d_nominal = float(lab_distance(med, nominal))
        if empty_med is not None and float(lab_distance(med, empty_med)) < d_nominal:
            raise ValueError(
                f"calibration for {board.name!r}: the {colour} tokens look like empty spaces; "
                "is the board set up as expected?"
            )
        for other in candidate_colours(board):
            if other != colour and lab_distance(med, np.array(palette_lab(other))) < d_nominal:
                raise ValueError(
                    f"calibration for {board.name!r}: the {colour} tokens look {other}; "
                    "is the board set up as expected?"
                )


def calibrate(
    board: Board,
    views: list[tuple[np.ndarray, dict[str, str]]],
    config=None,
    homographies: list[np.ndarray | None] | None = None,
) -> Calibration:
    """Learn a Calibration from frames with known placements: [(frame, placement), ...].

    `placement` holds the occupied spaces ({} for the empty board). Raises ValueError when a
    frame does not show this board. Spaces never seen empty borrow the median empty reference
    of spaces of the same kind and owner, then of the same owner (a seat's printed colour),
    then (unowned spaces) of the same kind, then of the whole board.
    """
    from vision.config import DEFAULT_CONFIG
    from vision.hand import rectify
    from vision.locate import locate
    from vision.spaces import sample_spaces

    config = config or DEFAULT_CONFIG
    empty_samples: dict[str, list[np.ndarray]] = defaultdict(list)
    colour_samples: dict[str, list[np.ndarray]] = defaultdict(list)
    tops: list[np.ndarray] = []
    for k, (frame, placement) in enumerate(views):
        last = homographies[k] if homographies else None
        loc = locate(config, frame, [board], last_homography=last)
        if loc is None:
            raise ValueError(f"calibration frame {k}: board {board.name!r} not found")
        samples = sample_spaces(config, frame, board, loc.homography, loc.markers)
        tops.append(rectify(config, frame, board, loc.homography))
        for i, sid in enumerate(samples.ids):
            if not samples.valid[i]:
                continue
            colour = placement.get(sid)
            if colour is None:
                empty_samples[sid].append(samples.lab[i])
            elif colour in PALETTE:
                colour_samples[colour].append(samples.lab[i])
    cal = Calibration(board.name)
    _check_consistent(board, empty_samples, colour_samples)
    if tops:
        cal.top_view = np.median(np.stack(tops), 0).astype(np.uint8)
    for sid, vals in empty_samples.items():
        cal.empty[sid] = tuple(float(x) for x in np.median(vals, 0))
    for colour, vals in colour_samples.items():
        cal.colours[colour] = tuple(float(x) for x in np.median(vals, 0))
    if cal.empty:
        groups: dict[tuple, list] = defaultdict(list)
        owners: dict[int, list] = defaultdict(list)
        kinds: dict[str, list] = defaultdict(list)
        for s in board.spaces:
            if s.id in cal.empty:
                groups[(s.kind, s.owner)].append(cal.empty[s.id])
                if s.owner is not None:
                    owners[s.owner].append(cal.empty[s.id])
                kinds[s.kind].append(cal.empty[s.id])
        everything = list(cal.empty.values())
        for s in board.spaces:
            if s.id not in cal.empty:
                pool = (
                    groups.get((s.kind, s.owner))
                    or (owners.get(s.owner) if s.owner is not None else None)
                    or (kinds.get(s.kind) if s.owner is None else None)
                    or everything
                )
                cal.empty[s.id] = tuple(float(x) for x in np.median(pool, 0))
                cal.borrowed.add(s.id)
        cal.default_empty = tuple(float(x) for x in np.median(everything, 0))
    return cal
