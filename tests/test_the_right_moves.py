"""The Right Moves: one or more tests per rule clause (named in each test), JSON, replay,
inference from placements and seeded property tests of the game's invariants."""

from __future__ import annotations

import json
import math
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import rules
from rules import IllegalMoveError, OptionError, PlayerCountError, RecordError, Step
from rules.games.the_right_moves import Jump, RightMovesState

NAME = "the-right-moves"


def make(players: int = 2, **options) -> rules.Game:
    return rules.get(NAME, players=players, options=options or None)


def position(game, red=(), blue=(), promoted=(), to_move=0) -> RightMovesState:
    """A position from space ids (red = side 0, blue = side 1)."""
    idx = game.board.index
    return RightMovesState(
        to_move,
        "move",
        0,
        to_move,
        (tuple(sorted(idx[s] for s in red)), tuple(sorted(idx[s] for s in blue))),
        tuple(sorted(idx[s] for s in promoted)),
    )


# Pieces far from the action, so that neither side is down to three or fewer.
RED_FAR = ("d16", "d18", "d20", "d22")
BLUE_FAR = ("d28", "d30", "d32", "d26")


def ids_of(game, indices) -> set[str]:
    return {game.board.spaces[i].id for i in indices}


def destinations(game, state, frm: str) -> set[str]:
    out = set()
    for m in game.legal_moves(state):
        if isinstance(m, Step) and m.frm == frm:
            out.add(m.to)
    return out


def jumps_from(game, state, frm: str) -> list[Jump]:
    return [m for m in game.legal_moves(state) if isinstance(m, Jump) and m.path[0] == frm]


def cited(verdict) -> set[str]:
    return {c.id for c in verdict.clauses}


def moved(placement: dict, frm: str, to: str, remove=()) -> dict:
    seen = dict(placement)
    seen[to] = seen.pop(frm)
    for s in remove:
        del seen[s]
    return seen


# --- board (TRM-0.1) and setup (TRM-0.2) -------------------------------------------------------


def test_trm_0_1_board_has_60_spaces_on_four_circles_of_4_8_16_32():
    board = make().board
    assert len(board.spaces) == 60
    kinds = {}
    for s in board.spaces:
        kinds[s.kind] = kinds.get(s.kind, 0) + 1
    assert kinds == {"inner": 4, "second": 8, "third": 16, "outer": 32}
    # each circle is a real circle around the board centre, circles nested by kind
    cx = cy = board.width / 2  # the circles fill the top square of the board
    radii = {}
    for s in board.spaces:
        radii.setdefault(s.kind, set()).add(round(math.hypot(s.x - cx, s.y - cy), 6))
    assert all(len(r) == 1 for r in radii.values())
    order = [radii[k].pop() for k in ("inner", "second", "third", "outer")]
    assert order == sorted(order)


def test_trm_0_1_paths_around_each_circle_and_spokes_and_centre_crossing():
    board = make().board
    links = {frozenset(pair) for pair in board.links}
    for letter, n in zip("abcd", (4, 8, 16, 32), strict=True):
        for j in range(1, n + 1):
            assert frozenset((f"{letter}{j}", f"{letter}{j % n + 1}")) in links
    # spokes join spaces that line up: angle of b(2j-1) equals angle of a(j)
    for inner, outer, n in (("a", "b", 4), ("b", "c", 8), ("c", "d", 16)):
        for j in range(1, n + 1):
            assert frozenset((f"{inner}{j}", f"{outer}{2 * j - 1}")) in links
    assert frozenset(("a1", "a3")) in links and frozenset(("a2", "a4")) in links
    assert len(links) == 60 + 28 + 2
    no_centre = make(centre_paths=False).board
    assert frozenset(("a1", "a3")) not in {frozenset(p) for p in no_centre.links}
    assert len(no_centre.links) == 88


def test_trm_0_1_linked_spaces_line_up_and_do_not_overlap():
    board = make().board
    cx = cy = board.width / 2  # the circles fill the top square of the board
    for a, b in board.links:
        sa, sb = board.space(a), board.space(b)
        assert math.hypot(sa.x - sb.x, sa.y - sb.y) > 2 * board.token_radius
        if sa.kind != sb.kind:  # a spoke: both spaces on one ray from the centre
            angle_a = math.atan2(sa.x - cx, cy - sa.y)
            angle_b = math.atan2(sb.x - cx, cy - sb.y)
            assert math.isclose(angle_a, angle_b, abs_tol=1e-9)
    for s in board.spaces:
        for t in board.spaces:
            if s.id < t.id:
                assert math.hypot(s.x - t.x, s.y - t.y) > 2 * board.token_radius


def test_trm_0_1_board_is_printable_markers_and_corner_clearance():
    board = make().board
    assert board.marker_ids == (16, 17, 18, 19)
    assert board.token_radius > board.hole_radius > 0
    corners = [(0, 0), (board.width, 0), (board.width, board.height), (0, board.height)]
    for s in board.spaces:
        assert 0 < s.x < board.width and 0 < s.y < board.height
        assert min(math.hypot(s.x - x, s.y - y) for x, y in corners) >= 40
    assert json.loads(json.dumps(board.to_json()))["marker_ids"] == [16, 17, 18, 19]
    # the strip for jumped pieces lies on the board, clear of the markers and of every space
    (strip,) = board.regions
    assert strip.name == "captured"
    assert 0 <= strip.x and strip.x + strip.w <= board.width and strip.y + strip.h <= board.height
    for square in board.marker_squares().values():
        (x0, y0), _, (x1, y1), _ = square
        assert x1 <= strip.x or x0 >= strip.x + strip.w or y1 <= strip.y or y0 >= strip.y + strip.h
    for s in board.spaces:
        assert s.y + board.token_radius < strip.y


