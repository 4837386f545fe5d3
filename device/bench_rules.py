"""`boardref bench rules`: seeded random playouts through the public rules API.

A turn is one roll and the move (or pass) that follows it, as in ludopy, whose random 4-player
Ludo is measured in the same run (when it is installed) as the yardstick.
"""

from __future__ import annotations

import random
import time
from typing import Any

import rules
from rules import Roll


def bench_game(name: str, players: int | None, seconds: float, seed: int = 0) -> dict[str, Any]:
    game = rules.get(name, players=players)
    rng = random.Random(seed)
    games = moves = turns = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.initial_state()
        legal_moves, apply, outcome = game.legal_moves, game.apply, game.outcome
        n = 0
        while outcome(state) is None and n < 100_000:
            options = legal_moves(state)
            move = options[int(rng.random() * len(options))]
            if move.__class__ is Roll:
                turns += 1
            state = apply(state, move)
            n += 1
        moves += n
        games += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {
        "game": name,
        "players": game.players,
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 2),
        "moves_per_s": round(moves / elapsed),
        "turns_per_s": round(turns / elapsed),
        "mean_moves_per_game": round(moves / games, 1),
        "mean_turns_per_game": round(turns / games, 1),
    }


def bench_ludopy(seconds: float, seed: int = 0) -> dict[str, Any] | None:
    """ludopy's random 4-player Ludo, a turn being one roll and one move; None if not installed."""
    try:
        import ludopy
        import numpy as np
    except ImportError:
        return None
    rng = np.random.default_rng(seed)
    games = turns = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game = ludopy.Game()
        there_is_a_winner = False
        while not there_is_a_winner:
            (_, move_pieces, _, _, _, there_is_a_winner), _ = game.get_observation()
            piece = move_pieces[rng.integers(len(move_pieces))] if len(move_pieces) else -1
            *_, there_is_a_winner = game.answer_observation(piece)
            turns += 1
        games += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {
        "games_per_s": round(games / elapsed, 2),
        "turns_per_s": round(turns / elapsed),
        "mean_turns_per_game": round(turns / games, 1),
    }


def run(games: list[str], seconds: float, compare: bool = True) -> dict[str, Any]:
    report: dict[str, Any] = {"benchmark": "rules", "results": []}
    for name in games:
        report["results"].append(bench_game(name, None, seconds))
    if compare:
        ludo = bench_ludopy(seconds)
        report["ludopy"] = ludo
        if ludo:
            for result in report["results"]:
                result["turn_rate_vs_ludopy"] = round(
                    result["turns_per_s"] / ludo["turns_per_s"], 2
                )
    return report
