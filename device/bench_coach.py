"""`boardref bench coach`: how fast the coach plays out and ranks, per game.

Positions: for every game, seeded random games from the start (seeds 0..4), each stopped at
the first position after move 40 where the player to move has a choice. Figures per game:
light playouts per second (the coach's horizon), the time to rank a position with a fixed
16 rounds of playouts, and how many rounds fit in 0.2 s here, the share of one x86 core a
Pi 4 gets through in its 1 s budget (a Pi 4 core makes about 1/5 of the playouts).
Times are this process's CPU time, so other work on a shared machine does not inflate them.
"""

from __future__ import annotations

import random
import time
from typing import Any

import rules
from rules.coach import candidates, default_horizon, rank_moves
from rules.playouts import random_playout

PI4_SLOWDOWN = 5.0  # a Pi 4 core against one x86 core here, for the same playouts
PI4_BUDGET_S = 1.0


def positions(game: Any, count: int = 5, after: int = 40) -> list[Any]:
    """Seeded positions with a choice for the player to move, from random games."""
    found = []
    for seed in range(count * 4):
        rng = random.Random(seed)
        state = game.initial_state()
        n = 0
        while game.outcome(state) is None and n < 4000:
            if n >= after and len(candidates(game, state)) >= 2:
                found.append(state)
                break
            moves = game.legal_moves(state)
            state = game.apply(state, moves[int(rng.random() * len(moves))])
            n += 1
        if len(found) == count:
            break
    return found


def bench_game(name: str, rounds: int = 16) -> dict[str, Any]:
    game = rules.get(name)
    states = positions(game)
    horizon = default_horizon(game)
    rng = random.Random(0)
    made = 0
    start = time.process_time()
    for state in states:
        for _ in range(20):
            random_playout(game, state, rng, limit=horizon)
            made += 1
    playout_s = time.process_time() - start
    rank_times, moves, in_budget = [], [], []
    for state in states:
        start = time.process_time()
        ranking = rank_moves(game, state, random.Random(1), playouts=rounds)
        rank_times.append(time.process_time() - start)
        moves.append(len(ranking.moves))
        deadline = time.process_time() + PI4_BUDGET_S / PI4_SLOWDOWN
        budgeted = rank_moves(
            game,
            state,
            random.Random(2),
            playouts=10_000,
            stop=lambda d=deadline: time.process_time() > d,
        )
        in_budget.append(budgeted.rounds if budgeted else 0)
    mean_rank = sum(rank_times) / len(rank_times)
    return {
        "game": name,
        "positions": len(states),
        "horizon_moves": horizon,
        "light_playouts_per_s": round(made / playout_s, 1),
        "mean_legal_moves": round(sum(moves) / len(moves), 1),
        "rank_rounds": rounds,
        "rank_seconds": round(mean_rank, 3),
        "rank_seconds_pi4_estimate": round(mean_rank * PI4_SLOWDOWN, 2),
        "rounds_in_pi4_budget": round(sum(in_budget) / len(in_budget), 1),
    }


def run(games: list[str]) -> dict[str, Any]:
    return {
        "benchmark": "coach",
        "pi4_slowdown": PI4_SLOWDOWN,
        "pi4_budget_s": PI4_BUDGET_S,
        "results": [bench_game(name) for name in games],
    }
