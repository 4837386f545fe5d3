"""Random legal playouts keep the invariants of Aggravation (hypothesis chooses the seeds)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules import Declare, Pass, Roll, Step
from rules.games.aggravation import BASE
from tests.helpers import route_of, star_of

SEEDS = st.integers(0, 2**32 - 1)
CONFIGS = {
    "2": (2, {}),
    "3": (3, {}),
    "4": (4, {}),
    "5": (5, {"opening": "first-seat"}),
    "6": (6, {}),
    "partners4": (4, {"play": "partners"}),
    "partners6": (6, {"play": "partners"}),
    "teams": (6, {"play": "teams"}),
    "lane2-no-extra": (4, {"lane": 2, "extra_turn_after_pass": False}),
}
GAMES = {key: rules.get("aggravation", players=n, options=o) for key, (n, o) in CONFIGS.items()}


def home_holes(game, p):
    return {f"{game.colours[p]}-h{j}" for j in range(1, 5)}


def check_state(game, state):
    """Invariants of every reachable state, checked by hand from the rules."""
    ids = game.board.ids()
    assert len(state.pieces) == game.players
    occupied = []
    for p, marbles in enumerate(state.pieces):
        assert len(marbles) == 4, "every player always has exactly four marbles"
        assert list(marbles) == sorted(marbles)
        colour = game.colours[p]
        for s in marbles:
            if s == BASE:
                continue
            occupied.append(s)
            hole = game.board.spaces[s]
            # a marble is on the track, the centre or its own HOME row, never another's
            assert hole.kind in ("track", "star", "start", "centre") or ids[s].startswith(
                f"{colour}-h"
            ), (colour, ids[s])
    assert len(occupied) == len(set(occupied)), "no two marbles share a hole"
    seen = game.placement(state)
    assert len(seen) == 4 * game.players
    assert state.phase in ("opening", "declare", "roll", "move", "over")
    if state.phase in ("opening", "declare", "roll"):
        assert state.dice == 0
    if state.phase == "move":
        assert 1 <= state.dice <= 6
    if state.phase != "opening":
        assert state.actor in game.side_of[state.to_move]


def check_moves(game, state, moves):
    if state.phase == "over":
        assert moves == []
        return
    assert moves, "a game in progress always has a move"
    kinds = {type(m) for m in moves}
    if state.phase in ("roll", "opening"):
        assert moves == [Roll(state.to_move, game.colours[state.to_move], v) for v in range(1, 7)]
    elif state.phase == "declare":
        assert kinds == {Declare}
    else:
        # Pass is legal exactly when no marble can move (compulsory move, AGG-7.3)
        assert kinds in ({Pass}, {Step})
        if kinds == {Pass}:
            assert len(moves) == 1
        assert len(set(moves)) == len(moves)
        for m in moves:
            assert m.player == state.actor


def check_step(game, state, move, after):
    """What a step did, checked against the rules rather than the movement tables."""
    ids = game.board.ids()
    actor = state.actor
    index = game.board.index
    before_own = [ids[s] if s != BASE else "base" for s in state.pieces[actor]]
    after_own = [ids[s] if s != BASE else "base" for s in after.pieces[actor]]
    if move.route == "start":
        assert state.dice in (1, 6)
        assert before_own.count("base") == after_own.count("base") + 1
    else:
        assert move.frm in before_own and move.to in after_own
    if move.route == "centre exit":
        assert state.dice == 1 and game.board.space(move.to).kind == "star"
    if move.route == "star":
        assert game.board.space(move.frm).kind == "star"
    if move.to == "ctr":
        assert move.route == "centre"
    dest = index[move.to]
    # whoever stood on the destination went back to BASE; nobody else moved
    for q in range(game.players):
        if q == actor:
            continue
        lost = [s for s in state.pieces[q] if s not in after.pieces[q]]
        if dest in state.pieces[q]:
            assert lost == [dest]
            assert after.pieces[q].count(BASE) == state.pieces[q].count(BASE) + 1
        else:
            assert after.pieces[q] == state.pieces[q]
        assert not home_holes(game, q) & {move.to}


def in_hand(game, state, move, after):
    """The placement after a capture, with the captured marble still in its owner's hand."""
    dest = game.board.index[move.to]
    for q in range(game.players):
        if q != state.actor and dest in state.pieces[q]:
            seen = game.placement(after)
            colour = game.colours[q]
            row = sorted(s for s, c in seen.items() if c == colour and s.startswith(colour + "-b"))
            del seen[row[-1]]
            return seen
    return None


