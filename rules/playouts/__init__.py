"""Random playouts from any position, as fast as the rules allow: the coach's engine.

A playout picks every move uniformly at random among the legal ones, the die included. The
public API and most routines do it with one draw of `rng.random()` per move, exactly as
`rules.SeededChooser` does, so a seeded playout is move for move the game the public API
would play from the same seed. Games whose public `legal_moves` + `apply` pair is slow in
playouts register a routine that skips the checks a random legal move does not need; two of
them (Playground Battles, The Right Moves) draw the move by rejection instead of listing all
moves, so their seeded games differ from the public API's while every move is still legal
and uniform among the legal ones (tests/test_playouts.py checks both kinds).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..moves import Move, Roll


@dataclass(frozen=True, slots=True)
class Playout:
    """Where a playout ended, how many moves it made and how many of them were rolls."""

    state: Any
    moves: int
    rolls: int


Runner = Callable[..., Playout]


def random_playout(
    game: Any,
    state: Any,
    rng: random.Random,
    limit: int = 100_000,
    record: list[Move] | None = None,
    fast: bool = True,
) -> Playout:
    """Play random legal moves from `state` until the game is over or `limit` moves were made.

    `record`, when given, receives every move played. `fast=False` forces the public API.
    """
    runner = _routines().get(game.name) if fast else None
    return (runner or public_playout)(game, state, rng.random, limit, record)


def public_playout(
    game: Any, state: Any, rand: Callable[[], float], limit: int, record: list | None
) -> Playout:
    """The reference playout: `legal_moves`, `apply` and `outcome` of the public API only."""
    legal, apply, outcome = game.legal_moves, game.apply, game.outcome
    moves = rolls = 0
    while moves < limit and outcome(state) is None:
        choices = legal(state)
        if not choices:
            break
        move = choices[int(rand() * len(choices))]
        if move.__class__ is Roll:
            rolls += 1
        if record is not None:
            record.append(move)
        state = apply(state, move)
        moves += 1
    return Playout(state, moves, rolls)


def option_playout(
    game: Any,
    state: Any,
    rand: Callable[[], float],
    limit: int,
    record: list | None,
    options: Callable[[Any], list],
    play: Callable[[Any, Any], Any],
    move_of: Callable[[Any], Move] | None = None,
    pass_of: Callable[[Any], Move] | None = None,
    roll_choices: Callable[[Any], Sequence[Move]] | None = None,
    rolled: Callable[[Any, int], Any] | None = None,
    passed: Callable[[Any], Any] | None = None,
) -> Playout:
    """A playout that takes token moves from a game's own option list and plays the chosen
    option directly (no second legality search); every other move goes through the public
    API. `options(state)` must list the legal token moves of phase "move" in the order
    `legal_moves` lists them (empty when only a pass is left); `move_of` turns an option into
    its Move for the record (default: the option is the Move); `pass_of(state)` is the pass
    `legal_moves` gives when there is no option (default: asked of `legal_moves`);
    `roll_choices(state)` is what `legal_moves` lists in phase "roll" and `rolled(state,
    value)` applies a legal roll of that phase, and `passed(state)` the pass of `pass_of`
    (default: asked of the public API)."""
    legal, apply = game.legal_moves, game.apply
    moves = rolls = 0
    while moves < limit:
        phase = state.phase
        if phase == "roll" and rolled is not None and roll_choices is not None:
            choices = roll_choices(state)
            move = choices[int(rand() * len(choices))]
            if record is not None:
                record.append(move)
            moves += 1
            if move.__class__ is not Roll:  # a declined extra roll
                state = apply(state, move)
                continue
            rolls += 1
            state = rolled(state, move.value)
            if moves == limit:
                break
            phase = state.phase
        if phase == "move":
            found = options(state)
            if found:
                option = found[int(rand() * len(found))]
                if record is not None:
                    record.append(move_of(option) if move_of else option)
                state = play(state, option)
                moves += 1
                continue
            if pass_of is not None and passed is not None:
                rand()  # the public API draws its one move too
                if record is not None:
                    record.append(pass_of(state))
                state = passed(state)
                moves += 1
                continue
            choices = [pass_of(state)] if pass_of else legal(state)
        elif phase == "over":
            break
        else:
            choices = legal(state)
        if not choices:
            break
        move = choices[int(rand() * len(choices))]
        if record is not None:
            record.append(move)
        moves += 1
        if move.__class__ is Roll:
            rolls += 1
        state = apply(state, move)
    return Playout(state, moves, rolls)


@functools.cache
def _routines() -> dict[str, Runner]:
    from . import option_tables, playground_battles, the_right_moves

    return {
        "manipulation": option_tables.runner("to_move"),
        "manji": option_tables.runner("actor"),
        "playground-battles": playground_battles.run,
        "the-right-moves": the_right_moves.run,
    }


__all__ = ["Playout", "option_playout", "public_playout", "random_playout"]