def test_trm_0_2_setup_18_each_red_lower_half_blue_upper_half_inner_circles_empty():
    game = make()
    seen = game.placement(game.initial_state())
    red = [s for s, c in seen.items() if c == "red"]
    blue = [s for s, c in seen.items() if c == "blue"]
    assert len(red) == len(blue) == 18
    mid = game.board.width / 2  # centre of the circles (top square of the board)
    assert all(game.board.space(s).y > mid for s in red)
    assert all(game.board.space(s).y < mid for s in blue)
    assert not any(game.board.space(s).kind in ("inner", "second") for s in seen)
    # the printed board marks the setup spaces with their side
    assert {s.id for s in game.board.spaces if s.owner == 0} == set(red)
    assert {s.id for s in game.board.spaces if s.owner == 1} == set(blue)
    # mirror image: rotating red's setup half a turn gives blue's
    rotated = set()
    for s in red:
        letter, j = s[0], int(s[1:])
        n = {"c": 16, "d": 32}[letter]
        rotated.add(f"{letter}{(j - 1 + n // 2) % n + 1}")
    assert rotated == set(blue)


def test_trm_0_2_nobody_starts_promoted():
    assert make().initial_state().promoted == ()


# --- rules of play --------------------------------------------------------------------------------


def test_trm_0_3_red_moves_first():
    game = make()
    state = game.initial_state()
    assert state.to_move == 0 and game.colours[0] == "red"
    assert {m.colour for m in game.legal_moves(state)} == {"red"}


def test_trm_0_4_sides_alternate_and_the_wrong_side_is_refused():
    game = make()
    state = game.initial_state()
    wrong = Step(1, "blue", "c1", "b1")
    assert cited(game.explain(state, wrong)) == {"TRM-0.4"}
    with pytest.raises(IllegalMoveError, match="TRM-0.4"):
        game.apply(state, wrong)
    after = game.apply(state, Step(0, "red", "c9", "b5"))
    assert after.to_move == 1
    assert {m.colour for m in game.legal_moves(after)} == {"blue"}


def test_trm_0_4_camera_sees_blue_move_on_reds_turn():
    game = make()
    state = game.initial_state()
    seen = moved(game.placement(state), "c1", "b1")
    result = game.infer(state, seen)
    assert result.kind == "illegal" and cited(result.verdict) == {"TRM-0.4"}


def test_trm_0_4_camera_sees_blue_jump_a_red_piece_on_reds_turn():
    game = make()
    state = position(game, ("c9",) + RED_FAR, ("c10",) + BLUE_FAR)
    seen = moved(game.placement(state), "c10", "c8", remove=("c9",))
    result = game.infer(state, seen)
    assert result.kind == "illegal" and cited(result.verdict) == {"TRM-0.4"}
    assert set(result.spaces) == {"c10", "c8"}


def test_trm_0_5_two_pieces_moving_is_not_one_turn():
    game = make()
    state = game.initial_state()
    seen = moved(moved(game.placement(state), "c9", "b5"), "c7", "b4")
    assert game.infer(state, seen).kind != "legal"
    bogus = Jump(0, "red", ("c5", "c3"), ("c4",))  # no red piece on c5
    assert cited(game.explain(state, bogus)) == {"TRM-0.5"}


def blocked_blue(game, to_move=0):
    """Blue's four pieces on outer spaces without spokes, boxed in by red."""
    red = ("d32", "d1", "d3", "d5", "d7", "d9", "d10", "c9")
    blue = ("d2", "d4", "d6", "d8")
    return position(game, red, blue, to_move=to_move)


def test_trm_0_6_a_side_that_cannot_move_forfeits():
    game = make()
    state = blocked_blue(game, to_move=1)
    assert game.legal_moves(state) == []
    before = blocked_blue(game)
    move = Step(0, "red", "c9", "b5")
    after = game.apply(before, move)
    assert after.phase == "over"
    outcome = game.outcome(after)
    assert outcome.winners == (0,) and outcome.clause.id == "TRM-0.6"
    effects = game.explain(before, move).effects
    assert ("forfeit", "TRM-0.6") in {(e.kind, e.clause) for e in effects}
    assert game.legal_moves(after) == []


# --- 1. basic movement ----------------------------------------------------------------------------


def test_trm_1_1_moves_follow_paths_onto_empty_spaces():
    game = make()
    state = game.initial_state()
    assert destinations(game, state, "c9") == {"c8", "c10", "b5"}
    assert cited(game.explain(state, Step(0, "red", "c9", "b4"))) == {"TRM-1.1"}
    assert cited(game.explain(state, Step(0, "red", "c9", "a3"))) == {"TRM-1.4"}
    assert cited(game.explain(state, Step(0, "red", "c9", "c7"))) == {"TRM-1.1"}  # occupied
    assert cited(game.explain_attempt(state, "d10", "d11")) == {"TRM-1.1"}  # occupied
    assert cited(game.explain_attempt(state, "d12", "c4")) == {"TRM-1.1"}  # no path


