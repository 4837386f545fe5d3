"""The coach at the table: rankings and win chances worked out off the referee's thread.

The referee never waits for the coach. A worker thread watches the referee's position (an
immutable state, read without its lock) and, while someone is looking at the coach (the page
asked within the last `interest_s` seconds), ranks the moves of the player to move with
`rules.coach` inside the time budget. A newer position cancels the work at once (the ranking
asks `stop()` after every playout). The win chances the history page plots are worked out in
the same thread when nothing newer is waiting.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.coach import Ranking, candidates, rank_moves, win_chances

log = logging.getLogger(__name__)

MAX_POINTS = 40  # win-chance points plotted over a game (evenly spread over its moves)


@dataclass(frozen=True)
class CoachSettings:
    budget_s: float = 1.0  # time to rank one position (a Pi 4 makes about 1/5 of x86 playouts)
    playouts: int = 256  # most rounds of playouts per move (the budget usually stops first)
    chance_playouts: int = 24  # playouts per plotted point of the win-chance chart
    interest_s: float = 20.0  # the coach works only this long after the page last asked
    poll_s: float = 0.1  # how often the worker looks for a new position
    seed: int | None = None  # fixed seed for tests; None: a fresh one per position


@dataclass
class _Trail:
    """Positions of the game in progress seen so far: move number -> state."""

    game: Any = None
    states: dict[int, Any] = field(default_factory=dict)
    chances: dict[int, list[float]] = field(default_factory=dict)
    failed: set[int] = field(default_factory=set)  # points whose chances could not be found


class CoachRunner:
    """Runs the coach for one referee (anything with `game`, `state` and `history()`)."""

    def __init__(
        self,
        table: Any,
        settings: CoachSettings | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.table = table
        self.settings = settings or CoachSettings()
        self.clock = clock
        self._lock = threading.Lock()
        self._wanted_until = 0.0
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None
        self._ranked: tuple[Any, Any, int, Ranking | None] | None = None  # game, state, n, ranking
        self._private: dict[int, tuple[Any, Any, int, Ranking | None]] = {}  # by seat
        self._seats_until: dict[int, float] = {}  # seats whose phones asked, until when
        self._judgement: dict[str, Any] | None = None
        self._trail = _Trail()

    # --- life -----------------------------------------------------------------------------
    def start(self) -> CoachRunner:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="coach", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop the worker (idempotent); the ranking in progress is cancelled."""
        self._closing.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    # --- what the page reads (any thread, never blocks on the work) --------------------------
    def latest(self, seat: int | None = None) -> dict[str, Any]:
        """The coach's view of the current position, as JSON data; asking keeps it working.

        `seat`: the ranking for that seat's own phone, from what that seat may know (its own
        hidden pieces included), given only while it is that seat's turn; None: the public
        ranking (every hidden piece drawn by chance) with the judgement of the last move."""
        game, state = self.table.game, self.table.state
        with self._lock:
            if seat is None:
                ranked, judgement = self._ranked, self._judgement
            else:
                ranked, judgement = self._private.get(seat), None
        data: dict[str, Any] = {"game": game.name, "judgement": judgement}
        if seat is None:
            self._want()
        elif state.to_move != seat:
            return data | {"status": "nothing", "ranking": None, "moves": None}
        else:
            self._want(seat)
        if ranked is not None and ranked[0] is game and ranked[1] == state:
            ranking = ranked[3]
            data["status"] = "ready" if ranking else "nothing"
            data["ranking"] = ranking.to_json() if ranking else None
            data["moves"] = ranked[2] if ranking else None  # the moves before this position
        elif not candidates(game, state):
            data["status"] = "nothing"  # a roll, the end, or a set-up: no choice to rank
            data["ranking"] = None
            data["moves"] = None
        else:
            data["status"] = "thinking"
            data["ranking"] = None
            data["moves"] = None
        return data

    def chances(self) -> dict[str, Any]:
        """Win chance of every seat at the plotted points of the game so far."""
        self._want()
        game = self.table.game
        with self._lock:
            trail = self._trail
            points = (
                [
                    {"n": n, "chances": [round(c, 3) for c in trail.chances[n]]}
                    for n in sorted(trail.chances)
                ]
                if trail.game is game
                else []
            )
            waiting = len(self._plotted(trail)) - len(points) if trail.game is game else 0
        return {"colours": list(game.colours), "points": points, "pending": max(0, waiting)}

    def _want(self, seat: int | None = None) -> None:
        """Someone is looking: keep working for a while (the thread starts on first use)."""
        until = self.clock() + self.settings.interest_s
        if seat is None:
            self._wanted_until = until
        else:
            with self._lock:
                self._seats_until[seat] = until
        if self._thread is None and not self._closing.is_set():
            with self._lock:
                if self._thread is None:
                    self.start()

    # --- the worker ------------------------------------------------------------------------
    def _run(self) -> None:
        while not self._closing.is_set():
            try:
                worked = self._step()
            except Exception:  # the coach must never take the table down
                log.exception("coach: ranking failed")
                worked = False
            if not worked:
                self._closing.wait(self.settings.poll_s)

    def _step(self) -> bool:
        """One piece of work; False when there was nothing to do."""
        now = self.clock()
        game, state = self.table.game, self.table.state
        with self._lock:
            seat = state.to_move if self._seats_until.get(state.to_move, 0.0) >= now else None
            private = self._private.get(seat) if seat is not None else None
            ranked = self._ranked
        public = now <= self._wanted_until
        if not public and seat is None:
            return False
        n = len(self.table.history())
        self._follow(game, state, n)
        if public and (ranked is None or ranked[0] is not game or ranked[1] != state):
            self._rank(game, state, n, None)
            return True
        if seat is not None and (private is None or private[0] is not game or private[1] != state):
            self._rank(game, state, n, seat)
            return True
        return public and self._plot_one(game)

    def _changed(self, game: Any, state: Any) -> Callable[[], bool]:
        table, closing = self.table, self._closing
        return lambda: closing.is_set() or table.game is not game or table.state is not state

    def _rank(self, game: Any, state: Any, n: int, seat: int | None) -> None:
        """Rank for the public page (`seat` None) or for the phone of `seat`, the player to
        move, from what that seat may know."""
        changed = self._changed(game, state)
        deadline = self.clock() + self.settings.budget_s
        rng = random.Random(self.settings.seed)
        try:
            ranking = rank_moves(
                game,
                state,
                rng,
                playouts=self.settings.playouts,
                stop=lambda: changed() or self.clock() > deadline,
                public=seat is None,  # seen by every player: hidden pieces stay hidden from all
            )
        except Exception:  # a bug in the coach: say nothing for this position, never retry it
            log.exception("coach: ranking the position after move %d failed", n)
            ranking = None
        if changed():
            return  # a newer position: this work is stale
        with self._lock:
            if seat is None:
                self._ranked = (game, state, n, ranking)
            else:
                self._private[seat] = (game, state, n, ranking)

    def _follow(self, game: Any, state: Any, n: int) -> None:
        """Note the position on the trail; judge the move just played against the ranking."""
        with self._lock:
            trail = self._trail
            if trail.game is not game:
                self._trail = trail = _Trail(game, self._replayed(game, n))
                self._judgement = None
            if trail.states.get(n) != state:
                for later in [k for k in trail.states if k >= n]:
                    trail.states.pop(later)
                    trail.chances.pop(later, None)
                trail.states[n] = state
            ranked = self._ranked
        if ranked is None or ranked[0] is not game or ranked[1] == state or ranked[3] is None:
            return
        if ranked[2] + 1 != n:
            return
        played = next(
            (m.move for m in ranked[3].moves if game.apply(ranked[1], m.move) == state), None
        )
        if played is None:
            return
        verdict = ranked[3].judge(played)
        with self._lock:
            self._judgement = {
                "n": n,
                "move": str(played),
                "colour": ranked[3].colour,
                "cost": round(ranked[3].cost(played) or 0.0, 3),
                "text": verdict,
                "best": str(ranked[3].best.move),
                "best_words": ranked[3].best.words,
            }

    def _replayed(self, game: Any, n: int) -> dict[int, Any]:
        """The positions before the coach came in, from the table's record when it replays
        (a game with hidden pieces still going has a public record that does not)."""
        record = self.table.record()
        if record.get("redacted") or len(record.get("moves", ())) != n:
            return {}
        states = {0: game.initial_state()}
        try:
            for number, data in enumerate(record["moves"], 1):
                states[number] = game.apply(states[number - 1], game.move_from_json(data))
        except Exception:  # a record that does not replay: start the trail from here
            log.warning("coach: the table's record does not replay; plotting from now on")
            return {}
        return states

    def _plotted(self, trail: _Trail) -> list[int]:
        keys = sorted(trail.states)
        if len(keys) <= MAX_POINTS:
            return keys
        step = (len(keys) - 1) / (MAX_POINTS - 1)
        return sorted({keys[round(i * step)] for i in range(MAX_POINTS)})

    def _plot_one(self, game: Any) -> bool:
        with self._lock:
            trail = self._trail
            todo = [
                n for n in self._plotted(trail) if n not in trail.chances and n not in trail.failed
            ]
            if not todo:
                return False
            n = todo[-1]
            state = trail.states[n]
        try:
            result = win_chances(
                game,
                state,
                random.Random(self.settings.seed),
                playouts=self.settings.chance_playouts,
                stop=self._changed(game, self.table.state),
            )
        except Exception:  # a bug in the coach: leave this point out of the chart
            log.exception("coach: the winning chances after move %d failed", n)
            trail.failed.add(n)
            return True
        with self._lock:
            if result is not None and self._trail is trail and trail.states.get(n) is state:
                trail.chances[n] = result
        return True
