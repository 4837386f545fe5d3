"""Manji: one or more tests per rule clause (named in each test), JSON, replay, properties.

Expected squares come from the board design written in rules/games/manji.py's docstring and
docs/games/manji.md (red: exit t07, arrival t06, lane red-l1..l4 entering the small circle at
r07, shortcut circle t76 with its tip r06; blue: exit t26, arrival t25, shortcut t19 -> r09;
yellow: exit t45, arrival t44, shortcut t38 -> r12, entry r01; green: exit t64, arrival t63,
shortcut t57 -> r03, entry r04; arrow square r02, approach "app", central spots ctr1..ctr5).
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules import (
    Decline,
    IllegalMoveError,
    OptionError,
    Pass,
    PlayerCountError,
    RecordError,
    Roll,
    Step,
)
from rules.games.manji import CENTRE, HOME, NOBODY, ManjiState
from rules.palette import UNKNOWN

RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3


@pytest.fixture
def game():
    return rules.get("manji", players=4)


def node(game, where):
    """'home', 'ctr', a space id, or (space id, stage) for a pawn on its small-circle turn."""
    if where == "home":
        return HOME
    if where == "ctr":
        return CENTRE
    if isinstance(where, tuple):
        sid, stage = where
        return game.board.index[sid] + stage * len(game.board.spaces)
    return game.board.index[where]


def make(game, pawns, *, to_move=0, phase="move", dice=1, sixes=0, last=None):
    """A state with seat -> [where, where] (seats not named stay at home)."""
    pieces = []
    for p in range(game.players):
        spots = pawns.get(p, ["home", "home"])
        pieces.append(tuple(sorted(node(game, w) for w in spots)))
    last_node = NOBODY if last is None else node(game, last)
    return ManjiState(to_move, phase, dice, tuple(pieces), to_move, sixes, last_node, ())


def steps_of(game, state):
    return {(m.frm, m.to, m.route) for m in game.legal_moves(state) if isinstance(m, Step)}


def targets(game, state, frm):
    return {m.to for m in game.legal_moves(state) if isinstance(m, Step) and m.frm == frm}


def ids(verdict):
    return [c.id for c in verdict.clauses]


def effect_clauses(verdict, kind):
    return [e.clause for e in verdict.effects if e.kind == kind]


def attempt(game, state, frm, to):
    """The camera sees the mover's pawn go from `frm` to `to` (edited by hand)."""
    seen = dict(game.placement(state))
    colour = seen.pop(frm)
    seen[to] = colour
    return game.infer(state, seen)


def roll(game, state, value):
    return game.apply(state, Roll(state.to_move, game.colours[state.to_move], value))


# --- MANJI-1.x: setup, opening, turns, the board ----------------------------------------------


def test_manji_1_1_two_pawns_start_in_the_house(game):
    state = game.initial_state()
    assert state.pieces == ((HOME, HOME),) * 4
    seen = game.placement(state)
    assert seen == {f"{c}-h{j}": c for c in ("red", "blue", "yellow", "green") for j in (1, 2)}
    assert ("red-h1", "red-h2") in game.groups()


def test_manji_1_2_lowest_roll_starts_and_ties_roll_again(game):
    state = game.initial_state()
    assert state.phase == "opening"
    for value in (4, 2, 2, 5):
        state = roll(game, state, value)
    # blue and yellow tied lowest: only they roll again, blue first
    assert state.phase == "opening" and state.to_move == BLUE
    assert state.rolloff == (-1, 0, 0, -1)
    state = roll(game, state, 6)
    state = roll(game, state, 3)
    assert state.phase == "roll" and state.to_move == YELLOW
    verdict = game.explain(game.initial_state(), Roll(0, "red", 3))
    assert ids(verdict) == ["MANJI-1.2"]


def test_manji_1_2_option_first_seat():
    game = rules.get("manji", players=3, options={"opening": "first-seat"})
    state = game.initial_state()
    assert (state.phase, state.to_move) == ("roll", 0)


def test_manji_1_3_turns_go_clockwise_and_seats_take_opposite_arms():
    game = rules.get("manji", players=2)
    assert game.colours == ("red", "yellow")  # bottom and top arm, facing each other
    state = game.initial_state()
    state = roll(game, state, 3)
    state = roll(game, state, 1)  # yellow lowest: yellow starts
    assert state.to_move == 1
    state = roll(game, state, 2)
    state = game.apply(state, Pass(1, "yellow"))  # no 5: nothing can leave the house
    assert (state.to_move, state.phase) == (0, "roll")


def test_manji_1_3_wrong_colour_moving_is_illegal(game):
    state = make(game, {RED: ["t10", "home"], BLUE: ["t30", "home"]}, dice=3)
    seen = dict(game.placement(state))
    del seen["t30"]
    seen["t33"] = "blue"
    result = game.infer(state, seen)
    assert result.kind == "illegal"
    assert ids(result.verdict) == ["MANJI-1.3"]
    verdict = game.explain(state, Step(BLUE, "blue", "t30", "t33"))
    assert not verdict.legal and ids(verdict) == ["MANJI-1.3"]


def test_manji_1_4_board_counts(game):
    board = game.board
    kinds = {}
    for space in board.spaces:
        kinds[space.kind] = kinds.get(space.kind, 0) + 1
    track = [s for s in board.spaces if s.kind in ("track", "exit", "arrival", "shortcut")]
    assert len(track) == 76
    assert kinds["exit"] == kinds["arrival"] == kinds["shortcut"] == 4
    assert kinds["lane"] == 16 and kinds["house"] == 8
    assert kinds["ring"] + kinds["tip"] + kinds["arrow"] == 12 and kinds["arrow"] == 1
    assert kinds["approach"] == 1 and kinds["centre"] == 5
    assert board.marker_ids == (12, 13, 14, 15)
    assert board.token_radius > board.hole_radius > 0
    assert [r.name for r in board.regions] == ["tray"]


def test_manji_1_4_spaces_clear_of_markers_and_each_other(game):
    board = game.board
    corners = [(0, 0), (board.width, 0), (board.width, board.height), (0, board.height)]
    for space in board.spaces:
        assert 0 < space.x < board.width and 0 < space.y < board.height
        for cx, cy in corners:
            assert max(abs(space.x - cx), abs(space.y - cy)) >= 40, space.id
    for i, a in enumerate(board.spaces):
        for b in board.spaces[i + 1 :]:
            assert math.hypot(a.x - b.x, a.y - b.y) >= 2 * board.token_radius, (a.id, b.id)
    tray = board.regions[0]
    assert all(s.y < tray.y for s in board.spaces)


