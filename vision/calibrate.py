"""Colour calibration: what each empty space and each token colour look like on this table.

Learned from frames whose placement is known: the empty board, and/or the starting position
(every game starts with known tokens on known spaces). Each space keeps its own empty
appearance, so a hole printed in a player's colour is "empty" for that hole and never a token;
each token colour keeps the median appearance of the real tokens under the real lamp.
Colours are in the normalised LAB space produced by `vision.spaces.sample_spaces`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from rules.geometry import Board
from rules.palette import PALETTE
from vision.lens import Lens
from vision.locate import Location
from vision.register import BoardView, markers_fit, photo_view
from vision.tokens import chroma


def palette_look(colour: str) -> tuple[float, float, float]:
    """(hue degrees, chroma, brightness) of a palette colour on white paper: the reader's
    prior for a token of that colour (`vision.tokens.chroma_planes` measures the same)."""
    r, g, b = (c / 255.0 for c in PALETTE[colour].rgb)
    cx, cy, light = chroma(b, g, r)
    return (float(np.degrees(np.arctan2(cy, cx)) % 360.0), float(np.hypot(cx, cy)), light)


DEFAULT_EMPTY = (0.0, 0.0, 0.47)  # a printed hole: grey, about half as bright as the paper
Look = tuple[float, float, float]


@dataclass
class Calibration:
    """What this table's empty spaces and tokens look like, in the reader's measures.

    `empty`: each space's centre when empty (chroma x, chroma y, brightness; paper = 1);
    `tints`: the chroma an empty owned space shows in its seat's hue (its printed tint);
    `colours`: each token colour's (hue, chroma, brightness) as the real tokens show it.
    """

    board: str
    empty: dict[str, Look] = field(default_factory=dict)
    colours: dict[str, Look] = field(default_factory=dict)
    tints: dict[str, float] = field(default_factory=dict)
    default_empty: Look = DEFAULT_EMPTY
    # spaces never seen empty: their empty look is borrowed from similar spaces
    borrowed: set[str] = field(default_factory=set)
    # a small top view of the board (vision.hand.rectify) for spotting hands; not in to_json
    top_view: np.ndarray | None = field(default=None, repr=False, compare=False)
    # where the board lies, learnt once while the camera and the board stay put: the lens's
    # radial term (None: a straight lens), and board mm as the corner markers place them ->
    # as the printed holes do (3x3; None: the markers' fit held), with the markers' own fit
    # it was learnt at (`fit_at`)
    lens_k1: float | None = None
    board_fit: np.ndarray | None = field(default=None, repr=False, compare=False)
    fit_at: np.ndarray | None = field(default=None, repr=False, compare=False)

    def fitted(self, homography: np.ndarray, board: Board) -> np.ndarray | None:
        """The markers' homography (image px -> board mm) bent to the holes as learnt; None
        when the board has moved in the frame since (a lens bends another part of the
        picture differently: the holes must be fitted again)."""
        h = np.asarray(homography, np.float64)
        if self.board_fit is None:
            return h
        if self.fit_at is not None and board_moved_px(self.fit_at, h, board) > FIT_MOVED_PX:
            return None
        return self.board_fit @ h

    def view(self, frame: np.ndarray, location: Location) -> BoardView | None:
        """The frame through the learnt lens and the board's learnt fit; None
        when the board has moved since (it is measured again from the photo)."""
        lens = (
            None if self.lens_k1 is None else Lens(self.lens_k1, (frame.shape[1], frame.shape[0]))
        )
        markers = markers_fit(location, lens)
        if markers is None:
            return None
        fit = self.fitted(markers, location.board)
        if fit is None:
            return None
        return BoardView(frame, fit, markers, lens)

    def learn_fit(self, frame: np.ndarray, location: Location) -> BoardView:
        """Measure the lens and the board's fit on `frame` and keep them; the view to read."""
        view = photo_view(frame, location)
        self.lens_k1 = None if view.lens is None else view.lens.k1
        bent = view.lens is not None or not np.array_equal(view.homography, view.markers)
        self.board_fit = view.homography @ np.linalg.inv(view.markers) if bent else None
        self.fit_at = view.markers if bent else None
        return view

    def empty_look(self, space_id: str) -> Look:
        return self.empty.get(space_id, self.default_empty)

    def empty_tint(self, space_id: str) -> float | None:
        return self.tints.get(space_id)

    def learned_empty(self, space_id: str) -> bool:
        """Whether this space's empty appearance was seen (not borrowed or defaulted)."""
        return space_id in self.empty and space_id not in self.borrowed

    def colour_look(self, colour: str) -> Look:
        if colour in self.colours:
            return self.colours[colour]
        return palette_look(colour)

    def to_json(self) -> dict:
        def r(v):
            return [round(float(x), 4) for x in v]

        return {
            "board": self.board,
            "empty": {k: r(v) for k, v in self.empty.items()},
            "colours": {k: r(v) for k, v in self.colours.items()},
            "tints": {k: round(float(v), 4) for k, v in self.tints.items()},
            "default_empty": r(self.default_empty),
            "borrowed": sorted(self.borrowed),
            **({} if self.lens_k1 is None else {"lens_k1": round(float(self.lens_k1), 4)}),
            **({} if self.board_fit is None else {"board_fit": r(self.board_fit.ravel())}),
            **({} if self.fit_at is None else {"fit_at": [float(x) for x in self.fit_at.ravel()]}),
        }

    @classmethod
    def from_json(cls, data: dict) -> Calibration:
        def t(v):
            return tuple(float(x) for x in v)

        return cls(
            board=str(data["board"]),
            empty={k: t(v) for k, v in data.get("empty", {}).items()},
            colours={k: t(v) for k, v in data.get("colours", {}).items()},
            tints={k: float(v) for k, v in data.get("tints", {}).items()},
            default_empty=t(data.get("default_empty", DEFAULT_EMPTY)),
            borrowed=set(data.get("borrowed", ())),
            lens_k1=_lens_k1(data.get("lens_k1")),
            board_fit=_board_fit(data.get("board_fit"), "board_fit"),
            fit_at=_board_fit(data.get("fit_at"), "fit_at"),
        )


