"""Frame-to-frame stabilising: report a placement only once it has held still.

A reading counts when the same game, placement and dice hold for `frames_required` consecutive
frames with the board located, no hand over it and no unclear space. Anything else resets the
count, and `reason` says why the last push yielded nothing. The dice are part of the reading so
that a die still tumbling (or read in a tray for one frame only) is never handed over.
"""

from __future__ import annotations

from vision.observation import Observation


class Stabiliser:
    def __init__(self, frames_required: int = 3) -> None:
        if frames_required < 1:
            raise ValueError(f"frames_required must be >= 1, got {frames_required}")
        self.frames_required = int(frames_required)
        self.reason = "no frame yet"
        self._key: tuple | None = None
        self._count = 0

    def reset(self) -> None:
        self._key, self._count = None, 0
        self.reason = "reset"

    def push(self, obs: Observation) -> Observation | None:
        """The observation when it is stable, else None (see `reason`)."""
        bad = None
        if obs.game is None:
            bad = "board not found"
        elif obs.hand:
            bad = "hand over the board"
        elif obs.unclear:
            bad = f"{len(obs.unclear)} space(s) unclear: {', '.join(obs.unclear[:5])}"
        if bad is not None:
            self._key, self._count = None, 0
            self.reason = bad
            return None
        key = (obs.game, tuple(sorted(obs.placement.items())), dice_key(obs.dice))
        if key == self._key:
            self._count += 1
        else:
            self._key, self._count = key, 1
        if self._count < self.frames_required:
            self.reason = f"settling ({self._count}/{self.frames_required} frames)"
            return None
        self.reason = "stable"
        return obs


def dice_key(dice: list) -> tuple[tuple[str, int], ...]:
    """The dice of a reading as (tray, value) pairs, in a fixed order (a die without a tray: "")."""
    return tuple(sorted((str(getattr(d, "tray", "")), int(getattr(d, "value", d))) for d in dice))
