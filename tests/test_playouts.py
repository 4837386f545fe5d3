"""The playout routines (rules.playouts) play exactly the games the public API plays.

Most routines draw their random numbers as the public API does, so the same seed plays the
same game. Those that draw a move by rejection (DRAWN: Playground Battles, The Right Moves
without the house rules that make it list its moves) play other games from a seed: their
games are replayed through the rules core move by move instead, and their draws are checked
to be uniform among the legal moves.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

import rules
from rules.games.the_right_moves import Jump
from rules.playouts import playground_battles as pb_playouts
from rules.playouts import random_playout
from rules.playouts import the_right_moves as trm_playouts

DRAWN = {"playground-battles", "the-right-moves"}
GAMES = [
    (name, n)
    for name in rules.names()
    if name not in DRAWN
    for n in rules.game_class(name).player_counts
]


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


HOUSE_RULES = [
    (name, {option.name: choice})
    for name in sorted(set(rules.names()) - DRAWN)
    for option in rules.game_class(name).option_specs
    for choice in option.choices
    if choice != option.default
] + [  # house rules under which The Right Moves' moves are listed, not drawn
    ("the-right-moves", {"must_jump": True}),
    ("the-right-moves", {"skip_turns": True}),
]


@pytest.mark.parametrize(("name", "options"), HOUSE_RULES)
def test_seeded_playouts_agree_under_every_house_rule(name, options):
    game = _with_players_for(name, options)
    for seed in range(3):
        fast: list = []
        public: list = []
        a = random_playout(game, game.initial_state(), random.Random(seed), record=fast)
        b = random_playout(
            game, game.initial_state(), random.Random(seed), record=public, fast=False
        )
        assert fast == public, f"seed {seed}: {_first_difference(fast, public)}"
        assert a.state == b.state


@pytest.mark.parametrize("name", sorted(set(rules.names()) - DRAWN))
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


# (game, players, house rules) for the routines that draw by rejection
DRAWN_GAMES = [
    ("playground-battles", 2, {}),
    ("playground-battles", 2, {"no_moves": "this-roll"}),
    ("playground-battles", 2, {"base_entry": "row"}),
    ("playground-battles", 2, {"rows": 6}),
    ("playground-battles", 2, {"rows": 10}),
    ("the-right-moves", 2, {}),
    ("the-right-moves", 4, {}),
    ("the-right-moves", 2, {"centre_paths": False}),
    ("the-right-moves", 2, {"promotion_ends_move": False}),
    ("the-right-moves", 2, {"turn_on_inner_spaces": True}),
]


@pytest.mark.parametrize(("name", "players", "options"), DRAWN_GAMES)
def test_drawn_playouts_replay_move_for_move_through_the_rules_core(name, players, options):
    game = rules.get(name, players=players, options=options)
    cuts = random.Random(0)
    middle, _ = rules.playout(game, seed=7, max_moves=60)
    for seed in range(12):
        for start in (game.initial_state(), middle):
            record: list = []
            done = random_playout(game, start, random.Random(seed), record=record)
            assert _replay(game, start, record) == done.state, f"seed {seed}"
            assert game.outcome(done.state) is not None
            assert done.moves == len(record)
            assert done.rolls == sum(m.__class__ is rules.Roll for m in record)
            # a playout cut short ends in the position the rules core reaches at that move
            cut = cuts.randrange(1, len(record))
            part = random_playout(game, start, random.Random(seed), limit=cut)
            assert part.moves == cut
            assert part.state == _replay(game, start, record[:cut]), f"seed {seed}, cut {cut}"


@pytest.mark.parametrize(
    ("routine", "tries"),
    [
        (pb_playouts, pb_playouts.TRIES),
        (pb_playouts, 0),
        (trm_playouts, trm_playouts.TRIES),
        (trm_playouts, 0),
    ],
)
def test_drawn_playouts_play_every_legal_move_equally_often(routine, tries, monkeypatch):
    # tries=0 lists the moves in full at once (the routine's fallback after misses)
    monkeypatch.setattr(routine, "TRIES", tries)
    game, state = _busy_position(routine)
    legal = game.legal_moves(state)
    rng = _CountingRandom(5)
    per_move = 150
    played: Counter = Counter()
    for _ in range(per_move * len(legal)):
        record: list = []
        random_playout(game, state, rng, limit=1, record=record)
        played[record[0]] += 1
    assert set(played) == set(legal)
    chi2 = sum((played[m] - per_move) ** 2 / per_move for m in legal)
    free = len(legal) - 1
    assert chi2 < free + 5 * math.sqrt(2 * free)  # far beyond chance for uniform draws
    if tries:  # some draws were rejected: the rejection is what is checked here
        assert rng.draws > 1.2 * sum(played.values())


class _CountingRandom(random.Random):
    draws = 0

    def random(self) -> float:
        self.draws += 1
        return super().random()


def _busy_position(routine):
    """Playground Battles after a roll of 4, pieces in each other's way; The Right Moves with
    promoted pieces' skips (some targets on two rays), jumps and steps to choose from."""
    if routine is trm_playouts:
        game = rules.get("the-right-moves")
        state, _ = rules.playout(game, seed=5, max_moves=34)
        moves = game.legal_moves(state)
        assert sum(m.__class__ is Jump for m in moves) >= 2
        assert sum(getattr(m, "route", "") == "skip" for m in moves) >= 3
        return game, state
    game = rules.get("playground-battles")
    state, _ = rules.playout(game, seed=3, max_moves=90)
    while state.phase != "roll":
        state = game.apply(state, game.legal_moves(state)[0])
    return game, game.apply(state, game.legal_moves(state)[3])


def _with_players_for(name, options):
    """The game with the first number of players its options allow."""
    for players in rules.game_class(name).player_counts:
        try:
            return rules.get(name, players=players, options=options)
        except rules.OptionError:
            continue
    raise AssertionError(f"no number of players allows {options}")


def _replay(game, start, record):
    state = start
    for number, move in enumerate(record, 1):
        assert move in game.legal_moves(state), f"move {number}: {move} is not legal"
        state = game.apply(state, move)
    return state


def _first_difference(got: list, want: list) -> str:
    for number, (a, b) in enumerate(zip(got, want, strict=False), 1):
        if a != b:
            return f"move {number}: {a} instead of {b}"
    return f"{len(got)} moves instead of {len(want)}"