def test_manji_1_4_track_runs_clockwise_and_arms_bend_clockwise(game):
    board = game.board
    pts = [board.space(f"t{k:02d}") for k in range(1, 77)]
    cx, cy = 140.0, 140.0
    turn = 0.0
    for a, b in zip(pts, pts[1:] + pts[:1], strict=True):
        da = math.atan2(b.y - cy, b.x - cx) - math.atan2(a.y - cy, a.x - cx)
        turn += (da + math.pi) % (2 * math.pi) - math.pi
    # y points down, so a positive total angle is clockwise as seen from above the table
    assert turn == pytest.approx(2 * math.pi)
    # the top arm (yellow) climbs its stem and its hook points right, away from the stem
    stem, hook_end = board.space("t43"), board.space("t48")
    assert hook_end.x > stem.x + 60 and abs(hook_end.y - stem.y) < 1
    assert board.space("yellow-h1").x > board.space("yellow-l1").x


# --- MANJI-2.x: rolling and moving ------------------------------------------------------------


def test_manji_2_1_no_move_before_the_roll(game):
    state = make(game, {RED: ["t10", "home"]}, phase="roll", dice=0)
    result = attempt(game, state, "t10", "t12")
    assert result.kind == "illegal" and ids(result.verdict) == ["MANJI-2.1"]
    assert ids(game.explain_attempt(state, "t10", "t12")) == ["MANJI-2.1"]


def test_manji_2_2_pass_is_illegal_when_a_move_exists(game):
    state = make(game, {RED: ["t10", "home"]}, dice=3)
    verdict = game.explain(state, Pass(0, "red"))
    assert not verdict.legal and ids(verdict) == ["MANJI-2.2"]
    with pytest.raises(IllegalMoveError, match="MANJI-2.2"):
        game.apply(state, Pass(0, "red"))


def test_manji_2_3_no_move_means_pass(game):
    state = make(game, {}, dice=4)
    assert game.legal_moves(state) == [Pass(0, "red")]
    verdict = game.explain(state, Pass(0, "red"))
    assert verdict.legal and effect_clauses(verdict, "pass") == ["MANJI-2.3"]
    after = game.apply(state, Pass(0, "red"))
    assert (after.to_move, after.phase) == (BLUE, "roll")


def test_manji_2_4_exact_count_and_passing_over_pawns(game):
    state = make(game, {RED: ["t07", "home"], BLUE: ["t09", "home"]}, dice=3)
    assert targets(game, state, "t07") == {"t10"}  # over the blue pawn on t09
    verdict = game.explain_attempt(state, "t07", "t11")
    assert ids(verdict) == ["MANJI-2.4"] and "4 squares" in verdict.reason
    back = make(game, {RED: ["t12", "home"]}, dice=3)
    assert ids(game.explain_attempt(back, "t12", "t09")) == ["MANJI-2.4"]
    result = attempt(game, state, "t07", "t11")
    assert result.kind == "illegal" and ids(result.verdict) == ["MANJI-2.4"]


def test_manji_2_5_no_landing_on_your_own_pawn(game):
    state = make(game, {RED: ["t07", "t10"]}, dice=3)
    assert targets(game, state, "t07") == set()
    assert ids(game.explain_attempt(state, "t07", "t10")) == ["MANJI-2.5"]


# --- MANJI-3.x: leaving the house -------------------------------------------------------------


def test_manji_3_1_only_a_5_brings_a_pawn_out(game):
    state = make(game, {}, dice=4)
    assert game.legal_moves(state) == [Pass(0, "red")]
    assert ids(game.explain_attempt(state, "red-h1", "t07")) == ["MANJI-3.1"]
    five = make(game, {}, dice=5)
    moves = game.legal_moves(five)
    assert moves == [Step(0, "red", "red-h1", "t07", "exit")]
    verdict = game.explain(five, moves[0])
    assert verdict.legal and effect_clauses(verdict, "start") == ["MANJI-3.1"]
    assert ids(game.explain_attempt(five, "red-h1", "t08")) == ["MANJI-3.1"]
    result = attempt(game, five, "red-h2", "t07")
    assert result.kind == "legal" and result.move == moves[0]


def test_manji_3_2_coming_out_is_obligatory(game):
    state = make(game, {RED: ["t20", "home"]}, dice=5)
    assert steps_of(game, state) == {("red-h1", "t07", "exit")}
    verdict = game.explain_attempt(state, "t20", "t25")
    assert ids(verdict) == ["MANJI-3.2"]
    result = attempt(game, state, "t20", "t25")
    assert result.kind == "illegal" and ids(result.verdict) == ["MANJI-3.2"]


def test_manji_3_3_own_pawn_on_the_exit_blocks_coming_out(game):
    state = make(game, {RED: ["t07", "home"]}, dice=5)
    assert steps_of(game, state) == {("t07", "t12", "")}
    assert ids(game.explain_attempt(state, "red-h1", "t07")) == ["MANJI-3.3"]
    assert "MANJI-3.3" in ids(game.explain(state, Step(0, "red", "t07", "t12")))


def test_manji_3_4_coming_out_captures_an_opponent(game):
    state = make(game, {BLUE: ["t07", "home"]}, dice=5)
    move = Step(0, "red", "red-h1", "t07", "exit")
    verdict = game.explain(state, move)
    assert verdict.legal and effect_clauses(verdict, "capture") == ["MANJI-3.4"]
    after = game.apply(state, move)
    assert after.pieces[BLUE] == (HOME, HOME)
    assert after.pieces[RED] == tuple(sorted((HOME, node(game, "t07"))))


# --- MANJI-4.x: sixes -------------------------------------------------------------------------


def test_manji_4_1_a_six_rolls_again(game):
    state = make(game, {RED: ["t10", "home"]}, phase="roll", dice=0)
    state = roll(game, state, 6)
    move = Step(0, "red", "t10", "t16")
    verdict = game.explain(state, move)
    assert effect_clauses(verdict, "extra_turn") == ["MANJI-4.1"]
    after = game.apply(state, move)
    assert (after.to_move, after.phase, after.sixes) == (RED, "roll", 1)


