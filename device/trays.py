"""Dice in the trays: which dice the camera sees are new throws, and which were entered already.

A die read in a tray is entered as a roll once. Its tray is then spent: it counts again only on
evidence of a new throw (see `TrayWatch.rearm`). In the roll-off several seats may roll at
once, each from its own tray; dice of seats that may not roll are mentioned once, with the rule.
The referee holds its lock around every call here and decides when a throw is entered.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import rules
from rules import Roll

from .rulings import ignored_effect, notice

log = logging.getLogger(__name__)

Box = tuple[int, int, int, int]  # a die's box in the frame: x, y, w, h (pixels)
Throw = tuple[int, int, int | None]  # a throw to enter: (seat, value, tray)
RollAs = Callable[[int, int, str, list[dict[str, Any]] | tuple], None]  # seat, value, source, notes


def die_moved(a: Box, b: Box) -> bool:
    """True when the centres of two boxes of a die lie more than half the die's side apart.
    The side is taken as the least a box of that size may hold: a die turned by 45 degrees
    has a box 1.41 times its side (taking the box for the side, a throw landing 0.7 of a
    side from the last die, showing its face, was taken for that die)."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    dx, dy = (bx + bw / 2) - (ax + aw / 2), (by + bh / 2) - (ay + ah / 2)
    side = (aw + ah + bw + bh) / 4 / math.sqrt(2)
    return dx * dx + dy * dy > (side / 2) ** 2


@dataclass
class Spent:
    """A tray whose die was entered as a roll: the dice lying in it then (value, box or None),
    whether a hand was seen over the board since, and whether the table was told it waits."""

    dice: list[tuple[int, Box | None]]
    hand: bool = False
    told: bool = False

    def still_there(self, value: int, box: Box | None) -> bool:
        """Whether a die seen in the tray may be one of the dice lying there then."""
        for old_value, old_box in self.dice:
            moved = box is not None and old_box is not None and die_moved(old_box, box)
            if not moved and (value == old_value or not self.hand):
                return True
        return False


@dataclass(frozen=True)
class TrayDice:
    """The dice the camera reads in the trays: die i shows `values[i]`, lies in the tray of
    seat `owners[i]` (None: a shared tray) and in the box `boxes[i]` of the frame (if known)."""

    values: list[int]
    owners: list[int | None]
    boxes: list[Box | None]

    @classmethod
    def read(
        cls,
        dice: list[int] | None,
        owners: list[int | None] | None = None,
        boxes: list[Box | None] | None = None,
    ) -> TrayDice:
        """From the camera's lists; no owners: every die in the shared tray."""
        values = list(dice or [])
        return cls(
            values,
            list(owners) if owners is not None else [None] * len(values),
            list(boxes) if boxes is not None else [None] * len(values),
        )

    def in_tray(self, tray: int | None) -> list[tuple[int, Box | None]]:
        """The dice (value, box) seen in one tray (an owner seat, or None for a shared tray)."""
        seen = zip(self.values, self.owners, self.boxes, strict=False)
        return [(v, b) for v, o, b in seen if o == tray]