FIT_MOVED_PX = 6.0  # the board's corners this far from where they lay when the fit was learnt


def board_moved_px(before: np.ndarray, now: np.ndarray, board: Board) -> float:
    """How far (image px) the board's corners lie from where `before` put them, by `now`
    (both image px -> board mm)."""
    corners = np.array([[[0, 0], [board.width, 0], [board.width, board.height], [0, board.height]]],
                       np.float64)  # fmt: skip
    a = cv2.perspectiveTransform(corners, np.linalg.inv(before))[0]
    b = cv2.perspectiveTransform(corners, np.linalg.inv(now))[0]
    return float(np.linalg.norm(a - b, axis=1).max())


def _lens_k1(value) -> float | None:
    """A saved lens term, checked: a finite number within the lenses looked for."""
    if value is None:
        return None
    try:
        k1 = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"calibration lens_k1 must be a number, got {value!r}") from None
    if not np.isfinite(k1) or abs(k1) > 1.0:
        raise ValueError(f"calibration lens_k1 must be a finite number within +-1, got {value!r}")
    return k1


def _board_fit(values, name: str) -> np.ndarray | None:
    """A saved 3x3 (the board fit, or where it was learnt), checked: nine finite numbers of
    an invertible matrix."""
    if values is None:
        return None
    fit = np.array(values, np.float64)
    if (
        fit.shape != (9,)
        or not np.isfinite(fit).all()
        or abs(np.linalg.det(fit.reshape(3, 3))) < 1e-9
    ):
        raise ValueError(
            f"calibration {name} must be nine numbers of an invertible 3x3, got {values!r}"
        )
    return fit.reshape(3, 3)


def default_calibration(board: Board) -> Calibration:
    """No learning: grey holes and the palette's nominal token colours."""
    return Calibration(board.name)


def _colour_peak(looks, i: int, colour: str) -> Look | None:
    """The strongest own peak of space i within 45 degrees of the colour's palette hue."""
    from vision.tokens import HUE_CENTRES, hue_gap

    hue = palette_look(colour)[0]
    near = hue_gap(HUE_CENTRES, hue) <= 45.0
    values = np.where(near, looks.peaks[i], 0.0)
    j = int(np.argmax(values))
    if values[j] <= 0.0:
        return None
    return (float(HUE_CENTRES[j]), float(values[j]), float(looks.peak_light[i, j]))