def test_manji_4_6_the_extra_roll_may_be_declined(game):
    # "If a player rolls a 6, they can start playing again": the extra roll is offered.
    state = make(game, {RED: ["t10", "t30"]}, phase="roll", dice=0)
    assert Decline(0, "red") not in game.legal_moves(state)  # an ordinary roll is not optional
    verdict = game.explain(state, Decline(0, "red"))
    assert not verdict.legal and ids(verdict) == ["MANJI-4.6"]
    rolled = roll(game, state, 6)
    six = game.explain(rolled, Step(0, "red", "t10", "t17"))
    assert [e.text for e in six.effects] == ["red rolled a 6 and may roll again"]
    state = game.apply(rolled, Step(0, "red", "t10", "t17"))
    assert Decline(0, "red") in game.legal_moves(state)
    verdict = game.explain(state, Decline(0, "red"))
    assert (
        verdict.legal and ids(verdict) == ["MANJI-4.6"] and game.clause("MANJI-4.6").interpretation
    )
    after = game.apply(state, Decline(0, "red"))
    assert (after.to_move, after.phase, after.sixes) == (BLUE, "roll", 0)
    # two 6s in a row: the player may stop before risking the third
    state = game.apply(roll(game, state, 6), Step(0, "red", "t30", "t37"))
    assert state.sixes == 2
    verdict = game.explain(state, Decline(0, "red"))
    assert verdict.legal and "third 6" in verdict.reason
    after = game.apply(state, Decline(0, "red"))
    assert after.to_move == BLUE and after.pieces[RED] == state.pieces[RED]
    assert game.move_from_json(json.loads(json.dumps(Decline(0, "red").to_json()))) == Decline(
        0, "red"
    )


def test_manji_4_6_house_rule_the_extra_roll_is_compulsory():
    game = rules.get("manji", players=4, options={"extra_roll": "compulsory"})
    state = make(game, {RED: ["t10", "t30"]}, phase="roll", dice=0)
    state = game.apply(roll(game, state, 6), Step(0, "red", "t10", "t17"))
    assert all(isinstance(m, Roll) for m in game.legal_moves(state))
    with pytest.raises(IllegalMoveError, match="MANJI-4.6"):
        game.apply(state, Decline(0, "red"))


def test_manji_passing_before_the_roll_says_roll_the_die_first(game):
    state = make(game, {RED: ["t10", "home"]}, phase="roll", dice=0)
    verdict = game.explain(state, Pass(0, "red"))
    assert not verdict.legal and ids(verdict) == ["MANJI-2.1"]
    assert verdict.reason == "roll the die first"


def test_manji_4_2_six_counts_as_seven_once_both_are_out(game):
    both_out = make(game, {RED: ["t10", "t30"]}, dice=6)
    assert targets(game, both_out, "t10") == {"t17"}
    assert "MANJI-4.2" in ids(game.explain(both_out, Step(0, "red", "t10", "t17")))
    verdict = game.explain_attempt(both_out, "t10", "t16")
    assert ids(verdict) == ["MANJI-4.2"]
    one_home = make(game, {RED: ["t10", "home"]}, dice=6)
    assert targets(game, one_home, "t10") == {"t16"}
    finished = make(game, {RED: ["t10", "ctr"]}, dice=6)
    assert targets(game, finished, "t10") == {"t17"}


def test_manji_4_3_three_sixes_send_the_last_moved_pawn_home(game):
    state = make(game, {RED: ["t10", "t30"]}, phase="roll", dice=0)
    state = roll(game, state, 6)
    state = game.apply(state, Step(0, "red", "t10", "t17"))
    state = roll(game, state, 6)
    state = game.apply(state, Step(0, "red", "t30", "t37"))
    third = Roll(0, "red", 6)
    verdict = game.explain(state, third)
    assert effect_clauses(verdict, "send_home") == ["MANJI-4.3"]
    state = game.apply(state, third)
    assert state.phase == "penalty"
    home = Step(0, "red", "t37", "red-h1", "home")
    assert game.legal_moves(state) == [home]
    assert ids(game.explain_attempt(state, "t17", "t20")) == ["MANJI-4.3"]
    seen = dict(game.placement(state))
    del seen["t37"]
    seen["red-h1"] = "red"
    result = game.infer(state, seen)
    assert result.kind == "legal" and result.move == home
    after = game.apply(state, home)
    assert after.pieces[RED] == tuple(sorted((HOME, node(game, "t17"))))
    assert (after.to_move, after.phase, after.sixes) == (BLUE, "roll", 0)


def test_manji_4_4_three_sixes_without_a_move_or_inside(game):
    nothing = make(game, {}, phase="roll", dice=0)
    for _ in range(2):
        nothing = roll(game, nothing, 6)
        nothing = game.apply(nothing, Pass(0, "red"))
    assert nothing.to_move == RED and nothing.sixes == 2
    verdict = game.explain(nothing, Roll(0, "red", 6))
    assert effect_clauses(verdict, "send_home") == ["MANJI-4.4"]
    nothing = roll(game, nothing, 6)
    assert game.legal_moves(nothing) == [Pass(0, "red")]
    assert ids(game.explain(nothing, Pass(0, "red"))) == ["MANJI-4.4"]
    assert game.apply(nothing, Pass(0, "red")).to_move == BLUE
    inside = make(game, {RED: ["red-l4", "t30"]}, phase="roll", sixes=2, last="red-l4")
    inside = roll(game, inside, 6)
    assert game.legal_moves(inside) == [Pass(0, "red")]
    assert game.apply(inside, Pass(0, "red")).pieces == inside.pieces


def test_manji_4_5_six_after_a_pass_option(game):
    state = make(game, {}, dice=6)
    verdict = game.explain(state, Pass(0, "red"))
    assert effect_clauses(verdict, "extra_turn") == ["MANJI-4.5"]
    assert game.apply(state, Pass(0, "red")).to_move == RED
    strict = rules.get("manji", players=4, options={"extra_roll_after_pass": False})
    state = make(strict, {}, dice=6)
    assert strict.apply(state, Pass(0, "red")).to_move == BLUE
    assert effect_clauses(strict.explain(state, Pass(0, "red")), "extra_turn") == []


# --- MANJI-5.x: captures and the safe inner section -------------------------------------------


