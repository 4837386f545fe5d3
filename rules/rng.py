"""Seeded chance for tests, playouts and benchmarks (the appliance's button uses `secrets`)."""

from __future__ import annotations

import random
from typing import Any

from .moves import Roll


class SeededChooser:
    """Picks chance outcomes like a fair die and other moves uniformly, from one seed."""

    def __init__(self, seed: int | None = 0) -> None:
        self.random = random.Random(seed)

    def choose(self, moves: list) -> Any:
        return moves[int(self.random.random() * len(moves))]


def playout(game: Any, seed: int = 0, max_moves: int = 20000) -> tuple[Any, list]:
    """A random legal game from the start: (final state, move record)."""
    chooser = SeededChooser(seed)
    state = game.initial_state()
    record = []
    for _ in range(max_moves):
        if game.outcome(state) is not None:
            break
        move = chooser.choose(game.legal_moves(state))
        record.append(move)
        state = game.apply(state, move)
    return state, record


__all__ = ["Roll", "SeededChooser", "playout"]