def test_trm_1_2_not_promoted_moves_around_or_inward_never_outward():
    game = make()
    state = position(game, ("c7",) + RED_FAR, BLUE_FAR)
    assert destinations(game, state, "c7") == {"c6", "c8", "b4"}
    assert cited(game.explain(state, Step(0, "red", "c7", "d13"))) == {"TRM-1.2"}
    seen = moved(game.placement(state), "c7", "d13")
    result = game.infer(state, seen)
    assert result.kind == "illegal" and cited(result.verdict) == {"TRM-1.2"}


def test_trm_1_3_second_circle_may_move_outward_for_the_whole_turn():
    game = make()
    state = position(game, ("b4",) + RED_FAR, ("c8",) + BLUE_FAR)
    assert destinations(game, state, "b4") == {"b3", "b5", "c7"}
    verdict = game.explain(state, Step(0, "red", "b4", "c7"))
    assert verdict.legal and "TRM-1.3" in cited(verdict)
    # outward jumps too: b4 over c7 to d13, then around the outer circle
    state = position(game, ("b4",) + RED_FAR, ("c7", "d14") + BLUE_FAR)
    paths = {m.path for m in jumps_from(game, state, "b4")}
    assert paths == {("b4", "d13"), ("b4", "d13", "d15")}
    # a piece on the third circle may not
    state = position(game, ("c7",) + RED_FAR, ("c8",) + BLUE_FAR)
    assert "d13" not in destinations(game, state, "c7")


def test_trm_1_4_not_promoted_moves_a_single_space():
    game = make()
    state = position(game, ("c9",) + RED_FAR, BLUE_FAR)
    assert destinations(game, state, "c9") == {"c8", "c10", "b5"}
    for far in ("a3", "c11", "c7"):
        assert cited(game.explain(state, Step(0, "red", "c9", far))) == {"TRM-1.4"}


# --- 2. jumping -----------------------------------------------------------------------------------


def test_trm_2_1_jumped_piece_is_removed_and_only_opponents_are_jumped():
    game = make()
    state = position(game, ("c9",) + RED_FAR, ("c10",) + BLUE_FAR)
    move = Jump(0, "red", ("c9", "c11"), ("c10",))
    assert move in game.legal_moves(state)
    after = game.apply(state, move)
    assert ids_of(game, after.pieces[1]) == set(BLUE_FAR)
    assert ids_of(game, after.pieces[0]) == {"c11"} | set(RED_FAR)
    effects = game.explain(state, move).effects
    assert [(e.kind, e.clause, e.space) for e in effects] == [("capture", "TRM-2.1", "c10")]
    own = position(game, ("c9", "c10") + RED_FAR, BLUE_FAR)
    assert jumps_from(game, own, "c9") == []
    assert cited(game.explain(own, Jump(0, "red", ("c9", "c11"), ("c10",)))) == {"TRM-2.1"}
    assert cited(game.explain_attempt(own, "c9", "c11")) == {"TRM-2.1"}


def test_trm_2_1_camera_jumped_piece_left_on_board_or_extra_piece_taken():
    game = make()
    state = position(game, ("c9",) + RED_FAR, ("c10",) + BLUE_FAR)
    left_on = moved(game.placement(state), "c9", "c11")
    result = game.infer(state, left_on)
    assert result.kind == "illegal" and cited(result.verdict) == {"TRM-2.1"}
    assert "c10" in result.reason
    extra = moved(game.placement(state), "c9", "c11", remove=("c10", "d28"))
    result = game.infer(state, extra)
    assert result.kind == "illegal" and cited(result.verdict) == {"TRM-2.1"}
    assert "d28" in result.reason
    vanished = dict(game.placement(state))
    del vanished["d30"]
    result = game.infer(state, vanished)
    assert result.kind == "illegal" and cited(result.verdict) == {"TRM-2.1"}


def test_trm_2_2_jump_is_straight_over_an_adjacent_piece_into_an_empty_space():
    game = make()
    state = position(game, ("c9",) + RED_FAR, ("c10", "b5", "d17") + BLUE_FAR)
    paths = {m.path for m in jumps_from(game, state, "c9")}
    # c10 along the circle to c11; b5 inward to a3; d17 is outward (not allowed on circle 3)
    assert paths == {("c9", "c11"), ("c9", "a3")}
    blocked = position(game, ("c9",) + RED_FAR, ("c10", "c11") + BLUE_FAR)
    assert jumps_from(game, blocked, "c9") == []
    move = Jump(0, "red", ("c9", "c11"), ("c10",))
    assert cited(game.explain(blocked, move)) == {"TRM-2.2"}
    bent = Jump(0, "red", ("c9", "b6"), ("c10",))
    assert cited(game.explain(state, bent)) == {"TRM-2.2"}
    nothing = Jump(0, "red", ("c9", "c7"), ("c8",))
    assert cited(game.explain(state, nothing)) == {"TRM-2.2"}