def test_manji_5_1_landing_on_an_opponent_captures_it(game):
    state = make(game, {RED: ["t10", "home"], GREEN: ["t13", "t70"]}, dice=3)
    move = Step(0, "red", "t10", "t13")
    verdict = game.explain(state, move)
    assert effect_clauses(verdict, "capture") == ["MANJI-5.1"]
    after = game.apply(state, move)
    assert after.pieces[GREEN] == tuple(sorted((HOME, node(game, "t70"))))
    seen = dict(game.placement(state))
    del seen["t10"]
    seen["t13"] = "red"
    seen["green-h1"] = "green"
    assert game.infer(state, seen).move == move


def test_manji_5_1_landing_captures_also_where_the_pawn_goes_on_inside(game):
    # Rulebook: a capture is landing on the opponent's square outside the inner section. The
    # referee lets a pawn land on its arrival square or its shortcut circle and go on inside in
    # the same move, capturing there (MANJI-5.1 effect); the clause texts must say so, not
    # limit captures to the square where the move ends.
    shortcut = make(game, {RED: ["t73", "home"], BLUE: ["t76", "home"]}, dice=3)
    move = Step(0, "red", "t73", "r06", "shortcut")
    verdict = game.explain(shortcut, move)
    assert effect_clauses(verdict, "capture") == ["MANJI-5.1"]
    text = {c.id: c.text for c in game.clauses}
    assert "ending its move" not in text["MANJI-5.1"]
    assert "land" in text["MANJI-5.1"]
    assert "captur" in text["MANJI-6.3"] and "captur" in text["MANJI-7.1"]


def test_manji_5_2_no_captures_in_the_inner_section(game):
    # a blue pawn sits on the small circle right where the red pawn's count would end
    state = make(game, {RED: [("r07", 0), "home"], BLUE: [("r10", 0), "home"]}, dice=3)
    assert targets(game, state, "r07") == {"r09"}  # stops short, never lands on blue
    assert ids(game.explain_attempt(state, "r07", "r10")) == ["MANJI-8.4"]
    assert all(
        game.apply(state, m).pieces[BLUE] == state.pieces[BLUE] for m in game.legal_moves(state)
    )


def test_manji_5_3_captured_pawn_may_still_be_in_hand(game):
    state = make(game, {RED: ["t10", "home"], GREEN: ["t13", "t70"]}, dice=3)
    seen = dict(game.placement(state))
    del seen["t10"]
    seen["t13"] = "red"  # the green pawn is in its owner's hand, not yet home
    result = game.infer(state, seen)
    assert result.kind == "legal" and result.move == Step(0, "red", "t10", "t13")


# --- MANJI-6.x: the entrance ------------------------------------------------------------------


def test_manji_6_1_one_lap_from_exit_to_arrival(game):
    red_route = [f"t{(6 + i) % 76 + 1:02d}" for i in range(76)]
    assert red_route[0] == "t07" and red_route[-1] == "t06"
    state = make(game, {RED: ["t05", "t07"]}, dice=1)
    # one step from t05 reaches the arrival square and goes down the lane, never to t07
    assert targets(game, state, "t05") == {"red-l4"}
    inner = make(game, {RED: ["red-l2", "t30"]}, dice=3)
    assert ids(game.explain_attempt(inner, "red-l2", "t07")) == ["MANJI-6.1"]


def test_manji_6_2_entrance_by_exact_count(game):
    state = make(game, {RED: ["t03", "t30"]}, dice=5)  # t06 is three squares away
    assert targets(game, state, "t03") == set()
    verdict = game.explain_attempt(state, "t03", "red-l2")
    assert ids(verdict) == ["MANJI-6.2"]
    alone = make(game, {RED: ["t03", "ctr"]}, dice=5)
    assert game.legal_moves(alone) == [Pass(0, "red")]


def test_manji_6_2_going_on_past_the_arrival_square_is_refused_by_the_entrance_rule(game):
    # The rulebook: the pawn goes once round and enters by the exact count. A pawn carried on
    # round the track past its arrival square moved forward, so "forward only" is not the
    # reason; the entrance rule is.
    state = make(game, {RED: ["t05", "t30"]}, dice=2)  # t06 (arrival) is one square away
    verdict = game.explain_attempt(state, "t05", "t07")
    assert ids(verdict) == ["MANJI-6.2"]
    assert "forward" not in verdict.reason
    inside = make(game, {RED: ["t05", "t30"]}, dice=1)  # the count fits: t06, then the lane
    verdict = game.explain_attempt(inside, "t05", "t07")
    assert ids(verdict) == ["MANJI-6.1"]
    # a pawn left on its arrival square (lane blocked) is on the track, not in the inner section
    stuck = make(game, {RED: ["t06", "red-l1"]}, dice=2)
    verdict = game.explain_attempt(stuck, "t06", "t08")
    assert ids(verdict) == ["MANJI-6.1"]
    assert "inner section" not in verdict.reason
    backwards = make(game, {RED: ["t10", "t30"]}, dice=2)
    assert ids(game.explain_attempt(backwards, "t10", "t08")) == ["MANJI-2.4"]


def test_manji_6_3_arrival_goes_as_far_inside_as_possible(game):
    state = make(game, {RED: ["t03", "home"], BLUE: ["t06", "home"]}, dice=3)
    move = Step(0, "red", "t03", "red-l4", "arrival")
    assert game.legal_moves(state) == [move]
    verdict = game.explain(state, move)
    assert effect_clauses(verdict, "enter") == ["MANJI-6.3"]
    assert effect_clauses(verdict, "capture") == ["MANJI-5.1"]  # blue on the arrival square
    after = game.apply(state, move)
    assert after.pieces[BLUE] == (HOME, HOME)
    blocked = make(game, {RED: ["t03", "red-l4"]}, dice=3)
    assert targets(game, blocked, "t03") == {"red-l3"}
    assert ids(game.explain_attempt(state, "t03", "t06")) == ["MANJI-6.3"]
    assert ids(game.explain_attempt(blocked, "t03", "red-l1")) == ["MANJI-6.3"]


