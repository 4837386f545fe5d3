"""Spaces and fixes in the words players use at the table.

Space ids (`t12`, `red-b1`, `d3`) are for programs; nobody at a kitchen table can find "t12".
This module names every space the way a player would point at it: "the 3rd hole after red's
START", "the star hole in front of blue's BASE", "the outer circle at 3 o'clock". It also turns
the difference between the position the referee expects and the one the camera sees into fix
steps ("take off here", "put back here") and one sentence that says them.

Names come from the board geometry alone (kinds, owners, positions and the clockwise numbering
of the tracks), so they are the same on the screen, in the terminal and on the printed board.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .geometry import Board, Space

# What each game calls its places to stand (the rulebooks' own words).
HOLE_WORD = {"aggravation": "hole", "manji": "square", "playground-battles": "square"}

# Places named by a pattern alone, per game and space kind ({colour}: the owner's colour,
# {nth}: the space's number as an ordinal, 1st nearest the track).
PLACE_WORDS = {
    ("aggravation", "base"): "{colour}'s BASE",
    ("aggravation", "home"): "the {nth} hole of {colour}'s HOME",
    ("aggravation", "centre"): "the centre hole",
    ("manipulation", "hold"): "{colour}'s Holding Position",
    ("manipulation", "home"): "the {nth} space of {colour}'s Home Refuge",
    ("manipulation", "entrance"): "{colour}'s Home Refuge Entrance",
    ("manipulation", "world"): "The World",
    ("manji", "house"): "{colour}'s house",
    ("manji", "lane"): "the {nth} square of {colour}'s lane",
    ("manji", "approach"): "the approach square",
    ("manji", "centre"): "the central square",
}

# Track landmarks per game: space kinds a player counts from, and how they are named.
LANDMARK_KINDS = ("start", "star", "beast", "exit", "arrival", "shortcut", "tip", "arrow")


def ordinal(n: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{({1: 'st', 2: 'nd', 3: 'rd'}).get(n % 10, 'th')}"


@dataclass(frozen=True)
class FixStep:
    """One thing to do to put the board back: take a token off a space, or put one back."""

    action: str  # "off" | "back"
    space: str
    colour: str

    def to_json(self) -> dict[str, str]:
        return {"action": self.action, "space": self.space, "colour": self.colour}


class SpaceNames:
    """Every space of one board named in players' words (computed once per board)."""

    def __init__(self, board: Board, game_name: str = "") -> None:
        self.board = board
        self.game = game_name or board.name.split(":")[0]
        self.hole = HOLE_WORD.get(self.game, "space")
        self._names: dict[str, str] = {}
        for space in board.spaces:
            self._names[space.id] = self._name(space)

    def __getitem__(self, space_id: str) -> str:
        return self._names.get(space_id, space_id)

    def as_dict(self) -> dict[str, str]:
        return dict(self._names)

    # naming ------------------------------------------------------------------------------
    def _colour(self, owner: int | None) -> str:
        seats = self.board.seat_colours
        return seats[owner] if owner is not None and 0 <= owner < len(seats) else ""

    def _nearest(self, space: Space, kind: str) -> Space | None:
        candidates = [s for s in self.board.spaces if s.kind == kind]
        if not candidates:
            return None
        return min(candidates, key=lambda s: math.hypot(s.x - space.x, s.y - space.y))

    def _landmark(self, space: Space) -> str:
        """The name of a space players count from (a START, a star hole, a Beast...)."""
        colour = self._colour(space.owner)
        kind = space.kind
        if self.game == "aggravation":
            if kind == "start":
                return f"{colour}'s START"
            if kind == "star":
                base = self._nearest(space, "base")
                owner = self._colour(base.owner) if base else ""
                return f"the star hole in front of {owner}'s BASE" if owner else "a star hole"
        if self.game == "manipulation":
            if kind == "start":
                return f"{colour}'s Starting Position"
            if kind == "beast":
                return f"the Beast between {self._between(space)}"
        if self.game == "manji":
            words = {
                "exit": "exit square",
                "arrival": "arrival square",
                "shortcut": "shortcut circle",
                "tip": "shortcut tip",
            }
            if kind in words and colour:
                return f"{colour}'s {words[kind]}"
            if kind == "arrow":
                return "the arrow square"
        return f"{colour}'s {kind}" if colour else f"the {kind} {self.hole}"

    def _between(self, space: Space) -> str:
        """'red and yellow': the colours of the Starting Positions either side on the lane."""
        ring = self._ring_of(space)
        if ring is None:
            return "two Starting Positions"
        i, n = ring.index(space), len(ring)
        found = []
        for sign in (-1, 1):
            for k in range(1, n):
                s = ring[(i + sign * k) % n]
                if s.kind == "start":
                    found.append(self._colour(s.owner))
                    break
        return " and ".join(found) if len(found) == 2 else "two Starting Positions"

    def _steps_between(self, a: Space, b: Space) -> int:
        """Steps along the printed lines from a to b (breadth-first; -1 when not joined)."""
        neighbours: dict[str, list[str]] = {}
        for p, q in self.board.links:
            neighbours.setdefault(p, []).append(q)
            neighbours.setdefault(q, []).append(p)
        seen, frontier, steps = {a.id}, [a.id], 0
        while frontier:
            if b.id in frontier:
                return steps
            frontier = [n for f in frontier for n in neighbours.get(f, []) if n not in seen]
            seen.update(frontier)
            steps += 1
        return -1

    def _ring_of(self, space: Space) -> list[Space] | None:
        """The clockwise-numbered loop a space is on (`t01`..`t56`, `o01`..`o48`, `r01`..)."""
        match = re.fullmatch(r"([a-z])(\d+)", space.id)
        if not match or self.game not in ("aggravation", "manipulation", "manji"):
            return None
        prefix = match.group(1)
        ring = [s for s in self.board.spaces if re.fullmatch(rf"{prefix}\d+", s.id)]
        return sorted(ring, key=lambda s: int(s.id[1:]))

    def _counted(self, space: Space) -> str | None:
        """'the 3rd hole after red's START' for a plain space on a numbered loop."""
        ring = self._ring_of(space)
        if not ring:
            return None
        i, n = ring.index(space), len(ring)
        best: tuple[int, str] | None = None
        for k in range(1, n // 2 + 1):
            for sign, word in ((-1, "after"), (1, "before")):
                s = ring[(i + sign * k) % n]
                if s.kind in LANDMARK_KINDS and (best is None or k < best[0]):
                    nth = f"{self.hole} just" if k == 1 else f"{ordinal(k)} {self.hole}"
                    best = (k, f"the {nth} {word} {self._landmark(s)}")
            if best is not None:
                return best[1]
        return None

    def _name(self, space: Space) -> str:
        colour = self._colour(space.owner)
        kind, game = space.kind, self.game
        if kind in LANDMARK_KINDS:
            return self._landmark(space)
        number = re.search(r"(\d+)$", space.id)
        nth = ordinal(int(number.group(1))) if number else ""
        template = PLACE_WORDS.get((game, kind))
        if template is not None:
            return template.format(colour=colour, nth=nth)
        if kind == "starbeast":
            beast = self._nearest(space, "beast")
            return f"the Star-Beast between {self._between(beast)}" if beast else "a Star-Beast"
        if kind == "diamond":
            star, world = self._nearest(space, "starbeast"), self._nearest(space, "world")
            if star is None or world is None:
                return f"diamond space {space.id}"
            steps = self._steps_between(world, space)
            return f"the diamond space {steps} steps from The World toward {self._name(star)}"
        if kind == "ring":
            counted = self._counted(space)
            return f"{counted} (small circle)" if counted else "a square of the small circle"
        if game == "playground-battles":
            return self._grid_name(space)
        if game == "the-right-moves":
            return self._clock_name(space)
        counted = self._counted(space)
        if counted:
            return counted
        return f"{colour}'s {kind}" if colour else f"{self.hole} {space.id}"

    def _grid_name(self, space: Space) -> str:
        if space.kind == "base":
            return f"{self._colour(space.owner)}'s base"
        match = re.fullmatch(r"([a-z])(\d+)", space.id)
        if not match:
            return f"square {space.id}"
        column = ord(match.group(1)) - ord("a") + 1
        row = int(match.group(2))
        where = f"the {ordinal(column)} square from the left"
        if space.kind == "back":
            return f"{where} of {self._colour(space.owner)}'s back row"
        return f"square {space.id} ({where}, row {row} from red's side)"

    def _clock_name(self, space: Space) -> str:
        inner = [s for s in self.board.spaces if s.kind == "inner"] or list(self.board.spaces)
        cx = sum(s.x for s in inner) / len(inner)
        cy = sum(s.y for s in inner) / len(inner)
        degrees = math.degrees(math.atan2(space.x - cx, cy - space.y)) % 360
        hours = degrees / 30
        whole = round(hours)
        circle = {"inner": "inner", "second": "second", "third": "third", "outer": "outer"}.get(
            space.kind, space.kind
        )
        if abs(hours - whole) < 0.1:
            clock = f"at {whole % 12 or 12} o'clock"
        elif hours - math.floor(hours) < 0.5:
            clock = f"just after {math.floor(hours) % 12 or 12} o'clock"
        else:
            clock = f"just before {math.ceil(hours) % 12 or 12} o'clock"
        return f"the {circle} circle {clock}"


_CACHE: dict[tuple[str, str], SpaceNames] = {}


def space_names(board: Board, game_name: str = "") -> SpaceNames:
    """The (cached) names of a board's spaces.

    Names are taken from the game's board for its most players when that is the same
    board: with fewer players a space's owner may be a player rather than a colour (in a
    two-player Manipulation, player 1 owns green's Starting Position too), while the printed
    board, and so its names, stays the same."""
    key = (game_name, board.name)
    if key not in _CACHE:
        _CACHE[key] = SpaceNames(_full_board(board, game_name), game_name)
    return _CACHE[key]


def _full_board(board: Board, game_name: str) -> Board:
    from .errors import RulesError
    from .registry import game_class, get

    try:
        full = get(game_name, players=max(game_class(game_name).player_counts)).board
    except RulesError:  # an unknown or test game: its own board is all there is
        return board
    return full if full.name == board.name and full.ids() == board.ids() else board


def fix_steps(expected: Mapping[str, str], seen: Mapping[str, str]) -> list[FixStep]:
    """What to change so the board shows `expected` again: tokens off first, then back on."""
    steps = [
        FixStep("off", space, colour)
        for space, colour in sorted(seen.items())
        if expected.get(space) != colour
    ]
    steps += [
        FixStep("back", space, colour)
        for space, colour in sorted(expected.items())
        if seen.get(space) != colour
    ]
    return steps


def _token(colour: str, mover: str | None, token: str) -> str:
    return f"your {token}" if colour == mover else f"the {colour} {token}"


def fix_sentence(
    steps: Iterable[FixStep],
    names: SpaceNames,
    *,
    token: str = "token",
    mover: str | None = None,
    limit: int = 6,
) -> str:
    """The steps as one sentence, addressed to the player who moved ("your marble").

    A token taken off one space and put back on another of the same colour reads as one
    move back: "take your marble from X back to Y"."""
    steps = list(steps)
    offs = [s for s in steps if s.action == "off"]
    backs = [s for s in steps if s.action == "back"]
    parts: list[str] = []
    for off in list(offs):
        back = next((b for b in backs if b.colour == off.colour), None)
        if back is None:
            continue
        offs.remove(off)
        backs.remove(back)
        parts.append(
            f"move {_token(off.colour, mover, token)} from {names[off.space]} "
            f"back to {names[back.space]}"
        )
    parts += [f"take {_token(s.colour, mover, token)} off {names[s.space]}" for s in offs]
    parts += [f"put {_token(s.colour, mover, token)} back on {names[s.space]}" for s in backs]
    if not parts:
        return "put the board back as it was"
    text = "; ".join(parts[:limit])
    if len(parts) > limit:
        text += f"; and {len(parts) - limit} more (see the board)"
    return text
