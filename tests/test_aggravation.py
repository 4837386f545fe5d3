"""Aggravation, clause by clause. Each test names the clause id it checks.

Positions are written by hand with tests.helpers.position; expected holes are counted by hand
from the board design (see tests/helpers.py): on the four-arm board red (arm 0) starts on t09,
turns into HOME after t08, and its home star is t01; the stars are t01, t15, t29 and t43; blue
starts on t23, yellow on t37, green on t51. Red's lap: t09, t10, ..., t56, t01, ..., t08, red-h1..4.
"""

from __future__ import annotations

import pytest

import rules
from rules import Declare, IllegalMoveError, Pass, Roll, Step
from tests.helpers import (
    aggravation,
    clause_ids,
    destinations,
    moved,
    position,
    route_of,
    where,
)

RED_HOME = ["red-h1", "red-h2", "red-h3", "red-h4"]


@pytest.fixture
def game():
    return aggravation(4)


def step(game, frm, to, route="", colour="red"):
    p = game.colours.index(colour)
    return Step(p, colour, frm, to, route)


def test_hand_route_matches_the_design_counts():
    """Sanity of the test's own route model: a lap is 55 holes past START, then HOME."""
    route = route_of(0, 4)
    assert route[0] == "t09" and route[55] == "t08" and route[56] == "red-h1"
    assert len(route) == 60
    assert route_of(1, 4)[0] == "t23" and route_of(1, 4)[55] == "t22"


# --- AGG-1: setup and turn order -----------------------------------------------------------------


def test_AGG_1_1_marbles_begin_in_base(game):
    state = game.initial_state()
    seen = game.placement(state)
    assert seen == {
        f"{colour}-b{j}": colour
        for colour in ("red", "blue", "yellow", "green")
        for j in (1, 2, 3, 4)
    }
    for colour in game.colours:
        assert where(game, state, colour) == ["base"] * 4


def test_AGG_1_1_a_marble_moved_during_the_roll_off_cites_base():
    game = rules.get("aggravation", players=4)
    state = game.initial_state()
    assert state.phase == "opening"
    inference = game.infer(state, moved(game, state, "red-b1", "t09"))
    assert inference.kind == "illegal"
    assert clause_ids(inference.verdict) == ["AGG-1.1", "AGG-1.2"]
    assert "stays in BASE" in inference.reason


def test_AGG_1_2_opening_highest_roll_starts():
    game = rules.get("aggravation", players=4)
    state = game.initial_state()
    assert state.phase == "opening"
    assert game.legal_moves(state) == [Roll(0, "red", v) for v in range(1, 7)]
    for p, value in enumerate([3, 5, 2, 4]):
        assert state.to_move == p
        verdict = game.explain(state, Roll(p, game.colours[p], value))
        assert verdict.legal and "AGG-1.2" in clause_ids(verdict)
        state = game.apply(state, Roll(p, game.colours[p], value))
    assert state.phase == "roll"
    assert state.to_move == 1  # blue rolled the 5
    assert where(game, state, "blue") == ["base"] * 4


def test_AGG_1_2_opening_ties_roll_again_among_the_tied():
    game = rules.get("aggravation", players=4)
    state = game.initial_state()
    for p, value in enumerate([5, 5, 2, 5]):
        state = game.apply(state, Roll(p, game.colours[p], value))
    assert state.phase == "opening"
    # red, blue and green roll again; yellow (2) is out of it
    rolled = []
    for value in (4, 6, 6):
        p = state.to_move
        rolled.append(p)
        assert game.legal_moves(state) == [Roll(p, game.colours[p], v) for v in range(1, 7)]
        state = game.apply(state, Roll(p, game.colours[p], value))
    assert rolled == [0, 1, 3]
    assert state.phase == "opening"  # blue and green tied again on 6
    rolled = []
    for value in (1, 2):
        rolled.append(state.to_move)
        state = game.apply(state, Roll(state.to_move, game.colours[state.to_move], value))
    assert rolled == [1, 3]
    assert (state.phase, state.to_move, state.dice) == ("roll", 3, 0)


def test_AGG_1_2_opening_six_gives_no_extra_turn():
    game = rules.get("aggravation", players=2)
    state = game.initial_state()
    state = game.apply(state, Roll(0, "red", 6))
    assert state.to_move == 1 and state.phase == "opening"
    state = game.apply(state, Roll(1, "yellow", 2))
    assert (state.to_move, state.phase) == (0, "roll")


def test_AGG_1_2_option_first_seat_starts_without_roll_off():
    game = aggravation(4, opening="first-seat")
    state = game.initial_state()
    assert (state.phase, state.to_move, state.actor, state.dice) == ("roll", 0, 0, 0)
    assert game.clause("AGG-1.2").option == "opening"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_AGG_1_3_turns_pass_to_the_left(players):
    game = aggravation(players)
    state = game.initial_state()
    seen = []
    for _ in range(players + 1):
        seen.append(state.to_move)
        state = game.apply(state, Roll(state.to_move, game.colours[state.to_move], 3))
        assert game.legal_moves(state) == [Pass(state.to_move, game.colours[state.to_move])]
        state = game.apply(state, game.legal_moves(state)[0])
    assert seen == [*range(players), 0]


def test_AGG_1_3_wrong_colour_moved_is_illegal(game):
    state = position(game, {"red": ["t12"], "blue": ["t30"]}, dice=3)
    inference = game.infer(state, moved(game, state, "t30", "t33"))
    assert inference.kind == "illegal"
    assert clause_ids(inference.verdict) == ["AGG-1.3"]
    assert set(inference.spaces) == {"t30", "t33"}


def test_AGG_1_3_explain_of_another_players_step(game):
    state = position(game, {"red": ["t12"], "blue": ["t30"]}, dice=3)
    verdict = game.explain(state, step(game, "t30", "t33", colour="blue"))
    assert not verdict.legal
    assert clause_ids(verdict) == ["AGG-1.3"]
    with pytest.raises(IllegalMoveError):
        game.apply(state, step(game, "t30", "t33", colour="blue"))


def test_AGG_1_3_only_the_player_to_move_rolls(game):
    state = position(game, phase="roll")
    assert game.legal_moves(state) == [Roll(0, "red", v) for v in range(1, 7)]
    verdict = game.explain(state, Roll(1, "blue", 4))
    assert not verdict.legal
    with pytest.raises(IllegalMoveError):
        game.apply(state, Roll(1, "blue", 4))


def test_AGG_1_3_a_roll_in_the_wrong_colour_is_refused(game):
    state = position(game, phase="roll")
    with pytest.raises(IllegalMoveError):
        game.apply(state, Roll(0, "blue", 4))


# --- AGG-2: the turn -----------------------------------------------------------------------------


def test_AGG_2_1_six_rolls_again(game):
    state = position(game, {"red": ["t12"]}, phase="roll")
    state = game.apply(state, Roll(0, "red", 6))
    move = step(game, "t12", "t18")
    verdict = game.explain(state, move)
    assert verdict.legal
    assert [(e.kind, e.clause) for e in verdict.effects] == [("extra_turn", "AGG-2.1")]
    after = game.apply(state, move)
    assert (after.to_move, after.phase, after.dice) == (0, "roll", 0)