def test_manji_6_3_arrival_past_the_partner_house_rule():
    # "As far as possible": by default the slide stops before the partner pawn in the lane,
    # though a pawn moving by count may pass it there (MANJI-6.4). House rule
    # arrival_slide="deepest-free": the arriving pawn goes to the deepest free lane square.
    default = rules.get("manji", players=4)
    assert default.options["arrival_slide"] == "stop-before"
    state = make(default, {RED: ["t03", "red-l2"]}, dice=3)
    assert targets(default, state, "t03") == {"red-l1"}
    stuck = make(default, {RED: ["t03", "red-l1"]}, dice=3)
    assert targets(default, stuck, "t03") == {"t06"}  # stays on the arrival square
    game = rules.get("manji", players=4, options={"arrival_slide": "deepest-free"})
    assert game.clause("MANJI-6.3").option == "arrival_slide"
    state = make(game, {RED: ["t03", "red-l2"]}, dice=3)
    assert targets(game, state, "t03") == {"red-l4"}
    state = make(game, {RED: ["t03", "red-l1"]}, dice=3)
    assert targets(game, state, "t03") == {"red-l4"}
    full = make(game, {RED: ["t03", "red-l4"]}, dice=3)
    assert targets(game, full, "t03") == {"red-l3"}
    verdict = game.explain_attempt(state, "t03", "red-l1")
    assert ids(verdict) == ["MANJI-6.3"] and "red-l4" in verdict.reason


def test_manji_6_4_moving_in_the_lane(game):
    state = make(game, {RED: ["red-l1", "red-l3"]}, dice=3)
    assert targets(game, state, "red-l1") == {"red-l4"}  # passes its partner on l3
    assert targets(game, state, "red-l3") == {"r08"}  # l4, r07, r08
    assert "MANJI-6.4" in ids(game.explain(state, Step(0, "red", "red-l1", "red-l4")))
    no_land = make(game, {RED: ["red-l1", "red-l3"]}, dice=2)
    assert targets(game, no_land, "red-l1") == set()
    assert ids(game.explain_attempt(no_land, "red-l1", "red-l3")) == ["MANJI-2.5"]
    other = make(game, {RED: ["t50", "home"]}, dice=3)
    assert ids(game.explain_attempt(other, "t50", "blue-l1")) == ["MANJI-6.4"]


# --- MANJI-7.x: the shortcut ------------------------------------------------------------------


def test_manji_7_1_shortcut_from_a_circle_of_your_colour(game):
    state = make(game, {RED: ["t73", "home"]}, dice=3)  # route 66 + 3 = t76, red's circle
    assert steps_of(game, state) == {("t73", "t76", ""), ("t73", "r06", "shortcut")}
    verdict = game.explain(state, Step(0, "red", "t73", "r06", "shortcut"))
    assert effect_clauses(verdict, "shortcut") == ["MANJI-7.1"]
    after = game.apply(state, Step(0, "red", "t73", "r06", "shortcut"))
    assert node(game, "r06") in after.pieces[RED]
    blue = make(game, {BLUE: ["t16", "home"]}, to_move=BLUE, dice=3)  # t19 is blue's circle
    assert targets(game, blue, "t16") == {"t19", "r09"}
    passing = make(game, {BLUE: ["t73", "home"]}, to_move=BLUE, dice=3)
    assert targets(game, passing, "t73") == {"t76"}  # red's circle: no shortcut for blue
    wrong = make(game, {RED: ["t72", "home"]}, dice=3)  # ends on t75, not on the circle
    assert ids(game.explain_attempt(wrong, "t72", "r06")) == ["MANJI-7.1"]


def test_manji_7_2_shortcut_needs_a_free_tip(game):
    state = make(game, {RED: ["t73", "home"], GREEN: [("r06", 0), "home"]}, dice=3)
    assert targets(game, state, "t73") == {"t76"}
    assert ids(game.explain_attempt(state, "t73", "r06")) == ["MANJI-7.2"]


def test_manji_7_2_only_a_pawn_on_the_tip_is_cited_as_blocking_the_tip(game):
    # The tip r06 is free; the pawn cannot arrive on its circle t76 because its own partner
    # stands there (one pawn per square), so the shortcut from t76 is not open this move.
    state = make(game, {RED: ["t73", "t76"]}, dice=3)
    assert targets(game, state, "t73") == set()
    verdict = game.explain_attempt(state, "t73", "r06")
    assert ids(verdict) == ["MANJI-2.5"]
    assert "t76" in verdict.reason and "tip" not in verdict.reason


# --- MANJI-8.x: the small inner circle --------------------------------------------------------


def test_manji_8_1_circling_until_landing_on_the_arrow(game):
    state = make(game, {RED: [("r12", 0), "home"]}, dice=3)  # r01, r02 (arrow), r03
    move = Step(0, "red", "r12", "r03")
    assert game.legal_moves(state) == [move]
    assert "MANJI-8.1" in ids(game.explain(state, move))
    after = game.apply(state, move)
    assert node(game, ("r03", 0)) in after.pieces[RED]  # passed the arrow: still circling
    wrap = make(game, {RED: [("r10", 0), "home"]}, dice=4)
    assert targets(game, wrap, "r10") == {"r02"}


def test_manji_8_2_landing_on_the_arrow_starts_a_full_turn(game):
    state = make(game, {RED: [("r12", 0), "home"]}, dice=2)
    move = Step(0, "red", "r12", "r02")
    verdict = game.explain(state, move)
    assert effect_clauses(verdict, "turn") == ["MANJI-8.2"]
    after = game.apply(state, move)
    assert node(game, ("r02", 1)) in after.pieces[RED]
    # on the turn: r12 is two squares before the arrow (r01 between), so only a 2 completes it
    on_turn = make(game, {RED: [("r12", 1), "t30"]}, dice=3)
    assert targets(game, on_turn, "r12") == set()
    assert ids(game.explain_attempt(on_turn, "r12", "r03")) == ["MANJI-8.2"]
    done = make(game, {RED: [("r12", 1), "t30"]}, dice=2)
    assert effect_clauses(game.explain(done, Step(0, "red", "r12", "r02")), "turn") == ["MANJI-8.2"]
    after = game.apply(done, Step(0, "red", "r12", "r02"))
    assert node(game, ("r02", 2)) in after.pieces[RED]
    just_started = make(game, {RED: [("r02", 1), "t30"]}, dice=4)
    assert targets(game, just_started, "r02") == {"r06"}


def test_manji_8_3_two_squares_to_the_centre(game):
    ready = make(game, {RED: [("r02", 2), "t30"]}, dice=1)
    assert targets(game, ready, "r02") == {"app"}
    ready2 = make(game, {RED: [("r02", 2), "t30"]}, dice=2)
    assert targets(game, ready2, "r02") == {"ctr1"}
    for dice in (3, 4, 5):
        stuck = make(game, {RED: [("r02", 2), "t30"]}, dice=dice)
        assert targets(game, stuck, "r02") == set()
        assert ids(game.explain_attempt(stuck, "r02", "ctr1")) == ["MANJI-8.3"]
    approach = make(game, {RED: ["app", "t30"]}, dice=1)
    assert targets(game, approach, "app") == {"ctr1"}
    circling = make(game, {RED: [("r12", 0), "t30"]}, dice=2)
    assert ids(game.explain_attempt(circling, "r12", "app")) == ["MANJI-8.3"]


