"""Manipulation: one or more tests per rule clause (ids in the names), JSON, replay, properties."""

from __future__ import annotations

import itertools
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
    SeededChooser,
    Step,
)
from rules.games.manipulation import COLOURS, ManipulationState

# --- helpers --------------------------------------------------------------------------------


def make(players: int = 4, **options) -> rules.Game:
    return rules.get("manipulation", players=players, options=options or None)


def position(game, pieces: dict, dice: int = 0, to_move: int = 0, actor=None, phase="move"):
    """A state from {colour: [space ids]}; tokens not listed are in their Holding Position."""
    index = game.board.index
    tokens = []
    for colour in COLOURS:
        spaces = pieces.get(colour, [])
        assert len(spaces) <= 4
        tokens.append(tuple(sorted([-1] * (4 - len(spaces)) + [index[s] for s in spaces])))
    actor = to_move if actor is None else actor
    return ManipulationState(to_move, phase, dice, tuple(tokens), actor, ())


def steps(game, state) -> set[tuple[str, str]]:
    return {(m.frm, m.to) for m in game.legal_moves(state) if isinstance(m, Step)}


def step(game, state, frm: str, to: str) -> Step:
    found = [
        m for m in game.legal_moves(state) if isinstance(m, Step) and (m.frm, m.to) == (frm, to)
    ]
    assert len(found) == 1, (frm, to, game.legal_moves(state))
    return found[0]


def cited(verdict) -> list[str]:
    return [c.id for c in verdict.clauses]


def where(game, state, colour: str) -> list[str]:
    return sorted(s for s, c in game.placement(state).items() if c == colour and "hold" not in s)


def lane(k: int) -> str:
    """Lane space k clockwise from red's Starting Position (k = 0 is o01), wrapping."""
    return f"o{k % 48 + 1:02d}"


def link_graph(board) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {s.id: set() for s in board.spaces}
    for a, b in board.links:
        graph[a].add(b)
        graph[b].add(a)
    return graph


# --- board (MANIP-I.1, MANIP-1.6) ---------------------------------------------------------------


def test_board_lane_beasts_and_star_beasts_MANIP_I_1():
    board = make().board
    kinds = [s.kind for s in board.spaces]
    assert sum(k in ("track", "start", "beast") for k in kinds) == 48
    assert kinds.count("start") == 4 and kinds.count("beast") == 4
    assert kinds.count("starbeast") == 4 and kinds.count("world") == 1
    assert kinds.count("entrance") == 4 and kinds.count("home") == 16 and kinds.count("hold") == 16
    graph = link_graph(board)
    # The lane is one loop of 48 linked spaces; walk it from red's start.
    lane_ids = [s.id for s in board.spaces if s.kind in ("track", "start", "beast")]
    loop, here, prev = ["o01"], "o01", None
    while True:
        nxt = [n for n in graph[here] if n in lane_ids and n != prev and n != loop[0]]
        if not nxt:
            break
        prev, here = here, sorted(nxt)[0] if here == "o01" else nxt[0]
        loop.append(here)
    assert len(loop) == 48
    starts = [i for i, sid in enumerate(loop) if board.space(sid).kind == "start"]
    beasts = [i for i, sid in enumerate(loop) if board.space(sid).kind == "beast"]
    assert starts == [0, 12, 24, 36] and beasts == [6, 18, 30, 42]
    centre = (board.width / 2, board.height / 2)
    for i in beasts:
        beast = board.space(loop[i])
        stars = [board.space(n) for n in graph[beast.id] if board.space(n).kind == "starbeast"]
        assert len(stars) == 1
        star = stars[0]
        # directly inward: one pitch closer to the centre, on the line to the centre
        gap = math.dist((beast.x, beast.y), (star.x, star.y))
        assert gap == pytest.approx(18.0)
        assert math.dist((star.x, star.y), centre) == pytest.approx(
            math.dist((beast.x, beast.y), centre) - gap
        )


def test_board_lane_runs_clockwise_seen_from_above_MANIP_I_1():
    board = make().board
    pts = [(board.space(lane(k)).x, board.space(lane(k)).y) for k in range(48)]
    # shoelace in image coordinates (y down): positive area means clockwise on the table
    area = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1], strict=True))
    assert area > 0
    corners = {c: board.space(lane(12 * i)) for i, c in enumerate(COLOURS)}
    assert corners["red"].x < 100 and corners["red"].y < 100  # top-left corner


def test_board_diamond_is_a_grid_around_the_world_MANIP_I_1():
    board = make().board
    graph = link_graph(board)
    diamond = {s.id for s in board.spaces if s.kind in ("diamond", "starbeast", "world")}
    assert len(diamond) == 25
    # breadth-first distances inside the diamond from The World
    dist, frontier = {"world": 0}, ["world"]
    while frontier:
        nxt = []
        for a in frontier:
            for b in graph[a] & diamond:
                if b not in dist:
                    dist[b] = dist[a] + 1
                    nxt.append(b)
        frontier = nxt
    assert set(dist) == diamond
    assert {dist[s] for s in diamond if board.space(s).kind == "starbeast"} == {4}
    assert max(dist.values()) == 4


def test_board_home_and_holding_per_colour_MANIP_I_1():
    board = make().board
    graph = link_graph(board)
    for i, colour in enumerate(COLOURS):
        entry = f"{colour}-entry"
        last_lane = lane(12 * i - 1)
        assert last_lane in graph[entry]  # the lap's last lane space leads into the entrance
        chain = [entry] + [f"{colour}-home{h}" for h in range(1, 5)]
        for a, b in itertools.pairwise(chain):
            assert b in graph[a]
        start = board.space(lane(12 * i))
        for h in range(1, 5):
            hold = board.space(f"{colour}-hold{h}")
            assert hold.kind == "hold" and hold.owner == i
            assert math.dist((hold.x, hold.y), (start.x, start.y)) < 60  # in its corner


def test_board_print_constraints_MANIP_I_1():
    board = make().board
    assert board.marker_ids == (8, 9, 10, 11)
    assert board.token_radius > board.hole_radius > 0
    for s in board.spaces:
        dx = min(s.x, board.width - s.x)
        dy = min(s.y, board.height - s.y)
        assert dx >= 40 + board.hole_radius or dy >= 40 + board.hole_radius, s.id
        assert min(dx, dy) >= 40, s.id
    for a, b in itertools.combinations(board.spaces, 2):
        assert math.dist((a.x, a.y), (b.x, b.y)) >= 2 * board.token_radius + 2, (a.id, b.id)
    assert board.to_json()["marker_ids"] == [8, 9, 10, 11]


