"""The Right Moves playouts: every position's moves are listed once (the public API lists
them again to check the move played, and looks for a move once more to see whether the game
is over), and the move is played without a second check.

The moves are listed, in the same order, by the rules core's own `_generate`, so a seeded
playout here is move for move the public API's game. A position where the player to move has
no move ends the game (TRM-0.6) as the rules core's `_decided` says.
"""

from __future__ import annotations

from typing import Any

from . import Playout


def run(game: Any, state: Any, rand: Any, limit: int, record: list | None) -> Playout:
    generate, moved, won = game._generate, game._moved, game._won
    choices = generate(state, state.to_move) if state.phase == "move" else []
    moves = 0
    while moves < limit and choices:
        move = choices[int(rand() * len(choices))]
        if record is not None:
            record.append(move)
        moves += 1
        state = moved(state, move)
        if won(state) is not None:
            return Playout(state._replace(phase="over"), moves, 0)
        choices = generate(state, state.to_move)
        if not choices:  # no move for the player to move (TRM-0.6)
            return Playout(state._replace(phase="over"), moves, 0)
    return Playout(state, moves, 0)