def test_manji_8_3_a_pawn_on_the_approach_is_passed_on_a_two(game):
    # The rulebook forbids passing "in the small inner circle"; the approach is our square
    # between the arrow square and the centre, so whether a 2 may pass a pawn standing on it
    # is our reading: it may (the no-passing rule is for the circle), written down as one.
    state = make(game, {RED: [("r02", 2), "t30"], BLUE: ["app", "home"]}, dice=2)
    assert targets(game, state, "r02") == {"ctr1"}
    clause = game.clause("MANJI-8.3")
    assert clause.interpretation and "approach" in clause.text and "pass" in clause.text


def test_manji_8_4_no_passing_in_the_small_circle(game):
    state = make(game, {RED: [("r03", 0), "home"], YELLOW: [("r06", 0), "home"]}, dice=4)
    move = Step(0, "red", "r03", "r05")
    assert game.legal_moves(state) == [move]
    assert effect_clauses(game.explain(state, move), "blocked") == ["MANJI-8.4"]
    assert ids(game.explain_attempt(state, "r03", "r07")) == ["MANJI-8.4"]
    adjacent = make(game, {RED: [("r05", 0), "home"], YELLOW: [("r06", 0), "home"]}, dice=4)
    assert game.legal_moves(adjacent) == [Pass(0, "red")]
    from_lane = make(game, {RED: ["red-l3", "home"], YELLOW: [("r08", 0), "home"]}, dice=4)
    assert targets(game, from_lane, "red-l3") == {"r07"}


def test_manji_8_5_stopping_short_only_as_a_last_resort(game):
    # "It is mandatory to advance the exact number of squares indicated by the die if
    # possible": by default a pawn stops short in the small circle only when no pawn can
    # move the full count; house rule short_ring_moves="always" makes it an ordinary choice.
    assert game.options["short_ring_moves"] == "last-resort"
    pawns = {RED: [("r03", 0), "t30"], YELLOW: [("r06", 0), "home"]}
    state = make(game, pawns, dice=5)
    assert targets(game, state, "r03") == set()
    assert targets(game, state, "t30") == {"t35"}
    assert ids(game.explain_attempt(state, "r03", "r05")) == ["MANJI-8.5"]
    assert attempt(game, state, "r03", "r05").kind == "illegal"
    alone = make(game, {RED: [("r03", 0), "ctr"], YELLOW: [("r06", 0), "home"]}, dice=5)
    assert targets(game, alone, "r03") == {"r05"}
    lenient = rules.get("manji", players=4, options={"short_ring_moves": "always"})
    assert targets(lenient, make(lenient, pawns, dice=5), "r03") == {"r05"}


def test_manji_8_5_the_issue_position_red_r11_and_t20_blue_r01_roll_3():
    game = rules.get("manji", players=2)
    state = make(game, {0: [("r11", 0), "t20"], 1: [("r01", 0), "home"]}, dice=3)
    assert Step(0, "red", "r11", "r12") not in game.legal_moves(state)
    result = attempt(game, state, "r11", "r12")
    assert result.kind == "illegal" and ids(result.verdict) == ["MANJI-8.5"]
    assert targets(game, state, "t20") == {"t23"}
    house = rules.get("manji", players=2, options={"short_ring_moves": "always"})
    short = Step(0, "red", "r11", "r12")
    assert short in house.legal_moves(
        make(house, {0: [("r11", 0), "t20"], 1: [("r01", 0)]}, dice=3)
    )


def test_manji_short_moves_and_the_arrival_slide_cite_their_own_rules_not_the_exact_count():
    game = rules.get("manji", players=4, options={"short_ring_moves": "always"})
    state = make(game, {RED: [("r03", 0), "t30"], YELLOW: [("r06", 0), "home"]}, dice=5)
    short = ids(game.explain(state, Step(0, "red", "r03", "r05")))
    assert {"MANJI-8.4", "MANJI-8.5"} <= set(short) and "MANJI-2.4" not in short
    arriving = make(game, {RED: ["t03", "home"]}, dice=3)
    slide = ids(game.explain(arriving, Step(0, "red", "t03", "red-l4", "arrival")))
    assert slide[0] == "MANJI-6.2" and "MANJI-2.4" not in slide
    plain = make(game, {RED: ["t10", "home"]}, dice=3)
    assert ids(game.explain(plain, Step(0, "red", "t10", "t13")))[0] == "MANJI-2.4"


def test_manji_8_6_turn_off_at_the_arrow_house_rule():
    # The rulebook makes the full turn a consequence of *landing* on the arrow square; many
    # players read the arrow square as the way off the circle to the centre for a pawn that
    # passes it. House rule arrow_square="turn-off": passing the arrow, the count goes on to
    # the approach (1 past) or the central square (2 past); a longer count goes on round.
    default = rules.get("manji", players=4)
    assert default.options["arrow_square"] == "full-turn"
    assert targets(default, make(default, {RED: [("r12", 0), "t30"]}, dice=3), "r12") == {"r03"}
    game = rules.get("manji", players=4, options={"arrow_square": "turn-off"})
    assert game.clause("MANJI-8.6").interpretation
    one_past = make(game, {RED: [("r12", 0), "t30"]}, dice=3)  # r01, r02 (arrow), approach
    assert targets(game, one_past, "r12") == {"app"}
    verdict = game.explain(one_past, Step(0, "red", "r12", "app"))
    assert "MANJI-8.6" in ids(verdict)
    two_past = make(game, {RED: [("r12", 0), "t30"]}, dice=4)
    assert targets(game, two_past, "r12") == {"ctr1"}
    after = game.apply(two_past, Step(0, "red", "r12", "ctr1"))
    assert CENTRE in after.pieces[RED]
    further = make(game, {RED: [("r12", 0), "t30"]}, dice=5)  # goes on round: r05
    assert targets(game, further, "r12") == {"r05"}
    landing = make(game, {RED: [("r12", 0), "t30"]}, dice=2)  # lands on the arrow: full turn
    assert effect_clauses(game.explain(landing, Step(0, "red", "r12", "r02")), "turn") == [
        "MANJI-8.2"
    ]
    on_turn = make(game, {RED: [("r12", 1), "t30"]}, dice=3)  # the full turn still ends exactly
    assert targets(game, on_turn, "r12") == set()
    taken = make(game, {RED: [("r12", 0), "t30"], BLUE: ["app", "home"]}, dice=3)
    assert targets(game, taken, "r12") == {"r03"}  # approach taken: on round the circle
    yellow = make(game, {YELLOW: ["yellow-l4", "t30"]}, to_move=YELLOW, dice=3)
    assert targets(game, yellow, "yellow-l4") == {"app"}  # r01, r02 (arrow), approach
    wrong = make(game, {RED: [("r12", 0), "t30"]}, dice=5)
    assert ids(game.explain_attempt(wrong, "r12", "ctr1")) == ["MANJI-8.6"]


