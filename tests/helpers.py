"""Readable Aggravation positions and hand-derived board facts for the tests.

Expectations in the tests come from the rulebook and the board design in the module docstring of
rules/games/aggravation.py, never from the code under test. The design, for the default lane of 4:
every arm has 14 track holes numbered clockwise from the bottom arm's inner corner (a star hole);
in arm a (0-based) the holes are t(14a+1) (star, inner corner), t(14a+2..14a+5) (outward),
t(14a+6..14a+10) (across the end: the middle one, t(14a+8), is the HOME entry and the next one,
t(14a+9), is START) and t(14a+11..14a+14) (back inward).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import rules
from rules import Step
from rules.games.aggravation import BASE, AggravationState

PER_ARM = 14


def tid(n: int) -> str:
    """Track hole id for hole number n (1-based)."""
    return f"t{n:02d}"


def start_of(arm: int) -> str:
    return tid(PER_ARM * arm + 9)


def entry_of(arm: int) -> str:
    return tid(PER_ARM * arm + 8)


def star_of(arm: int) -> str:
    return tid(PER_ARM * arm + 1)


def route_of(arm: int, arms: int) -> list[str]:
    """A marble's lap by hand: START clockwise round to its HOME entry, then h1..h4."""
    colour = ("red", "blue", "yellow", "green", "purple", "orange")[arm]
    total = PER_ARM * arms
    first = PER_ARM * arm + 9
    track = [tid((first - 1 + i) % total + 1) for i in range(total)]
    return track + [f"{colour}-h{j}" for j in range(1, 5)]


def ahead(arm: int, arms: int, frm: str, steps: int) -> str:
    route = route_of(arm, arms)
    return route[route.index(frm) + steps]


def aggravation(players: int = 4, **options) -> rules.Game:
    """An Aggravation game; the opening defaults to first-seat so positions start at play."""
    options.setdefault("opening", "first-seat")
    return rules.get("aggravation", players=players, options=options)


def position(
    game: rules.Game,
    layout: Mapping[str, Iterable[str]] | None = None,
    to_move: int = 0,
    phase: str = "move",
    dice: int = 0,
    actor: int | None = None,
    rolloff: tuple[int, ...] = (),
) -> AggravationState:
    """A state from a readable layout: {"red": ["t05", "base", "red-h1"], ...}.

    Colours not named have every marble in BASE; a colour with fewer than four holes listed has
    the rest in BASE. `actor` defaults to `to_move`.
    """
    layout = dict(layout or {})
    unknown = set(layout) - set(game.colours)
    assert not unknown, f"colours not at this table: {unknown}"
    pieces = []
    for colour in game.colours:
        holes = list(layout.get(colour, ()))
        assert len(holes) <= 4, f"{colour} has only four marbles"
        holes += ["base"] * (4 - len(holes))
        pieces.append(tuple(sorted(BASE if h == "base" else game.board.index[h] for h in holes)))
    occupied = [s for marbles in pieces for s in marbles if s != BASE]
    assert len(occupied) == len(set(occupied)), "two marbles on one hole"
    return AggravationState(
        to_move, phase, dice, tuple(pieces), to_move if actor is None else actor, rolloff
    )


def where(game: rules.Game, state: AggravationState, colour: str) -> list[str]:
    """The holes of one colour's marbles as ids, "base" for BASE, sorted."""
    p = game.colours.index(colour)
    ids = game.board.ids()
    return sorted("base" if s == BASE else ids[s] for s in state.pieces[p])


def destinations(game: rules.Game, state: AggravationState, frm: str | None = None) -> set[str]:
    """Where the legal Step moves go (only those from `frm` when given)."""
    return {
        m.to
        for m in game.legal_moves(state)
        if isinstance(m, Step) and (frm is None or m.frm == frm)
    }


def clause_ids(verdict) -> list[str]:
    return [c.id for c in verdict.clauses]


def moved(
    game: rules.Game, state: AggravationState, frm: str, to: str, colour: str | None = None
) -> dict[str, str]:
    """The placement the camera would see after a hand moves one marble from `frm` to `to`.

    `frm` may be a BASE hole id ("red-b1") to take a marble out of BASE; what sits on `to` is
    replaced (as when a hand lifts a captured marble off the hole).
    """
    seen = dict(game.placement(state))
    colour = colour or seen[frm]
    if frm.endswith(("-b1", "-b2", "-b3", "-b4")):
        # marbles in BASE are interchangeable: lift the last one of that colour
        row = [s for s in seen if s.startswith(frm[:-1]) and seen[s] == colour]
        frm = sorted(row)[-1]
    del seen[frm]
    seen[to] = colour
    return seen
