"""Manji and Manipulation playouts: a token move is taken from the game's option list and
played as found (`apply` would search the options again to check it); a pass is the game's
own pass for the seat that passes (Manji: the seat whose pawns move; Manipulation: the seat to
roll)."""

from __future__ import annotations

from typing import Any

from . import Playout, Runner, option_playout


def runner(passing_seat: str) -> Runner:
    """A playout routine for a game with `_options`, `_apply_option`, `_passes`,
    `_roll_choices`, `_rolled` and `_passed`; the pass goes to the state's field
    `passing_seat`."""

    def run(game: Any, state: Any, rand: Any, limit: int, record: list | None) -> Playout:
        passes = game._passes
        return option_playout(
            game,
            state,
            rand,
            limit,
            record,
            game._options,
            game._apply_option,
            _move_of,
            lambda state: passes[getattr(state, passing_seat)],
            game._roll_choices,
            game._rolled,
            game._passed,
        )

    return run


def _move_of(option: tuple) -> Any:
    return option[0]