# --- MANJI-9.x: winning -----------------------------------------------------------------------


def test_manji_9_1_both_pawns_on_the_central_square_win(game):
    state = make(game, {RED: ["app", "ctr"]}, dice=1)
    move = Step(0, "red", "app", "ctr1")
    verdict = game.explain(state, move)
    assert effect_clauses(verdict, "win") == ["MANJI-9.1"]
    after = game.apply(state, move)
    assert after.phase == "over"
    outcome = game.outcome(after)
    assert outcome.winners == (RED,) and outcome.clause.id == "MANJI-9.1"
    assert game.legal_moves(after) == []
    assert game.outcome(state) is None


def test_manji_9_2_the_central_square_holds_several_colours(game):
    state = make(
        game,
        {RED: ["ctr", "t30"], BLUE: ["ctr", "home"], GREEN: ["app", "home"]},
        to_move=GREEN,
        dice=1,
    )
    seen = game.placement(state)
    assert sorted(c for s, c in seen.items() if s.startswith("ctr")) == ["blue", "red"]
    after_seen = dict(seen)
    del after_seen["app"]
    after_seen["ctr5"] = "green"  # any free spot will do
    result = game.infer(state, after_seen)
    assert result.kind == "legal" and result.move == Step(GREEN, "green", "app", "ctr1")
    assert "MANJI-9.2" in ids(result.verdict)


CAMERA_CASES = [
    # (clause, pawns, dice, moved from, moved to, extra state fields)
    ("MANJI-3.1", {}, 4, "red-h1", "t07", {}),
    ("MANJI-3.2", {RED: ["t20", "home"]}, 5, "t20", "t25", {}),
    ("MANJI-2.4", {RED: ["t10", "home"]}, 2, "t10", "t13", {}),
    ("MANJI-2.4", {RED: ["t12", "home"]}, 3, "t12", "t09", {}),
    ("MANJI-4.2", {RED: ["t10", "t30"]}, 6, "t10", "t16", {}),
    ("MANJI-5.1", {RED: ["t10", "t30"]}, 3, "t10", "red-h2", {}),
    ("MANJI-6.2", {RED: ["t03", "t30"]}, 5, "t03", "red-l2", {}),
    ("MANJI-6.3", {RED: ["t03", "t30"]}, 3, "t03", "t06", {}),
    ("MANJI-6.3", {RED: ["t03", "t30"]}, 3, "t03", "red-l2", {}),
    ("MANJI-6.4", {RED: ["t50", "t30"]}, 3, "t50", "green-l1", {}),
    ("MANJI-7.1", {RED: ["t72", "t30"]}, 3, "t72", "r06", {}),
    ("MANJI-8.2", {RED: [("r12", 1), "t30"]}, 3, "r12", "r03", {}),
    ("MANJI-8.3", {RED: [("r12", 0), "t30"]}, 2, "r12", "app", {}),
    ("MANJI-8.3", {RED: [("r02", 2), "t30"]}, 4, "r02", "ctr3", {}),
    ("MANJI-8.4", {RED: [("r03", 0), "home"], YELLOW: [("r06", 0), "home"]}, 4, "r03", "r07", {}),
    ("MANJI-4.3", {RED: ["t17", "t37"]}, 6, "t17", "t20", {"phase": "penalty", "last": "t37"}),
]


@pytest.mark.parametrize("clause, pawns, dice, frm, to, extra", CAMERA_CASES)
def test_camera_sees_a_hand_made_illegal_move(game, clause, pawns, dice, frm, to, extra):
    """Typical illegal moves, as the camera sees them, are ruled with the clause broken."""
    state = make(game, pawns, dice=dice, **extra)
    result = attempt(game, state, frm, to)
    assert result.kind == "illegal", result
    assert ids(result.verdict)[0] == clause, result.verdict.reason
    assert result.verdict.reason


# --- errors, JSON, replay ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 5, 0, "4", 4.0])
def test_bad_player_counts(players):
    with pytest.raises(PlayerCountError, match=repr(players).replace(".", r"\.")):
        rules.game_class("manji")(players)


@pytest.mark.parametrize(
    "options, named",
    [
        ({"opening": "highest"}, "highest"),
        ({"short_ring_moves": "never"}, "never"),
        ({"extra_roll_after_pass": 1}, "1"),
        ({"lane": 4}, "lane"),
    ],
)
def test_bad_options(options, named):
    with pytest.raises(OptionError, match=named):
        rules.get("manji", players=4, options=options)


def test_every_clause_is_well_formed_and_options_name_clauses(game):
    clause_ids = [c.id for c in game.clauses]
    assert len(clause_ids) == len(set(clause_ids))
    assert all(c.id.startswith("MANJI-") and c.title and c.text and c.section for c in game.clauses)
    for option in game.option_specs:
        assert game.clause(option.clause).option == option.name
    for clause in game.clauses:
        if clause.option:
            assert clause.interpretation
            assert clause.option in {o.name for o in game.option_specs}


def test_state_and_move_json_round_trip(game):
    state = make(
        game, {RED: [("r02", 1), "ctr"], BLUE: ["t30", "home"]}, dice=4, sixes=1, last=("r02", 1)
    )
    data = json.loads(json.dumps(game.state_to_json(state)))
    assert game.state_from_json(data) == state
    for move in (Roll(0, "red", 6), Pass(1, "blue"), Step(0, "red", "t73", "r06", "shortcut")):
        assert game.move_from_json(json.loads(json.dumps(move.to_json()))) == move
    with pytest.raises(RecordError):
        game.state_from_json({"to_move": 0})