def test_AGG_2_1_six_then_six_then_other(game):
    state = position(game, {"red": ["t12"]}, phase="roll")
    for value, to in ((6, "t18"), (6, "t24"), (2, "t26")):
        state = game.apply(state, Roll(0, "red", value))
        state = game.apply(state, step(game, where(game, state, "red")[-1], to))
    assert state.to_move == 1


def test_AGG_2_1_non_six_passes_the_turn(game):
    state = position(game, {"red": ["t12"]}, dice=5)
    after = game.apply(state, step(game, "t12", "t17"))
    assert (after.to_move, after.phase) == (1, "roll")
    assert not [e for e in game.explain(state, step(game, "t12", "t17")).effects]


def test_AGG_2_2_roll_before_moving(game):
    state = position(game, {"red": ["t12"]}, phase="roll")
    assert all(isinstance(m, Roll) for m in game.legal_moves(state))
    inference = game.infer(state, moved(game, state, "t12", "t15"))
    assert inference.kind == "illegal"
    assert clause_ids(inference.verdict) == ["AGG-2.2"]
    verdict = game.explain(state, step(game, "t12", "t15"))
    assert not verdict.legal and clause_ids(verdict) == ["AGG-2.2"]
    with pytest.raises(IllegalMoveError):
        game.apply(state, step(game, "t12", "t15"))


def test_AGG_2_2_roll_explained_and_no_roll_while_moving(game):
    state = position(game, phase="roll")
    verdict = game.explain(state, Roll(0, "red", 4))
    assert verdict.legal and clause_ids(verdict) == ["AGG-2.2"]
    moving = game.apply(state, Roll(0, "red", 4))
    assert (moving.phase, moving.dice) == ("move", 4)
    assert not game.explain(moving, Roll(0, "red", 5)).legal
    with pytest.raises(IllegalMoveError):
        game.apply(moving, Roll(0, "red", 5))


@pytest.mark.parametrize("value", [0, 7, -1])
def test_AGG_2_2_die_shows_one_to_six(game, value):
    state = position(game, phase="roll")
    with pytest.raises(IllegalMoveError):
        game.apply(state, Roll(0, "red", value))


# --- AGG-3: starting a marble --------------------------------------------------------------------


@pytest.mark.parametrize("dice", [2, 3, 4, 5])
def test_AGG_3_1_start_needs_1_or_6(game, dice):
    state = position(game, dice=dice)
    assert game.legal_moves(state) == [Pass(0, "red")]
    inference = game.infer(state, moved(game, state, "red-b1", "t09"))
    assert inference.kind == "illegal"
    assert clause_ids(inference.verdict) == ["AGG-3.1"]
    verdict = game.explain(state, step(game, "red-b1", "t09", "start"))
    assert clause_ids(verdict) == ["AGG-3.1"]


@pytest.mark.parametrize("dice", [1, 6])
def test_AGG_3_1_start_on_1_or_6_onto_own_start(game, dice):
    state = position(game, dice=dice)
    assert game.legal_moves(state) == [step(game, "red-b1", "t09", "start")]
    inference = game.infer(state, moved(game, state, "red-b1", "t09"))
    assert inference.kind == "legal"
    assert inference.move == step(game, "red-b1", "t09", "start")
    assert "AGG-3.1" in clause_ids(inference.verdict)
    assert [e.kind for e in inference.verdict.effects][:1] == ["start"]
    after = game.apply(state, inference.move)
    assert where(game, after, "red") == ["base", "base", "base", "t09"]


@pytest.mark.parametrize(
    ("colour", "start"), [("blue", "t23"), ("yellow", "t37"), ("green", "t51")]
)
def test_AGG_3_1_each_colour_starts_on_its_own_start(game, colour, start):
    p = game.colours.index(colour)
    state = position(game, to_move=p, dice=1)
    assert destinations(game, state) == {start}


def test_AGG_3_1_leaving_base_anywhere_but_start(game):
    state = position(game, dice=6)
    inference = game.infer(state, moved(game, state, "red-b1", "t10"))
    assert inference.kind == "illegal"
    assert clause_ids(inference.verdict) == ["AGG-3.1"]


def test_AGG_3_1_start_with_no_marble_in_base_is_refused(game):
    state = position(game, {"red": ["t20", "t30", "t40", "red-h4"]}, dice=6)
    move = step(game, "red-b1", "t09", "start")
    assert move not in game.legal_moves(state)
    assert not game.explain(state, move).legal
    with pytest.raises(IllegalMoveError):
        game.apply(state, move)


def test_AGG_3_1_started_marble_moves_on_a_later_turn(game):
    state = position(game, {"red": ["t09"]}, dice=4)
    assert destinations(game, state) == {"t13"}


@pytest.mark.parametrize("dice", [1, 6])
def test_AGG_3_2_own_marble_on_start_blocks_a_new_start(game, dice):
    state = position(game, {"red": ["t09"]}, dice=dice)
    assert destinations(game, state) == {f"t{9 + dice:02d}"}
    inference = game.infer(state, moved(game, state, "red-b1", "t09"))
    # the marble on START would have to vanish or two would share the hole; either way not legal
    assert inference.kind in ("illegal", "unclear")
    verdict = game.explain(state, step(game, "red-b1", "t09", "start"))
    assert not verdict.legal and clause_ids(verdict) == ["AGG-3.2"]


def test_AGG_3_2_start_blocked_so_another_marble_moves(game):
    # the marble on START cannot move 1 because its neighbour is own: nothing can move
    state = position(game, {"red": ["t09", "t10"]}, dice=1)
    assert destinations(game, state) == {"t11"}
    state = position(game, {"red": ["t09", "t10", "t11", "t12"]}, dice=1)
    assert game.legal_moves(state) == [step(game, "t12", "t13")]


def test_AGG_3_3_starting_onto_an_opponent_on_start(game):
    state = position(game, {"blue": ["t09", "t30"]}, dice=6)
    move = step(game, "red-b1", "t09", "start")
    assert move in game.legal_moves(state)
    verdict = game.explain(state, move)
    assert "AGG-3.3" in clause_ids(verdict)
    assert ("capture", "AGG-3.3") in [(e.kind, e.clause) for e in verdict.effects]
    after = game.apply(state, move)
    assert where(game, after, "red") == ["base", "base", "base", "t09"]
    assert where(game, after, "blue") == ["base", "base", "base", "t30"]


# --- AGG-4: moving -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("frm", "dice", "to"), [("t10", 3, "t13"), ("t20", 6, "t26"), ("t50", 4, "t54")]
)
def test_AGG_4_1_full_count_clockwise(game, frm, dice, to):
    state = position(game, {"red": [frm]}, dice=dice)
    assert destinations(game, state, frm) == {to}


def test_AGG_6_3_centre_via_the_star_counts_both(game):
    # t54 +4: t55, t56, t01 (a star), and the fourth hole is either t02 or the centre
    state = position(game, {"red": ["t54"]}, dice=4)
    assert destinations(game, state) == {"t02", "ctr"}


