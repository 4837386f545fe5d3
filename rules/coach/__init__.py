"""The coach: every legal move of the player to move, ranked by its chance of winning.

Pure, like the rest of `rules`: no clock, no threads, no I/O. The chances come from light
playouts (rules.playouts): after each candidate move, random legal play for a horizon of moves;
a playout that ends the game scores a win or a loss (a draw: an equal share), one cut short
scores each seat's share from its progress (coach.progress). Every move first gets a glance
(the position right after it, scored the same way); the best at a glance take turns, one
playout each per round (the clearly worse half drops out after rounds 4, 8, 16, ...), so a
ranking stopped early (the caller's `stop`) is still fair. With
hidden pieces the coach plays from what the player to move may know (coach.hidden).

    ranking = rank_moves(game, state, random.Random(7), playouts=64)
    ranking.best.words            # "captures blue; on the star"
    ranking.judge(chosen_move)    # "this gave up 18% of your winning chances" or None
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..moves import Move, Roll
from ..playouts import random_playout
from .hidden import sampler_for
from .progress import shares
from .words import describe

MAX_CANDIDATES = 200  # more legal moves than this are not ranked (none of our games has more)
ONLY_MOVE_PLAYOUTS = 32  # a forced move is played out only this often
MAX_RACING = 16  # moves played out after the first glance (the best at a glance)
KEEP_RACING = 4  # successive halving never drops below this many moves still played out
NOTABLE_COST = 0.05  # a chosen move is called poor only when it gave up at least this much


@dataclass(frozen=True, slots=True)
class MoveChance:
    """One candidate move: the mover's estimated chance to win after it, from `playouts`."""

    move: Move
    chance: float
    playouts: int
    words: str

    @property
    def spread(self) -> float:
        """One standard error of `chance` (wide when few playouts were made)."""
        n = max(1, self.playouts)
        return math.sqrt(max(self.chance * (1 - self.chance), 0.02) / n)

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.move.to_json(),
            "text": str(self.move),
            "chance": round(self.chance, 3),
            "spread": round(self.spread, 3),
            "playouts": self.playouts,
            "words": self.words,
        }


@dataclass(frozen=True, slots=True)
class Ranking:
    """Every legal move of `player`, best first; `complete` is False when stopped early."""

    player: int
    colour: str
    moves: tuple[MoveChance, ...]
    rounds: int
    complete: bool

    @property
    def best(self) -> MoveChance:
        return self.moves[0]

    def chance_of(self, move: Move) -> MoveChance | None:
        return next((m for m in self.moves if m.move == move), None)

    def cost(self, move: Move) -> float | None:
        """Winning chance given up by playing `move` instead of the best (None: not ranked)."""
        found = self.chance_of(move)
        return None if found is None else max(0.0, self.best.chance - found.chance)

    def judge(self, move: Move) -> str | None:
        """Words for a poor choice, only when the playouts make the loss clear."""
        found, cost = self.chance_of(move), self.cost(move)
        if found is None or cost is None or found is self.best:
            return None
        noise = 2 * math.hypot(found.spread, self.best.spread)
        if cost < max(NOTABLE_COST, noise):
            return None
        return f"this gave up {round(cost * 100)}% of your winning chances"

    def summary(self) -> str:
        best = self.best
        return f"best: {best.move} ({best.words}), {round(best.chance * 100)}% to win"

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "colour": self.colour,
            "rounds": self.rounds,
            "complete": self.complete,
            "summary": self.summary(),
            "moves": [m.to_json() for m in self.moves],
        }


def candidates(game: Any, state: Any) -> list[Move]:
    """The moves the coach would rank now: [] while a die is to be rolled, over or set-up."""
    if game.outcome(state) is not None or state.phase not in game.move_phases:
        return []
    moves = game.legal_moves(state)
    if not moves or len(moves) > MAX_CANDIDATES or any(m.__class__ is Roll for m in moves):
        return []
    return list(moves)


def default_horizon(game: Any) -> int:
    """Moves per light playout: about twelve turns of every player (a roll and a move each)."""
    return 24 * game.players