def _check_tokens(board: Board, colour: str, seen: list[Look | None], centres: list) -> None:
    """Refuse to learn from a frame that does not show the placement it was given."""
    if palette_look(colour)[1] < 0.3:  # white, black: judged by brightness at the centre
        lights = np.array([c[2] for c in centres])
        want = palette_look(colour)[2]
        if np.mean(np.abs(np.log(np.maximum(lights, 1e-3) / want)) < 0.5) < 0.8:
            raise ValueError(
                f"calibration for {board.name!r}: the {colour} tokens do not look {colour}; "
                "is the board set up as expected?"
            )
        return
    strong = [p for p in seen if p is not None and p[1] >= 0.3]
    if len(strong) < 0.8 * len(seen):
        raise ValueError(
            f"calibration for {board.name!r}: {len(seen) - len(strong)} of {len(seen)} "
            f"{colour} tokens are not seen as {colour}; is the board set up as expected?"
        )


def _check_stand_out(board: Board, colour: str, seen: list, tint_seen: dict) -> None:
    """Tokens on spaces printed in their own colour must stand out from that print: else the
    frame shows empty tinted holes, not the placement it was given."""
    if palette_look(colour)[1] < 0.3:
        return
    seats = {i for i, c in enumerate(board.seat_colours) if c == colour}
    tints = [v for sid, vals in tint_seen.items() if board.space(sid).owner in seats for v in vals]
    strengths = [p[1] if p is not None else 0.0 for p in seen]
    floor = float(np.median(tints)) + 0.12 if tints else 0.6
    if float(np.median(strengths)) < floor:
        raise ValueError(
            f"calibration for {board.name!r}: the {colour} tokens do not stand out from the "
            f"board's {colour} print; is the board set up as expected?"
        )


def _owner_tint(looks, board: Board, i: int) -> float | None:
    """The chroma an owned space shows in its seat's hue (None for a space nobody owns, or
    when the space shows no chroma peak of its own)."""
    owner = board.spaces[i].owner
    if owner is None or owner >= len(board.seat_colours):
        return None
    colour = board.seat_colours[owner]
    if colour not in PALETTE or palette_look(colour)[1] < 0.3:
        return None
    peak = _colour_peak(looks, i, colour)
    # no peak of its own (tokens of that colour all around outshine it): nothing learnt
    return None if peak is None else peak[1]


def calibrate(
    board: Board,
    views: list[tuple[np.ndarray, dict[str, str]]],
    config=None,
    homographies: list[np.ndarray | None] | None = None,
) -> Calibration:
    """Learn a Calibration from frames with known placements: [(frame, placement), ...].

    `placement` holds the occupied spaces ({} for the empty board). Raises ValueError when a
    frame does not show this board, or not the placement it was given. Spaces never seen
    empty borrow the median look of spaces of the same kind and owner, then of the same owner
    (a seat's printed tint), then (unowned spaces) of the same kind, then of the whole board.
    """
    from vision.config import DEFAULT_CONFIG
    from vision.hand import rectify
    from vision.locate import locate
    from vision.spaces import sample_spaces

    config = config or DEFAULT_CONFIG
    empty_seen: dict[str, list] = defaultdict(list)
    tint_seen: dict[str, list] = defaultdict(list)
    colour_seen: dict[str, list] = defaultdict(list)
    centres_seen: dict[str, list] = defaultdict(list)
    tops: list[np.ndarray] = []
    fit = Calibration(board.name)  # (holds the lens and the board's fit while learning)
    for k, (frame, placement) in enumerate(views):
        last = homographies[k] if homographies else None
        loc = locate(config, frame, [board], last_homography=last)
        if loc is None:
            raise ValueError(f"calibration frame {k}: board {board.name!r} not found")
        # the first view's lens and printed holes fix where the board lies, while it lies so
        view = (fit.view(frame, loc) if k else None) or fit.learn_fit(frame, loc)
        looks = sample_spaces(config, view.frame, board, view.homography, loc.markers, view.lens)
        tops.append(rectify(config, view.frame, board, view.homography, view.lens))
        for i, sid in enumerate(looks.ids):
            if not looks.valid[i]:
                continue
            colour = placement.get(sid)
            if colour is None:
                empty_seen[sid].append(looks.centre[i])
                tint = _owner_tint(looks, board, i)
                if tint is not None:
                    tint_seen[sid].append(tint)
            elif colour in PALETTE:
                colour_seen[colour].append(_colour_peak(looks, i, colour))
                centres_seen[colour].append(looks.centre[i])
    for colour, seen in colour_seen.items():
        _check_tokens(board, colour, seen, centres_seen[colour])
        _check_stand_out(board, colour, seen, tint_seen)
    cal = Calibration(board.name, lens_k1=fit.lens_k1, board_fit=fit.board_fit, fit_at=fit.fit_at)
    if tops:
        cal.top_view = np.median(np.stack(tops), 0).astype(np.uint8)
    for sid, vals in empty_seen.items():
        cal.empty[sid] = tuple(float(x) for x in np.median(vals, 0))
    for sid, vals in tint_seen.items():
        cal.tints[sid] = float(np.median(vals))
    for colour, seen in colour_seen.items():
        if palette_look(colour)[1] < 0.3:
            light = float(np.median([c[2] for c in centres_seen[colour]]))
            cal.colours[colour] = (0.0, 0.0, light)
            continue
        peaks = np.array([p for p in seen if p is not None])
        hue = float(np.degrees(np.angle(np.mean(np.exp(1j * np.radians(peaks[:, 0]))))) % 360)
        cal.colours[colour] = (hue, float(np.median(peaks[:, 1])), float(np.median(peaks[:, 2])))
    _borrow(board, cal)
    return cal


