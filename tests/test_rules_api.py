"""The rules core API: registry, errors, JSON round trips, records and board geometry."""

from __future__ import annotations

import itertools
import json
import math

import pytest

import rules
from rules import (
    Declare,
    OptionError,
    Pass,
    PlayerCountError,
    RecordError,
    Roll,
    Step,
    UnknownGameError,
    move_from_json,
    playout,
)
from tests.helpers import aggravation, position

# --- registry -----------------------------------------------------------------------------------


def test_names_lists_aggravation_sorted():
    names = rules.names()
    assert "aggravation" in names
    assert names == sorted(names)


def test_get_returns_configured_game_with_default_players():
    game = rules.get("aggravation")
    assert game.name == "aggravation"
    assert game.players == 4  # the rulebook's board is the four-player board
    assert game.options["opening"] == "roll-off"


def test_unknown_game_error_names_the_name_and_the_known_games():
    with pytest.raises(UnknownGameError) as info:
        rules.get("aggravaton")
    message = str(info.value)
    assert "'aggravaton'" in message
    for name in rules.names():
        assert name in message
    assert info.value.name == "aggravaton"
    assert isinstance(info.value, KeyError)


def test_unknown_game_error_for_non_string_name():
    with pytest.raises(UnknownGameError):
        rules.get(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [0, 1, 7, "4", 4.0, True])
def test_player_count_error_names_bad_value_and_allowed(players):
    with pytest.raises(PlayerCountError) as info:
        rules.get("aggravation", players=players)
    message = str(info.value)
    assert repr(players) in message
    assert "2, 3, 4, 5, 6" in message
    assert info.value.allowed == (2, 3, 4, 5, 6)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_rulebook_player_count_is_accepted(players):
    assert rules.get("aggravation", players=players).players == players


def test_option_error_bad_key_names_key_and_known_options():
    with pytest.raises(OptionError) as info:
        rules.get("aggravation", options={"extra_turn": True})
    message = str(info.value)
    assert "'extra_turn'" in message
    for name in ("opening", "extra_turn_after_pass", "play", "board", "lane"):
        assert name in message


@pytest.mark.parametrize(
    ("key", "value", "allowed"),
    [
        ("opening", "youngest", ["'roll-off'", "'first-seat'"]),
        ("extra_turn_after_pass", "yes", ["True", "False"]),
        ("extra_turn_after_pass", 1, ["True", "False"]),  # 1 == True but is not a bool
        ("extra_turn_after_pass", 0, ["True", "False"]),
        ("play", "pairs", ["'individual'", "'partners'", "'teams'"]),
        ("board", 6, ["'auto'", "'four'", "'six'"]),
        ("lane", 7, ["2", "3", "4", "5", "6"]),
        ("lane", 4.0, ["2", "3", "4", "5", "6"]),  # 4.0 == 4 but is not an int
        ("lane", True, ["2", "3", "4", "5", "6"]),
    ],
)
def test_option_error_bad_value_names_value_and_allowed(key, value, allowed):
    with pytest.raises(OptionError) as info:
        rules.get("aggravation", options={key: value})
    message = str(info.value)
    assert repr(key) in message
    assert repr(value) in message
    for choice in allowed:
        assert choice in message


def test_options_must_be_a_mapping():
    with pytest.raises(OptionError):
        rules.get("aggravation", options=[("lane", 4)])  # type: ignore[arg-type]


def test_partners_need_four_or_six_players():
    with pytest.raises(OptionError) as info:
        rules.get("aggravation", players=3, options={"play": "partners"})
    assert "'partners'" in str(info.value)
    rules.get("aggravation", players=4, options={"play": "partners"})
    rules.get("aggravation", players=6, options={"play": "partners"})


def test_teams_need_six_players():
    with pytest.raises(OptionError) as info:
        rules.get("aggravation", players=4, options={"play": "teams"})
    assert "'teams'" in str(info.value)


def test_four_arm_board_refused_for_five_players():
    with pytest.raises(OptionError) as info:
        rules.get("aggravation", players=5, options={"board": "four"})
    assert "'four'" in str(info.value)


def test_options_default_and_overlay():
    game = rules.get("aggravation", options={"lane": 3})
    assert game.options == {
        "opening": "roll-off",
        "extra_turn_after_pass": True,
        "play": "individual",
        "board": "auto",
        "home_moves": True,
        "lane": 3,
    }


# --- moves as JSON ------------------------------------------------------------------------------