def test_AGG_4_1_track_wraps_from_t56_to_t01(game):
    state = position(game, {"red": ["t55"]}, dice=2)
    assert destinations(game, state) == {"t01"}


def test_AGG_4_1_opponents_are_counted_and_jumped(game):
    state = position(game, {"red": ["t10"], "blue": ["t11", "t12"]}, dice=3)
    assert destinations(game, state) == {"t13"}
    after = game.apply(state, step(game, "t10", "t13"))
    assert where(game, after, "blue") == ["base", "base", "t11", "t12"]


def test_AGG_4_1_moving_the_wrong_count_is_illegal(game):
    state = position(game, {"red": ["t10"]}, dice=3)
    inference = game.infer(state, moved(game, state, "t10", "t14"))
    assert inference.kind == "illegal"
    assert clause_ids(inference.verdict) == ["AGG-4.1"]
    assert "4" in inference.verdict.reason and "3" in inference.verdict.reason
    assert set(inference.spaces) == {"t10", "t14"}
    verdict = game.explain(state, step(game, "t10", "t12"))
    assert clause_ids(verdict) == ["AGG-4.1"]


def test_AGG_4_1_moving_backwards_is_illegal(game):
    state = position(game, {"red": ["t20"]}, dice=3)
    inference = game.infer(state, moved(game, state, "t20", "t17"))
    assert inference.kind == "illegal"
    assert clause_ids(inference.verdict) == ["AGG-4.1"]


def test_AGG_4_1_legal_move_inferred_from_the_placement(game):
    state = position(game, {"red": ["t10", "t40"], "green": ["t45"]}, dice=3)
    inference = game.infer(state, moved(game, state, "t10", "t13"))
    assert inference.kind == "legal"
    assert inference.move == step(game, "t10", "t13")
    assert inference.verdict.legal and clause_ids(inference.verdict) == ["AGG-4.1"]


def test_AGG_4_2_no_jumping_own_marble(game):
    state = position(game, {"red": ["t10", "t12"]}, dice=3)
    assert destinations(game, state, "t10") == set()
    assert destinations(game, state) == {"t15"}
    inference = game.infer(state, moved(game, state, "t10", "t13"))
    assert inference.kind == "illegal"
    assert clause_ids(inference.verdict) == ["AGG-4.2"]


def test_AGG_4_2_no_landing_on_own_marble(game):
    state = position(game, {"red": ["t10", "t12"]}, dice=2)
    assert destinations(game, state) == {"t14"}
    verdict = game.explain(state, step(game, "t10", "t12"))
    assert not verdict.legal and clause_ids(verdict) == ["AGG-4.2"]


def test_AGG_4_2_no_jumping_own_marble_inside_home(game):
    state = position(game, {"red": ["t07", "red-h1"]}, dice=3)
    # t07 +3 is red-h2 but it would pass red-h1; red-h1 +3 is red-h4
    assert destinations(game, state) == {"red-h4"}
    verdict = game.explain(state, step(game, "t07", "red-h2"))
    assert not verdict.legal and clause_ids(verdict) == ["AGG-4.2"]


def test_AGG_4_2_own_marble_blocks_the_star_ride(game):
    # from t15 with 3: t18 on the path, t31 via star t29, t44 via t29 and t43, t01 via three stars
    state = position(game, {"red": ["t15", "t43"]}, dice=3)
    assert destinations(game, state, "t15") == {"t18", "t31"}


@pytest.mark.parametrize("dice", [1, 6])
def test_AGG_4_3_choice_on_1_or_6(game, dice):
    state = position(game, {"red": ["t20"]}, dice=dice)
    moves = game.legal_moves(state)
    assert step(game, "red-b1", "t09", "start") in moves
    assert step(game, "t20", f"t{20 + dice}") in moves
    assert len(moves) == 2
    for move in moves:  # either choice cites the rule that offers it
        assert "AGG-4.3" in clause_ids(game.explain(state, move))
    only_start = position(game, {}, dice=dice)
    (start,) = game.legal_moves(only_start)
    assert "AGG-4.3" not in clause_ids(game.explain(only_start, start))
    no_choice = position(game, {"red": ["t20"]}, dice=3)
    assert "AGG-4.3" not in clause_ids(game.explain(no_choice, step(game, "t20", "t23")))


# --- AGG-5: aggravation --------------------------------------------------------------------------


def test_AGG_5_1_aggravation_by_exact_count(game):
    state = position(game, {"red": ["t10"], "blue": ["t13", "blue-h2"]}, dice=3)
    move = step(game, "t10", "t13")
    verdict = game.explain(state, move)
    assert verdict.legal
    assert "AGG-5.1" in clause_ids(verdict)
    captures = [e for e in verdict.effects if e.kind == "capture"]
    assert [(e.clause, e.space, e.player) for e in captures] == [("AGG-5.1", "t13", 1)]
    after = game.apply(state, move)
    assert where(game, after, "red") == ["base", "base", "base", "t13"]
    assert where(game, after, "blue") == ["base", "base", "base", "blue-h2"]


def test_AGG_5_1_passing_over_does_not_aggravate(game):
    state = position(game, {"red": ["t10"], "blue": ["t12"]}, dice=3)
    after = game.apply(state, step(game, "t10", "t13"))
    assert where(game, after, "blue") == ["base", "base", "base", "t12"]


def test_AGG_5_1_aggravation_on_a_star_and_in_the_centre(game):
    state = position(game, {"red": ["t12"], "green": ["t15"]}, dice=3)
    after = game.apply(state, step(game, "t12", "t15"))
    assert where(game, after, "green") == ["base"] * 4
    state = position(game, {"red": ["t12"], "green": ["ctr"]}, dice=4)
    after = game.apply(state, step(game, "t12", "ctr", "centre"))
    assert where(game, after, "green") == ["base"] * 4
    assert where(game, after, "red") == ["base", "base", "base", "ctr"]


def test_AGG_5_1_aggravated_marble_restarts_from_base(game):
    state = position(game, {"red": ["t10"], "blue": ["t13"]}, dice=3)
    state = game.apply(state, step(game, "t10", "t13"))
    state = game.apply(state, Roll(1, "blue", 1))
    assert game.legal_moves(state) == [Step(1, "blue", "blue-b1", "t23", "start")]


def test_AGG_5_1_moving_a_marble_back_to_base_is_illegal(game):
    state = position(game, {"red": ["t20"]}, dice=3)
    inference = game.infer(state, moved(game, state, "t20", "red-b4"))
    assert inference.kind == "illegal"
    assert clause_ids(inference.verdict) == ["AGG-5.1"]


def test_AGG_5_2_home_marbles_cannot_be_reached_by_others(game):
    # blue's HOME entry is t22; a red marble passing it goes on to t23, never into blue's HOME
    for frm in ("t17", "t18", "t19", "t20", "t21", "t22"):
        for dice in range(1, 7):
            state = position(game, {"red": [frm], "blue": ["blue-h1", "blue-h2"]}, dice=dice)
            for to in destinations(game, state, frm):
                assert not to.startswith("blue-"), (frm, dice, to)
                after = game.apply(state, step(game, frm, to))
                assert where(game, after, "blue") == ["base", "base", "blue-h1", "blue-h2"]