def check_illegal_attempt(game, state, moves, rng):
    """A marble of the mover put on a hole no legal move reaches: illegal, citing a clause."""
    actor = state.actor
    ids = game.board.ids()
    own = [s for s in state.pieces[actor] if s != BASE]
    if not own:
        return
    frm = ids[own[int(rng.random() * len(own))]]
    reachable = {m.to for m in moves if isinstance(m, Step) and m.frm == frm}
    empty = [s for s in game.board.ids() if s not in game.placement(state)]
    empty = [s for s in empty if s not in reachable and "-b" not in s]
    to = empty[int(rng.random() * len(empty))]
    move = Step(actor, game.colours[actor], frm, to)
    verdict = game.explain(state, move)
    assert not verdict.legal and len(verdict.clauses) == 1, (move, verdict)
    assert verdict.clauses[0].id.startswith("AGG-")
    try:
        game.apply(state, move)
    except rules.IllegalMoveError:
        pass
    else:
        raise AssertionError(f"{move} was applied")
    seen = game.placement(state)
    del seen[frm]
    seen[to] = game.colours[actor]
    inference = game.infer(state, seen)
    assert inference.kind == "illegal", (move, inference)
    assert inference.verdict.clauses == verdict.clauses


def check_against_reference(game, state, moves):
    """Legal steps against a hand-written model of the lap (default lane: 14 holes per arm)."""
    if game.options["lane"] != 4 or state.phase != "move":
        return
    actor, dice = state.actor, state.dice
    colour = game.colours[actor]
    arms = len(game.board.seat_colours)
    route = route_of(game.board.seat_colours.index(colour), arms)
    laps = 14 * arms
    stars = [s for s in route[:laps] if s in {star_of(a) for a in range(arms)}]
    ids = game.board.ids()
    own = {ids[s] for s in state.pieces[actor] if s != BASE}
    steps = [m for m in moves if isinstance(m, Step)]
    for m in steps:
        if m.route == "start":
            assert dice in (1, 6) and m.frm == f"{colour}-b1" and m.to == route[0]
        elif m.route == "":
            i = route.index(m.frm)
            assert route[i + dice] == m.to
            assert not own & set(route[i + 1 : i + dice + 1])
        elif m.route == "centre":
            assert m.to == "ctr"
            if m.frm in stars:
                assert dice == 1
            else:
                i = route.index(m.frm)
                assert i + dice - 1 < laps and route[i + dice - 1] in stars
        elif m.route == "centre exit":
            assert m.frm == "ctr" and dice == 1 and m.to in stars
        else:
            assert m.route == "star" and m.frm in stars
            ahead = stars[stars.index(m.frm) + 1 :]  # never past the home star, the last one
            reached = {route[route.index(star) + dice - k] for k, star in enumerate(ahead, 1)}
            assert m.to in reached, m
    # completeness for the plain moves and starts
    for s in state.pieces[actor]:
        if s == BASE:
            if dice in (1, 6) and route[0] not in own:
                assert Step(actor, colour, f"{colour}-b1", route[0], "start") in steps
            continue
        frm = ids[s]
        if frm == "ctr":
            continue
        i = route.index(frm)
        if i + dice < len(route) and not own & set(route[i + 1 : i + dice + 1]):
            assert Step(actor, colour, frm, route[i + dice]) in steps
    if not steps:
        assert moves == [Pass(actor, colour)]


def check_turn_order(game, state, move, after):
    if after.phase == "over" or state.phase not in ("move",):
        return
    again = state.dice == 6 and (isinstance(move, Step) or game.options["extra_turn_after_pass"])
    expected = state.to_move if again else (state.to_move + 1) % game.players
    assert after.to_move == expected


