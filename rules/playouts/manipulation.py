"""Manipulation playouts: a token move is taken from the game's option list and played as found
(`apply` would search the options again to check it)."""

from __future__ import annotations

from typing import Any

from . import Playout, option_playout


def run(game: Any, state: Any, rand: Any, limit: int, record: list | None) -> Playout:
    return option_playout(
        game, state, rand, limit, record, game._options, game._apply_option, _move_of
    )


def _move_of(option: tuple) -> Any:
    return option[0]