MOVES = [
    Roll(0, "red", 6),
    Pass(2, "yellow"),
    Step(1, "blue", "blue-b1", "t23", "start"),
    Step(0, "red", "t15", "t03", "star"),
    Step(3, "green", "ctr", "t01", "centre exit"),
    Step(0, "red", "t10", "t13"),
    Declare(0, "red", 4, "purple"),
]


@pytest.mark.parametrize("move", MOVES, ids=str)
def test_move_json_round_trip(move):
    data = json.loads(json.dumps(move.to_json()))
    assert data["kind"] == move.kind
    back = move_from_json(data)
    assert back == move
    assert type(back) is type(move)


def test_every_registered_move_kind_is_covered():
    kinds = {m.kind for m in MOVES}
    assert kinds == {"roll", "pass", "step", "declare"}


def test_step_route_defaults_when_missing():
    assert move_from_json(
        {"kind": "step", "player": 0, "colour": "red", "frm": "t01", "to": "t02"}
    ) == Step(0, "red", "t01", "t02", "")


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([1, 2], ["JSON object", "list"]),
        ("roll", ["JSON object", "str"]),
        ({"player": 0, "colour": "red", "value": 3}, ["unknown move kind", "None"]),
        ({"kind": "teleport", "player": 0, "colour": "red"}, ["unknown move kind", "'teleport'"]),
        ({"kind": 3, "player": 0}, ["unknown move kind", "3"]),
        ({"kind": "roll", "player": 0, "colour": "red"}, ["missing", "value"]),
        ({"kind": "step", "player": 0, "colour": "red", "to": "t02"}, ["missing", "frm"]),
        ({"kind": "declare", "player": 0, "colour": "red"}, ["missing", "teammate"]),
    ],
)
def test_move_from_json_errors_name_the_problem(data, words):
    with pytest.raises(RecordError) as info:
        move_from_json(data)
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "roll", "player": "0", "colour": "red", "value": 3},
        {"kind": "roll", "player": 0, "colour": "red", "value": "3"},
        {"kind": "roll", "player": 0, "colour": "red", "value": 3.5},
        {"kind": "roll", "player": 0, "colour": 1, "value": 3},
        {"kind": "roll", "player": True, "colour": "red", "value": 3},
        {"kind": "step", "player": 0, "colour": "red", "frm": ["t01"], "to": "t02"},
        {"kind": "declare", "player": 0, "colour": "red", "teammate": None},
    ],
)
def test_move_from_json_rejects_wrong_field_types(data):
    with pytest.raises(RecordError) as info:
        move_from_json(data)
    assert data["kind"] in str(info.value)


def test_game_move_from_json_is_the_same_reader():
    game = aggravation()
    assert game.move_from_json(Roll(0, "red", 2).to_json()) == Roll(0, "red", 2)


# --- states as JSON -----------------------------------------------------------------------------


def _states():
    four = aggravation()
    six = aggravation(6, play="teams")
    yield four, four.initial_state()
    yield four, rules.get("aggravation").initial_state()  # the opening roll-off, with rolloff
    yield four, position(four, {"red": ["t05", "base", "ctr", "red-h1"]}, dice=3)
    yield six, position(six, {"red": ["red-h1", "red-h2", "red-h3", "red-h4"]}, phase="declare")


@pytest.mark.parametrize(("game", "state"), list(_states()))
def test_state_json_round_trip(game, state):
    text = json.dumps(game.state_to_json(state))
    back = game.state_from_json(json.loads(text))
    assert back == state
    assert type(back) is type(state)
    assert hash(back) == hash(state)


def test_state_from_json_wrong_keys_is_record_error():
    game = aggravation()
    data = game.state_to_json(game.initial_state())
    del data["pieces"]
    with pytest.raises(RecordError) as info:
        game.state_from_json(data)
    assert "pieces" in str(info.value)
    with pytest.raises(RecordError):
        game.state_from_json(["not", "a", "state"])  # type: ignore[arg-type]


# --- records and replay -------------------------------------------------------------------------

CONFIGS = [
    (2, {}),
    (3, {"opening": "first-seat"}),
    (4, {}),
    (4, {"play": "partners"}),
    (5, {}),
    (6, {"play": "teams"}),
    (4, {"lane": 2, "extra_turn_after_pass": False}),
]


@pytest.mark.parametrize(("players", "options"), CONFIGS)
@pytest.mark.parametrize("seed", [1, 2])
def test_replay_of_seeded_playout_reproduces_final_state(players, options, seed):
    game = rules.get("aggravation", players=players, options=options)
    final, moves = playout(game, seed=seed)
    assert game.outcome(final) is not None
    record = json.loads(json.dumps(game.record(moves)))
    assert record["game"] == "aggravation"
    again = rules.get(record["game"], players=record["players"], options=record["options"])
    assert again.replay(record["moves"]) == final
    assert game.replay(moves) == final  # Move objects as well as JSON