def test_one_tray_per_colour_owned_by_its_seat_MANIP_1_6():
    board = make().board
    trays = {r.name: r for r in board.regions}
    assert set(trays) == {f"tray-{c}" for c in COLOURS}
    assert [trays[f"tray-{c}"].owner for c in COLOURS] == [0, 1, 2, 3]
    squares = board.marker_squares()
    for tray in trays.values():
        for s in board.spaces:  # no space inside a tray
            assert not (tray.x <= s.x <= tray.x + tray.w and tray.y <= s.y <= tray.y + tray.h)
        for corners in squares.values():  # no tray over a marker
            x0, y0 = corners[0]
            x1, y1 = corners[2]
            assert x1 <= tray.x or x0 >= tray.x + tray.w or y1 <= tray.y or y0 >= tray.y + tray.h
    tournament = make(2).board
    assert [r.owner for r in tournament.regions] == [0, 1, 0, 1]


# --- setup and modes (MANIP-1.x) ----------------------------------------------------------------


def test_setup_three_in_holding_one_on_start_MANIP_1_1():
    game = make()
    seen = game.placement(game.initial_state())
    for i, colour in enumerate(COLOURS):
        mine = sorted(s for s, c in seen.items() if c == colour)
        assert len(mine) == 4
        assert seen[lane(12 * i)] == colour
        assert sum("hold" in s for s in mine) == 3


def test_modes_and_seats_MANIP_1_2():
    assert make().colours == ("red", "yellow", "green", "blue")
    tournament = make(2)
    assert tournament.colours == ("red", "yellow")
    assert tournament.mode == "tournament"
    assert make(4, play="partners").mode == "partners"
    assert make(2, play="tournament").mode == "tournament"
    with pytest.raises(OptionError, match="'partners'"):
        make(2, play="partners")
    with pytest.raises(OptionError, match="'tournament'"):
        make(4, play="tournament")
    with pytest.raises(OptionError, match="'solo'"):
        make(4, play="solo")
    with pytest.raises(OptionError, match="'colour'"):
        rules.get("manipulation", 4, {"colour": "red"})
    with pytest.raises(OptionError, match="'often'"):
        make(4, setback="often")
    for bad in (3, 1, 5, "4"):
        with pytest.raises(PlayerCountError, match=repr(bad)):
            rules.get("manipulation", bad)


def test_tournament_player_moves_both_colours_MANIP_1_2():
    game = make(2, opening="first-seat")
    state = game.apply(game.initial_state(), Roll(0, "red", 2))
    assert steps(game, state) == {("o01", "o03"), ("o25", "o27")}
    assert {m.player for m in game.legal_moves(state)} == {0}


def test_rolloff_ties_rethrow_MANIP_1_3():
    game = make()
    state = game.initial_state()
    assert state.phase == "opening"
    for seat, value in enumerate((3, 5, 5, 2)):
        waiting = range(seat, 4)  # everyone still to roll may throw
        rolls = [Roll(s, COLOURS[s], v) for s in waiting for v in range(1, 7)]
        assert game.legal_moves(state) == rolls
        assert cited(game.explain(state, Roll(seat, COLOURS[seat], value))) == ["MANIP-1.3"]
        state = game.apply(state, Roll(seat, COLOURS[seat], value))
    assert state.phase == "opening" and state.to_move == 1  # yellow and green tied on 5
    assert {m.player for m in game.legal_moves(state)} == {1, 2}
    with pytest.raises(IllegalMoveError, match="red is out of the roll-off.*MANIP-1.3"):
        game.apply(state, Roll(0, "red", 6))
    state = game.apply(state, Roll(1, "yellow", 4))
    assert state.to_move == 2
    state = game.apply(state, Roll(2, "green", 6))
    assert (state.phase, state.to_move, state.dice) == ("move", 2, 6)


def test_rolloff_rolls_come_in_any_order_MANIP_1_3():
    """Everyone throws at once: a seat need not wait for the seats before it."""
    game = make()
    state = game.apply(game.initial_state(), Roll(2, "green", 4))
    assert (state.phase, state.to_move, state.rolloff) == ("opening", 0, (0, 0, 4, 0))
    verdict = game.explain(state, Roll(2, "green", 6))
    assert not verdict.legal and cited(verdict) == ["MANIP-1.3"]
    assert "green has already rolled" in verdict.reason
    with pytest.raises(IllegalMoveError, match="MANIP-1.3"):
        game.apply(state, Roll(2, "green", 6))
    for seat, value in ((3, 4), (0, 1)):
        state = game.apply(state, Roll(seat, COLOURS[seat], value))
    decider = Roll(1, "yellow", 2)
    assert cited(game.explain(state, decider)) == ["MANIP-1.3"]  # green and blue tie on 4
    state = game.apply(state, decider)
    assert (state.phase, state.rolloff) == ("opening", (-1, -1, 0, 0))
    assert {m.player for m in game.legal_moves(state)} == {2, 3}
    assert cited(game.explain(state, Roll(3, "blue", 5))) == ["MANIP-1.3"]  # green still to go
    state = game.apply(state, Roll(3, "blue", 5))
    assert cited(game.explain(state, Roll(2, "green", 3))) == ["MANIP-1.3", "MANIP-1.4"]
    state = game.apply(state, Roll(2, "green", 3))
    assert (state.phase, state.to_move, state.dice) == ("move", 3, 5)


def test_rolloff_winner_moves_by_the_winning_roll_MANIP_1_4():
    game = make()
    state = game.initial_state()
    assert cited(game.explain(state, Roll(0, "red", 6))) == ["MANIP-1.3"]  # decides nothing yet
    for seat, value in enumerate((2, 4, 1)):
        state = game.apply(state, Roll(seat, COLOURS[seat], value))
    verdict = game.explain(state, Roll(3, "blue", 3))  # the last roll: yellow's 4 wins
    assert cited(verdict) == ["MANIP-1.3", "MANIP-1.4"]
    tie = game.explain(state, Roll(3, "blue", 4))  # yellow and blue tie: nobody wins yet
    assert cited(tie) == ["MANIP-1.3"]
    state = game.apply(state, Roll(3, "blue", 3))
    assert (state.phase, state.to_move, state.dice) == ("move", 1, 4)
    assert steps(game, state) == {(lane(12), lane(16))}
    first = make(opening="first-seat").initial_state()
    assert (first.phase, first.to_move) == ("roll", 0)


def test_turns_pass_left_MANIP_1_5():
    game = make(opening="first-seat")
    state = game.apply(game.initial_state(), Roll(0, "red", 3))
    state = game.apply(state, step(game, state, "o01", "o04"))
    assert (state.phase, state.to_move) == ("roll", 1)
    state = game.apply(state, Roll(1, "yellow", 2))
    verdict = game.explain(state, Step(0, "red", "o04", "o06"))
    assert not verdict.legal and cited(verdict) == ["MANIP-1.5"]
    # the camera sees red move on yellow's turn
    seen = dict(game.placement(state))
    del seen["o04"]
    seen["o06"] = "red"
    inference = game.infer(state, seen)
    assert inference.kind == "illegal" and cited(inference.verdict) == ["MANIP-1.5"]


# --- rolling (MANIP-2.x) -----------------------------------------------------------------------


