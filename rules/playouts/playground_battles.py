"""Playground Battles playouts: a step is played as the game lists it (`apply` would check
its walk again square by square).

Listing the steps stays the hot spot (profiled: about 100 walk ends checked per roll, two or
three path masks each); remembering steps per neighbourhood did not pay, as most pieces
meet a neighbourhood not seen before.
"""

from __future__ import annotations

from typing import Any

from . import Playout, option_playout


def run(game: Any, state: Any, rand: Any, limit: int, record: list | None) -> Playout:
    index = game.board.index
    apply_step = game._apply_step

    def play(state: Any, step: Any) -> Any:
        return apply_step(state, index[step.frm], index[step.to])

    passes = game._passes
    return option_playout(
        game, state, rand, limit, record, game._steps, play, None, lambda s: passes[s.actor]
    )
