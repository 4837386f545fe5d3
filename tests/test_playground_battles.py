"""Playground Battles: one or more tests per rule clause (named in each test), secrecy of the
hidden identities, JSON, replay, inference from placements and seeded property tests."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules import IllegalMoveError, OptionError, Pass, PlayerCountError, RecordError, Roll, Step
from rules.games.playground_battles import (
    Assign,
    FirstPlayer,
    Keep,
    Opening,
    PlaygroundState,
)

NAME = "playground-battles"
KIND_WORDS = ("rock", "paper", "scissors")
# The rulebook's table, written out here independently of the game code.
WINS = {("scissors", "paper"), ("paper", "rock"), ("rock", "scissors")}


def make(**options) -> rules.Game:
    return rules.get(NAME, options=options or None)


def pos(
    game,
    red: dict,
    blue: dict,
    to_move: int = 0,
    phase: str = "move",
    dice: int = 0,
    revealed: tuple = (),
    hold: tuple = (),
) -> PlaygroundState:
    """A position from {square: kind} per side; `revealed` holds (seat, square) pairs."""
    idx = game.board.index
    pieces = tuple(
        tuple(
            sorted(
                (idx[sq], KIND_WORDS.index(k), 1 if (seat, sq) in revealed else 0)
                for sq, k in side.items()
            )
        )
        for seat, side in enumerate((red, blue))
    )
    return PlaygroundState(to_move, phase, dice, to_move, pieces, hold)


def cited(verdict) -> set[str]:
    return {c.id for c in verdict.clauses}


def destinations(game, state, frm: str) -> set[str]:
    return {m.to for m in game.legal_moves(state) if isinstance(m, Step) and m.frm == frm}


def back_row(game, seat: int) -> list[str]:
    return [s.id for s in game.board.spaces if s.kind == "back" and s.owner == seat]


def assign(game, seat: int, kinds: list[str]) -> Assign:
    return Assign(seat, game.colours[seat], tuple(zip(back_row(game, seat), kinds, strict=True)))


RED_KINDS = ["rock", "paper", "scissors", "rock", "rock", "paper", "paper", "rock", "rock", "rock"]
BLUE_KINDS = ["scissors"] * 8 + ["rock", "paper"]


def started(game, first: int = 0) -> PlaygroundState:
    state = game.initial_state()
    for move in (
        assign(game, 0, RED_KINDS),
        assign(game, 1, BLUE_KINDS),
        FirstPlayer(first, game.colours[first]),
    ):
        state = game.apply(state, move)
    return state


def texts(verdict) -> str:
    return " ".join([verdict.reason] + [e.text for e in verdict.effects]).lower()


def reference_destinations(game, state, frm: str) -> set[str]:
    """Brute force from the board's printed links: every walk of exactly `dice` steps that
    never revisits a square, passes only empty squares and ends where the rules allow."""
    near: dict[str, set[str]] = {}
    for a, b in game.board.links:
        near.setdefault(a, set()).add(b)
        near.setdefault(b, set()).add(a)
    placement = game.placement(state)
    me = game.colours[state.actor]
    bases = {s.id: s.owner for s in game.board.spaces if s.kind == "base"}
    found = set()

    def walk(at: str, visited: set, left: int) -> None:
        for nxt in near[at]:
            if nxt in visited:
                continue
            if nxt in bases:
                if left == 1 and bases[nxt] != state.actor:
                    found.add(nxt)
                continue
            if left == 1:
                if placement.get(nxt) != me:
                    found.add(nxt)
            elif nxt not in placement:
                walk(nxt, visited | {nxt}, left - 1)

    walk(frm, {frm}, state.dice)
    return found


# --- PB-0: the board ---------------------------------------------------------------------------


def test_pb_0_1_grid_ten_wide_with_back_rows_of_ten():
    game = make()
    squares = [s for s in game.board.spaces if s.kind in ("back", "field")]
    assert len(squares) == 10 * 8
    assert back_row(game, 0) == [f"{c}1" for c in "abcdefghij"]
    assert back_row(game, 1) == [f"{c}8" for c in "abcdefghij"]
    for rows in (6, 10):
        board = make(rows=rows).board
        assert sum(1 for s in board.spaces if s.kind in ("back", "field")) == 10 * rows
        assert {s.id for s in board.spaces if s.kind == "back" and s.owner == 1} == {
            f"{c}{rows}" for c in "abcdefghij"
        }


def test_pb_0_1_geometry_is_printable():
    """PB-0.1: ids unique, markers 20-23, every space 40 mm clear of the corners and off the
    marker squares, links only between orthogonal neighbours one pitch apart."""
    for rows in (6, 8, 10):
        board = make(rows=rows).board
        assert board.marker_ids == (20, 21, 22, 23)
        assert board.token_radius > 0 and board.hole_radius >= board.token_radius
        corners = [(0, 0), (board.width, 0), (board.width, board.height), (0, board.height)]
        squares = list(board.marker_squares().values())
        for space in board.spaces:
            assert 0 < space.x < board.width and 0 < space.y < board.height
            for cx, cy in corners:
                assert math.hypot(space.x - cx, space.y - cy) >= 40
            for sq in squares:
                (x0, y0), (x1, y1) = sq[0], sq[2]
                r = board.token_radius
                assert not (x0 - r < space.x < x1 + r and y0 - r < space.y < y1 + r)
        by_id = {s.id: s for s in board.spaces}
        for a, b in board.links:
            sa, sb = by_id[a], by_id[b]
            if "base" in (sa.kind, sb.kind):
                continue
            d = math.hypot(sa.x - sb.x, sa.y - sb.y)
            assert abs(d - 26.0) < 1e-6
            assert sa.x == sb.x or sa.y == sb.y
        tray = next(r for r in board.regions if r.name == "tray")
        assert tray.y + tray.h <= board.height
    for base_entry in ("centre", "row"):
        board = make(base_entry=base_entry).board
        for region in board.regions:  # nothing printed on the markers
            for sq in board.marker_squares().values():
                (x0, y0), (x1, y1) = sq[0], sq[2]
                assert (
                    region.x >= x1
                    or region.x + region.w <= x0
                    or region.y >= y1
                    or region.y + region.h <= y0
                ), region
        assert json.loads(json.dumps(board.to_json()))["marker_ids"] == [20, 21, 22, 23]


def test_pb_0_2_base_entered_from_the_two_middle_squares():
    game = make()
    entries = {a for a, b in game.board.links if b == "blue-base"}
    assert entries == {"e8", "f8"}
    state = pos(game, {"d7": "rock", "a1": "rock"}, {"j8": "rock"}, dice=2)
    assert "blue-base" not in destinations(game, state, "d7")  # d8 is no entry
    state = pos(game, {"e7": "rock", "a1": "rock"}, {"j8": "rock"}, dice=2)
    assert "blue-base" in destinations(game, state, "e7")


def test_pb_0_2_option_row_opens_every_back_row_square():
    game = make(base_entry="row")
    entries = {a for a, b in game.board.links if b == "blue-base"}
    assert entries == {f"{c}8" for c in "abcdefghij"}
    state = pos(game, {"a7": "rock"}, {"j1": "rock"}, dice=2)
    assert "blue-base" in destinations(game, state, "a7")


# --- PB-1: set-up -------------------------------------------------------------------------------


def test_pb_1_1_two_players_only_and_options_checked():
    with pytest.raises(PlayerCountError, match="3"):
        rules.get(NAME, players=3)
    with pytest.raises(OptionError, match="rows"):
        make(rows=7)
    with pytest.raises(OptionError, match="'diagonal'"):
        make(base_entry="diagonal")
    with pytest.raises(OptionError, match="bogus"):
        make(bogus=True)
    game = make()
    assert game.colours == ("red", "blue")


def test_pb_1_2_ten_pieces_with_every_kind():
    game = make()
    state = game.initial_state()
    good = assign(game, 0, ["rock"] * 8 + ["paper", "scissors"])
    assert game.is_legal(state, good) and game.explain(state, good).legal
    no_scissors = assign(game, 0, ["rock"] * 9 + ["paper"])
    verdict = game.explain(state, no_scissors)
    assert not verdict.legal and cited(verdict) == {"PB-1.2"}
    lizard = assign(game, 0, ["lizard"] + ["rock"] * 7 + ["paper", "scissors"])
    assert cited(game.explain(state, lizard)) == {"PB-1.2"}
    with pytest.raises(IllegalMoveError, match="PB-1.2"):
        game.apply(state, no_scissors)


def test_pb_1_2_any_valid_setup_is_legal_not_only_the_samples():
    game = make()
    state = game.initial_state()
    move = assign(game, 1, ["scissors", "paper"] + ["rock"] * 7 + ["scissors"])
    assert move not in list(game.legal_moves(state))  # not one of the samples...
    assert move in game.legal_moves(state)  # ...but `in` accepts every valid set-up
    assert assign(game, 1, ["rock"] * 10) not in game.legal_moves(state)
    after = game.apply(state, move)
    assert [k for _s, k, _r in after.pieces[1]] == [2, 1, 0, 0, 0, 0, 0, 0, 0, 2]


def test_pb_1_3_identities_entered_once_and_secretly():
    game = make()
    state = game.apply(game.initial_state(), assign(game, 1, BLUE_KINDS))
    again = assign(game, 1, BLUE_KINDS)
    verdict = game.explain(state, again)
    assert not verdict.legal and cited(verdict) == {"PB-1.3"}
    public = game.view(state, None)
    assert public["assigned"] == [False, True]
    assert all(p["identity"] is None for p in public["pieces"])
    blue = [p for p in game.view(state, 1)["pieces"] if p["seat"] == 1]
    assert [p["identity"] for p in blue] == BLUE_KINDS
    assert all(p["identity"] is None for p in game.view(state, 0)["pieces"])
    assert "scissors" not in str(again) and "scissors" not in texts(game.explain(state, again))


def test_pb_1_3_public_move_and_errors_hide_identities():
    game = make()
    move = assign(game, 0, RED_KINDS)
    hidden = game.public_move(move, None)
    assert all(kind is None for _sq, kind in hidden["identities"])
    assert game.public_move(move, 1)["identities"] == hidden["identities"]
    assert game.public_move(move, 0) == move.to_json()
    state = started(game)
    with pytest.raises(IllegalMoveError) as info:
        game.apply(state, Step(0, "red", "a1", "a5"))
    message = str(info.value)
    assert not any(word in message for word in KIND_WORDS)


def test_pb_1_4_pieces_start_on_their_back_rows():
    game = make()
    placement = game.placement(game.initial_state())
    assert placement == {
        **dict.fromkeys(back_row(game, 0), "red"),
        **dict.fromkeys(back_row(game, 1), "blue"),
    }
    wrong = Assign(0, "red", tuple(zip(back_row(game, 1), RED_KINDS, strict=True)))
    verdict = game.explain(game.initial_state(), wrong)
    assert not verdict.legal and cited(verdict) == {"PB-1.4"}
    short = Assign(0, "red", tuple(zip(back_row(game, 0)[:9], RED_KINDS, strict=False)))
    assert cited(game.explain(game.initial_state(), short)) == {"PB-1.4"}


def test_pb_1_4_infer_during_setup_waits_then_flags_stray_pieces():
    game = make()
    state = game.initial_state()
    partial = dict(game.placement(state))
    del partial["a1"]
    assert game.infer(state, partial).kind == "unclear"
    stray = dict(game.placement(state))
    del stray["a1"]
    stray["a4"] = "red"
    inference = game.infer(state, stray)
    assert inference.kind == "illegal" and cited(inference.verdict) == {"PB-1.4"}


# --- PB-2: opening and turns ----------------------------------------------------------------------


def test_pb_2_1_opening_hands_decide_and_ties_throw_again():
    game = make()
    state = game.initial_state()
    state = game.apply(state, assign(game, 0, RED_KINDS))
    state = game.apply(state, assign(game, 1, BLUE_KINDS))
    assert state.phase == "opening"
    tie = Opening(0, "red", ("paper", "paper"))
    assert game.apply(state, tie) == state
    assert "PB-2.1" in cited(game.explain(state, tie))
    blue_wins = Opening(1, "blue", ("paper", "scissors"))
    after = game.apply(state, blue_wins)
    assert (after.phase, after.to_move) == ("roll", 1)
    wrong_winner = Opening(0, "red", ("paper", "scissors"))
    assert not game.is_legal(state, wrong_winner)
    assert cited(game.explain(state, wrong_winner)) == {"PB-2.1"}
    after = game.apply(state, FirstPlayer(0, "red"))
    assert (after.phase, after.to_move) == ("roll", 0)


def test_pb_2_1_nothing_moves_before_the_opening():
    game = make()
    state = game.apply(game.initial_state(), assign(game, 0, RED_KINDS))
    state = game.apply(state, assign(game, 1, BLUE_KINDS))
    verdict = game.explain(state, Step(0, "red", "e1", "e2"))
    assert not verdict.legal and cited(verdict) == {"PB-2.1"}
    seen = dict(game.placement(state))
    seen["e2"] = seen.pop("e1")
    inference = game.infer(state, seen)
    assert inference.kind == "illegal" and cited(inference.verdict) == {"PB-2.1"}


def test_pb_2_2_roll_before_moving():
    game = make()
    state = started(game)
    assert game.legal_moves(state) == [Roll(0, "red", v) for v in range(1, 7)]
    verdict = game.explain(state, Step(0, "red", "e1", "e2"))
    assert not verdict.legal and cited(verdict) == {"PB-2.2"}
    seen = dict(game.placement(state))
    seen["e2"] = seen.pop("e1")
    inference = game.infer(state, seen)
    assert inference.kind == "illegal" and cited(inference.verdict) == {"PB-2.2"}
    assert not game.is_legal(state, Roll(0, "red", 7))


def test_pb_2_3_only_the_player_to_move_moves():
    game = make()
    state = game.apply(started(game), Roll(0, "red", 1))
    verdict = game.explain(state, Step(1, "blue", "e8", "e7"))
    assert not verdict.legal and cited(verdict) == {"PB-2.3"}
    seen = dict(game.placement(state))
    seen["e7"] = seen.pop("e8")
    inference = game.infer(state, seen)
    assert inference.kind == "illegal" and cited(inference.verdict) == {"PB-2.3"}
    after = game.apply(state, Step(0, "red", "e1", "e2"))
    assert (after.phase, after.to_move) == ("roll", 1)


# --- PB-3: movement -----------------------------------------------------------------------------


def test_pb_3_1_exact_count_orthogonal_walks():
    game = make()
    for dice in range(1, 7):
        state = pos(game, {"e4": "rock"}, {"j8": "rock"}, dice=dice)
        got = destinations(game, state, "e4")
        # on an open board: every square at Manhattan distance <= dice with the same parity
        want = set()
        for c, col in enumerate("abcdefghij"):
            for row in range(1, 9):
                dist = abs(c - 4) + abs(row - 4)
                if 0 < dist <= dice and dist % 2 == dice % 2:
                    want.add(f"{col}{row}")
        if dice >= 5:  # e4 -> e8 is 4 steps, then one into blue's base (f8: one more)
            want.add("blue-base")
        assert got == want, dice
    state = pos(game, {"e4": "rock"}, {"j8": "rock"}, dice=3)
    assert game.explain(state, Step(0, "red", "e4", "e5")).legal  # e4 d4 d5 e5
    verdict = game.explain(state, Step(0, "red", "e4", "e6"))
    assert not verdict.legal and cited(verdict) == {"PB-3.1"}
    verdict = game.explain(state, Step(0, "red", "e4", "e8"))
    assert not verdict.legal and cited(verdict) == {"PB-3.1"}


def test_pb_3_2_no_diagonal_steps():
    game = make()
    state = pos(game, {"e4": "rock"}, {"j8": "rock"}, dice=1)
    assert "f5" not in destinations(game, state, "e4")
    verdict = game.explain(state, Step(0, "red", "e4", "f5"))
    assert not verdict.legal and cited(verdict) == {"PB-3.2"}


def test_pb_3_3_no_square_twice_not_even_the_start():
    game = make()
    for dice in range(1, 7):
        state = pos(game, {"e4": "rock"}, {"j8": "rock"}, dice=dice)
        assert "e4" not in destinations(game, state, "e4")
    state = pos(game, {"e4": "rock"}, {"j8": "rock"}, dice=2)
    verdict = game.explain_attempt(state, "e4", "e4")
    assert not verdict.legal and cited(verdict) == {"PB-3.3"}
    # a corridor: a1 with b1 and a3 blocked; a 3 cannot go a2 -> b2 -> a2 again
    state = pos(game, {"a1": "rock", "b1": "rock", "a3": "rock"}, {"j8": "rock"}, dice=3)
    assert destinations(game, state, "a1") == {"c2", "b3"}
    assert destinations(game, state, "a1") == reference_destinations(game, state, "a1")


def test_pb_3_4_no_jumping():
    game = make()
    state = pos(game, {"e1": "rock", "e2": "paper"}, {"j8": "rock"}, dice=2)
    # e1's neighbours: d1, f1, e2 (own): e3 is only reachable through e2
    assert "e3" not in destinations(game, state, "e1")
    verdict = game.explain(state, Step(0, "red", "e1", "e3"))
    assert not verdict.legal and cited(verdict) == {"PB-3.4"}
    state = pos(game, {"e4": "rock"}, {"e5": "rock", "d4": "rock", "f4": "rock"}, dice=2)
    assert "e6" not in destinations(game, state, "e4")  # not over the enemy either
    assert cited(game.explain(state, Step(0, "red", "e4", "e6"))) == {"PB-3.4"}


def test_pb_3_5_not_onto_your_own_piece():
    game = make()
    state = pos(game, {"e4": "rock", "e5": "paper"}, {"j8": "rock"}, dice=1)
    assert "e5" not in destinations(game, state, "e4")
    verdict = game.explain(state, Step(0, "red", "e4", "e5"))
    assert not verdict.legal and cited(verdict) == {"PB-3.5"}


def test_pb_3_6_no_move_with_this_roll_passes():
    game = make()
    # a1 can only step to a2, a dead end (a3 and b2 are red): no 3 for that piece
    state = pos(game, {"a1": "rock", "b1": "rock", "b2": "rock", "a3": "rock"}, {"j8": "rock"})
    state = state._replace(dice=3)
    moves = game.legal_moves(state)
    assert all(m.frm != "a1" for m in moves if isinstance(m, Step))
    blocked = pos(game, {"a1": "rock"}, {"a2": "rock", "b1": "paper", "j8": "rock"}, dice=2)
    assert game.legal_moves(blocked) == [Pass(0, "red")]
    verdict = game.explain(blocked, Pass(0, "red"))
    assert verdict.legal and "PB-3.6" in cited(verdict)
    assert [e.clause for e in verdict.effects] == ["PB-3.6"]
    after = game.apply(blocked, Pass(0, "red"))
    assert (after.phase, after.to_move) == ("roll", 1)


def test_pb_3_6_option_this_roll_ends_the_game_on_a_pass():
    game = make(no_moves="this-roll")
    blocked = pos(game, {"a1": "rock"}, {"a2": "rock", "b1": "paper", "j8": "rock"}, dice=2)
    after = game.apply(blocked, Pass(0, "red"))
    outcome = game.outcome(after)
    assert outcome.winners == (1,) and outcome.clause.id == "PB-7.3"
    assert "PB-7.3" in {e.clause for e in game.explain(blocked, Pass(0, "red")).effects}


def test_pb_3_7_passing_is_not_allowed_when_a_move_exists():
    game = make()
    state = pos(game, {"e4": "rock"}, {"j8": "rock"}, dice=1)
    verdict = game.explain(state, Pass(0, "red"))
    assert not verdict.legal and cited(verdict) == {"PB-3.7"}
    with pytest.raises(IllegalMoveError, match="PB-3.7"):
        game.apply(state, Pass(0, "red"))


# --- PB-4: battles ----------------------------------------------------------------------------


def test_pb_4_1_attack_by_exact_landing():
    game = make()
    state = pos(game, {"e4": "rock"}, {"e6": "scissors", "j8": "rock"}, dice=2)
    assert "e6" in destinations(game, state, "e4")
    verdict = game.explain(state, Step(0, "red", "e4", "e6"))
    assert verdict.legal and {"PB-4.1", "PB-4.2"} <= cited(verdict)
    assert [e.kind for e in verdict.effects] == ["battle"]
    state = state._replace(dice=3)
    assert "e6" not in destinations(game, state, "e4")


@pytest.mark.parametrize("attacker", KIND_WORDS)
@pytest.mark.parametrize("defender", KIND_WORDS)
def test_pb_4_3_who_wins_a_battle(attacker, defender):
    game = make()
    state = pos(game, {"e4": attacker, "a1": "rock"}, {"e5": defender, "j8": "rock"}, dice=1)
    after = game.apply(state, Step(0, "red", "e4", "e5"))
    placement = game.placement(after)
    assert "e4" not in placement
    if (attacker, defender) in WINS:
        assert placement["e5"] == "red"
        assert len(after.pieces[1]) == 1
        assert "PB-4.3" in {
            e.clause for e in game.announce(state, Step(0, "red", "e4", "e5")).effects
        }
    elif (defender, attacker) in WINS:
        assert placement["e5"] == "blue"
        assert len(after.pieces[0]) == 1
    else:
        assert placement["e5"] == "red+blue"
        assert len(after.pieces[0]) == 2 and len(after.pieces[1]) == 2


def test_pb_4_2_explain_never_tells_the_result_announce_reveals_both():
    game = make()
    state = pos(game, {"e4": "scissors", "a1": "rock"}, {"e5": "paper", "j8": "rock"}, dice=1)
    move = Step(0, "red", "e4", "e5")
    assert not any(w in texts(game.explain(state, move)) for w in KIND_WORDS)
    announced = game.announce(state, move)
    assert "scissors" in texts(announced) and "paper" in texts(announced)
    assert "PB-4.3" in cited(announced)
    after = game.apply(state, move)
    public = game.view(after, None)
    winner = next(p for p in public["pieces"] if p["space"] == "e5")
    assert winner["identity"] == "scissors" and winner["revealed"]
    assert public["battle"] == {
        "space": "e5",
        "attacker": 0,
        "result": "won",
        "attacker_identity": "scissors",
        "defender_identity": "paper",
    }
    untouched = next(p for p in public["pieces"] if p["space"] == "a1")
    assert untouched["identity"] is None


# --- PB-5: stalemates -------------------------------------------------------------------------


def stalemate_position(game, dice=1, rescuer="paper", to_move=0):
    """A stalemate of two rocks on e5; red's `rescuer` on e4, blue's scissors on j8."""
    return pos(
        game,
        {"e5": "rock", "e4": rescuer, "a1": "scissors"},
        {"e5": "rock", "j8": "scissors", "a8": "paper"},
        dice=dice,
        to_move=to_move,
    )


def test_pb_5_1_stalemate_keeps_both_hidden():
    game = make()
    state = pos(game, {"e4": "rock", "a1": "rock"}, {"e5": "rock", "j8": "rock"}, dice=1)
    move = Step(0, "red", "e4", "e5")
    after = game.apply(state, move)
    assert game.placement(after)["e5"] == game.contest_mark == "red+blue"
    announced = game.announce(state, move)
    assert "PB-5.1" in cited(announced)
    assert not any(w in texts(announced) for w in KIND_WORDS)
    for viewer in (None, 0, 1):
        pieces = [p for p in game.view(after, viewer)["pieces"] if p["space"] == "e5"]
        assert len(pieces) == 2 and all(p["stalemate"] for p in pieces)
        for p in pieces:
            assert p["identity"] == ("rock" if viewer == p["seat"] else None)
    assert game.view(after, None)["battle"]["result"] == "stalemate"
    assert game.view(after, None)["battle"]["attacker_identity"] is None


def test_pb_5_1_a_known_piece_in_a_stalemate_tells_the_other_kind():
    # Only equal kinds stalemate: red's rock was revealed in an earlier battle, so the table
    # now knows blue's piece on e5 is a rock too; the phones and the table page show both.
    game = make()
    assert "the other's kind too" in game.clause("PB-5.1").text
    state = pos(
        game,
        {"e4": "rock", "a1": "rock"},
        {"e5": "rock", "j8": "rock"},
        dice=1,
        revealed=((0, "e4"),),
    )
    move = Step(0, "red", "e4", "e5")
    after = game.apply(state, move)
    announced = game.announce(state, move)
    assert ("reveal", "PB-5.1") in [(e.kind, e.clause) for e in announced.effects]
    assert not any(w in texts(announced) for w in KIND_WORDS)  # said by the view, not aloud
    pieces = [p for p in game.view(after, None)["pieces"] if p["space"] == "e5"]
    assert [(p["identity"], p["revealed"]) for p in pieces] == [("rock", True)] * 2
    hidden = game.apply(pos(game, {"e4": "rock"}, {"e5": "rock", "j8": "rock"}, dice=1), move)
    assert all(p["identity"] is None for p in game.view(hidden, None)["pieces"])


def test_pb_5_2_stalemated_pieces_cannot_move():
    game = make()
    state = stalemate_position(game, dice=1)
    assert destinations(game, state, "e5") == set()
    verdict = game.explain(state, Step(0, "red", "e5", "f5"))
    assert not verdict.legal and cited(verdict) == {"PB-5.2"}


def test_pb_5_3_breaking_a_stalemate_with_the_winning_piece():
    game = make()
    state = stalemate_position(game, rescuer="paper")
    move = Step(0, "red", "e4", "e5")
    assert {"PB-5.3", "PB-5.4"} <= cited(game.explain(state, move))
    after = game.apply(state, move)
    assert after.phase == "keep" and after.actor == 0
    assert [s for s, _k, _r in after.pieces[1]] == sorted(game.board.index[s] for s in ("j8", "a8"))
    assert game.placement(after)["e5"] == "red"
    assert "PB-5.3" in {e.clause for e in game.announce(state, move).effects}


def test_pb_5_3_either_player_may_break_it():
    game = make()
    state = pos(
        game,
        {"e5": "rock", "a1": "scissors"},
        {"e5": "rock", "e6": "paper", "j8": "paper"},
        dice=1,
        to_move=1,
    )
    after = game.apply(state, Step(1, "blue", "e6", "e5"))
    assert after.phase == "keep" and after.actor == 1
    assert len(after.pieces[0]) == 1


@pytest.mark.parametrize("rescuer", ["rock", "scissors"])
def test_pb_5_4_a_wrong_rescuer_is_lost(rescuer):
    game = make()
    state = stalemate_position(game, rescuer=rescuer)
    move = Step(0, "red", "e4", "e5")
    after = game.apply(state, move)
    assert after.phase == "roll" and after.to_move == 1
    assert game.placement(after)["e5"] == "red+blue"
    assert "e4" not in game.placement(after)
    announced = game.announce(state, move)
    assert "PB-5.4" in {e.clause for e in announced.effects}
    assert not any(w in texts(announced) for w in KIND_WORDS)


def test_pb_5_5_what_a_rescue_reveals():
    game = make()
    after = game.apply(stalemate_position(game, rescuer="paper"), Step(0, "red", "e4", "e5"))
    public = [p for p in game.view(after, None)["pieces"] if p["space"] == "e5"]
    assert sorted(p["identity"] for p in public) == ["paper", "rock"]
    failed = game.apply(stalemate_position(game, rescuer="rock"), Step(0, "red", "e4", "e5"))
    public = [p for p in game.view(failed, None)["pieces"] if p["space"] == "e5"]
    assert [p["identity"] for p in public] == [None, None]
    assert game.view(failed, None)["battle"]["result"] == "failed"


def test_pb_6_1_the_winner_chooses_which_piece_stays():
    game = make()
    keep = game.apply(stalemate_position(game, rescuer="paper"), Step(0, "red", "e4", "e5"))
    moves = game.legal_moves(keep)
    assert moves == [Keep(0, "red", "e5", "rescuer"), Keep(0, "red", "e5", "stalemated")]
    assert all("PB-6.1" in cited(game.explain(keep, m)) for m in moves)
    for stay, staying_kind in (("rescuer", 1), ("stalemated", 0)):
        place = game.apply(keep, Keep(0, "red", "e5", stay))
        assert place.phase == "place"
        after = game.apply(place, Step(0, "red", "e5", "b1"))
        kinds = {game.board.spaces[s].id: k for s, k, _r in after.pieces[0]}
        assert kinds["e5"] == staying_kind and kinds["b1"] == 1 - staying_kind
        assert after.phase == "roll" and after.to_move == 1
    verdict = game.explain(keep, Step(0, "red", "e5", "b1"))
    assert not verdict.legal and cited(verdict) == {"PB-6.1"}


def test_pb_6_2_the_other_goes_to_an_empty_square_of_your_back_row():
    game = make()
    keep = game.apply(stalemate_position(game, rescuer="paper"), Step(0, "red", "e4", "e5"))
    place = game.apply(keep, Keep(0, "red", "e5", "rescuer"))
    targets = {m.to for m in game.legal_moves(place)}
    assert targets == set(back_row(game, 0)) - {"a1"}
    for bad in ("a1", "e6", "b8"):
        verdict = game.explain(place, Step(0, "red", "e5", bad))
        assert not verdict.legal and cited(verdict) == {"PB-6.2"}
    seen = dict(game.placement(place))
    seen["c1"] = "red"
    inference = game.infer(place, seen)
    assert inference.kind == "legal" and inference.move == Step(0, "red", "e5", "c1")


def test_pb_6_3_no_empty_back_row_square_the_other_leaves():
    game = make()
    red = {f"{c}1": "rock" for c in "abcdefghij"}
    red.update({"e5": "rock", "e4": "paper"})
    state = pos(game, red, {"e5": "rock", "j8": "scissors"}, dice=1)
    keep = game.apply(state, Step(0, "red", "e4", "e5"))
    move = Keep(0, "red", "e5", "stalemated")
    verdict = game.explain(keep, move)
    assert "PB-6.3" in {e.clause for e in verdict.effects}
    after = game.apply(keep, move)
    assert after.phase == "roll" and len(after.pieces[0]) == 11
    assert [k for s, k, _r in after.pieces[0] if game.board.spaces[s].id == "e5"] == [0]


# --- PB-7: winning ----------------------------------------------------------------------------


def test_pb_7_1_win_by_entering_the_base_by_exact_count():
    game = make()
    state = pos(game, {"e7": "rock", "a1": "rock"}, {"j8": "rock"}, dice=2)
    move = Step(0, "red", "e7", "blue-base")
    assert game.is_legal(state, move)
    assert "PB-7.1" in {e.clause for e in game.explain(state, move).effects}
    after = game.apply(state, move)
    outcome = game.outcome(after)
    assert outcome.winners == (0,) and outcome.clause.id == "PB-7.1"
    assert game.placement(after)["blue-base"] == "red"
    far = pos(game, {"a2": "rock"}, {"j8": "rock"}, dice=1)
    verdict = game.explain(far, Step(0, "red", "a2", "blue-base"))
    assert not verdict.legal and cited(verdict) == {"PB-7.1"}
    own = pos(game, {"e1": "rock"}, {"j8": "rock"}, dice=1)
    assert "red-base" not in destinations(game, own, "e1")
    assert cited(game.explain(own, Step(0, "red", "e1", "red-base"))) == {"PB-7.1"}


def test_pb_7_1_the_base_is_always_the_last_step():
    game = make()
    # f8 -> blue-base -> e8 would be 2 steps through the base: never offered
    state = pos(game, {"f8": "rock"}, {"j1": "rock"}, dice=2)
    assert "e8" not in destinations(game, state, "f8")


def test_pb_7_2_win_by_elimination():
    game = make()
    state = pos(game, {"e4": "paper"}, {"e5": "rock"}, dice=1)
    move = Step(0, "red", "e4", "e5")
    after = game.apply(state, move)
    outcome = game.outcome(after)
    assert outcome.winners == (0,) and outcome.clause.id == "PB-7.2"
    assert not any(e.kind == "win" for e in game.explain(state, move).effects)
    assert "PB-7.2" in {e.clause for e in game.announce(state, move).effects}
    lose = game.apply(pos(game, {"e4": "rock"}, {"e5": "paper"}, dice=1), move)
    assert game.outcome(lose).winners == (1,)


def test_pb_7_3_win_when_the_opponent_has_no_legal_move():
    game = make()
    # blue's only other piece is stalemated; red stalemates blue's last free piece
    state = pos(game, {"e5": "rock", "e3": "paper", "a1": "rock"}, {"e5": "rock", "e4": "paper"})
    state = state._replace(dice=1)
    after = game.apply(state, Step(0, "red", "e3", "e4"))
    outcome = game.outcome(after)
    assert outcome.winners == (0,) and outcome.clause.id == "PB-7.3"
    lenient = make(no_moves="this-roll")
    after = lenient.apply(state, Step(0, "red", "e3", "e4"))
    assert after.phase == "roll" and after.to_move == 1


def test_pb_7_4_deadlock_is_a_draw():
    game = make()
    state = pos(game, {"e5": "rock", "e3": "paper"}, {"e5": "rock", "e4": "paper"}, dice=1)
    after = game.apply(state, Step(0, "red", "e3", "e4"))
    outcome = game.outcome(after)
    assert outcome.winners == () and outcome.clause.id == "PB-7.4"


# --- PB-I.1 and inference ----------------------------------------------------------------------


def test_pb_i_1_attacker_beside_the_defender_is_read_as_the_attack():
    game = make()
    state = pos(game, {"e4": "rock", "a1": "rock"}, {"e5": "scissors", "j8": "rock"}, dice=1)
    seen = dict(game.placement(state))
    del seen["e4"]
    seen["e5"] = game.contest_mark
    inference = game.infer(state, seen)
    assert inference.kind == "legal" and inference.move == Step(0, "red", "e4", "e5")
    assert not any(w in inference.reason + texts(inference.verdict) for w in KIND_WORDS)
    after = game.apply(state, inference.move)
    waiting = game.infer(after, seen)
    assert waiting.kind == "unclear" and "take the blue piece off e5" in waiting.reason
    paper = pos(game, {"e4": "rock", "a1": "rock"}, {"e5": "paper", "j8": "rock"}, dice=1)
    lost = game.apply(paper, Step(0, "red", "e4", "e5"))
    assert game.placement(lost)["e5"] == "blue"
    waiting = game.infer(lost, seen)
    assert waiting.kind == "unclear" and "take the red piece off e5" in waiting.reason


def test_pb_i_1_illegal_attack_is_explained():
    game = make()
    state = pos(game, {"e4": "rock", "a1": "rock"}, {"e6": "scissors", "j8": "rock"}, dice=1)
    seen = dict(game.placement(state))
    del seen["e4"]
    seen["e6"] = game.contest_mark
    inference = game.infer(state, seen)
    assert inference.kind == "illegal" and cited(inference.verdict) == {"PB-3.1"}


@pytest.mark.parametrize(
    ("red", "blue", "dice", "frm", "to", "clause"),
    [
        ({"e4": "rock"}, {"j8": "rock"}, 1, "e4", "f5", "PB-3.2"),
        ({"e4": "rock"}, {"j8": "rock"}, 3, "e4", "e6", "PB-3.1"),
        ({"e1": "rock", "e2": "paper"}, {"j8": "rock"}, 2, "e1", "e3", "PB-3.4"),
        ({"e5": "rock", "a1": "paper"}, {"e5": "rock", "j8": "rock"}, 1, "e5", "e6", "PB-5.2"),
        ({"a2": "rock"}, {"j8": "rock"}, 1, "a2", "blue-base", "PB-7.1"),
        ({"e2": "rock"}, {"j8": "rock"}, 1, "e2", "red-base", "PB-7.1"),
    ],
)
def test_hand_edited_placements_are_explained(red, blue, dice, frm, to, clause):
    """PB-3.1, PB-3.2, PB-3.4, PB-5.2, PB-7.1: a stand moved by hand the wrong way."""
    game = make()
    state = pos(game, red, blue, dice=dice)
    seen = dict(game.placement(state))
    if seen[frm] == "red":
        del seen[frm]
    else:
        seen[frm] = "blue"  # the red stand left the stalemate
    seen[to] = "red" if to not in seen else game.contest_mark
    inference = game.infer(state, seen)
    assert inference.kind == "illegal", inference.reason
    assert cited(inference.verdict) == {clause}
    assert set(inference.spaces) == {frm, to}


def test_bad_moves_and_viewers_raise_specific_errors():
    game = make()
    state = pos(game, {"e4": "rock"}, {"j8": "rock"}, dice=1)
    with pytest.raises(IllegalMoveError, match="PB-3.1"):
        game.apply(state, Step(0, "red", "zz9", "e5"))
    with pytest.raises(IllegalMoveError, match="PB-2.3"):
        game.apply(state, Step(0, "red", "j8", "j7"))
    with pytest.raises(PlayerCountError, match="2"):
        game.view(state, 2)


def test_core_defaults_for_games_without_hidden_information():
    """rules.Game.announce/view/public_move: the defaults every other game inherits."""
    game = rules.get("aggravation", players=2, options={"opening": "first-seat"})
    state = game.initial_state()
    roll = game.legal_moves(state)[0]
    assert game.announce(state, roll) == game.explain(state, roll)
    assert game.public_move(roll, None) == roll.to_json()
    view = game.view(state, None)
    assert view["placement"] == game.placement(state) and view["phase"] == state.phase


def test_infer_ambiguous_failed_rescues_are_unclear_not_guessed():
    game = make()
    # red's e4 rock can reach the stalemates on e6 and c4 with a 2: both look the same
    state = pos(
        game,
        {"e4": "rock", "e6": "paper", "c4": "paper", "a1": "rock"},
        {"e6": "paper", "c4": "paper", "j8": "rock"},
        dice=2,
    )
    seen = dict(game.placement(state))
    del seen["e4"]
    inference = game.infer(state, seen)
    assert inference.kind == "unclear" and "e4->c4" in inference.reason


def test_infer_rejects_odd_readings():
    game = make()
    state = started(game)
    assert game.infer(state, game.placement(state)).kind == "unclear"
    assert game.infer(state, {"zz9": "red"}).kind == "unclear"
    assert game.infer(state, {"a1": "?"}).kind == "unclear"


# --- JSON and replay ---------------------------------------------------------------------------


def test_json_round_trips_of_states_and_every_move_kind():
    game = make()
    state = stalemate_position(game)
    data = json.loads(json.dumps(game.state_to_json(state)))
    assert game.state_from_json(data) == state
    for move in (
        assign(game, 0, RED_KINDS),
        Opening(1, "blue", ("rock", "paper")),
        FirstPlayer(0, "red"),
        Keep(0, "red", "e5", "stalemated"),
        Step(0, "red", "e4", "e5"),
        Roll(0, "red", 3),
        Pass(1, "blue"),
    ):
        assert game.move_from_json(json.loads(json.dumps(move.to_json()))) == move
    with pytest.raises(RecordError):
        game.state_from_json({"phase": "move"})


def test_record_replays_exactly():
    game = make(no_moves="this-roll", base_entry="row", rows=6)
    final, moves = rules.playout(game, seed=11)
    record = json.loads(json.dumps(game.record(moves)))
    again = rules.get(record["game"], players=record["players"], options=record["options"])
    assert again.replay(record["moves"]) == final
    broken = list(record["moves"])
    broken[3] = Step(0, "red", "a1", "j8").to_json()
    with pytest.raises(RecordError, match="move 4"):
        again.replay(broken)


# --- properties -------------------------------------------------------------------------------


def looks(game, state, move: Step) -> list[dict]:
    """The picture that shows `move` to the camera: the board once settled for a quiet move;
    for an attack (or a rescue) only the attacker standing with the defender (PB-I.1), so the
    answer never depends on the battle's secret result."""
    before = game.placement(state)
    if before.get(move.to) not in (None, move.colour):
        contest = {s: c for s, c in before.items() if s != move.frm}
        contest[move.to] = "red+blue"
        return [contest]
    return [game.placement(game.apply(state, move))]