def test_roll_before_moving_MANIP_2_1():
    game = make(opening="first-seat")
    state = game.initial_state()
    seen = dict(game.placement(state))
    del seen["o01"]
    seen["o03"] = "red"
    inference = game.infer(state, seen)
    assert inference.kind == "illegal" and cited(inference.verdict) == ["MANIP-2.1"]
    assert cited(game.explain(state, Step(0, "red", "o01", "o03"))) == ["MANIP-2.1"]
    with pytest.raises(IllegalMoveError):
        game.apply(state, Step(0, "red", "o01", "o03"))


def test_six_moved_rolls_again_MANIP_2_2():
    game = make()
    state = position(game, {"red": ["o02"]}, dice=6)
    move = step(game, state, "o02", "o08")
    verdict = game.explain(state, move)
    assert "MANIP-2.2" in cited(verdict)
    assert [e.kind for e in verdict.effects if e.clause == "MANIP-2.2"] == ["extra_turn"]
    after = game.apply(state, move)
    assert (after.phase, after.to_move) == ("roll", 0)
    not_six = game.apply(position(game, {"red": ["o02"]}, dice=5), Step(0, "red", "o02", "o07"))
    assert not_six.to_move == 1


def test_six_clause_allows_bringing_out_and_reads_may_as_the_bonus_roll_MANIP_2_2():
    # Rulebook: a 6 brings a token out (bring out on 1 or 6) as well as moving one six
    # spaces, so "a 6 must be used to move a token six spaces" misstates it. "That player may
    # roll again" is read as the bonus roll the referee then expects: an interpretation.
    game = make()
    state = position(game, {"red": ["o10"]}, dice=6)
    assert {("o10", "o16"), ("red-hold1", "o01")} <= steps(game, state)
    clause = game.clause("MANIP-2.2")
    assert clause.interpretation and "MANIP-3.1" in clause.text
    after = game.apply(state, step(game, state, "o10", "o16"))
    assert (after.phase, after.to_move) == ("roll", 0)
    assert cited(game.explain(after, Roll(1, "yellow", 3))) == ["MANIP-1.5"]


def test_the_roll_after_moving_six_may_be_declined_MANIP_2_2():
    # "Providing a token was moved six spaces, that player may roll again": an offer.
    game = make()
    assert game.options["extra_roll"] == "optional" and game.clause("MANIP-2.2").option
    fresh = position(game, {"red": ["o02"]}, phase="roll")
    assert Decline(0, "red") not in game.legal_moves(fresh)
    assert cited(game.explain(fresh, Decline(0, "red"))) == ["MANIP-2.2"]
    state = position(game, {"red": ["o02"]}, dice=6)
    verdict = game.explain(state, step(game, state, "o02", "o08"))
    assert [e.text for e in verdict.effects] == ["red moved six and may roll again"]
    after = game.apply(state, step(game, state, "o02", "o08"))
    assert Decline(0, "red") in game.legal_moves(after)
    declined = game.explain(after, Decline(0, "red"))
    assert declined.legal and cited(declined) == ["MANIP-2.2"]
    passed = game.apply(after, Decline(0, "red"))
    assert (passed.phase, passed.to_move, passed.pieces) == ("roll", 1, after.pieces)
    assert Decline(1, "yellow") not in game.legal_moves(passed)
    rolled = game.apply(after, Roll(0, "red", 3))
    assert rolled.phase == "move" and Decline(0, "red") not in game.legal_moves(rolled)
    strict = make(extra_roll="compulsory")
    state = position(strict, {"red": ["o02"]}, dice=6)
    after = strict.apply(state, step(strict, state, "o02", "o08"))
    assert all(isinstance(m, Roll) for m in strict.legal_moves(after))
    with pytest.raises(IllegalMoveError, match="MANIP-2.2"):
        strict.apply(after, Decline(0, "red"))


def test_tournament_six_names_the_colour_moved_and_the_player_MANIP_2_2():
    game = make(2)
    state = position(game, {"green": ["o26"]}, dice=6)
    move = step(game, state, "o26", "o32")
    texts = [e.text for e in game.explain(state, move).effects if e.kind == "extra_turn"]
    assert texts == ["green moved six: the red-and-green player may roll again"]
    after = game.apply(state, move)
    assert game.explain(after, Decline(0, "red")).reason.startswith("the red-and-green player")


def test_bring_out_with_six_does_not_roll_again_MANIP_2_3():
    game = make()
    state = position(game, {}, dice=6)
    move = step(game, state, "red-hold1", "o01")
    assert game.apply(state, move).to_move == 1
    assert "MANIP-2.3" in cited(game.explain(state, move))
    generous = make(six_bring_out=True)
    state = position(generous, {}, dice=6)
    assert generous.apply(state, step(generous, state, "red-hold1", "o01")).to_move == 0


def test_sit_out_when_the_roll_cannot_be_used_MANIP_2_4():
    game = make()
    state = position(game, {}, dice=3)  # everything in holding: only 1 or 6 brings out
    assert game.legal_moves(state) == [Pass(0, "red")]
    verdict = game.explain(state, Pass(0, "red"))
    assert verdict.legal and cited(verdict) == ["MANIP-2.4"]
    assert [e.kind for e in verdict.effects] == ["pass"]
    assert game.apply(state, Pass(0, "red")).to_move == 1
    # a 6 that cannot be used gives no second roll
    home = ["red-home2", "red-home3", "red-home4", "red-entry"]
    stuck = position(game, {"red": home}, dice=6)
    assert game.legal_moves(stuck) == [Pass(0, "red")]
    assert game.apply(stuck, Pass(0, "red")).to_move == 1


def test_moving_is_compulsory_MANIP_2_5():
    game = make()
    state = position(game, {"red": ["o02"]}, dice=3)
    verdict = game.explain(state, Pass(0, "red"))
    assert not verdict.legal and cited(verdict) == ["MANIP-2.5"]
    with pytest.raises(IllegalMoveError, match="MANIP-2.5"):
        game.apply(state, Pass(0, "red"))


# --- bringing out (MANIP-3.x) -------------------------------------------------------------------


def test_bring_out_only_on_one_or_six_MANIP_3_1():
    game = make()
    for dice in range(1, 7):
        state = position(game, {"red": ["o10"]}, dice=dice)
        assert (("red-hold1", "o01") in steps(game, state)) == (dice in (1, 6))
    state = position(game, {"red": ["o10"]}, dice=4)
    assert cited(game.explain_attempt(state, "red-hold1", "o01")) == ["MANIP-3.1"]
    state = position(game, {"red": ["o10"]}, dice=6)
    assert cited(game.explain_attempt(state, "red-hold1", "o05")) == ["MANIP-3.1"]
    effects = game.explain(state, step(game, state, "red-hold1", "o01")).effects
    assert [e.clause for e in effects if e.kind == "start"] == ["MANIP-3.1"]


def test_bring_out_clause_names_the_attack_back_exception_MANIP_3_1():
    # Special playing rule: with a 1 a token may also come out onto its own entrance to attack
    # an opponent there, so "only onto its own Starting Position" would misstate the rule.
    game = make()
    state = position(game, {"red": ["o30"], "yellow": ["red-entry", "o13"]}, dice=1)
    assert {("red-hold1", "o01"), ("red-hold1", "red-entry")} <= steps(game, state)
    assert "MANIP-8.5" in game.clause("MANIP-3.1").text


