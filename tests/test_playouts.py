"""The playout routines (rules.playouts) play exactly the games the public API plays."""

from __future__ import annotations

import random

import pytest

import rules
from rules.playouts import random_playout

GAMES = [(name, n) for name in rules.names() for n in rules.game_class(name).player_counts]


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_seeded_playouts_agree_with_the_rules_core_move_for_move(name, players):
    game = rules.get(name, players=players)
    for seed in range(3):
        expected_state, expected_moves = rules.playout(game, seed=seed)  # SeededChooser + API
        record: list = []
        done = random_playout(game, game.initial_state(), random.Random(seed), record=record)
        assert record == expected_moves, (
            f"{name} seed {seed}: {_first_difference(record, expected_moves)}"
        )
        assert done.state == expected_state
        assert game.outcome(done.state) is not None
        assert done.moves == len(record)
        assert done.rolls == sum(m.__class__ is rules.Roll for m in record)


@pytest.mark.parametrize("name", rules.names())
def test_a_playout_from_the_middle_of_a_game_agrees_too(name):
    game = rules.get(name)
    start, _ = rules.playout(game, seed=7, max_moves=60)
    for seed in range(3):
        fast: list = []
        public: list = []
        a = random_playout(game, start, random.Random(seed), record=fast)
        b = random_playout(game, start, random.Random(seed), record=public, fast=False)
        assert fast == public and a.state == b.state


def test_a_limit_stops_the_playout_with_the_game_still_on():
    game = rules.get("manji")
    done = random_playout(game, game.initial_state(), random.Random(1), limit=25)
    assert done.moves == 25 and game.outcome(done.state) is None


def _first_difference(got: list, want: list) -> str:
    for number, (a, b) in enumerate(zip(got, want, strict=False), 1):
        if a != b:
            return f"move {number}: {a} instead of {b}"
    return f"{len(got)} moves instead of {len(want)}"