def check_state(game, state, sample: int) -> None:
    """Invariants of one position (see the module docstring of the test file)."""
    frozen = json.dumps(game.state_to_json(state))
    legal = game.legal_moves(state)
    placement = game.placement(state)
    assert set(placement.values()) <= {"red", "blue", game.contest_mark}
    # secrecy: the public view shows only revealed identities; a seat sees its own
    for viewer in (None, 0, 1):
        for piece in game.view(state, viewer)["pieces"]:
            if piece["identity"] is not None:
                assert piece["revealed"] or piece["seat"] == viewer
    counts = [len(side) for side in state.pieces]
    for move in legal:
        verdict = game.explain(state, move)
        assert verdict.legal, (move, verdict.reason)
        if isinstance(move, Step | Keep | Pass | Roll):
            assert not any(w in texts(verdict) for w in KIND_WORDS), verdict
        after = game.apply(state, move)
        after_counts = [len(side) for side in after.pieces]
        assert all(a <= b for a, b in zip(after_counts, counts, strict=True))
        assert sum(counts) - sum(after_counts) <= 1
        if sum(after_counts) < sum(counts):
            assert isinstance(move, Step | Keep)
            assert any(
                e.clause in ("PB-4.3", "PB-5.3", "PB-5.4", "PB-6.3")
                for e in game.announce(state, move).effects
            )
        if isinstance(move, Step) and state.phase == "move":
            announced = game.announce(state, move)
            shown = after.last
            if shown and shown[2] in (2, 4):  # stalemate, failed rescue: nothing told
                assert not any(w in texts(announced) for w in KIND_WORDS)
        checked = sample % 4 == 0 or state.phase == "place"
        sample += 1
        if checked and isinstance(move, Step) and state.phase in game.move_phases:
            seen = looks(game, state, move)[0]
            inference = game.infer(state, seen)
            same = [m for m in legal if isinstance(m, Step) and seen in looks(game, state, m)]
            if len(same) == 1:
                assert inference.kind == "legal", (move, inference.reason)
                assert inference.move == move
            else:
                assert inference.kind == "unclear"
    if state.phase == "move":
        steps = {(m.frm, m.to) for m in legal if isinstance(m, Step)}
        frms = {m.frm for m in legal if isinstance(m, Step)}
        for frm in frms:
            assert {t for f, t in steps if f == frm} == reference_destinations(game, state, frm)
    assert json.dumps(game.state_to_json(state)) == frozen  # nothing mutated


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([6, 8]), st.sampled_from(["centre", "row"]))
def test_property_invariants_along_random_games(seed, rows, base_entry):
    game = make(rows=rows, base_entry=base_entry)
    final, moves = rules.playout(game, seed=seed, max_moves=300)
    state = game.initial_state()
    for n, move in enumerate(moves):
        if n % 10 == 0 or state.phase in ("keep", "place"):
            check_state(game, state, n)
        state = game.apply(state, move)
    assert state == final
    assert game.replay(moves) == final


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_property_games_end_and_replay(seed):
    game = make(no_moves="this-roll" if seed % 2 else "any-roll")
    final, moves = rules.playout(game, seed=seed)
    outcome = game.outcome(final)
    assert outcome is not None and outcome.clause.id in ("PB-7.1", "PB-7.2", "PB-7.3", "PB-7.4")
    assert game.replay([m.to_json() for m in moves]) == final
    public = game.view(final, None)
    assert public["outcome"] == outcome.to_json()
    assert all(p["identity"] is None or p["revealed"] for p in public["pieces"])
    # the public record of the set-up names no identity
    setups = [game.public_move(m) for m in moves if isinstance(m, Assign)]
    assert len(setups) == 2
    assert all(kind is None for data in setups for _sq, kind in data["identities"])