def test_trm_2_3_several_jumps_with_a_change_of_direction():
    game = make()
    # d11 over d12 to d13 (around), then d13 over c7 to b4 (inward)
    state = position(game, ("d11",) + RED_FAR, ("d12", "c7") + BLUE_FAR)
    paths = {m.path for m in jumps_from(game, state, "d11")}
    assert paths == {("d11", "d13"), ("d11", "d13", "b4")}
    move = Jump(0, "red", ("d11", "d13", "b4"), ("d12", "c7"))
    verdict = game.explain(state, move)
    assert verdict.legal and {"TRM-2.2", "TRM-2.3"} <= cited(verdict)
    assert [e.space for e in verdict.effects if e.kind == "capture"] == ["d12", "c7"]
    after = game.apply(state, move)
    assert ids_of(game, after.pieces[1]) == set(BLUE_FAR)
    result = game.infer(state, game.placement(after))
    assert result.kind == "legal" and result.move == move


# --- 3. promotion ---------------------------------------------------------------------------------


def test_trm_3_1_reaching_the_inner_circle_promotes_for_good():
    game = make()
    state = position(game, ("b5",) + RED_FAR, BLUE_FAR)
    move = Step(0, "red", "b5", "a3")
    verdict = game.explain(state, move)
    assert ("promote", "TRM-3.1", "a3") in {(e.kind, e.clause, e.space) for e in verdict.effects}
    after = game.apply(state, move)
    assert ids_of(game, after.promoted) == {"a3"}
    after = game.apply(after, Step(1, "blue", "d26", "d25"))
    after = game.apply(after, Step(0, "red", "a3", "b5"))  # outward: only promoted pieces
    assert ids_of(game, after.promoted) == {"b5"}
    assert game.promoted_spaces(after) == ("b5",)


def test_trm_3_1_promotion_by_jump_and_the_promoted_piece_lost_when_jumped():
    game = make()
    state = position(game, ("c9",) + RED_FAR, ("b5",) + BLUE_FAR)
    after = game.apply(state, Jump(0, "red", ("c9", "a3"), ("b5",)))
    assert ids_of(game, after.promoted) == {"a3"}
    # blue jumps the promoted piece: it leaves the board and the promoted list
    state = position(game, ("a3", "c2") + RED_FAR, ("a4",) + BLUE_FAR, ("a3",), to_move=1)
    after = game.apply(state, Jump(1, "blue", ("a4", "a2"), ("a3",)))
    assert "a3" not in ids_of(game, after.promoted)
    assert ids_of(game, after.promoted) == {"a2"}  # blue reached the inner circle


def test_trm_3_2_promoted_piece_moves_in_any_direction():
    game = make()
    plain = position(game, ("c1",) + RED_FAR, BLUE_FAR)
    crowned = position(game, ("c1",) + RED_FAR, BLUE_FAR, ("c1",))
    assert "d1" not in destinations(game, plain, "c1")
    assert "d1" in destinations(game, crowned, "c1")
    verdict = game.explain(crowned, Step(0, "red", "c1", "d1"))
    assert verdict.legal and "TRM-3.2" in cited(verdict)
    # promoted pieces jump outward too; a plain piece on the third circle does not
    plain = position(game, ("c1",) + RED_FAR, ("c2", "b1") + BLUE_FAR)
    crowned = position(game, ("b1",) + RED_FAR, ("c1",) + BLUE_FAR, ("b1",))
    assert {m.path for m in jumps_from(game, plain, "c1")} == {("c1", "c3"), ("c1", "a1")}
    assert ("b1", "d1") in {m.path for m in jumps_from(game, crowned, "b1")}


def test_trm_3_3_promoted_piece_skips_straight_along_an_open_path():
    game = make()
    state = position(game, ("b1",) + RED_FAR, BLUE_FAR, ("b1",))
    expected = {f"b{j}" for j in range(2, 9)}  # all round the second circle
    expected |= {"c1", "d1", "a1", "a3", "b5", "c9", "d17"}  # the long spoke, across the centre
    assert destinations(game, state, "b1") == expected
    skip = Step(0, "red", "b1", "c9", "skip")
    assert skip in game.legal_moves(state)
    assert {"TRM-3.3", "TRM-I.3"} <= cited(game.explain(state, skip))
    blocked = position(game, ("b1", "b5") + RED_FAR, BLUE_FAR, ("b1",))
    assert "c9" not in destinations(game, blocked, "b1")
    assert cited(game.explain_attempt(blocked, "b1", "c9")) == {"TRM-3.3"}
    assert cited(game.explain(blocked, Step(0, "red", "b1", "c9", "skip"))) == {"TRM-3.3"}


def test_trm_3_4_no_jump_at_the_end_of_a_skip():
    game = make()
    # d9 could skip to c5, but c5 over b3 to a2 would be a jump after the skip
    state = position(game, ("d9",) + RED_FAR, ("b3",) + BLUE_FAR, ("d9",))
    assert jumps_from(game, state, "d9") == []
    assert "a2" not in destinations(game, state, "d9")
    assert "c5" in destinations(game, state, "d9")
    assert cited(game.explain_attempt(state, "d9", "a2")) == {"TRM-3.4"}
    seen = moved(game.placement(state), "d9", "a2", remove=("b3",))
    result = game.infer(state, seen)
    assert result.kind == "illegal" and cited(result.verdict) == {"TRM-3.4"}