def test_record_and_replay(game):
    final, record = rules.playout(game, seed=7)
    data = json.loads(json.dumps(game.record(record)))
    assert data["game"] == "manji" and data["players"] == 4
    assert game.replay(data["moves"]) == final
    assert game.outcome(final) is not None
    bad = list(data["moves"])
    bad[1] = Step(0, "red", "t07", "t08").to_json()
    with pytest.raises(RecordError, match="move 2"):
        game.replay(bad)


def test_infer_unclear_cases(game):
    state = make(game, {RED: ["t10", "home"]}, dice=3)
    seen = dict(game.placement(state))
    assert game.infer(state, seen).kind == "unclear"  # nothing moved yet
    seen["t13"] = UNKNOWN
    assert game.infer(state, seen).kind == "unclear"
    assert game.infer(state, {"nowhere": "red"}).kind == "unclear"


def test_apply_raises_for_illegal_moves_and_never_mutates(game):
    state = make(game, {RED: ["t10", "home"]}, dice=3)
    before = game.state_to_json(state)
    with pytest.raises(IllegalMoveError, match="MANJI-2.4"):
        game.apply(state, Step(0, "red", "t10", "t14"))
    with pytest.raises(IllegalMoveError):
        game.apply(state, Roll(0, "red", 3))
    with pytest.raises(IllegalMoveError):
        game.apply(make(game, {}, phase="roll", dice=0), Roll(0, "red", 7))
    game.apply(state, Step(0, "red", "t10", "t13"))
    assert game.state_to_json(state) == before


# --- properties -------------------------------------------------------------------------------


def _walk(game, seed, plies):
    chooser = rules.SeededChooser(seed)
    state = game.initial_state()
    for _ in range(plies):
        if game.outcome(state) is not None:
            return
        moves = game.legal_moves(state)
        yield state, moves
        state = game.apply(state, chooser.choose(moves))


def _same_after(game, state, a, b):
    return game.apply(state, a) == game.apply(state, b)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 10**6), st.sampled_from([2, 3, 4]), st.sampled_from(["full-turn", "turn-off"])
)
def test_property_invariants(seed, players, arrow):
    slide = "deepest-free" if seed % 2 else "stop-before"
    options = {"arrow_square": arrow, "arrival_slide": slide}
    game = rules.get("manji", players=players, options=options)
    for state, moves in _walk(game, seed, 5000):
        frozen = game.state_to_json(state)
        assert moves, state
        for move in moves:
            verdict = game.explain(state, move)
            assert verdict.legal, (state, move, verdict)
            after = game.apply(state, move)
            assert game.state_to_json(state) == frozen  # apply never mutates its input
            assert all(len(own) == 2 for own in after.pieces)
            assert game.state_from_json(game.state_to_json(after)) == after
            counts = {c: 0 for c in game.colours}
            for colour in game.placement(after).values():
                counts[colour] += 1
            assert all(n == 2 for n in counts.values())  # two pawns each, always visible
            if isinstance(move, Step):
                result = game.infer(state, game.placement(after))
                assert result.kind == "legal", (state, move, result)
                assert result.move == move or _same_after(game, state, result.move, move)
            # captures are the only way an opponent's pawn moves
            for q in range(game.players):
                if q != state.actor and after.pieces[q] != state.pieces[q]:
                    assert any(e.kind == "capture" and e.player == q for e in verdict.effects)
                    assert after.pieces[q].count(HOME) == state.pieces[q].count(HOME) + 1


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6))
def test_property_hand_edited_attempts_are_explained(seed):
    """A pawn moved one square too far is illegal (or a different legal move), with a clause."""
    game = rules.get("manji", players=4)
    clause_ids = {c.id for c in game.clauses}
    checked = 0
    for state, moves in _walk(game, seed, 600):
        if state.phase != "move":
            continue
        for move in moves:
            if not isinstance(move, Step) or move.to.startswith("ctr"):
                continue
            seen = dict(game.placement(game.apply(state, move)))
            board = game.board
            target = board.space(move.to)
            if target.kind not in ("track", "exit", "arrival", "shortcut"):
                continue
            number = int(move.to[1:]) % 76 + 1
            further = f"t{number:02d}"
            if further in seen:
                continue
            seen[further] = seen.pop(move.to)
            result = game.infer(state, seen)
            assert result.kind in ("legal", "illegal"), (state, move, result)
            if result.kind == "illegal":
                assert result.verdict.clauses and result.verdict.clauses[0].id in clause_ids
                assert not result.verdict.legal
            checked += 1
    assert checked > 0


def test_playouts_finish_for_every_player_count():
    for players in (2, 3, 4):
        game = rules.get("manji", players=players)
        for seed in range(3):
            final, record = rules.playout(game, seed=seed)
            assert game.outcome(final) is not None
            winner = game.outcome(final).winners[0]
            assert final.pieces[winner] == (CENTRE, CENTRE)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["full-turn", "turn-off"]))
def test_property_any_hand_move_is_ruled_legal_only_when_it_is(seed, arrow):
    """Never a wrong ruling: a pawn put anywhere is legal exactly when a legal move does that."""
    slide = "deepest-free" if seed % 2 else "stop-before"
    options = {"arrow_square": arrow, "arrival_slide": slide}
    game = rules.get("manji", players=4, options=options)
    chooser = rules.SeededChooser(seed + 1)
    free_ids = [s.id for s in game.board.spaces]
    for state, moves in _walk(game, seed, 1500):
        if state.phase not in ("move", "penalty") or chooser.random.random() > 0.2:
            continue
        before = game.placement(state)
        legal_after = [
            game.canonical(game.placement(game.apply(state, m)))
            for m in moves
            if isinstance(m, Step)
        ]
        mover = game.colours[state.actor]
        for frm in [s for s, c in before.items() if c == mover]:
            for to in chooser.random.sample(free_ids, 12):
                if to in before:
                    continue
                seen = dict(before)
                del seen[frm]
                seen[to] = mover
                result = game.infer(state, seen)
                if game.canonical(seen) == game.canonical(before):
                    assert result.kind == "unclear"  # within the house or the centre
                    continue
                matches = game.canonical(seen) in legal_after
                assert result.kind in ("legal", "illegal"), result
                assert (result.kind == "legal") == matches, (state, frm, to, result)
                if result.kind == "illegal":
                    assert result.verdict.clauses and not result.verdict.legal
                    assert result.verdict.reason
