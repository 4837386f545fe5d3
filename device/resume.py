"""Resuming the stored game at start, row by row, so that one bad row never stops the table.

An illegal stored move, bad stored options or a move that is not readable JSON used to stop the
appliance (exit 2, or a traceback). Now the game resumes up to the last good move; the database
as it was is kept as a dated copy beside it; the bad row and the rows stored after it leave the
live log (they are in the copy); and the table is told which row was bad and where the copy is.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass, field
from typing import Any

import rules
from rules import Move, Verdict

from .store import BadRow, Store, StoreError

log = logging.getLogger(__name__)


@dataclass
class Resumed:
    """The stored game as far as it replays."""

    game: rules.Game
    game_id: int | None  # None: nothing of the stored game can be used; start a new one
    steps: list[tuple[Move, Verdict, Any]] = field(default_factory=list)  # move, verdict, after
    problem: str = ""  # what was wrong and where the copy is ("" when every row was good)


def resume(store: Store, fallback: rules.Game) -> Resumed | None:
    """The newest stored game replayed up to its last good move; None when none is stored.
    `fallback` is the game to start when the stored game itself cannot be rebuilt."""
    stored = store.latest()
    if stored is None:
        return None
    bad, game = stored.bad, None
    if bad is None or bad.table != "games":
        try:
            game = rules.get(stored.name, players=stored.players, options=stored.options)
        except rules.RulesError as exc:
            bad = BadRow("games", stored.id, f"the stored game cannot be set up: {exc}")
    if game is None:
        where = _set_aside(store)
        return Resumed(
            fallback,
            None,
            problem=f"{bad} in {store.path} is bad ({bad.why}); a new game of {fallback.title} "
            f"starts; {where}",
        )
    steps: list[tuple[Move, Verdict, Any]] = []
    state = game.initial_state()
    for data, row in zip(stored.moves, stored.move_rows, strict=True):
        try:
            move = game.move_from_json(data)
            verdict = game.announce(state, move)
            after = game.apply(state, move)
        except (rules.RulesError, ValueError, TypeError, KeyError, AttributeError) as exc:
            bad = BadRow("events", row, f"the stored move does not replay: {exc}")
            break  # (a row that did not even load is stored.bad, after these moves)
        steps.append((move, verdict, after))
        state = after
    if bad is None:
        return Resumed(game, stored.id, steps)
    where = _set_aside(store)
    try:
        store.drop_from(stored.id, bad.row)
    except StoreError as exc:
        where += f" (the bad row could not be taken out of the live log: {exc})"
    return Resumed(
        game,
        stored.id,
        steps,
        problem=f"{bad} in {store.path} is bad ({bad.why}); the game goes on from move "
        f"{len(steps)}, the last good one; {where}",
    )


def _set_aside(store: Store) -> str:
    try:
        copy = store.set_aside("bad-row")
    except (sqlite3.Error, OSError) as exc:  # a full disk: say so
        log.warning("cannot copy %s aside: %s", store.path, exc)
        return f"no copy of the database could be made ({exc})"
    if copy is None:
        return "the database is in memory, so no copy was kept"
    log.warning("the database as it was is kept as %s", copy)
    return f"the database as it was is kept as {copy}"