def run(game, seed, check_infer=True, max_moves=20000):
    rng = random.Random(seed)
    state = game.initial_state()
    record = []
    for _ in range(max_moves):
        outcome = game.outcome(state)
        moves = game.legal_moves(state)
        check_moves(game, state, moves)
        if outcome is not None:
            break
        snapshot = json.dumps(game.state_to_json(state))
        for m in moves:
            verdict = game.explain(state, m)
            assert verdict.legal, (m, verdict)
            assert verdict.clauses
            after = game.apply(state, m)
            check_state(game, after)
            if isinstance(m, Step):
                check_step(game, state, m, after)
                if check_infer:
                    inference = game.infer(state, game.placement(after))
                    assert inference.kind == "legal", (m, inference)
                    assert inference.move == m
                    hand = in_hand(game, state, m, after)
                    if hand is not None:  # AGG-I.3: the captured marble not yet in BASE
                        inference = game.infer(state, hand)
                        assert inference.kind == "legal" and inference.move == m
        if state.phase == "move" and check_infer:
            check_illegal_attempt(game, state, moves, rng)
        assert json.dumps(game.state_to_json(state)) == snapshot, "apply never mutates its input"
        check_against_reference(game, state, moves)
        move = moves[int(rng.random() * len(moves))]
        after = game.apply(state, move)
        check_turn_order(game, state, move, after)
        record.append(move)
        state = after
    else:
        raise AssertionError("the game did not end")
    outcome = game.outcome(state)
    assert state.phase == "over"
    winners = outcome.winners
    assert set(winners) == set(game.side_of[winners[0]])
    for p in winners:
        # every winner's four marbles are HOME, in the four HOME holes
        assert {game.board.ids()[s] for s in state.pieces[p]} == home_holes(game, p)
    ids = game.board.ids()
    for side in game.sides:
        if side != tuple(winners):
            # the game ended at the first side home: no other side is all HOME
            assert not all(
                {ids[s] for s in state.pieces[p] if s != BASE} == home_holes(game, p) for p in side
            )
    return state, record


@settings(max_examples=10, deadline=None)
@given(SEEDS)
def test_random_playouts_four_players(seed):
    run(GAMES["4"], seed)


@settings(max_examples=6, deadline=None)
@given(SEEDS)
def test_random_playouts_two_players(seed):
    run(GAMES["2"], seed)


@settings(max_examples=4, deadline=None)
@given(SEEDS)
def test_random_playouts_three_players(seed):
    run(GAMES["3"], seed)


@settings(max_examples=3, deadline=None)
@given(SEEDS)
def test_random_playouts_five_players(seed):
    run(GAMES["5"], seed)


@settings(max_examples=3, deadline=None)
@given(SEEDS)
def test_random_playouts_six_players(seed):
    run(GAMES["6"], seed)


@settings(max_examples=4, deadline=None)
@given(SEEDS)
def test_random_playouts_partners_four(seed):
    run(GAMES["partners4"], seed)


@settings(max_examples=3, deadline=None)
@given(SEEDS)
def test_random_playouts_partners_six(seed):
    run(GAMES["partners6"], seed)


@settings(max_examples=4, deadline=None)
@given(SEEDS)
def test_random_playouts_teams(seed):
    run(GAMES["teams"], seed)


@settings(max_examples=4, deadline=None)
@given(SEEDS)
def test_random_playouts_short_lane_no_extra_turn_after_pass(seed):
    run(GAMES["lane2-no-extra"], seed)


@settings(max_examples=20, deadline=None)
@given(SEEDS, st.sampled_from(sorted(CONFIGS)))
def test_replay_reproduces_playout(seed, key):
    game = GAMES[key]
    final, record = rules.playout(game, seed=seed)
    data = json.loads(json.dumps(game.record(record)))
    assert game.replay(data["moves"]) == final
    assert game.state_from_json(json.loads(json.dumps(game.state_to_json(final)))) == final