def _borrow(board: Board, cal: Calibration) -> None:
    """Spaces never seen empty take the median look of the most similar spaces seen empty."""
    if not cal.empty:
        return
    groups: dict[tuple, list] = defaultdict(list)
    owners: dict[int, list] = defaultdict(list)
    kinds: dict[str, list] = defaultdict(list)
    for s in board.spaces:
        if s.id in cal.empty and s.id not in cal.borrowed:
            entry = (cal.empty[s.id], cal.tints.get(s.id))
            groups[(s.kind, s.owner)].append(entry)
            if s.owner is not None:
                owners[s.owner].append(entry)
            kinds[s.kind].append(entry)
    everything = [e for pool in groups.values() for e in pool]
    for s in board.spaces:
        if s.id in cal.empty and s.id not in cal.borrowed:
            continue
        pool = (
            groups.get((s.kind, s.owner))
            or (owners.get(s.owner) if s.owner is not None else None)
            or (kinds.get(s.kind) if s.owner is None else None)
            or everything
        )
        cal.empty[s.id] = tuple(float(x) for x in np.median([e[0] for e in pool], 0))
        # no tint is borrowed: a seat's spaces of another kind may be printed more colourful
        cal.borrowed.add(s.id)
    cal.default_empty = tuple(float(x) for x in np.median([e[0] for e in everything], 0))


def refine(
    calibration: Calibration,
    board: Board,
    view: BoardView,
    placement: dict[str, str],
    config=None,
    markers_seen: tuple[int, ...] | None = None,
    rate: float = 0.25,
) -> Calibration:
    """Learn more from a frame whose placement is confirmed (a stable reading the referee
    accepted), read where `view` (`Observation.view`) read it: spaces seen empty for the
    first time get their own look, and every reference moves `rate` of the way toward what
    this frame shows (a lamp drifting, a cloud). The lens and the board's fit stay as
    learnt. Returns a new Calibration; the old one is untouched.
    """
    from vision.config import DEFAULT_CONFIG
    from vision.spaces import sample_spaces

    config = config or DEFAULT_CONFIG
    looks = sample_spaces(config, view.frame, board, view.homography, markers_seen, view.lens)
    new = replace(
        calibration,
        empty=dict(calibration.empty),
        colours=dict(calibration.colours),
        tints=dict(calibration.tints),
        borrowed=set(calibration.borrowed),
    )
    by_colour: dict[str, list] = defaultdict(list)
    for i, sid in enumerate(looks.ids):
        if not looks.valid[i]:
            continue
        colour = placement.get(sid)
        if colour is None:
            seen = np.asarray(looks.centre[i], np.float64)
            tint = _owner_tint(looks, board, i)
            fresh = sid in new.borrowed or sid not in new.empty
            old = seen if fresh else np.asarray(new.empty[sid])
            new.empty[sid] = tuple(float(x) for x in old + rate * (seen - old))
            if tint is not None:
                old_tint = tint if fresh or sid not in new.tints else new.tints[sid]
                new.tints[sid] = float(old_tint + rate * (tint - old_tint))
            new.borrowed.discard(sid)
        elif colour in PALETTE and palette_look(colour)[1] >= 0.3:
            peak = _colour_peak(looks, i, colour)
            if peak is not None:
                by_colour[colour].append(peak)
    for colour, peaks in by_colour.items():
        arr = np.array(peaks)
        old = np.asarray(new.colour_look(colour), np.float64)
        seen = np.array([old[0], np.median(arr[:, 1]), np.median(arr[:, 2])])
        new.colours[colour] = tuple(float(x) for x in old + rate * (seen - old))
    return new