def test_trm_3_5_camera_sees_a_chain_that_turns_in_the_inner_circle():
    game = make()
    state = position(game, ("b1",) + RED_FAR, ("a1", "a4", "b5") + BLUE_FAR, ("b1",))
    seen = moved(game.placement(state), "b1", "a1", remove=("a1", "a4"))
    seen["a1"] = "red"
    result = game.infer(state, seen)
    assert result.kind == "illegal" and cited(result.verdict) == {"TRM-3.5"}


def test_trm_i_2_camera_sees_a_chain_that_goes_on_after_promotion():
    game = make()
    state = position(game, ("b1",) + RED_FAR, ("a1", "b5") + BLUE_FAR)
    seen = moved(game.placement(state), "b1", "c9", remove=("a1", "b5"))
    result = game.infer(state, seen)
    assert result.kind == "illegal" and cited(result.verdict) == {"TRM-I.2"}
    assert result.move == Jump(0, "red", ("b1", "a3", "c9"), ("a1", "b5"))


def test_trm_3_5_no_turning_in_the_inner_circle():
    game = make()
    # promoted b1 over a1 lands on a3 across the centre; turning onto the circle is refused
    state = position(game, ("b1",) + RED_FAR, ("a1", "a4", "b5") + BLUE_FAR, ("b1",))
    paths = {m.path for m in jumps_from(game, state, "b1")}
    assert ("b1", "a3") in paths and ("b1", "a3", "c9") in paths
    assert ("b1", "a3", "a1") not in paths
    turn = Jump(0, "red", ("b1", "a3", "a1"), ("a1", "a4"))
    assert cited(game.explain(state, turn)) == {"TRM-3.5"}
    # the centre is no space: a promoted piece on b1 cannot turn there towards b3 or b7
    state = position(game, ("b1",) + RED_FAR, ("b2", "b8") + BLUE_FAR, ("b1",))
    assert not {"a2", "a4", "b3", "b7"} & destinations(game, state, "b1")
    # without centre paths a1 and a3 are not joined at all
    game = make(centre_paths=False)
    state = position(game, ("b1",) + RED_FAR, BLUE_FAR, ("b1",))
    assert "a3" not in destinations(game, state, "b1")


def test_trm_3_5_turning_on_an_inner_space_house_rule():
    # The rulebook's reason ("there is no space in the exact center") forbids turning at the
    # centre; whether a chain may change direction on an inner space, which is a space, is
    # our reading. House rule turn_on_inner_spaces=True allows it; the centre stays straight.
    state_args = (("b1",) + RED_FAR, ("a1", "a4", "b5") + BLUE_FAR, ("b1",))
    default = make()
    assert default.options["turn_on_inner_spaces"] is False
    assert default.clause("TRM-3.5").option == "turn_on_inner_spaces"
    game = make(turn_on_inner_spaces=True)
    state = position(game, *state_args)
    paths = {m.path for m in jumps_from(game, state, "b1")}
    assert ("b1", "a3", "a1") in paths  # over a1 to a3, then turning over a4 to a1
    assert ("b1", "a3", "c9") in paths  # straight on is still allowed
    turn = Jump(0, "red", ("b1", "a3", "a1"), ("a1", "a4"))
    assert game.explain(state, turn).legal
    seen = moved(game.placement(state), "b1", "a1", remove=("a1", "a4"))
    seen["a1"] = "red"
    result = game.infer(state, seen)
    assert result.kind == "legal" and result.move == turn
    # the centre is no space: still no turning there
    state = position(game, ("b1",) + RED_FAR, ("b2", "b8") + BLUE_FAR, ("b1",))
    assert not {"a2", "a4", "b3", "b7"} & destinations(game, state, "b1")


# --- four-player team game ------------------------------------------------------------------------


def test_trm_4_1_four_players_alternate_colours_clockwise():
    game = make(4)
    assert game.colours == ("red", "blue", "red", "blue")
    state = game.initial_state()
    seats = []
    for _ in range(8):
        seats.append(state.to_move)
        state = game.apply(state, game.legal_moves(state)[0])
    assert seats == [0, 1, 2, 3, 0, 1, 2, 3]


def test_trm_4_2_each_person_plays_the_whole_team_and_the_team_wins():
    game = make(4)
    state = position(game, ("b7", "a1", "a2", "a3") + RED_FAR, BLUE_FAR, ("a1", "a2", "a3"), 2)
    moves = game.legal_moves(state)
    assert {m.player for m in moves} == {2} and {m.colour for m in moves} == {"red"}
    move = Step(2, "red", "b7", "a4")
    assert "TRM-4.2" in cited(game.explain(state, move))
    after = game.apply(state, move)
    assert game.outcome(after).winners == (0, 2)
    assert cited(game.explain(state, Step(0, "red", "b7", "a4"))) == {"TRM-0.4"}


# --- winning --------------------------------------------------------------------------------------


def test_trm_5_1_filling_the_inner_circle_wins():
    game = make()
    state = position(game, ("b7", "a1", "a2", "a3") + RED_FAR, BLUE_FAR, ("a1", "a2", "a3"))
    move = Step(0, "red", "b7", "a4")
    after = game.apply(state, move)
    assert after.phase == "over" and game.legal_moves(after) == []
    outcome = game.outcome(after)
    assert outcome.winners == (0,) and outcome.clause.id == "TRM-5.1"
    assert ("win", "TRM-5.1") in {(e.kind, e.clause) for e in game.explain(state, move).effects}
    assert cited(game.explain(after, Step(1, "blue", "d26", "d25"))) == {"TRM-5.1"}
    assert game.outcome(state) is None