def test_AGG_5_2_cited_for_a_marble_safe_in_home_and_for_a_move_into_another_home(game):
    state = position(game, {"red": ["t06"]}, dice=3)  # red's HOME entry is t08: t06 > h1
    verdict = game.explain(state, step(game, "t06", "red-h1"))
    assert verdict.legal and {"AGG-7.1", "AGG-5.2"} <= set(clause_ids(verdict))
    state = position(game, {"red": ["t20"], "blue": ["blue-h1"]}, dice=3)
    for to in ("blue-h2", "blue-b1"):
        verdict = game.explain_attempt(state, "t20", to)
        assert clause_ids(verdict) == ["AGG-5.2"], to


def test_AGG_5_2_base_marbles_are_never_aggravated(game):
    state = position(game, {"red": ["t20"]}, dice=1)
    for move in game.legal_moves(state):
        after = game.apply(state, move)
        for colour in ("blue", "yellow", "green"):
            assert where(game, after, colour) == ["base"] * 4


# --- AGG-6: shortcuts ----------------------------------------------------------------------------


def test_AGG_6_1_star_ride_like_figure_2(game):
    """Figure 2: from a star, a 5 rides three stars to the home star and goes 2 on (t03)."""
    state = position(game, {"red": ["t15"]}, dice=5)
    # t20 along the path; t29 +4 = t33; t43 +3 = t46; t01 +2 = t03
    assert destinations(game, state) == {"t20", "t33", "t46", "t03"}
    verdict = game.explain(state, step(game, "t15", "t03", "star"))
    assert verdict.legal and {"AGG-6.1", "AGG-6.2"} <= set(clause_ids(verdict))


def test_AGG_6_1_star_ride_ending_on_a_star(game):
    state = position(game, {"red": ["t15"]}, dice=3)
    assert destinations(game, state) == {"t18", "t31", "t44", "t01"}


def test_AGG_6_1_star_ride_aggravates_on_landing(game):
    state = position(game, {"red": ["t15"], "yellow": ["t29", "t33"]}, dice=5)
    after = game.apply(state, step(game, "t15", "t33", "star"))
    # the star t29 was passed over, the marble on t33 was landed on
    assert where(game, after, "yellow") == ["base", "base", "base", "t29"]


def test_AGG_6_1_passing_a_star_gives_no_ride(game):
    # a marble that passes over a star (not on it at the start of the turn) just walks on
    state = position(game, {"red": ["t13"]}, dice=4)
    assert destinations(game, state) == {"t17"}


def test_AGG_6_1_star_ride_move_inferred(game):
    state = position(game, {"red": ["t15"]}, dice=5)
    inference = game.infer(state, moved(game, state, "t15", "t03"))
    assert inference.kind == "legal"
    assert inference.move == step(game, "t15", "t03", "star")


def test_AGG_6_2_never_past_own_home_star(game):
    # red on t43 with a 6: only one star (t01, red's home star) ahead; t01 +5 = t06
    state = position(game, {"red": ["t43"]}, dice=6)
    assert destinations(game, state, "t43") == {"t49", "t06"}


def test_AGG_6_2_on_own_home_star_no_ride(game):
    state = position(game, {"red": ["t01"]}, dice=3)
    assert destinations(game, state) == {"t04"}


def test_AGG_6_2_blue_stops_riding_at_its_home_star(game):
    # blue (START t23, HOME entry t22) has home star t15: from t01 a 2 gives t03 or t15 +1 = t16
    state = position(game, {"blue": ["t01"]}, to_move=1, dice=2)
    assert destinations(game, state) == {"t03", "t16"}
    state = position(game, {"blue": ["t01"]}, to_move=1, dice=6)
    assert destinations(game, state, "t01") == {"t07", "t20"}


def test_AGG_6_2_star_ride_continues_into_home(game):
    # t43 -> t01 is one star hop; seven more holes reach t08, and beyond t08 lies HOME... with a
    # 6 the ride ends at t06 (tested above); from t29 a 6 rides t43, t01 and goes 4 on to t05
    state = position(game, {"red": ["t29"]}, dice=6)
    assert destinations(game, state, "t29") == {"t35", "t48", "t05"}


def test_AGG_6_3_enter_centre_by_exact_count_from_the_track(game):
    """Figure 3: three holes from a marble to the centre, via the star on the way."""
    state = position(game, {"red": ["t13"]}, dice=3)  # t14, t15 (star), ctr
    assert destinations(game, state) == {"t16", "ctr"}
    move = step(game, "t13", "ctr", "centre")
    verdict = game.explain(state, move)
    assert verdict.legal and "AGG-6.3" in clause_ids(verdict)
    inference = game.infer(state, moved(game, state, "t13", "ctr"))
    assert inference.kind == "legal" and inference.move == move


def test_AGG_6_3_no_centre_when_the_count_does_not_end_there(game):
    state = position(game, {"red": ["t13"]}, dice=4)
    assert destinations(game, state) == {"t17"}
    inference = game.infer(state, moved(game, state, "t13", "ctr"))
    assert inference.kind == "illegal"
    assert clause_ids(inference.verdict) == ["AGG-6.3"]


def test_AGG_6_3_from_a_star_only_with_a_1(game):
    state = position(game, {"red": ["t15"]}, dice=1)
    assert destinations(game, state, "t15") == {"t16", "t29", "ctr"}
    state = position(game, {"red": ["t15"]}, dice=3)
    assert "ctr" not in destinations(game, state)
    inference = game.infer(state, moved(game, state, "t15", "ctr"))
    assert inference.kind == "illegal"
    assert clause_ids(inference.verdict) == ["AGG-6.3"]


def test_AGG_6_3_no_centre_after_the_home_star(game):
    # red's last star is t01; from t02 on the way home the centre is out of reach
    for frm in ("t02", "t05", "t07"):
        for dice in range(1, 7):
            state = position(game, {"red": [frm]}, dice=dice)
            assert "ctr" not in destinations(game, state)


def test_AGG_6_3_own_marble_in_the_centre_blocks(game):
    state = position(game, {"red": ["t13", "ctr"]}, dice=3)
    assert destinations(game, state, "t13") == {"t16"}


def test_AGG_6_4_leave_centre_only_with_a_1_to_any_star(game):
    state = position(game, {"red": ["ctr"]}, dice=1)
    assert destinations(game, state, "ctr") == {"t01", "t15", "t29", "t43"}
    verdict = game.explain(state, step(game, "ctr", "t01", "centre exit"))
    assert verdict.legal and "AGG-6.4" in clause_ids(verdict)
    for dice in range(2, 7):
        state = position(game, {"red": ["ctr", "red-h2", "red-h3", "red-h4"]}, dice=dice)
        assert game.legal_moves(state) == [Pass(0, "red")]
    inference = game.infer(state, moved(game, state, "ctr", "t01"))
    assert inference.kind == "illegal"
    assert clause_ids(inference.verdict) == ["AGG-6.4"]