def test_same_seed_same_game_different_seed_different_game():
    game = rules.get("aggravation")
    a, moves_a = playout(game, seed=7)
    b, moves_b = playout(game, seed=7)
    _, moves_c = playout(game, seed=8)
    assert a == b and moves_a == moves_b
    assert moves_a != moves_c


def test_replay_of_tampered_record_names_the_move_number():
    game = rules.get("aggravation")
    _, moves = playout(game, seed=3)
    record = game.record(moves)["moves"]
    k = next(i for i, m in enumerate(record) if m["kind"] == "step" and m["route"] == "")
    record[k] = dict(record[k], to=record[k]["frm"])  # a marble "moved" onto its own hole
    with pytest.raises(RecordError) as info:
        game.replay(record)
    assert f"move {k + 1} " in str(info.value)


def test_replay_of_record_with_changed_roll_names_a_later_move():
    game = rules.get("aggravation", options={"opening": "first-seat"})
    _, moves = playout(game, seed=4)
    record = game.record(moves)["moves"]
    # the first roll followed by a real move: change its value so that move no longer fits
    k = next(
        i
        for i, m in enumerate(record)
        if m["kind"] == "roll" and record[i + 1]["kind"] == "step" and record[i + 1]["route"] == ""
    )
    record[k] = dict(record[k], value=record[k]["value"] % 6 + 1)
    with pytest.raises(RecordError) as info:
        game.replay(record)
    assert f"move {k + 2} " in str(info.value)


def test_replay_of_unreadable_move_is_record_error():
    game = rules.get("aggravation")
    with pytest.raises(RecordError):
        game.replay([{"kind": "teleport"}])


# --- geometry -----------------------------------------------------------------------------------

BOARDS = [
    ("four", aggravation(4)),
    ("six", aggravation(6)),
    ("four-lane2", aggravation(4, lane=2)),
    ("four-lane3", aggravation(3, lane=3)),
    ("four-lane5", aggravation(4, lane=5)),
    ("four-lane6", aggravation(2, lane=6)),
    ("six-lane2", aggravation(6, lane=2)),
    ("six-lane3", aggravation(5, lane=3)),
    ("six-lane5", aggravation(6, lane=5)),
    ("six-lane6", aggravation(6, lane=6)),
]


@pytest.mark.parametrize(("label", "game"), BOARDS, ids=[b[0] for b in BOARDS])
def test_space_ids_are_unique(label, game):
    ids = game.board.ids()
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(("label", "game"), BOARDS, ids=[b[0] for b in BOARDS])
def test_every_hole_inside_the_play_area_and_off_the_markers(label, game):
    board = game.board
    r = board.hole_radius
    assert r > 0
    for s in board.spaces:
        assert r <= s.x <= board.width - r, s
        # the play area is the top square; the dice tray runs along the bottom
        assert r <= s.y <= board.width - r, s
        for corners in board.marker_squares().values():
            (x0, y0), _, (x1, y1), _ = corners
            dx = max(x0 - s.x, 0.0, s.x - x1)
            dy = max(y0 - s.y, 0.0, s.y - y1)
            assert math.hypot(dx, dy) >= r, (s, corners)
        for region in board.regions:
            dx = max(region.x - s.x, 0.0, s.x - region.x - region.w)
            dy = max(region.y - s.y, 0.0, s.y - region.y - region.h)
            assert math.hypot(dx, dy) >= r, (s, region)


@pytest.mark.parametrize(("label", "game"), BOARDS, ids=[b[0] for b in BOARDS])
def test_holes_do_not_overlap_and_marbles_fit(label, game):
    board = game.board
    for a, b in itertools.combinations(board.spaces, 2):
        d = math.hypot(a.x - b.x, a.y - b.y)
        assert d >= 2 * board.hole_radius, (a.id, b.id, d)
        assert d >= 2 * board.token_radius, (a.id, b.id, d)


def test_markers_inside_board_and_distinct_per_board():
    for _, game in BOARDS:
        board = game.board
        for corners in board.marker_squares().values():
            for x, y in corners:
                assert 0 <= x <= board.width and 0 <= y <= board.height
    assert set(aggravation(4).board.marker_ids).isdisjoint(aggravation(6).board.marker_ids)