def test_trm_5_2_leaving_three_or_fewer_wins():
    game = make()
    state = position(game, ("c9",) + RED_FAR, ("c10", "d28", "d30", "d32"))
    after = game.apply(state, Jump(0, "red", ("c9", "c11"), ("c10",)))
    assert len(after.pieces[1]) == 3
    outcome = game.outcome(after)
    assert after.phase == "over" and outcome.winners == (0,) and outcome.clause.id == "TRM-5.2"
    four = position(game, ("c9",) + RED_FAR, ("c10", "d28", "d30", "d32", "d26"))
    assert game.apply(four, Jump(0, "red", ("c9", "c11"), ("c10",))).phase == "move"


# --- interpretations and house rules --------------------------------------------------------------


def test_trm_i_1_jumping_is_optional_by_default_and_may_stop_early():
    game = make()
    state = position(game, ("d11",) + RED_FAR, ("d12", "c7") + BLUE_FAR)
    assert "d10" in destinations(game, state, "d11")
    assert Jump(0, "red", ("d11", "d13"), ("d12",)) in game.legal_moves(state)


def test_trm_i_1_must_jump_option_forces_full_jump_series():
    game = make(must_jump=True)
    state = position(game, ("d11",) + RED_FAR, ("d12", "c7") + BLUE_FAR)
    assert game.legal_moves(state) == [Jump(0, "red", ("d11", "d13", "b4"), ("d12", "c7"))]
    assert cited(game.explain(state, Step(0, "red", "d11", "d10"))) == {"TRM-I.1"}
    assert cited(game.explain(state, Jump(0, "red", ("d11", "d13"), ("d12",)))) == {"TRM-I.1"}
    seen = moved(game.placement(state), "d11", "d10")
    result = game.infer(state, seen)
    assert result.kind == "illegal" and cited(result.verdict) == {"TRM-I.1"}


def test_trm_i_2_promotion_ends_a_jump_series_unless_the_option_is_off():
    # b1 starts on the second circle, so it may go outward after crossing the centre
    red, blue = ("b1",) + RED_FAR, ("a1", "b5") + BLUE_FAR
    game = make()
    state = position(game, red, blue)
    assert {m.path for m in jumps_from(game, state, "b1")} == {("b1", "a3")}
    longer = Jump(0, "red", ("b1", "a3", "c9"), ("a1", "b5"))
    assert cited(game.explain(state, longer)) == {"TRM-I.2"}
    assert "TRM-I.2" in cited(game.explain(state, Jump(0, "red", ("b1", "a3"), ("a1",))))
    game = make(promotion_ends_move=False)
    state = position(game, red, blue)
    assert longer in game.legal_moves(state)
    after = game.apply(state, longer)
    assert ids_of(game, after.promoted) == {"c9"}  # promoted on a3 on the way
    (promote,) = [e for e in game.explain(state, longer).effects if e.kind == "promote"]
    assert promote.clause == "TRM-3.1" and promote.space == "c9" and "a3" in promote.text
    result = game.infer(state, game.placement(after))
    assert result.kind == "legal" and game.apply(state, result.move) == after


def test_trm_i_2_off_a_piece_jumping_in_from_the_third_circle_jumps_on():
    # The case: c1 > a1 used to stop whatever the option said, since an unpromoted
    # piece may not go outward and may not turn in the inner circle. Off, the piece is
    # promoted as it arrives and jumps on as a promoted piece: straight across the centre.
    red, blue = ("c1",) + RED_FAR, ("b1", "a3") + BLUE_FAR
    through = Jump(0, "red", ("c1", "a1", "b5"), ("b1", "a3"))
    game = make()
    state = position(game, red, blue)
    assert {m.path for m in jumps_from(game, state, "c1")} == {("c1", "a1")}
    verdict = game.explain(state, through)
    assert not verdict.legal and cited(verdict) == {"TRM-I.2"}
    game = make(promotion_ends_move=False)
    state = position(game, red, blue)
    assert {m.path for m in jumps_from(game, state, "c1")} == {("c1", "a1"), ("c1", "a1", "b5")}
    after = game.apply(state, through)
    assert ids_of(game, after.promoted) == {"b5"}
    result = game.infer(state, game.placement(after))
    assert result.kind == "legal" and result.move == through
    (option,) = [o for o in game.option_specs if o.name == "promotion_ends_move"]
    assert "outward" in option.help and "outward" in game.clause("TRM-I.2").text