def test_AGG_6_4_leaving_centre_aggravates_on_the_star(game):
    state = position(game, {"red": ["ctr"], "blue": ["t01"]}, dice=1)
    after = game.apply(state, step(game, "ctr", "t01", "centre exit"))
    assert where(game, after, "blue") == ["base"] * 4


def test_AGG_6_4_not_onto_own_marble(game):
    state = position(game, {"red": ["ctr", "t01"]}, dice=1)
    assert destinations(game, state, "ctr") == {"t15", "t29", "t43"}


# --- AGG-7: getting home, passing ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("frm", "dice", "to"),
    [("t06", 3, "red-h1"), ("t06", 6, "red-h4"), ("t08", 1, "red-h1")],
)
def test_AGG_7_1_home_by_exact_count(game, frm, dice, to):
    state = position(game, {"red": [frm]}, dice=dice)
    assert destinations(game, state, frm) == {to}
    verdict = game.explain(state, step(game, frm, to))
    assert "AGG-7.1" in clause_ids(verdict)
    assert "home" in [e.kind for e in verdict.effects]


def test_AGG_I_4_moving_inside_home_by_exact_count(game):
    """AGG-I.4: by default a marble in HOME may move further in, by exact count."""
    state = position(game, {"red": ["red-h1"]}, dice=2)
    assert destinations(game, state, "red-h1") == {"red-h3"}
    verdict = game.explain(state, step(game, "red-h1", "red-h3"))
    assert "AGG-I.4" in clause_ids(verdict)
    assert "home" not in [e.kind for e in verdict.effects]  # it was already safe


def test_AGG_I_4_house_rule_marbles_in_home_stay_put():
    """AGG-I.4 off: a marble in HOME never moves again, so it is never forced to."""
    strict = rules.get("aggravation", players=4, options={"home_moves": False})
    state = position(strict, {"red": ["red-h1"]}, dice=2)
    assert destinations(strict, state, "red-h1") == set()
    assert [str(m) for m in strict.legal_moves(state)] == ["red passes"]


def test_AGG_7_1_figure_4(game):
    """Figure 4: three holes from the marble into an empty HOME hole."""
    state = position(game, {"red": ["t07", "red-h3", "red-h4"]}, dice=3)
    assert destinations(game, state, "t07") == {"red-h2"}


@pytest.mark.parametrize(("frm", "dice"), [("t07", 6), ("red-h1", 4), ("red-h3", 2), ("red-h4", 1)])
def test_AGG_7_1_overshoot_cannot_move(game, frm, dice):
    state = position(game, {"red": [frm]}, dice=dice)
    assert destinations(game, state, frm) == set()


def test_AGG_7_1_overshooting_home_is_illegal(game):
    state = position(game, {"red": ["t07", "t30"]}, dice=6)
    assert destinations(game, state, "t07") == set()
    assert destinations(game, state) == {"t36", "t09"}
    inference = game.infer(state, moved(game, state, "t07", "red-h4"))
    assert inference.kind == "illegal"
    assert clause_ids(inference.verdict) == ["AGG-7.1"]


def test_AGG_I_1_lap_turns_into_home_never_past_start(game):
    # red passes t08 into HOME: with a 5 from t05 it goes to red-h2, not on to t10
    state = position(game, {"red": ["t05"]}, dice=5)
    assert destinations(game, state) == {"red-h2"}
    state = position(game, {"red": ["t07"]}, dice=2)
    assert destinations(game, state) == {"red-h1"}


def test_AGG_I_1_opponents_go_past_reds_home_entry(game):
    state = position(game, {"blue": ["t07"]}, to_move=1, dice=3)
    assert destinations(game, state) == {"t10"}


def test_AGG_7_2_pass_when_no_move(game):
    state = position(game, dice=4)
    assert game.legal_moves(state) == [Pass(0, "red")]
    verdict = game.explain(state, Pass(0, "red"))
    assert verdict.legal and clause_ids(verdict) == ["AGG-7.2"]
    assert [(e.kind, e.clause) for e in verdict.effects] == [("pass", "AGG-7.2")]
    after = game.apply(state, Pass(0, "red"))
    assert (after.to_move, after.phase, after.pieces) == (1, "roll", state.pieces)


def test_AGG_7_2_pass_when_only_home_overshoots_remain(game):
    state = position(game, {"red": ["t07", "red-h2", "red-h3", "red-h4"]}, dice=4)
    assert game.legal_moves(state) == [Pass(0, "red")]


def test_AGG_7_3_pass_not_legal_when_a_move_exists(game):
    state = position(game, {"red": ["t20"]}, dice=4)
    assert Pass(0, "red") not in game.legal_moves(state)
    verdict = game.explain(state, Pass(0, "red"))
    assert not verdict.legal and clause_ids(verdict) == ["AGG-7.3"]
    with pytest.raises(IllegalMoveError) as info:
        game.apply(state, Pass(0, "red"))
    assert "AGG-7.3" in str(info.value)


def test_AGG_7_3_blocked_marble_means_the_other_must_move(game):
    state = position(game, {"red": ["t10", "t12", "t30"]}, dice=2)
    assert game.legal_moves(state) == [step(game, "t12", "t14"), step(game, "t30", "t32")]


# --- AGG-I.2: six after a pass -------------------------------------------------------------------


def test_AGG_I_2_six_after_pass_rolls_again_by_default(game):
    state = position(game, {"red": ["t07", "red-h2", "red-h3", "red-h4"]}, dice=6)
    assert game.legal_moves(state) == [Pass(0, "red")]
    verdict = game.explain(state, Pass(0, "red"))
    assert ("extra_turn", "AGG-I.2") in [(e.kind, e.clause) for e in verdict.effects]
    after = game.apply(state, Pass(0, "red"))
    assert (after.to_move, after.phase) == (0, "roll")


def test_AGG_I_2_option_false_six_after_pass_ends_turn():
    game = aggravation(4, extra_turn_after_pass=False)
    state = position(game, {"red": ["t07", "red-h2", "red-h3", "red-h4"]}, dice=6)
    verdict = game.explain(state, Pass(0, "red"))
    assert "extra_turn" not in [e.kind for e in verdict.effects]
    after = game.apply(state, Pass(0, "red"))
    assert (after.to_move, after.phase) == (1, "roll")
    # a 6 that moved still rolls again
    state = position(game, {"red": ["t20"]}, dice=6)
    assert game.apply(state, step(game, "t20", "t26")).to_move == 0


# --- AGG-I.3: captured marble in hand or in BASE -------------------------------------------------


def test_AGG_I_3_capture_seen_with_marble_back_in_base(game):
    state = position(game, {"red": ["t10"], "blue": ["t13", "t40"]}, dice=3)
    seen = moved(game, state, "t10", "t13")
    seen["blue-b3"] = "blue"  # the owner put it back in BASE
    inference = game.infer(state, seen)
    assert inference.kind == "legal"
    assert inference.move == step(game, "t10", "t13")


