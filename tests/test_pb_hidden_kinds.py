"""Playground Battles: nothing the rules say depends on a kind the table was not told.

For random games, each sampled position is compared with its twin (tests/pb_twins.py): the same
position with every hidden kind drawn again. `infer` (on every picture around every attack and
after every move), `explain`, `view`, `explain_attempt` and the errors of illegal moves must be
identical on both tables; `announce` too, except that announcing a battle may reveal the two
pieces in it (their kinds are kept in the twin then, and everything else is redrawn).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules import IllegalMoveError, Step
from tests.pb_twins import attacks, pictures, same, twin

GAME = rules.get("playground-battles")


def error_of(game, state, move) -> str:
    try:
        game.apply(state, move)
    except IllegalMoveError as exc:
        return str(exc)
    return ""


def everything_said(game, state, moves, seen_list, attempts) -> list:
    """What the rules say in `state`, as JSON: the thing that must not tell hidden kinds."""
    said: list = [game.view(state, None)]
    said += [game.explain(state, m).to_json() for m in moves]
    said += [game.infer(state, seen).to_json() for seen in seen_list]
    said += [game.explain_attempt(state, frm, to).to_json() for frm, to in attempts]
    said += [error_of(game, state, Step(state.actor, "red", frm, to)) for frm, to in attempts]
    return said


def compare(game, state, rng: random.Random) -> int:
    """Assert `state` and its twins say the same; returns the number of answers compared."""
    moves = game.legal_moves(state)
    battles = set(attacks(game, state)) if state.phase == "move" else set()
    seen_list = list(pictures(game, state)) if state.phase == "move" else []
    for move in moves:
        if isinstance(move, Step) and move not in battles:
            seen_list.append(game.placement(game.apply(state, move)))
    squares = [s.id for s in game.board.spaces]
    attempts = [(rng.choice(squares), rng.choice(squares)) for _ in range(6)]
    here = everything_said(game, state, moves, seen_list, attempts)
    there = everything_said(game, twin(state, rng), moves, seen_list, attempts)
    assert same(here, there)
    # each seat's own view: only the other seat's hidden kinds are redrawn
    for p in (0, 1):
        assert same(game.view(state, p), game.view(twin(state, rng, seats=(1 - p,)), p))
    # announcing a move: the same, once the pieces a battle reveals are kept
    index = game.board.index
    for move in moves:
        keep = frozenset(index[s] for s in (getattr(move, "frm", ""), getattr(move, "to", "")) if s)
        other = twin(state, rng, keep=keep if move in battles else frozenset())
        assert same(game.announce(state, move).to_json(), game.announce(other, move).to_json())
    return len(here)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6))
def test_nothing_said_depends_on_a_hidden_kind(seed):
    final, moves = rules.playout(GAME, seed=seed, max_moves=240)
    rng = random.Random(seed)
    state, compared = GAME.initial_state(), 0
    for n, move in enumerate(moves):
        if state.phase != "setup" and (n % 9 == 0 or state.phase in ("keep", "place")):
            compared += compare(GAME, state, rng)
        state = GAME.apply(state, move)
    assert state == final and compared > 0


def test_the_twins_really_differ():
    """The twin draws hidden kinds again (else the test above could not fail)."""
    final, moves = rules.playout(GAME, seed=3, max_moves=60)
    state = GAME.initial_state()
    for move in moves[:30]:
        state = GAME.apply(state, move)
    rng = random.Random(0)
    assert any(twin(state, rng).pieces != state.pieces for _ in range(5))
    revealed = {(s, k) for side in state.pieces for s, k, r in side if r}
    for _ in range(5):
        other = twin(state, rng)
        assert revealed <= {(s, k) for side in other.pieces for s, k, r in side if r}


@pytest.mark.parametrize("defender", ["scissors", "paper", "rock"])
def test_the_issue_pictures_are_answered_the_same_whatever_the_defender(defender):
    """Red rock on e4, blue on e5, roll 1: every picture gets the same answer for any blue kind;
    only the contest picture is the attack, and it is legal without telling the result."""
    from tests.test_playground_battles import make, pos

    game = make()
    state = pos(game, {"e4": "rock", "a1": "paper"}, {"e5": defender, "j8": "rock"}, dice=1)
    base = game.placement(state)
    moved = {s: c for s, c in base.items() if s != "e4"}
    attack = Step(0, "red", "e4", "e5")
    assert game.camera_picture(state, attack) == dict(moved, e5="red+blue")
    contest = game.infer(state, dict(moved, e5="red+blue"))
    assert contest.kind == "legal" and contest.move == Step(0, "red", "e4", "e5")
    settled = game.infer(state, dict(moved, e5="red"))
    assert settled.kind == "unclear" and "beside the blue one" in settled.reason
    lifted = game.infer(state, moved)
    assert lifted.kind == "unclear" and lifted.reason == "a red piece is missing from e4"
    defender_lifted = game.infer(state, {s: c for s, c in base.items() if s != "e5"})
    assert defender_lifted.kind == "unclear" and "e5" in defender_lifted.reason
    for inference in (contest, settled, lifted, defender_lifted):
        assert not any(k in inference.reason for k in ("rock", "paper", "scissors"))