def test_trm_i_3_house_rule_skips_turn_where_paths_meet():
    game = make(skip_turns=True)
    assert game.clause("TRM-I.3").option == "skip_turns"
    state = position(game, ("d1",) + RED_FAR, BLUE_FAR, ("d1",))
    dests = destinations(game, state, "d1")
    assert {"c2", "b2", "d3"} <= dests  # d1 > c1 > c2 turns at c1; > b1 > b2 at b1
    skip = Step(0, "red", "d1", "b2", "skip")
    assert skip in game.legal_moves(state) and "TRM-I.3" in cited(game.explain(state, skip))
    result = game.infer(state, moved(game.placement(state), "d1", "b2"))
    assert result.kind == "legal" and result.move == skip
    # never through a piece, and never turning in the inner circle (TRM-3.5)
    walled = position(game, *walled_sides(), ("b1",))
    assert destinations(game, walled, "b1") == {"a1", "a3"}
    assert cited(game.explain(walled, Step(0, "red", "b1", "a2", "skip"))) == {"TRM-3.3"}
    turning = make(skip_turns=True, turn_on_inner_spaces=True)
    assert {"a2", "a4"} <= destinations(turning, position(turning, *walled_sides(), ("b1",)), "b1")


def walled_sides() -> tuple[tuple[str, ...], tuple[str, ...]]:
    return ("b1",) + RED_FAR, ("b2", "b8", "c1", "b5") + BLUE_FAR


def test_trm_i_3_skips_do_not_turn():
    game = make()
    state = position(game, ("d1",) + RED_FAR, BLUE_FAR, ("d1",))
    dests = destinations(game, state, "d1")
    assert "c2" not in dests and "b2" not in dests and "d3" in dests
    assert cited(game.explain(state, Step(0, "red", "d1", "b2", "skip"))) == {"TRM-I.3"}


def test_trm_i_4_promoted_pieces_jump_only_adjacent_pieces():
    game = make()
    state = position(game, ("d9",) + RED_FAR, ("c5", "b3") + BLUE_FAR, ("d9",))
    assert jumps_from(game, state, "d9") == []  # c5 then b3: two in a row, nothing behind c5
    state = position(game, ("d9",) + RED_FAR, ("b3",) + BLUE_FAR, ("d9",))
    assert jumps_from(game, state, "d9") == []  # b3 is two spaces away
    state = position(game, ("d9",) + RED_FAR, ("c5",) + BLUE_FAR, ("d9",))
    assert [m.path for m in jumps_from(game, state, "d9")] == [("d9", "b3")]


def test_trm_i_5_jumped_pieces_leave_at_once_and_routes_may_loop():
    game = make()
    state = position(game, ("a1",) + RED_FAR, ("a2", "a4") + BLUE_FAR, ("a1",))
    paths = {(m.path, m.captured) for m in jumps_from(game, state, "a1")}
    assert (("a1", "a3", "a1"), ("a2", "a4")) in paths  # back to its own start
    assert (("a1", "a3", "a1"), ("a4", "a2")) in paths  # the other way round
    assert all(len(set(c)) == len(c) for _p, c in paths)  # nobody jumped twice


def test_two_jump_routes_one_placement_are_inferred_as_the_same_move():
    """TRM-2.3: several routes to the same placement: any one, the same resulting state."""
    game = make()
    state = position(game, ("a1",) + RED_FAR, ("a2", "a4") + BLUE_FAR, ("a1",))
    seen = dict(game.placement(state))
    del seen["a2"], seen["a4"]
    result = game.infer(state, seen)
    assert result.kind == "legal" and isinstance(result.move, Jump)
    routes = [m for m in game.legal_moves(state) if game.placement(game.apply(state, m)) == seen]
    assert len(routes) == 2
    assert {game.apply(state, m) for m in routes} == {game.apply(state, result.move)}


# --- API: errors, JSON, replay, inference edge cases ----------------------------------------------


def test_bad_player_counts_and_options_are_named():
    with pytest.raises(PlayerCountError, match="3"):
        rules.get(NAME, players=3)
    with pytest.raises(OptionError, match="'centre'"):
        rules.get(NAME, options={"centre": True})
    with pytest.raises(OptionError, match="'yes'"):
        rules.get(NAME, options={"must_jump": "yes"})
    assert rules.get(NAME).players == 2


def test_describe_lists_every_clause_and_option_with_its_clause():
    game = make()
    data = game.describe()
    ids = [c["id"] for c in data["clauses"]]
    assert len(ids) == len(set(ids)) and all(i.startswith("TRM-") for i in ids)
    for option in data["option_specs"]:
        clause = game.clause(option["clause"])
        assert clause.interpretation and clause.option == option["name"]


def test_state_and_moves_round_trip_through_json():
    game = make()
    state, record = rules.playout(game, seed=3, max_moves=80)
    text = json.dumps(game.state_to_json(state))
    assert game.state_from_json(json.loads(text)) == state
    for move in record:
        assert game.move_from_json(json.loads(json.dumps(move.to_json()))) == move
    jump = Jump(0, "red", ("d11", "d13", "b4"), ("d12", "c7"))
    assert rules.move_from_json(json.loads(json.dumps(jump.to_json()))) == jump


def test_replay_from_record_and_a_bad_record():
    game = make(4)
    final, record = rules.playout(game, seed=11, max_moves=150)
    data = json.loads(json.dumps(game.record(record)))
    again = rules.get(data["game"], data["players"], data["options"])
    assert again.replay(data["moves"]) == final
    bad = list(data["moves"])
    bad[1] = dict(bad[0])  # red again on blue's turn
    with pytest.raises(RecordError, match="move 2"):
        again.replay(bad)