@pytest.mark.parametrize(("players", "arms", "lane"), [(4, 4, 4), (6, 6, 4), (4, 4, 2), (5, 6, 6)])
def test_track_hole_counts(players, arms, lane):
    game = aggravation(players, lane=lane)
    per_arm = 2 * lane + 6  # inner corner, lane out, five across the end, lane back
    kinds = [s.kind for s in game.board.spaces]
    track = [s for s in game.board.spaces if s.id.startswith("t")]
    assert len(track) == arms * per_arm
    assert [s.id for s in track] == [f"t{n:02d}" for n in range(1, arms * per_arm + 1)]
    assert kinds.count("star") == arms
    assert kinds.count("start") == arms
    assert kinds.count("centre") == 1
    assert {s.kind for s in track} == {"track", "star", "start"}


def test_classic_track_counts_56_and_84_with_14_per_arm():
    assert sum(s.id.startswith("t") for s in aggravation(4).board.spaces) == 56
    assert sum(s.id.startswith("t") for s in aggravation(6).board.spaces) == 84
    assert sum(s.id.startswith("t") for s in aggravation(2, board="six").board.spaces) == 84


@pytest.mark.parametrize("players", [4, 6])
def test_home_and_base_rows_of_four_per_colour(players):
    game = aggravation(players)
    board = game.board
    for arm, colour in enumerate(board.seat_colours):
        home = [s for s in board.spaces if s.kind == "home" and s.owner == arm]
        base = [s for s in board.spaces if s.kind == "base" and s.owner == arm]
        assert [s.id for s in home] == [f"{colour}-h{j}" for j in range(1, 5)]
        assert sorted(s.id for s in base) == [f"{colour}-b{j}" for j in range(1, 5)]


@pytest.mark.parametrize("players", [4, 6])
def test_stars_starts_and_home_rows_where_the_design_puts_them(players):
    """Stars are inner corners t(14a+1); START is t(14a+9); HOME leaves from t(14a+8)."""
    board = aggravation(players).board
    cx, cy = board.space("ctr").x, board.space("ctr").y
    links = {frozenset(pair) for pair in board.links}

    def dist(space_id):
        s = board.space(space_id)
        return math.hypot(s.x - cx, s.y - cy)

    track = [s.id for s in board.spaces if s.id.startswith("t")]
    for arm, colour in enumerate(board.seat_colours):
        star, entry, start = (f"t{14 * arm + k:02d}" for k in (1, 8, 9))
        assert board.space(star).kind == "star"
        assert board.space(start).kind == "start" and board.space(start).owner == arm
        assert frozenset((entry, f"{colour}-h1")) in links
        assert frozenset((star, "ctr")) in links
        # the home row runs from the arm's end straight toward the centre
        row = [dist(f"{colour}-h{j}") for j in range(1, 5)]
        assert row == sorted(row, reverse=True)
        assert dist(f"{colour}-h4") > dist(star) * 0.5
        # the arm end is the part of the arm farthest out; the inner corner is nearest in
        arm_holes = track[14 * arm : 14 * arm + 14]
        assert min(arm_holes, key=dist) in (star, arm_holes[-1])
        assert dist(entry) == pytest.approx(max(dist(h) for h in arm_holes), rel=0.1)
    # star holes are the track holes nearest the centre
    nearest = sorted(track, key=dist)[: len(board.seat_colours)]
    assert sorted(nearest) == sorted(f"t{14 * a + 1:02d}" for a in range(len(board.seat_colours)))


@pytest.mark.parametrize("players", [4, 6])
def test_track_runs_clockwise_from_the_bottom_arm(players):
    board = aggravation(players).board
    cx, cy = board.space("ctr").x, board.space("ctr").y
    track = [board.space(f"t{n:02d}") for n in range(1, 14 * len(board.seat_colours) + 1)]
    # in image coordinates (y down), clockwise as seen from above means the angle grows
    turn = 0.0
    for a, b in zip(track, track[1:] + track[:1], strict=True):
        da = math.atan2(b.y - cy, b.x - cx) - math.atan2(a.y - cy, a.x - cx)
        turn += (da + math.pi) % (2 * math.pi) - math.pi
    assert turn == pytest.approx(2 * math.pi)
    # red's arm (arm 0) points down: its HOME row is below the centre
    assert board.space("red-h1").y > cy + 20
    assert abs(board.space("red-h1").x - cx) < 1
    # consecutive track holes are neighbours on the board
    for a, b in zip(track, track[1:] + track[:1], strict=True):
        assert math.hypot(a.x - b.x, a.y - b.y) < 3 * 2 * board.hole_radius