@dataclass
class TrayWatch:
    """The trays of one game: which are spent (by owner seat; None: a shared tray), and which
    (seat, reason) the table was already told a die does not count for."""

    spent: dict[int | None, Spent] = field(default_factory=dict)
    told: set[tuple[int, str]] = field(default_factory=set)

    def hand_seen(self) -> None:
        """A hand over the board: from now on a spent tray's die showing another face moved."""
        for spent in self.spent.values():
            spent.hand = True

    def rearm(self, seen: TrayDice) -> None:
        """A spent tray counts again only on evidence of a new throw: none of the dice that lay
        in it when its roll was entered is still there. A die is still there unless the tray
        is seen without it, or it is seen elsewhere (its centre moved by more than half its
        size: a throw almost never lands on the same spot), or it shows another face and a
        hand was seen since (a die does not turn over by itself). A hand passing over an
        unmoved die showing the same face re-arms nothing."""
        for tray, spent in list(self.spent.items()):
            if not any(spent.still_there(v, b) for v, b in seen.in_tray(tray)):
                del self.spent[tray]

    def enter(
        self,
        game: rules.Game,
        state: Any,
        seen: TrayDice,
        rolling_now: Callable[[], list[int]],
        roll_as: RollAs,
    ) -> tuple[bool, dict[str, Any] | None]:
        """Enter (with `roll_as`) every new throw seen of a seat that may roll now, in seat
        order, each as a single roll is; say once that the other new dice do not count, and
        once (after a hand was seen) that a die already entered is not a new throw.
        Returns whether a throw was entered, and the notice to show when none was but there
        was something to say (else None)."""
        rolling = rolling_now()
        throws, ignored = self.throws(seen, rolling, state.to_move)
        notes = self.ignored_notes(game, state, ignored)
        stale = self.stale_notes(rolling, state.to_move, game.colours)
        entered = False
        for n, (seat, value, tray) in enumerate(throws):
            if seat not in rolling_now():  # a roll-off never refuses a seat still in
                log.warning("%s may no longer roll; its die is not entered", seat)
                break
            self.spent[tray] = Spent(seen.in_tray(tray))
            last = n == len(throws) - 1
            roll_as(seat, value, "camera", notes + stale if last else ())
            entered = True
        if (notes or stale) and not entered:
            text = stale[0]["text"] if stale and not notes else (
                "only the dice of players still to roll count")  # fmt: skip
            return False, notice("ignored", text) | {"effects": notes + stale}
        return entered, None

    def throws(
        self, seen: TrayDice, rolling: list[int], to_move: int
    ) -> tuple[list[Throw], list[tuple[int, int]]]:
        """(throws to enter as (seat, value, tray), new dice of seats that may not roll as
        (seat, value)), both in seat order. A spent tray is skipped; one die per seat counts.
        A die in a shared tray is the throw of the seat `to_move`."""
        throws: dict[int, Throw] = {}
        ignored: dict[int, tuple[int, int]] = {}
        for value, tray in zip(seen.values, seen.owners, strict=False):
            if tray in self.spent:
                continue
            seat = to_move if tray is None else tray
            if seat in rolling:
                throws.setdefault(seat, (seat, value, tray))
            else:
                ignored.setdefault(seat, (seat, value))
        return [throws[s] for s in sorted(throws)], [ignored[s] for s in sorted(ignored)]

    def stale_notes(
        self, rolling: list[int], to_move: int, colours: list[str] | tuple[str, ...]
    ) -> list[dict[str, Any]]:
        """Effects saying, once per entered die, that the die still lying in the tray of a
        seat to roll was entered already: said only after a hand was seen over the board
        (someone reached out, and the die they may have meant to throw did not move)."""
        notes = []
        for seat in rolling:
            for tray in (seat, None) if seat == to_move else (seat,):
                spent = self.spent.get(tray)
                if spent is None or not spent.hand or spent.told:
                    continue
                spent.told = True
                whose = "the tray" if tray is None else f"{colours[seat]}'s tray"
                text = (f"the die in {whose} was counted already and has not moved: pick up the "
                        "die and throw it again, or press the button")  # fmt: skip
                notes.append(ignored_effect(seat, text))
        return notes

    def ignored_notes(
        self, game: rules.Game, state: Any, ignored: list[tuple[int, int]]
    ) -> list[dict[str, Any]]:
        """Effects saying why dice seen in the roll-off do not count, each said once. A die
        showing the roll its seat has in this round is the die that made it: nothing to say."""
        rolloff = getattr(state, "rolloff", ())
        if not rolloff:
            return []  # in play a die left in another player's tray is nothing to mention
        notes = []
        for seat, value in ignored:
            if rolloff[seat] == value:
                continue
            colour = game.colours[seat]
            verdict = game.explain(state, Roll(seat, colour, value))
            if verdict.legal or (seat, verdict.reason) in self.told:
                continue
            self.told.add((seat, verdict.reason))
            clause = verdict.clauses[0].id if verdict.clauses else ""
            text = f"the die in {colour}'s tray does not count: {verdict.reason}"
            notes.append(ignored_effect(seat, text, clause))
        return notes