def test_infer_nothing_moved_unknown_and_off_board_are_unclear():
    game = make()
    state = game.initial_state()
    seen = game.placement(state)
    assert game.infer(state, seen).kind == "unclear"
    assert game.infer(state, dict(seen, c9="?")).kind == "unclear"
    assert game.infer(state, dict(seen, z9="red")).kind == "unclear"


def test_apply_refuses_illegal_moves_and_moves_after_the_end():
    game = make()
    state = position(game, ("c9",) + RED_FAR, BLUE_FAR)
    with pytest.raises(IllegalMoveError, match="TRM-1.2"):
        game.apply(state, Step(0, "red", "c9", "d17"))
    over = game.apply(
        position(game, ("b7", "a1", "a2", "a3") + RED_FAR, BLUE_FAR, ("a1", "a2", "a3")),
        Step(0, "red", "b7", "a4"),
    )
    with pytest.raises(IllegalMoveError, match="TRM-5.1"):
        game.apply(over, Step(1, "blue", "d26", "d25"))


# --- properties -----------------------------------------------------------------------------------


def _check_transition(game, state, move, after):
    """Pieces only disappear by being jumped; promoted pieces stay promoted."""
    side = state.to_move % 2
    ids = game.board.ids()
    if isinstance(move, Step):
        frm, to, captured = move.frm, move.to, ()
        visited = (to,)
    else:
        frm, to, captured = move.path[0], move.path[-1], move.captured
        visited = move.path[1:]
    own_before = {ids[s] for s in state.pieces[side]}
    own_after = {ids[s] for s in after.pieces[side]}
    opp_before = {ids[s] for s in state.pieces[1 - side]}
    opp_after = {ids[s] for s in after.pieces[1 - side]}
    assert own_after == (own_before - {frm}) | {to}
    assert opp_after == opp_before - set(captured)
    assert len(opp_after) == len(opp_before) - len(captured)
    promoted_before = {ids[s] for s in state.promoted}
    promoted_after = {ids[s] for s in after.promoted}
    for p in promoted_before:
        if p in captured:
            # (a later jump of the same move may land on a jumped piece's space, TRM-I.5: the
            # last assertion below says whether the piece landing there is promoted)
            assert p == to or p not in promoted_after
        elif p == frm:
            assert to in promoted_after
        else:
            assert p in promoted_after
    reached_inner = any(game.board.space(v).kind == "inner" for v in visited)
    assert (to in promoted_after) == (frm in promoted_before or reached_inner)
    assert promoted_after <= own_after | opp_after


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 4]), st.booleans(), st.booleans(), st.booleans())
# games in which a jump series lands on a promoted piece it jumped earlier (TRM-I.5)
@example(471, 2, False, True, False)
@example(26675, 2, False, True, False)
def test_random_games_keep_the_invariants(seed, players, must_jump, centre_paths, stop):
    game = make(
        players,
        must_jump=must_jump,
        centre_paths=centre_paths,
        promotion_ends_move=stop,
        turn_on_inner_spaces=bool(seed % 2),
        skip_turns=seed % 3 == 0,
    )
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(120):
        if game.outcome(state) is not None:
            assert game.legal_moves(state) == []
            break
        moves = game.legal_moves(state)
        assert moves, "a live position always has a move (else it is over: TRM-0.6)"
        frozen = json.dumps(game.state_to_json(state))
        for m in rng.sample(moves, min(3, len(moves))):
            assert game.explain(state, m).legal
            after = game.apply(state, m)
            assert json.dumps(game.state_to_json(state)) == frozen  # input untouched
            _check_transition(game, state, m, after)
            result = game.infer(state, game.placement(after))
            assert result.kind == "legal", result.reason
            assert result.move == m or game.apply(state, result.move) == after
        move = rng.choice(moves)
        state = game.apply(state, move)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_hand_edited_illegal_placements_are_explained(seed):
    """A random own piece put on a random empty space, sometimes with opponent's pieces taken
    off, that no legal move gives is ruled illegal with a clause (never legal, never
    silently accepted)."""
    game = make()
    rng = random.Random(seed)
    state, _ = rules.playout(game, seed=seed, max_moves=rng.randrange(0, 80))
    if state.phase != "move":
        return
    side = state.to_move % 2
    ids = game.board.ids()
    seen = game.placement(state)
    legal_pictures = [game.placement(game.apply(state, m)) for m in game.legal_moves(state)]
    frm = ids[rng.choice(state.pieces[side])]
    to = rng.choice([s for s in ids if s not in seen])
    theirs = [ids[s] for s in state.pieces[1 - side]]
    taken = rng.sample(theirs, rng.choice([0, 0, 1, 2]))
    attempt = moved(seen, frm, to, remove=taken)
    if attempt in legal_pictures:
        return
    result = game.infer(state, attempt)
    assert result.kind == "illegal", result.reason
    assert result.verdict is not None and not result.verdict.legal and result.verdict.clauses
    assert all(c.id.startswith("TRM-") for c in result.verdict.clauses)


def test_every_clause_has_a_test_naming_it():
    names = " ".join(
        f"{name} {getattr(obj, '__doc__', '') or ''}"
        for name, obj in globals().items()
        if name.startswith("test_")
    ).lower()
    for clause in make().clauses:
        key = clause.id.lower().replace("-", "_").replace(".", "_")
        assert key in names or clause.id.lower() in names, clause.id