def test_AGG_I_3_capture_seen_with_marble_still_in_hand(game):
    state = position(game, {"red": ["t10"], "blue": ["t13", "t40"]}, dice=3)
    seen = moved(game, state, "t10", "t13")  # blue's marble lifted off, not yet in BASE
    inference = game.infer(state, seen)
    assert inference.kind == "legal"
    assert inference.move == step(game, "t10", "t13")
    assert "AGG-I.3" in clause_ids(inference.verdict)
    reminders = [e for e in inference.verdict.effects if e.kind == "reminder"]
    assert [(e.clause, e.player) for e in reminders] == [("AGG-I.3", 1)]
    assert "put it back in blue's BASE" in reminders[0].text
    back = dict(seen, **{"blue-b3": "blue"})  # once it is back in BASE: no reminder
    assert not [e for e in game.infer(state, back).verdict.effects if e.kind == "reminder"]


def test_AGG_I_3_every_capture_cites_the_hand_rule(game):
    state = position(game, {"red": ["t10"], "blue": ["t13"]}, dice=3)
    assert "AGG-I.3" in clause_ids(game.explain(state, step(game, "t10", "t13")))
    quiet = position(game, {"red": ["t10"], "blue": ["t14"]}, dice=3)
    assert "AGG-I.3" not in clause_ids(game.explain(quiet, step(game, "t10", "t13")))


def test_AGG_I_3_other_marble_missing_is_not_a_capture(game):
    state = position(game, {"red": ["t10"], "blue": ["t13", "t40"]}, dice=3)
    seen = moved(game, state, "t10", "t13")
    del seen["t40"]  # a blue marble elsewhere vanished too
    assert game.infer(state, seen).kind != "legal"


# --- inference: unclear readings -----------------------------------------------------------------


def test_infer_unknown_spaces_are_unclear_naming_them(game):
    state = position(game, {"red": ["t10"]}, dice=3)
    seen = moved(game, state, "t10", "t13")
    seen["t20"] = "?"
    seen["t13"] = "?"
    inference = game.infer(state, seen)
    assert inference.kind == "unclear"
    assert set(inference.spaces) == {"t13", "t20"}
    assert "t13" in inference.reason and "t20" in inference.reason


def test_infer_vanished_marble_is_unclear_naming_the_space(game):
    state = position(game, {"red": ["t10", "t30"]}, dice=3)
    seen = game.placement(state)
    del seen["t10"]
    inference = game.infer(state, seen)
    assert inference.kind == "unclear"
    assert "t10" in inference.spaces and "t10" in inference.reason


def test_infer_nothing_moved_is_unclear(game):
    state = position(game, {"red": ["t10"]}, dice=3)
    assert game.infer(state, game.placement(state)).kind == "unclear"


def test_infer_space_not_on_board_is_unclear(game):
    state = position(game, {"red": ["t10"]}, dice=3)
    seen = moved(game, state, "t10", "t13")
    seen["t99"] = "red"
    inference = game.infer(state, seen)
    assert inference.kind == "unclear" and inference.spaces == ("t99",)


def test_infer_two_marbles_moved_is_not_legal(game):
    state = position(game, {"red": ["t10", "t30"]}, dice=3)
    seen = moved(game, state, "t10", "t13")
    del seen["t30"]
    seen["t33"] = "red"
    assert game.infer(state, seen).kind != "legal"


def test_infer_base_marbles_are_interchangeable(game):
    state = position(game, {"red": ["t20"]}, dice=6)
    seen = game.placement(state)
    del seen["red-b1"]  # any BASE hole emptied
    seen["t09"] = "red"
    inference = game.infer(state, seen)
    assert inference.kind == "legal"
    assert inference.move == step(game, "red-b1", "t09", "start")


# --- AGG-8.1: winning ----------------------------------------------------------------------------


def test_AGG_8_1_first_with_all_four_home_wins(game):
    state = position(game, {"red": ["t07", "red-h2", "red-h3", "red-h4"]}, dice=2)
    move = step(game, "t07", "red-h1")
    verdict = game.explain(state, move)
    assert ("win", "AGG-8.1") in [(e.kind, e.clause) for e in verdict.effects]
    after = game.apply(state, move)
    assert after.phase == "over"
    outcome = game.outcome(after)
    assert outcome.winners == (0,)
    assert outcome.clause.id == "AGG-8.1"
    assert game.legal_moves(after) == []


def test_AGG_8_1_no_outcome_while_playing(game):
    assert game.outcome(position(game, {"red": ["red-h1", "red-h2", "red-h3", "t01"]})) is None


def test_AGG_8_1_win_with_a_six_ends_the_game(game):
    state = position(game, {"red": ["t03", "red-h2", "red-h3", "red-h4"]}, dice=6)
    after = game.apply(state, step(game, "t03", "red-h1"))
    assert after.phase == "over" and game.outcome(after).winners == (0,)


# --- partners ------------------------------------------------------------------------------------


@pytest.fixture
def partners():
    return aggravation(4, play="partners")  # red+yellow against blue+green


def test_AGG_P_1_partners_sit_opposite(partners):
    assert partners.colours == ("red", "blue", "yellow", "green")
    assert partners.side_of[0] == (0, 2) and partners.side_of[1] == (1, 3)


def test_AGG_P_1_jumping_partner_allowed(partners):
    state = position(partners, {"red": ["t10"], "yellow": ["t11"]}, dice=3)
    assert destinations(partners, state) == {"t13"}


def test_AGG_P_1_landing_on_partner_aggravates(partners):
    state = position(partners, {"red": ["t10"], "yellow": ["t13", "t30"]}, dice=3)
    move = step(partners, "t10", "t13")
    assert move in partners.legal_moves(state)
    verdict = partners.explain(state, move)
    assert "AGG-P.1" in clause_ids(verdict)
    after = partners.apply(state, move)
    assert where(partners, after, "yellow") == ["base", "base", "base", "t30"]


def test_AGG_P_1_individual_play_treats_everyone_as_opponent(game):
    state = position(game, {"red": ["t10"], "yellow": ["t13"]}, dice=3)
    assert "AGG-5.1" in clause_ids(game.explain(state, step(game, "t10", "t13")))


def test_AGG_P_2_home_player_rolls_for_partner(partners):
    red_home = {"red": RED_HOME, "yellow": ["t40"]}
    state = position(partners, red_home, to_move=3, dice=2, actor=3)
    state = partners.apply(state, Pass(3, "green"))
    assert (state.to_move, state.phase, state.actor) == (0, "roll", 2)
    assert partners.legal_moves(state) == [Roll(0, "red", v) for v in range(1, 7)]
    state = partners.apply(state, Roll(0, "red", 2))
    moves = partners.legal_moves(state)
    assert moves == [Step(2, "yellow", "t40", "t42")]
    verdict = partners.explain(state, moves[0])
    assert verdict.legal and "AGG-P.2" in clause_ids(verdict)
    after = partners.apply(state, moves[0])
    assert where(partners, after, "yellow") == ["base", "base", "base", "t42"]
    assert after.to_move == 1