def test_bring_out_blocked_by_own_token_on_start_MANIP_4_2():
    game = make()
    state = position(game, {"red": ["o01"]}, dice=1)
    assert ("red-hold1", "o01") not in steps(game, state)
    assert cited(game.explain_attempt(state, "red-hold1", "o01")) == ["MANIP-4.2"]


def test_bring_out_onto_opponent_attacks_MANIP_3_2():
    game = make()
    state = position(game, {"red": ["o30"], "blue": ["o01"]}, dice=1)
    move = step(game, state, "red-hold1", "o01")
    verdict = game.explain(state, move)
    assert [(e.kind, e.clause) for e in verdict.effects if e.kind == "capture"] == [
        ("capture", "MANIP-3.2")
    ]
    after = game.apply(state, move)
    assert where(game, after, "blue") == []
    assert where(game, after, "red") == ["o01", "o30"]


# --- moving (MANIP-4.x) -------------------------------------------------------------------------


def test_full_count_clockwise_MANIP_4_1():
    game = make()
    for dice in range(1, 7):
        state = position(game, {"red": ["o14"]}, dice=dice)
        assert {m for m in steps(game, state) if m[0] == "o14"} == {("o14", lane(13 + dice))}
    state = position(game, {"red": ["o14"]}, dice=3)
    for wrong in ("o16", "o18", "o12"):
        assert cited(game.explain_attempt(state, "o14", wrong)) == ["MANIP-4.1"]


def test_no_passing_own_colour_MANIP_4_2():
    game = make()
    state = position(game, {"red": ["o14", "o16"]}, dice=3)
    assert steps(game, state) == {("o16", "o19")}
    assert cited(game.explain_attempt(state, "o14", "o17")) == ["MANIP-4.2"]
    land = position(game, {"red": ["o14", "o17"]}, dice=3)
    assert ("o14", "o17") not in steps(game, land)
    assert cited(game.explain_attempt(land, "o14", "o17")) == ["MANIP-4.2"]
    # other colours are passed freely
    free = position(game, {"red": ["o14"], "yellow": ["o15", "o16"]}, dice=3)
    assert steps(game, free) == {("o14", "o17")}


def test_tournament_passes_its_other_colour_but_never_lands_on_it_MANIP_4_3():
    game = make(2)
    state = position(game, {"red": ["o14"], "green": ["o15", "o25"]}, dice=3)
    assert ("o14", "o17") in steps(game, state)
    onto = position(game, {"red": ["o14"], "green": ["o17", "o25"]}, dice=3)
    assert ("o14", "o17") not in steps(game, onto)
    assert cited(game.explain_attempt(onto, "o14", "o17")) == ["MANIP-4.3"]


# --- attack and set-back (MANIP-5.x) ------------------------------------------------------------


def test_attack_sends_opponent_to_holding_MANIP_5_1():
    game = make()
    state = position(game, {"red": ["o02"], "yellow": ["o05", "o13"]}, dice=3)
    move = step(game, state, "o02", "o05")
    verdict = game.explain(state, move)
    assert "MANIP-5.1" in cited(verdict)
    assert [(e.kind, e.clause, e.player) for e in verdict.effects] == [("capture", "MANIP-5.1", 1)]
    after = game.apply(state, move)
    assert where(game, after, "yellow") == ["o13"]
    assert sum(1 for s, c in game.placement(after).items() if c == "yellow") == 4


def test_attacked_token_may_still_be_in_hand_MANIP_I_2():
    game = make()
    state = position(game, {"red": ["o02"], "yellow": ["o05", "o13"]}, dice=3)
    seen = dict(game.placement(state))
    del seen["o02"]
    seen["o05"] = "red"  # yellow's token lifted off, not yet back in its holding position
    inference = game.infer(state, seen)
    assert inference.kind == "legal" and (inference.move.frm, inference.move.to) == ("o02", "o05")
    assert "MANIP-I.2" in cited(inference.verdict)
    back = game.placement(game.apply(state, inference.move))
    assert game.infer(state, back).move == inference.move


def test_tokens_go_to_holding_only_when_attacked_MANIP_5_1():
    game = make()
    state = position(game, {"red": ["o02", "o20"]}, dice=3)
    assert cited(game.explain_attempt(state, "o02", "red-hold1")) == ["MANIP-5.1"]


def test_setback_only_as_last_resort_MANIP_5_2():
    game = make(4, play="partners")
    state = position(game, {"red": ["o02"], "green": ["o05", "o25"]}, dice=3)
    move = step(game, state, "o02", "o05")  # the only move: red's token lands on green
    verdict = game.explain(state, move)
    assert [(e.kind, e.clause, e.player) for e in verdict.effects] == [("capture", "MANIP-5.2", 2)]
    assert where(game, game.apply(state, move), "green") == ["o25"]
    # with another move available, landing on the partner is not allowed
    choice = position(game, {"red": ["o02", "o20"], "green": ["o05", "o25"]}, dice=3)
    assert steps(game, choice) == {("o20", "o23")}
    assert cited(game.explain_attempt(choice, "o02", "o05")) == ["MANIP-5.2"]
    anytime = make(4, play="partners", setback="any-time")
    assert steps(anytime, choice) == {("o20", "o23"), ("o02", "o05")}


def test_bringing_out_onto_a_partner_is_a_setback_MANIP_5_2():
    game = make(4, play="partners")
    state = position(game, {"green": ["o01", "o25"]}, dice=1)  # red's only move
    verdict = game.explain(state, step(game, state, "red-hold1", "o01"))
    assert [(e.kind, e.clause) for e in verdict.effects if e.kind == "capture"] == [
        ("capture", "MANIP-5.2")
    ]


def test_no_setback_when_playing_separately_MANIP_5_1():
    game = make()
    state = position(game, {"red": ["o02", "o20"], "green": ["o05", "o25"]}, dice=3)
    move = step(game, state, "o02", "o05")  # green is an opponent here
    assert "MANIP-5.1" in cited(game.explain(state, move))


# --- safety areas (MANIP-6.1) -------------------------------------------------------------------


def test_occupied_beast_is_safe_and_attacker_goes_one_further_MANIP_6_1():
    game = make()
    state = position(game, {"red": ["o04"], "yellow": ["o07", "o13"]}, dice=3)
    assert steps(game, state) == {("o04", "o08")}
    verdict = game.explain(state, step(game, state, "o04", "o08"))
    assert "MANIP-6.1" in cited(verdict)
    assert cited(game.explain_attempt(state, "o04", "o07")) == ["MANIP-6.1"]
    after = game.apply(state, step(game, state, "o04", "o08"))
    assert where(game, after, "yellow") == ["o07", "o13"]


