"""`boardref bench rules`: seeded random playouts, through the public rules API and through the
playout routines the coach uses (`rules.playouts`).

A turn is one roll and the move (or pass) that follows it, as in ludopy, whose random 4-player
Ludo is the yardstick. The machine's speed drifts (other work, clock scaling), so the three are
interleaved game by game: one ludopy game, one game through the public API, one through the
playout routine, again and again; each is timed on its own games only, so a slow spell falls on
all of them alike. A game without a die (The Right Moves) is compared by moves.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import rules
from rules.playouts import random_playout

PlayOne = Callable[[], tuple[int, int]]  # plays one whole game: (moves, turns)


@dataclass
class Meter:
    """Games, moves and turns played by one contestant, and the time spent on them alone."""

    games: int = 0
    moves: int = 0
    turns: int = 0
    elapsed: float = 0.0

    def play(self, play_one: PlayOne) -> None:
        start = time.perf_counter()
        moves, turns = play_one()
        self.elapsed += time.perf_counter() - start
        self.games += 1
        self.moves += moves
        self.turns += turns

    def figures(self) -> dict[str, Any]:
        elapsed = self.elapsed or 1e-9
        return {
            "games": self.games,
            "seconds": round(self.elapsed, 3),
            "games_per_s": round(self.games / elapsed, 2),
            "moves_per_s": round(self.moves / elapsed),
            "turns_per_s": round(self.turns / elapsed),
            "mean_moves_per_game": round(self.moves / max(1, self.games), 1),
            "mean_turns_per_game": round(self.turns / max(1, self.games), 1),
        }


def game_player(name: str, players: int | None, seed: int = 0, fast: bool = False) -> PlayOne:
    """Random games from the start; `fast` uses the playout routine instead of the public API."""
    game = rules.get(name, players=players)
    rng = random.Random(seed)

    def play_one() -> tuple[int, int]:
        done = random_playout(game, game.initial_state(), rng, fast=fast)
        return done.moves, done.rolls

    return play_one


def ludopy_player(seed: int = 0) -> PlayOne | None:
    """ludopy's random 4-player Ludo, a turn being one roll and one move; None if not installed."""
    try:
        import ludopy
        import numpy as np
    except ImportError:
        return None
    rng = np.random.default_rng(seed)

    def play_one() -> tuple[int, int]:
        game = ludopy.Game()
        turns = 0
        there_is_a_winner = False
        while not there_is_a_winner:
            (_, move_pieces, _, _, _, there_is_a_winner), _ = game.get_observation()
            piece = move_pieces[rng.integers(len(move_pieces))] if len(move_pieces) else -1
            *_, there_is_a_winner = game.answer_observation(piece)
            turns += 1
        return turns, turns

    return play_one


def bench_game(name: str, seconds: float, compare: bool = True, seed: int = 0) -> dict[str, Any]:
    """One game, public API and playout routine (and ludopy), interleaved game by game."""
    contestants = {
        "public": game_player(name, None, seed),
        "playout": game_player(name, None, seed, fast=True),
    }
    ludo = ludopy_player(seed) if compare else None
    if ludo is not None:
        contestants["ludopy"] = ludo
    meters = {key: Meter() for key in contestants}
    deadline = time.perf_counter() + seconds * len(contestants)
    while True:
        for key, play_one in contestants.items():
            meters[key].play(play_one)
        if time.perf_counter() >= deadline:
            break
    public = meters["public"].figures()
    result: dict[str, Any] = {
        "game": name,
        "players": rules.get(name).players,
        **public,
        "playout": meters["playout"].figures(),
    }
    if ludo is not None:
        _compare(result, meters["ludopy"].figures())
    return result


def _compare(result: dict[str, Any], ludo: dict[str, Any]) -> None:
    """Add the ratios to ludopy (by turns; by moves for a game without a die)."""
    unit = "turns_per_s" if result["turns_per_s"] else "moves_per_s"
    result["ludopy"] = {k: ludo[k] for k in ("games", "games_per_s", "turns_per_s")}
    result["compared_by"] = unit
    result["turn_rate_vs_ludopy"] = round(result[unit] / ludo["turns_per_s"], 2)
    result["playout_rate_vs_ludopy"] = round(result["playout"][unit] / ludo["turns_per_s"], 2)


def run(games: list[str], seconds: float, compare: bool = True) -> dict[str, Any]:
    """About `seconds` of play per contestant and game."""
    results = [bench_game(name, seconds, compare) for name in games]
    return {"benchmark": "rules", "results": results}
