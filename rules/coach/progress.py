"""How far each seat has come, 0..1, for a playout cut short before the game ended.

A light playout stops after a horizon of moves; the position it reached is then scored by each
seat's progress (race games: how far along its route each token is; battle games: pieces kept
and ground gained) and the scores are turned into shares of a win. These are estimates the
coach uses to compare moves, never rulings.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

STEEPNESS = 6.0  # how sharply a lead in progress turns into a likely win


def shares(game: Any, state: Any) -> list[float]:
    """Each seat's share of a win from the position `state` (they sum to 1)."""
    measure = _MEASURES.get(game.name)
    n = game.players
    if measure is None:
        return [1.0 / n] * n
    weights = [math.exp(STEEPNESS * x) for x in measure(game, state)]
    total = sum(weights)
    return [w / total for w in weights]


def _route_fraction(pos: dict[int, int], length: int, space: int, off_route: float) -> float:
    if space < 0:
        return 0.0  # in BASE / holding / at home before starting
    i = pos.get(space)
    return off_route if i is None else (i + 1) / length


def _aggravation(game: Any, state: Any) -> list[float]:
    out = []
    for p in range(game.players):
        pos = game._route_pos[p]
        out.append(_mean(_route_fraction(pos, len(pos), s, 0.5) for s in state.pieces[p]))
    return _by_side(game.players, out, getattr(game, "side_of", {}))


def _manipulation(game: Any, state: Any) -> list[float]:
    colour = []
    for c in range(4):
        pos = game._pos[c]
        colour.append(_mean(_route_fraction(pos, len(pos), s, 0.5) for s in state.pieces[c]))
    seats = [_mean(colour[c] for c in game.colours_of[p]) for p in range(game.players)]
    return seats


def _manji(game: Any, state: Any) -> list[float]:
    n = game._n
    out = []
    for p in range(game.players):
        pos = game._rpos[p]
        total = 0.0
        for node in state.pieces[p]:
            if node == -2:  # CENTRE: arrived
                total += 1.0
            elif node >= n:  # on the small circle, on the way in
                total += 0.9
            else:
                total += _route_fraction(pos, len(pos) + 2, node, 0.85)
        out.append(total / max(1, len(state.pieces[p])))
    return out


def _playground(game: Any, state: Any) -> list[float]:
    spaces = game.board.spaces
    bases = [spaces[b].y for b in game._base]
    out = []
    for p in (0, 1):
        own, enemy = bases[p], bases[1 - p]
        pieces = state.pieces[p]
        advance = sum((own - spaces[s].y) / (own - enemy) for s, _k, _r in pieces)
        count = len(pieces)
        out.append(0.7 * count / 10 + 0.3 * (advance / count if count else 0.0))
    return out


def _right_moves(game: Any, state: Any) -> list[float]:
    inner = set(game._inner)
    sides = []
    for side in (0, 1):
        pieces = state.pieces[side]
        held = sum(1 for s in pieces if s in inner)
        full = len(game.initial_state().pieces[side])
        sides.append(0.8 * len(pieces) / full + 0.2 * held / max(1, len(inner)))
    return [sides[p % 2] for p in range(game.players)]


def _by_side(players: int, values: list[float], side_of: dict) -> list[float]:
    """Partners share one score: the mean of their side."""
    if not side_of:
        return values
    return [_mean(values[q] for q in side_of[p]) for p in range(players)]


def _mean(values: Any) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


_MEASURES: dict[str, Callable[[Any, Any], list[float]]] = {
    "aggravation": _aggravation,
    "manipulation": _manipulation,
    "manji": _manji,
    "playground-battles": _playground,
    "the-right-moves": _right_moves,
}