def test_beast_held_by_own_colour_is_not_jumped_MANIP_6_1():
    # The safety rule sends an *opposing* player one space beyond; a token never passes its
    # own colour (MANIP-4.2). The clause text must not promise "one further" past your own.
    game = make()
    state = position(game, {"red": ["o04", "o07"]}, dice=3)
    assert ("o04", "o08") not in steps(game, state)
    assert cited(game.explain_attempt(state, "o04", "o07")) == ["MANIP-4.2"]
    assert cited(game.explain_attempt(state, "o04", "o08")) == ["MANIP-4.2"]
    text = game.clause("MANIP-6.1").text
    assert "another colour" in text and "MANIP-4.2" in text


def test_empty_beast_is_an_ordinary_landing_MANIP_6_1():
    game = make()
    state = position(game, {"red": ["o04"]}, dice=3)
    assert steps(game, state) == {("o04", "o07")}
    assert cited(game.explain_attempt(state, "o04", "o08")) == ["MANIP-6.1"]


def test_partner_on_beast_is_safe_from_setback_MANIP_6_1():
    game = make(4, play="partners")
    state = position(game, {"red": ["o04"], "green": ["o07", "o25"]}, dice=3)
    assert steps(game, state) == {("o04", "o08")}


def test_one_further_lands_on_an_opponent_attacks_MANIP_6_1():
    game = make()
    state = position(game, {"red": ["o04"], "yellow": ["o07", "o08"]}, dice=3)
    effects = game.explain(state, step(game, state, "o04", "o08")).effects
    assert {e.kind for e in effects} == {"beyond", "capture"}


# --- the centre diamond (MANIP-7.x) -------------------------------------------------------------


def test_enter_diamond_from_a_beast_with_one_MANIP_7_1():
    game = make()
    state = position(game, {"red": ["o07"]}, dice=1)
    assert steps(game, state) == {("o07", "o08"), ("o07", "sb07"), ("red-hold1", "o01")}
    assert "MANIP-7.1" in cited(game.explain(state, step(game, state, "o07", "sb07")))
    two = position(game, {"red": ["o07"]}, dice=2)
    assert ("o07", "sb07") not in steps(game, two)
    assert cited(game.explain_attempt(two, "o07", "sb07")) == ["MANIP-7.1"]
    # must stand on the Beast first: no running through it into the diamond
    passing = position(game, {"red": ["o06"]}, dice=2)
    assert all(to not in ("sb07", "d30") for _, to in steps(game, passing))
    assert cited(game.explain_attempt(passing, "o06", "sb07")) == ["MANIP-7.1"]
    assert cited(game.explain_attempt(passing, "o06", "d30")) == ["MANIP-7.1"]


def test_occupied_star_beast_blocks_entry_MANIP_7_2():
    game = make()
    state = position(game, {"red": ["o07"], "yellow": ["sb07", "o13"]}, dice=1)
    assert ("o07", "sb07") not in steps(game, state)
    assert cited(game.explain_attempt(state, "o07", "sb07")) == ["MANIP-7.2"]
    inside = position(game, {"red": ["d30"], "yellow": ["sb07", "o13"]}, dice=1)
    assert ("d30", "sb07") not in steps(game, inside)


def _simple_walk_ends(board, start: str, length: int, blocked=frozenset()) -> set[str]:
    graph = link_graph(board)
    diamond = {s.id for s in board.spaces if s.kind in ("diamond", "starbeast", "world")}
    ends = set()

    def walk(at, seen, left):
        if left == 0:
            ends.add(at)
            return
        for nxt in graph[at] & diamond:
            if nxt not in seen and nxt not in blocked:
                walk(nxt, seen | {nxt}, left - 1)

    walk(start, {start}, length)
    return ends


def test_free_movement_inside_the_diamond_MANIP_7_3():
    game = make()
    board = game.board
    for dice in (1, 2, 3):
        state = position(game, {"red": ["d12"]}, dice=dice)
        inside = {
            to for frm, to in steps(game, state) if frm == "d12" and to.startswith(("d", "sb"))
        }
        expected = _simple_walk_ends(board, "d12", dice) - {"world"}
        assert inside == expected
        assert "d12" not in inside  # never through the same space twice
    state = position(game, {"red": ["d12"]}, dice=2)
    move = step(game, state, "d12", next(iter(_simple_walk_ends(board, "d12", 2) - {"world"})))
    assert cited(game.explain(state, move))[0] == "MANIP-7.3"
    assert cited(game.explain_attempt(state, "d12", "d13")) == ["MANIP-7.3"]


def test_diamond_paths_avoid_own_tokens_MANIP_4_2():
    game = make()
    board = game.board
    graph = link_graph(board)
    blocker = sorted(n for n in graph["d12"] if n.startswith("d"))[0]
    state = position(game, {"red": ["d12", blocker]}, dice=2)
    inside = {to for frm, to in steps(game, state) if frm == "d12" and to.startswith(("d", "sb"))}
    assert inside == _simple_walk_ends(board, "d12", 2, {blocker}) - {"world"}


def test_leave_the_diamond_at_any_entrance_MANIP_7_4():
    game = make()
    state = position(game, {"red": ["sb19"]}, dice=1)
    assert ("sb19", "o19") in steps(game, state)
    state = position(game, {"red": ["sb19"]}, dice=3)
    assert ("sb19", "o21") in steps(game, state)
    assert "MANIP-7.4" in cited(game.explain(state, step(game, state, "sb19", "o21")))
    # a walk to a Star-Beast and out in one move: sb43 is its neighbour's neighbour's ...
    far = position(game, {"red": ["d01"]}, dice=3)  # d01 -> sb43 (1) -> o43 (2) -> o44 (3)
    assert ("d01", "o44") in steps(game, far)


def test_leaving_passes_over_an_occupied_star_beast_MANIP_7_4():
    # Interpretation: exit "at anytime"; blocking (MANIP-7.2) only stops entering, and only a
    # token's own colour may not be passed. Documented in the clause and docs/games/manipulation.md.
    game = make()
    state = position(game, {"red": ["d30"], "yellow": ["sb07", "o13"]}, dice=2)
    assert ("d30", "o07") in steps(game, state)  # d30 -> over sb07 -> o07
    assert ("d30", "sb07") not in steps(
        game, position(game, {"red": ["d30"], "yellow": ["sb07"]}, dice=1)
    )
    clause = game.clause("MANIP-7.4")
    assert clause.interpretation and "pass over" in clause.text


def test_wrong_count_out_of_the_diamond_cites_leaving_MANIP_7_4():
    # Leaving the diamond: the step onto the Beast counts one, then the lane clockwise. A
    # wrong count out of the diamond breaks that clause, not the moving-inside one (7.3).
    game = make()
    state = position(game, {"red": ["sb19"]}, dice=3)  # sb19 -> o19 (1) -> o20 -> o21 (3)
    verdict = game.explain_attempt(state, "sb19", "o22")
    assert cited(verdict) == ["MANIP-7.4"] and "4" in verdict.reason
    inference = game.infer(state, _edit(game, state, "sb19", "o22"))
    assert inference.kind == "illegal" and cited(inference.verdict) == ["MANIP-7.4"]
    far = position(game, {"red": ["sb19"]}, dice=1)  # o01 is not on any way out with a 1
    assert cited(game.explain_attempt(far, "sb19", "o01")) == ["MANIP-7.4"]
    # inside the diamond, and by The World to the own entrance, the count is still MANIP-7.3
    assert cited(game.explain_attempt(state, "sb19", "red-entry")) == ["MANIP-7.3"]
    inside = position(game, {"red": ["d12"]}, dice=2)
    assert cited(game.explain_attempt(inside, "d12", "d13")) == ["MANIP-7.3"]