@pytest.mark.parametrize(
    ("players", "options", "colours"),
    [
        (2, {}, ("red", "yellow")),  # opposite arms of the four-arm board
        (3, {}, ("red", "blue", "yellow")),
        (4, {}, ("red", "blue", "yellow", "green")),
        (5, {}, ("red", "blue", "yellow", "green", "purple")),
        (6, {}, ("red", "blue", "yellow", "green", "purple", "orange")),
        (2, {"board": "six"}, ("red", "green")),
        (4, {"board": "six", "play": "partners"}, ("red", "blue", "green", "purple")),
    ],
)
def test_seats_take_arms(players, options, colours):
    game = aggravation(players, **options)
    assert game.colours == colours
    assert len(game.board.seat_colours) == (6 if players > 4 or options.get("board") else 4)


@pytest.mark.parametrize(("players", "play"), [(4, "partners"), (6, "partners")])
def test_partners_sit_opposite(players, play):
    game = aggravation(players, play=play)
    arms = len(game.board.seat_colours)
    for p in range(players // 2):
        a = game.board.seat_colours.index(game.colours[p])
        b = game.board.seat_colours.index(game.colours[p + players // 2])
        assert (b - a) % arms == arms // 2


def test_board_to_json_is_plain_data():
    data = json.loads(json.dumps(aggravation().board.to_json()))
    assert len(data["spaces"]) == 56 + 1 + 4 * 8


def _bad_states():
    game = aggravation()
    good = game.state_to_json(position(game, {"red": ["t05", "ctr"]}, dice=3))
    yield "five players' pieces", dict(good, pieces=good["pieces"] + [[-1, -1, -1, -1]])
    yield "three marbles", dict(good, pieces=[[-1, -1, 4]] + good["pieces"][1:])
    yield "hole 999", dict(good, pieces=[[-1, -1, 4, 999]] + good["pieces"][1:])
    yield "two on one hole", dict(good, pieces=[[-1, -1, 4, 4]] + good["pieces"][1:])
    blue_home = game.board.index["blue-h1"]
    yield "red in blue's HOME", dict(good, pieces=[[-1, -1, -1, blue_home]] + good["pieces"][1:])
    yield "unsorted", dict(good, pieces=[[4, -1, -1, -1]] + good["pieces"][1:])
    yield "strings", dict(good, pieces=[["t05", -1, -1, -1]] + good["pieces"][1:])
    yield "phase", dict(good, phase="dance")
    yield "to_move", dict(good, to_move=7)
    yield "actor", dict(good, actor=-1)
    yield "dice 9", dict(good, dice=9)
    yield "dice while rolling", dict(good, phase="roll", dice=3)
    yield "no dice while moving", dict(good, dice=0)
    yield "bool dice", dict(good, dice=True)
    yield "rolloff", dict(good, phase="opening", dice=0, rolloff=[1, 2])


@pytest.mark.parametrize(("label", "data"), list(_bad_states()), ids=[b[0] for b in _bad_states()])
def test_state_from_json_rejects_impossible_states(label, data):
    game = aggravation()
    with pytest.raises(RecordError):
        game.state_from_json(json.loads(json.dumps(data)))


def test_replay_past_the_end_names_the_move():
    game = rules.get("aggravation", players=2)
    _, moves = playout(game, seed=5)
    record = [m.to_json() for m in moves] + [Roll(0, "red", 3).to_json()]
    with pytest.raises(RecordError) as info:
        game.replay(record)
    assert f"move {len(record)} " in str(info.value)


def test_verdicts_inferences_and_descriptions_are_json():
    game = aggravation()
    state = position(game, {"red": ["t10"], "blue": ["t13"]}, dice=3)
    seen = game.placement(state)
    del seen["t10"]
    seen["t13"] = "red"
    inference = game.infer(state, seen)
    assert inference.kind == "legal"
    data = json.loads(json.dumps(inference.to_json()))
    assert data["move"]["to"] == "t13" and data["verdict"]["legal"] is True
    # the blue marble is still in hand: the capture, and a reminder to put it back (AGG-I.3)
    assert {e["kind"] for e in data["verdict"]["effects"]} == {"capture", "reminder"}
    json.dumps(game.describe())
    json.dumps(game.outcome(game.replay(playout(game, seed=1)[1])).to_json())


@pytest.mark.parametrize(("label", "game"), BOARDS, ids=[b[0] for b in BOARDS])
def test_base_rows_sit_beside_their_own_start(label, game):
    board = game.board
    starts = {s.owner: s for s in board.spaces if s.kind == "start"}
    for arm, colour in enumerate(board.seat_colours):
        for j in range(1, 5):
            hole = board.space(f"{colour}-b{j}")
            nearest = min(
                starts, key=lambda a: math.dist((hole.x, hole.y), (starts[a].x, starts[a].y))
            )
            assert nearest == arm, (hole.id, nearest)