def rank_moves(
    game: Any,
    state: Any,
    rng: random.Random,
    playouts: int = 64,
    horizon: int | None = None,
    stop: Callable[[], bool] | None = None,
    public: bool = False,
) -> Ranking | None:
    """Rank the legal moves of the player to move; None when there is nothing to choose.

    First a glance at every move (the position right after it, scored by progress); then up
    to `playouts` rounds of light playouts for the best `MAX_RACING` at a glance, the better
    half of them only after rounds 4, 8, 16, ... (successive halving), so the playouts go
    where the choice is close. `stop()` is asked after every playout and ends the work early
    (the ranking so far is returned, marked incomplete). Moves judged at a glance only come
    after the moves played out. Hidden pieces are drawn as the player to move may know them,
    or with `public` as the whole table may (for a ranking shown to everybody).
    """
    moves = candidates(game, state)
    if not moves:
        return None
    player = state.to_move
    viewer = None if public else player
    horizon = horizon or default_horizon(game)
    sampler = sampler_for(game)
    if len(moves) == 1:
        playouts = min(playouts, ONLY_MOVE_PLAYOUTS)  # nothing to choose: a chance is enough
    glance = [
        _score(game, game.apply(_known(game, state, viewer, sampler, rng), m), rng, 0)[player]
        for m in moves
    ]
    order = sorted(range(len(moves)), key=lambda i: -glance[i])
    racing = sorted(order[:MAX_RACING])  # moves still being played out
    totals = [0.0] * len(moves)
    made = [0] * len(moves)
    rounds = 0
    stopped = False
    while rounds < playouts and not stopped:
        for i in racing:
            start = _known(game, state, viewer, sampler, rng)
            totals[i] += _score(game, game.apply(start, moves[i]), rng, horizon)[player]
            made[i] += 1
            if stop is not None and stop():
                stopped = True
                break
        else:
            rounds += 1
            if rounds & (rounds - 1) == 0 and rounds >= 4 and len(racing) > KEEP_RACING:
                racing = _better_half(racing, totals, made)
    chances = []
    for i, move in enumerate(moves):
        chance = totals[i] / made[i] if made[i] else glance[i]
        words = describe(game, state, move, sampler is not None)
        chances.append(MoveChance(move, chance, made[i], words))
    chances.sort(key=lambda c: (c.playouts == 0, -c.chance, -c.playouts))
    colour = game.colour_of(player)
    return Ranking(player, colour, tuple(chances), rounds, not stopped)


def _known(game: Any, state: Any, viewer: int | None, sampler: Any, rng: random.Random) -> Any:
    """The position as `viewer` may know it (hidden pieces drawn by chance), or `state`."""
    return sampler(game, state, viewer, rng) if sampler else state


def _better_half(racing: list[int], totals: list[float], made: list[int]) -> list[int]:
    """Successive halving: the playouts go on for the better half of the moves still racing
    (the others keep the chance measured so far)."""
    ranked = sorted(racing, key=lambda i: -totals[i] / made[i])
    return sorted(ranked[: max(KEEP_RACING, len(ranked) // 2)])


def win_chances(
    game: Any,
    state: Any,
    rng: random.Random,
    playouts: int = 32,
    horizon: int | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[float] | None:
    """Every seat's chance to win from `state`, as the public table may know it (None when
    stopped before any playout). A finished game gives its result."""
    outcome = game.outcome(state)
    if outcome is not None:
        return _result(game, outcome)
    horizon = horizon or default_horizon(game)
    sampler = sampler_for(game)
    totals = [0.0] * game.players
    made = 0
    while made < playouts:
        start = _known(game, state, None, sampler, rng)
        for seat, share in enumerate(_score(game, start, rng, horizon)):
            totals[seat] += share
        made += 1
        if stop is not None and stop():
            break
    return [t / made for t in totals] if made else None


def _score(game: Any, state: Any, rng: random.Random, horizon: int) -> list[float]:
    """Each seat's share of a win after one light playout of `horizon` moves from `state`."""
    end = random_playout(game, state, rng, limit=horizon).state if horizon else state
    outcome = game.outcome(end)
    if outcome is None:
        return shares(game, end)
    return _result(game, outcome)


def _result(game: Any, outcome: Any) -> list[float]:
    winners = set(outcome.winners)
    if not winners:
        return [1.0 / game.players] * game.players  # a draw
    return [1.0 if seat in winners else 0.0 for seat in range(game.players)]


__all__ = ["MoveChance", "Ranking", "candidates", "rank_moves", "win_chances"]