def test_exit_onto_an_occupied_beast_goes_one_further_MANIP_6_1():
    game = make()
    state = position(game, {"red": ["sb19"], "blue": ["o19", "o37"]}, dice=1)
    assert ("sb19", "o20") in steps(game, state)
    assert ("sb19", "o19") not in steps(game, state)
    assert "MANIP-6.1" in cited(game.explain(state, step(game, state, "sb19", "o20")))


def test_the_world_is_a_portal_home_MANIP_7_5():
    game = make()
    graph = link_graph(game.board)
    beside = sorted(graph["world"])[0]
    state = position(game, {"red": [beside]}, dice=1)
    move = step(game, state, beside, "red-entry")
    verdict = game.explain(state, move)
    assert "MANIP-7.5" in cited(verdict)
    after = game.apply(state, move)
    assert where(game, after, "red") == ["red-entry"]
    assert "world" not in game.placement(after)
    assert cited(game.explain_attempt(state, beside, "world")) == ["MANIP-7.5"]
    # own token already on the entrance: The World cannot be used
    full = position(game, {"red": [beside, "red-entry"]}, dice=1)
    assert (beside, "red-entry") not in steps(game, full)
    # an opponent sitting there is attacked
    enemy = position(game, {"red": [beside], "blue": ["red-entry", "o37"]}, dice=1)
    effects = game.explain(enemy, step(game, enemy, beside, "red-entry")).effects
    assert {e.kind for e in effects} == {"portal", "capture"}


def test_token_left_on_the_world_is_a_reminder_not_a_ruling_MANIP_7_5():
    game = make()
    beside = sorted(link_graph(game.board)["world"])[0]
    state = position(game, {"red": [beside]}, dice=1)
    inference = game.infer(state, _edit(game, state, beside, "world"))
    assert inference.kind == "unclear"
    assert "red-entry" in inference.reason and "MANIP-7.5" in inference.reason
    # not a legal World landing (roll 2, one step away): the count inside the diamond is wrong
    two = position(game, {"red": [beside]}, dice=2)
    inference = game.infer(two, _edit(game, two, beside, "world"))
    assert inference.kind == "illegal" and cited(inference.verdict) == ["MANIP-7.3"]


@pytest.mark.parametrize(
    ("pieces", "dice", "frm", "clause"),
    [
        ({"red": ["o05"]}, 3, "o05", "MANIP-7.1"),  # from the lane: only a Beast leads in
        ({"red": ["o07"]}, 1, "o07", "MANIP-7.1"),  # a Beast leads onto its Star-Beast only
        ({"red": ["o10"]}, 1, "red-hold1", "MANIP-3.1"),  # holding: out onto o01 only
        ({"red": ["d12"]}, 2, "d12", "MANIP-7.3"),  # one step from The World, roll 2
    ],
)
def test_the_world_only_by_exact_count_inside_the_diamond_MANIP_7_5(pieces, dice, frm, clause):
    # Rulebook: The World is in the centre of the diamond; the diamond is entered only from a
    # Beast onto its Star-Beast with a 1. A token put on The World from elsewhere, or with
    # the wrong count, broke those rules; "it goes on at once to red-entry" is not the reason.
    game = make()
    state = position(game, pieces, dice=dice)
    verdict = game.explain_attempt(state, frm, "world")
    assert cited(verdict) == [clause], verdict
    assert "goes on at once" not in verdict.reason
    inference = game.infer(state, _edit(game, state, frm, "world"))
    assert inference.kind == "illegal" and cited(inference.verdict) == [clause]


def test_the_world_closed_while_own_token_holds_the_entrance_MANIP_7_5():
    game = make()
    state = position(game, {"red": ["d12", "red-entry"]}, dice=1)
    assert ("d12", "red-entry") not in steps(game, state)
    verdict = game.explain_attempt(state, "d12", "world")
    assert cited(verdict) == ["MANIP-7.5"] and "goes on at once" not in verdict.reason
    assert "red-entry" in verdict.reason


# --- home (MANIP-8.x) ---------------------------------------------------------------------------


def test_home_by_exact_count_to_the_deepest_free_space_MANIP_8_1():
    game = make()
    state = position(game, {"red": ["red-entry"]}, dice=4)
    assert steps(game, state) == {("red-entry", "red-home4")}
    effects = game.explain(state, step(game, state, "red-entry", "red-home4")).effects
    assert [e.clause for e in effects if e.kind == "home"] == ["MANIP-8.1"]
    for dice in (1, 2, 3, 5):
        state = position(game, {"red": ["red-entry"]}, dice=dice)
        assert not any(frm == "red-entry" for frm, _ in steps(game, state))
    state = position(game, {"red": ["red-entry"]}, dice=2)
    assert cited(game.explain_attempt(state, "red-entry", "red-home2")) == ["MANIP-8.1"]
    state = position(game, {"red": ["red-entry", "red-home4", "red-home3"]}, dice=2)
    assert ("red-entry", "red-home2") in steps(game, state)
    assert cited(game.explain_attempt(state, "red-home3", "red-home4")) == ["MANIP-8.1"]


def test_home_any_space_option_MANIP_8_1():
    game = make(home_entry="any-space")
    state = position(game, {"red": ["red-entry"]}, dice=2)
    assert steps(game, state) == {("red-entry", "red-home2")}
    deeper = position(game, {"red": ["red-home2"]}, dice=2)
    assert ("red-home2", "red-home4") in steps(game, deeper)


def test_home_from_the_lane_without_stopping_MANIP_8_2():
    game = make()
    state = position(game, {"red": ["o47"]}, dice=6)  # o48, entrance, home1..home4
    assert steps(game, state) == {("o47", "red-home4"), ("red-hold1", "o01")}
    assert "MANIP-8.2" in cited(game.explain(state, step(game, state, "o47", "red-home4")))
    short = position(game, {"red": ["o47"]}, dice=2)
    assert ("o47", "red-entry") in steps(game, short)
    assert not any(to == "o01" and frm == "o47" for frm, to in steps(game, short))
    over = position(game, {"red": ["o48"]}, dice=6)
    assert not any(frm == "o48" for frm, _ in steps(game, over))
    assert cited(game.explain_attempt(over, "o48", "o06")) == ["MANIP-8.1"]