def test_AGG_P_2_partner_start_with_home_players_roll(partners):
    state = position(partners, {"red": RED_HOME}, dice=6, actor=2)
    assert partners.legal_moves(state) == [Step(2, "yellow", "yellow-b1", "t37", "start")]
    after = partners.apply(state, partners.legal_moves(state)[0])
    assert (after.to_move, after.actor) == (0, 2)  # the 6 gives red another roll for yellow


def test_AGG_P_2_infer_partner_marble_moved(partners):
    state = position(partners, {"red": RED_HOME, "yellow": ["t40"]}, dice=2, actor=2)
    inference = partners.infer(state, moved(partners, state, "t40", "t42"))
    assert inference.kind == "legal" and inference.move == Step(2, "yellow", "t40", "t42")


def test_AGG_P_3_partnership_win(partners):
    state = position(
        partners,
        {"red": RED_HOME, "yellow": ["t35", "yellow-h2", "yellow-h3", "yellow-h4"]},
        dice=2,
        actor=2,
    )  # yellow's HOME entry is t36
    move = Step(2, "yellow", "t35", "yellow-h1")
    verdict = partners.explain(state, move)
    assert ("win", "AGG-P.3") in [(e.kind, e.clause) for e in verdict.effects]
    after = partners.apply(state, move)
    outcome = partners.outcome(after)
    assert outcome.winners == (0, 2)
    assert outcome.clause.id == "AGG-P.3"


def test_AGG_P_3_one_partner_home_is_not_a_win(partners):
    state = position(partners, {"red": ["t07", "red-h2", "red-h3", "red-h4"]}, dice=2)
    after = partners.apply(state, step(partners, "t07", "red-h1"))
    assert after.phase == "roll" and partners.outcome(after) is None
    assert after.to_move == 1


# --- teams of three ------------------------------------------------------------------------------


@pytest.fixture
def teams():
    return aggravation(6, play="teams")  # red, yellow, purple against blue, green, orange


def test_AGG_T_1_teams_sit_alternately(teams):
    assert teams.colours == ("red", "blue", "yellow", "green", "purple", "orange")
    assert teams.side_of[0] == (0, 2, 4) and teams.side_of[1] == (1, 3, 5)
    state = position(teams, {"red": ["t10"], "yellow": ["t11"], "blue": ["t12"]}, dice=3)
    # jumps teammate yellow and opponent blue; the six-arm board's START for red is t09 too
    assert destinations(teams, state) == {"t13"}
    state = position(teams, {"red": ["t10"], "yellow": ["t13"]}, dice=3)
    after = teams.apply(state, step(teams, "t10", "t13"))
    assert where(teams, after, "yellow") == ["base"] * 4


def test_AGG_T_2_declare_before_rolling(teams):
    state = position(
        teams, {"red": RED_HOME, "yellow": ["t45"], "purple": ["t70"]}, phase="declare"
    )
    moves = teams.legal_moves(state)
    assert moves == [Declare(0, "red", 2, "yellow"), Declare(0, "red", 4, "purple")]
    verdict = teams.explain(state, moves[1])
    assert verdict.legal and clause_ids(verdict) == ["AGG-T.2", "AGG-T.1"]
    # no rolling before declaring
    assert not teams.explain(state, Roll(0, "red", 3)).legal
    with pytest.raises(IllegalMoveError):
        teams.apply(state, Roll(0, "red", 3))
    state = teams.apply(state, moves[1])
    assert (state.phase, state.to_move, state.actor) == ("roll", 0, 4)
    state = teams.apply(state, Roll(0, "red", 3))
    assert teams.legal_moves(state) == [Step(4, "purple", "t70", "t73")]


def test_AGG_T_2_turn_reaches_declare_phase(teams):
    state = position(
        teams, {"red": RED_HOME, "yellow": ["t45"], "purple": ["t70"]}, to_move=5, dice=3
    )
    state = teams.apply(state, Pass(5, "orange"))
    assert (state.to_move, state.phase) == (0, "declare")


def test_AGG_T_2_cannot_declare_a_teammate_who_is_home(teams):
    state = position(
        teams, {"red": RED_HOME, "yellow": ["t45"], "purple": ["t70"]}, phase="declare"
    )
    assert not teams.explain(state, Declare(0, "red", 1, "blue")).legal
    with pytest.raises(IllegalMoveError):
        teams.apply(state, Declare(0, "red", 1, "blue"))


def test_AGG_T_3_two_home_both_roll_for_the_third(teams):
    yellow_home = ["yellow-h1", "yellow-h2", "yellow-h3", "yellow-h4"]
    layout = {"red": RED_HOME, "yellow": yellow_home, "purple": ["t66"]}
    state = position(teams, layout, to_move=5, dice=3)
    state = teams.apply(state, Pass(5, "orange"))
    assert (state.to_move, state.phase, state.actor) == (0, "roll", 4)
    state = position(teams, layout, to_move=1, dice=3)
    state = teams.apply(state, Pass(1, "blue"))
    assert (state.to_move, state.phase, state.actor) == (2, "roll", 4)
    state = teams.apply(state, Roll(2, "yellow", 2))
    assert teams.legal_moves(state) == [Step(4, "purple", "t66", "t68")]


def test_AGG_T_1_partnership_rules_in_team_play_cite_the_team_clause(teams):
    # yellow lands on its teammate purple: the partners' rule AGG-P.1, which AGG-T.1 applies
    state = position(teams, {"yellow": ["t40"], "purple": ["t43"]}, to_move=2, dice=3)
    verdict = teams.explain(state, Step(2, "yellow", "t40", "t43"))
    assert verdict.legal and {"AGG-P.1", "AGG-T.1", "AGG-I.3"} <= set(clause_ids(verdict))
    partners = aggravation(4, play="partners")
    state = position(partners, {"red": ["t10"], "yellow": ["t13"]}, dice=3)
    verdict = partners.explain(state, step(partners, "t10", "t13"))
    assert "AGG-P.1" in clause_ids(verdict) and "AGG-T.1" not in clause_ids(verdict)


def test_AGG_T_3_team_win(teams):
    layout = {
        "red": RED_HOME,
        "yellow": ["yellow-h1", "yellow-h2", "yellow-h3", "yellow-h4"],
        # purple (arm 4) has HOME entry t64
        "purple": ["t63", "purple-h2", "purple-h3", "purple-h4"],
    }
    state = position(teams, layout, to_move=2, dice=2, actor=4)
    after = teams.apply(state, Step(4, "purple", "t63", "purple-h1"))
    outcome = teams.outcome(after)
    assert outcome.winners == (0, 2, 4)
    assert outcome.clause.id == "AGG-T.3"


# --- seats, boards, options ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options", "starts"),
    [
        (2, {}, ["t09", "t37"]),
        (3, {}, ["t09", "t23", "t37"]),
        (5, {}, ["t09", "t23", "t37", "t51", "t65"]),
        (6, {}, ["t09", "t23", "t37", "t51", "t65", "t79"]),
        (2, {"board": "six"}, ["t09", "t51"]),
        (4, {"board": "six"}, ["t09", "t23", "t51", "t65"]),
    ],
)
def test_seats_start_on_their_arms(players, options, starts):
    game = aggravation(players, **options)
    for p in range(players):
        state = position(game, to_move=p, dice=6)
        assert destinations(game, state) == {starts[p]}