def test_no_second_lap_past_own_start_MANIP_8_2():
    # Rulebook: coming round the lane a token goes into its Home Refuge area; it does not go
    # round again. o47 -> o48 -> o01 is two spaces clockwise on the lane, so the ruling must
    # not say it is not; it must say that red never passes its own Starting Position.
    game = make()
    for frm, dice, to in (("o47", 2, "o01"), ("o44", 6, "o02"), ("o48", 3, "o03")):
        state = position(game, {"red": [frm]}, dice=dice)
        assert (frm, to) not in steps(game, state)
        verdict = game.explain_attempt(state, frm, to)
        assert cited(verdict) == ["MANIP-8.2"], verdict
        assert "is not" not in verdict.reason, verdict.reason
        inference = game.infer(state, _edit(game, state, frm, to))
        assert inference.kind == "illegal" and cited(inference.verdict) == ["MANIP-8.2"]
    # a token on its own entrance only goes on into home
    state = position(game, {"red": ["red-entry"]}, dice=1)
    assert cited(game.explain_attempt(state, "red-entry", "o01")) == ["MANIP-8.2"]
    # yellow's lap ends at o12: the same for every colour
    state = position(game, {"yellow": ["o11"]}, dice=3, to_move=1)
    assert cited(game.explain_attempt(state, "o11", "o14")) == ["MANIP-8.2"]


def test_readme_lets_a_lane_count_stop_on_the_entrance_MANIP_8_2():
    # Rulebook: from the lane a player "does not have to actually land on" the entrance; so
    # they may. The game page must not say the token goes through "without stopping".
    from pathlib import Path

    game = make()
    state = position(game, {"red": ["o47"]}, dice=2)
    assert ("o47", "red-entry") in steps(game, state)
    text = (Path(__file__).parents[1] / "docs" / "games" / "manipulation.md").read_text()
    assert "without stopping" not in text and "without having to stop" in text


def test_partner_entrance_instead_of_start_MANIP_8_3():
    game = make(4, play="partners")
    state = position(game, {"red": ["o22"]}, dice=3)  # count ends on green's start o25
    assert steps(game, state) >= {("o22", "o25"), ("o22", "green-entry")}
    verdict = game.explain(state, step(game, state, "o22", "green-entry"))
    assert "MANIP-8.3" in cited(verdict)
    after = game.apply(state, step(game, state, "o22", "green-entry"))
    nxt = position(game, {"red": ["green-entry"]}, dice=2)
    assert where(game, after, "red") == ["green-entry"]
    assert ("green-entry", "o27") in steps(game, nxt)
    # green on its start: the entrance avoids a set-back
    blocked = position(game, {"red": ["o22", "o40"], "green": ["o25"]}, dice=3)
    assert ("o22", "green-entry") in steps(game, blocked)
    assert ("o22", "o25") not in steps(game, blocked)


def test_opponent_entrance_only_to_attack_its_owner_MANIP_8_4():
    game = make()
    state = position(game, {"red": ["o10"]}, dice=3)  # ends on yellow's start o13
    assert ("o10", "yellow-entry") not in steps(game, state)
    assert cited(game.explain_attempt(state, "o10", "yellow-entry")) == ["MANIP-8.4"]
    occupied = position(game, {"red": ["o10"], "yellow": ["yellow-entry"]}, dice=3)
    assert {("o10", "o13"), ("o10", "yellow-entry")} <= steps(game, occupied)
    verdict = game.explain(occupied, step(game, occupied, "o10", "yellow-entry"))
    assert "MANIP-8.4" in cited(verdict) and "MANIP-5.1" in cited(verdict)


def test_attack_back_with_a_one_MANIP_8_5():
    game = make()
    state = position(game, {"red": ["o30"], "yellow": ["red-entry", "o13"]}, dice=1)
    move = step(game, state, "red-hold1", "red-entry")
    verdict = game.explain(state, move)
    assert [(e.kind, e.clause) for e in verdict.effects] == [("capture", "MANIP-8.5")]
    after = game.apply(state, move)
    assert where(game, after, "yellow") == ["o13"]
    six = position(game, {"red": ["o30"], "yellow": ["red-entry", "o13"]}, dice=6)
    assert ("red-hold1", "red-entry") not in steps(game, six)
    assert ("red-hold1", "o01") in steps(game, six)
    assert cited(game.explain_attempt(six, "red-hold1", "red-entry")) == ["MANIP-8.5"]
    empty = position(game, {"red": ["o30"]}, dice=1)
    assert ("red-hold1", "red-entry") not in steps(game, empty)
    assert cited(game.explain_attempt(empty, "red-hold1", "red-entry")) == ["MANIP-8.5"]


def test_leaving_another_colours_entrance_MANIP_8_6():
    game = make()
    state = position(game, {"red": ["yellow-entry"]}, dice=2)
    move = step(game, state, "yellow-entry", "o15")
    assert "MANIP-8.6" in cited(game.explain(state, move))


# --- winning (MANIP-9.x) ------------------------------------------------------------------------


def test_win_alone_MANIP_9_1():
    game = make()
    state = position(game, {"red": ["red-entry", "red-home2", "red-home3", "red-home4"]}, dice=1)
    move = step(game, state, "red-entry", "red-home1")
    after = game.apply(state, move)
    assert after.phase == "over" and game.legal_moves(after) == []
    outcome = game.outcome(after)
    assert outcome.winners == (0,) and outcome.clause.id == "MANIP-9.1"
    assert "MANIP-9.1" in cited(game.explain(state, move))
    assert game.outcome(state) is None


def test_partners_win_together_MANIP_9_2():
    game = make(4, play="partners")
    red_almost = ["red-entry", "red-home2", "red-home3", "red-home4"]
    state = position(game, {"red": red_almost}, dice=1)
    after = game.apply(state, step(game, state, "red-entry", "red-home1"))
    assert after.phase == "roll" and game.outcome(after) is None  # green still out
    green_home = [f"green-home{h}" for h in range(1, 5)]
    state = position(game, {"red": red_almost, "green": green_home}, dice=1)
    after = game.apply(state, step(game, state, "red-entry", "red-home1"))
    outcome = game.outcome(after)
    assert outcome.winners == (0, 2) and outcome.clause.id == "MANIP-9.2"


def test_tournament_win_needs_both_colours_MANIP_9_3():
    game = make(2)
    red_almost = ["red-entry", "red-home2", "red-home3", "red-home4"]
    state = position(game, {"red": red_almost, "green": ["o30"]}, dice=1)
    after = game.apply(state, step(game, state, "red-entry", "red-home1"))
    assert game.outcome(after) is None
    green_home = [f"green-home{h}" for h in range(1, 5)]
    state = position(game, {"red": red_almost, "green": green_home}, dice=1)
    outcome = game.outcome(game.apply(state, step(game, state, "red-entry", "red-home1")))
    assert outcome.winners == (0,) and outcome.clause.id == "MANIP-9.3"