def test_six_arm_board_lap(game):
    six = aggravation(6)
    # red: t84 wraps to t01, the home star; the stars are t01, t15, t29, t43, t57, t71
    state = position(six, {"red": ["t83"]}, dice=4)
    assert destinations(six, state) == {"t03"}
    state = position(six, {"red": ["t57"]}, dice=3)
    assert destinations(six, state) == {"t60", "t73", "t02"}
    state = position(six, {"red": ["t07"]}, dice=4)
    assert destinations(six, state) == {"red-h3"}
    state = position(six, {"red": ["ctr"]}, dice=1)
    assert destinations(six, state, "ctr") == {"t01", "t15", "t29", "t43", "t57", "t71"}


def test_board_option_four_and_six():
    assert len(aggravation(3, board="six").board.seat_colours) == 6
    assert len(aggravation(4, board="four").board.seat_colours) == 4
    assert len(aggravation(4, board="auto").board.seat_colours) == 4
    assert len(aggravation(5, board="auto").board.seat_colours) == 6


def test_lane_option_changes_the_lap():
    game = aggravation(4, lane=2)  # 10 holes per arm: star, 2 out, 5 across, 2 back
    # red: star t01, out t02 t03, end t04..t08 (HOME entry t06, START t07), back t09 t10
    state = position(game, dice=1)
    assert destinations(game, state) == {"t07"}
    state = position(game, {"red": ["t05"]}, dice=2)
    assert destinations(game, state) == {"red-h1"}
    state = position(game, {"red": ["t11"]}, dice=1)  # blue's inner corner: a star
    assert destinations(game, state, "t11") == {"t12", "t21", "ctr"}


def test_every_clause_has_a_test():
    import pathlib

    text = pathlib.Path(__file__).read_text()
    for clause in aggravation().clauses:
        name = "test_" + clause.id.replace("-", "_").replace(".", "_") + "_"
        assert name in text, clause.id


def test_clauses_cite_rulebook_sections_and_options_exist(game):
    ids = [c.id for c in game.clauses]
    assert len(ids) == len(set(ids))
    options = {o.name for o in game.option_specs}
    for clause in game.clauses:
        assert clause.section and clause.title and clause.text
        if clause.option:
            assert clause.option in options
            assert clause.interpretation


def test_AGG_4_1_step_from_a_hole_not_on_the_board_is_refused(game):
    state = position(game, {"red": ["t10"]}, dice=3)
    for move in (step(game, "t99", "t13"), step(game, "t10", "t99"), step(game, "t20", "t23")):
        assert not game.explain(state, move).legal
        with pytest.raises(IllegalMoveError):
            game.apply(state, move)


def test_AGG_3_1_explain_start_with_no_marble_in_base(game):
    # START is free, so the fault is not AGG-3.2: there is no marble left in BASE to start
    state = position(game, {"red": ["t20", "t30", "t40", "red-h4"]}, dice=6)
    verdict = game.explain(state, step(game, "red-b1", "t09", "start"))
    assert not verdict.legal and clause_ids(verdict) == ["AGG-3.1"]


@pytest.mark.parametrize(
    ("frm", "dice", "to"), [("t07", 6, "t13"), ("t05", 5, "t10"), ("t08", 1, "t09")]
)
def test_AGG_I_1_going_past_start_instead_of_home_is_illegal(game, frm, dice, to):
    state = position(game, {"red": [frm, "t30"]}, dice=dice)
    inference = game.infer(state, moved(game, state, frm, to))
    assert inference.kind == "illegal"
    assert clause_ids(inference.verdict) == ["AGG-I.1"]


def test_AGG_6_2_riding_past_the_home_star_is_illegal(game):
    # red on t43 with a 6 may ride only to t01 (then 5 on to t06); riding on to t15 and 4 more
    # (t19) would carry it past its home star
    state = position(game, {"red": ["t43", "t30"]}, dice=6)
    inference = game.infer(state, moved(game, state, "t43", "t19"))
    assert inference.kind == "illegal"
    assert clause_ids(inference.verdict) == ["AGG-6.2"]


def test_AGG_4_1_explain_wrong_count_near_home_is_not_a_home_fault(game):
    # t03 to t05 with a 6 is a wrong count on the path, not a HOME entry
    state = position(game, {"red": ["t03", "t30"]}, dice=6)
    inference = game.infer(state, moved(game, state, "t03", "t05"))
    assert inference.kind == "illegal"
    assert clause_ids(inference.verdict) == ["AGG-4.1"]


def test_AGG_1_3_roll_out_of_turn_cites_turn_order(game):
    state = position(game, phase="roll")
    verdict = game.explain(state, Roll(1, "blue", 4))
    assert not verdict.legal and clause_ids(verdict) == ["AGG-1.3"]


def test_AGG_2_2_pass_before_rolling_cites_roll_first(game):
    state = position(game, {"red": ["t20"]}, phase="roll")
    verdict = game.explain(state, Pass(0, "red"))
    assert not verdict.legal and clause_ids(verdict) == ["AGG-2.2"]


def test_AGG_1_3_pass_by_another_player_cites_turn_order(game):
    state = position(game, dice=4)
    verdict = game.explain(state, Pass(1, "blue"))
    assert not verdict.legal and clause_ids(verdict) == ["AGG-1.3"]


def test_AGG_T_2_roll_before_declaring_cites_declare(teams):
    state = position(
        teams, {"red": RED_HOME, "yellow": ["t45"], "purple": ["t70"]}, phase="declare"
    )
    verdict = teams.explain(state, Roll(0, "red", 3))
    assert not verdict.legal and clause_ids(verdict) == ["AGG-T.2"]


def test_AGG_T_3_winning_move_cites_the_team_win(teams):
    layout = {
        "red": RED_HOME,
        "yellow": ["yellow-h1", "yellow-h2", "yellow-h3", "yellow-h4"],
        "purple": ["t63", "purple-h2", "purple-h3", "purple-h4"],
    }
    state = position(teams, layout, to_move=2, dice=2, actor=4)
    verdict = teams.explain(state, Step(4, "purple", "t63", "purple-h1"))
    wins = [e.clause for e in verdict.effects if e.kind == "win"]
    assert wins == ["AGG-T.3"]


def test_AGG_4_1_illegal_move_error_names_move_position_and_clause(game):
    state = position(game, {"red": ["t10"]}, dice=3)
    move = step(game, "t10", "t14")
    with pytest.raises(IllegalMoveError) as info:
        game.apply(state, move)
    assert info.value.move == move and info.value.state == state
    message = str(info.value)
    assert "t10->t14" in message and "AGG-4.1" in message


def test_AGG_1_3_infer_other_marble_vanished_is_unclear(game):
    state = position(game, {"red": ["t10"], "blue": ["t30"]}, dice=3)
    seen = game.placement(state)
    del seen["t30"]
    inference = game.infer(state, seen)
    assert inference.kind == "unclear" and "t30" in inference.spaces