def test_partner_assistance_MANIP_9_4():
    game = make(4, play="partners")
    red_almost = ["red-entry", "red-home2", "red-home3", "red-home4"]
    state = position(game, {"red": red_almost, "green": ["o30"]}, dice=1, to_move=0)
    after = game.apply(state, step(game, state, "red-entry", "red-home1"))
    assert (after.to_move, after.actor) == (1, 1)
    # red's next turn: red rolls, green's tokens move
    red_home = [f"red-home{h}" for h in range(1, 5)]
    turn = position(game, {"red": red_home, "green": ["o30"]}, to_move=0, phase="roll", actor=2)
    assert game.legal_moves(turn)[0] == Roll(0, "red", 1)
    moving = game.apply(turn, Roll(0, "red", 2))
    assert steps(game, moving) == {("o30", "o32")}
    verdict = game.explain(moving, step(game, moving, "o30", "o32"))
    assert "MANIP-9.4" in cited(verdict)
    assert game.apply(moving, step(game, moving, "o30", "o32")).to_move == 1
    # the state machine gets there by itself after red's last token goes home
    assert game._actor_for(0, turn.pieces) == 2


# --- inference of typical illegal attempts ------------------------------------------------------


def _edit(game, state, frm: str, to: str) -> dict:
    seen = dict(game.placement(state))
    colour = seen.pop(frm)
    seen[to] = colour
    return seen


@pytest.mark.parametrize(
    ("pieces", "dice", "frm", "to", "clause"),
    [
        ({"red": ["o02"]}, 3, "o02", "o06", "MANIP-4.1"),
        ({"red": ["o02", "o04"]}, 3, "o02", "o05", "MANIP-4.2"),
        ({"red": ["o05"]}, 3, "o05", "sb07", "MANIP-7.1"),
        ({"red": ["o07"], "blue": ["sb07"]}, 1, "o07", "sb07", "MANIP-7.2"),
        ({"red": ["o04"], "blue": ["o07"]}, 3, "o04", "o07", "MANIP-6.1"),
        ({"red": ["red-entry"]}, 2, "red-entry", "red-home2", "MANIP-8.1"),
        ({"red": ["o10"]}, 3, "o10", "yellow-entry", "MANIP-8.4"),
        ({"red": ["o10"]}, 4, "red-hold1", "o01", "MANIP-3.1"),
    ],
)
def test_illegal_attempts_seen_by_the_camera(pieces, dice, frm, to, clause):
    game = make()
    state = position(game, pieces, dice=dice)
    inference = game.infer(state, _edit(game, state, frm, to))
    assert inference.kind == "illegal", inference
    assert cited(inference.verdict) == [clause]


def test_tournament_illegal_attempt_with_the_second_colour_MANIP_4_2():
    game = make(2)
    state = position(game, {"red": ["o02"], "green": ["o26", "o28"]}, dice=3)
    inference = game.infer(state, _edit(game, state, "o26", "o29"))
    assert inference.kind == "illegal" and cited(inference.verdict) == ["MANIP-4.2"]
    other = position(game, {"red": ["o02"], "yellow": ["o14"]}, dice=3)
    inference = game.infer(other, _edit(game, other, "o14", "o17"))
    assert inference.kind == "illegal" and cited(inference.verdict) == ["MANIP-1.5"]


def test_infer_unclear_and_nothing_moved():
    game = make()
    state = position(game, {"red": ["o02"]}, dice=3)
    assert game.infer(state, game.placement(state)).kind == "unclear"
    seen = dict(game.placement(state))
    seen["o02"] = "?"
    assert game.infer(state, seen).kind == "unclear"


# --- JSON, records, replay ----------------------------------------------------------------------


def test_state_and_move_json_round_trip():
    game = make(4, play="partners")
    state, record = rules.playout(game, seed=3)
    data = game.state_to_json(state)
    assert game.state_from_json(data) == state
    for move in record[:200]:
        assert game.move_from_json(move.to_json()) == move
    with pytest.raises(RecordError):
        game.state_from_json({"to_move": 0})


def test_record_replays_exactly():
    for players, options in ((4, None), (2, None), (4, {"play": "partners"})):
        game = rules.get("manipulation", players, options)
        state, record = rules.playout(game, seed=11)
        data = game.record(record)
        assert data["game"] == "manipulation" and data["options"] == game.options
        again = rules.get(data["game"], data["players"], data["options"])
        assert again.replay(data["moves"]) == state
        assert again.outcome(state) is not None
    game = make()
    _, record = rules.playout(game, seed=5)
    broken = [m.to_json() for m in record[:30]]
    broken[10] = (
        Pass(0, "red").to_json() if record[10].kind != "pass" else Roll(3, "blue", 9).to_json()
    )
    with pytest.raises(RecordError, match="move 11"):
        game.replay(broken)


def test_describe_lists_clauses_and_options():
    game = make()
    described = game.describe()
    ids = [c["id"] for c in described["clauses"]]
    assert len(ids) == len(set(ids)) and all(i.startswith("MANIP-") for i in ids)
    for option in described["option_specs"]:
        assert option["clause"] is None or option["clause"] in ids
    for clause in game.clauses:
        if clause.option:
            assert clause.option in game.options


# --- properties ---------------------------------------------------------------------------------

MODES = [(4, {}), (4, {"play": "partners"}), (2, {}), (4, {"home_entry": "any-space"})]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(MODES))
def test_random_games_keep_the_invariants(seed, mode):
    players, options = mode
    game = rules.get("manipulation", players, options or None)
    chooser = SeededChooser(seed)
    state = game.initial_state()
    for _ in range(1500):
        if game.outcome(state) is not None:
            break
        moves = game.legal_moves(state)
        assert moves and len(set(moves)) == len(moves)
        frozen = game.state_to_json(state)
        for move in moves:
            if isinstance(move, Roll):
                continue
            verdict = game.explain(state, move)
            assert verdict.legal, (move, verdict)
            after = game.apply(state, move)
            assert game.state_to_json(state) == frozen  # apply never mutates its input
            assert all(len(tokens) == 4 for tokens in after.pieces)
            seen = game.placement(after)
            for colour in COLOURS:
                assert sum(c == colour for c in seen.values()) == 4
            if isinstance(move, Step):
                inference = game.infer(state, seen)
                assert inference.kind == "legal", (move, inference)
                assert inference.move == move or game.apply(state, inference.move) == after
                captured = {e.player for e in verdict.effects if e.kind == "capture"}
                before = game.placement(state)
                held_before = {
                    c: sum("hold" in s for s, v in before.items() if v == c) for c in COLOURS
                }
                held_after = {
                    c: sum("hold" in s for s, v in seen.items() if v == c) for c in COLOURS
                }
                for colour in COLOURS:
                    if held_after[colour] > held_before[colour]:
                        seat = game.seat_of[COLOURS.index(colour)]
                        assert seat in captured
        state = game.apply(state, chooser.choose(moves))


def test_docs_list_every_interpretation_and_option():
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / "games" / "manipulation.md").read_text()
    game = make()
    for clause in game.clauses:
        if clause.interpretation:
            assert f"| {clause.id} |" in text, clause.id
    for option in game.option_specs:
        assert f"`{option.name}`" in text, option.name
