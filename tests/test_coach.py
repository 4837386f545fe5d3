"""The coach (rules.coach): rankings, words, hidden pieces kept hidden, and its runner."""

from __future__ import annotations

import random
import time

import pytest

import rules
from device.coach_runner import CoachRunner, CoachSettings
from rules.coach import MoveChance, Ranking, candidates, rank_moves, win_chances
from rules.coach.hidden import sampler_for
from rules.games.playground_battles import UNSET
from tests.fake_table import FakeTable
from webui import create_app


def positions(game, seed: int, moves: int = 3000):
    """Every position of one seeded random game."""
    rng = random.Random(seed)
    state = game.initial_state()
    yield state
    for _ in range(moves):
        if game.outcome(state) is not None:
            return
        legal = game.legal_moves(state)
        state = game.apply(state, legal[int(rng.random() * len(legal))])
        yield state


def first_position(game, test, seeds=range(20)):
    for seed in seeds:
        for state in positions(game, seed):
            found = test(state)
            if found:
                return state, found
    raise AssertionError(f"no {game.name} position found for the test")


def test_every_legal_move_is_ranked_once_best_first():
    game = rules.get("the-right-moves")
    state, _ = first_position(game, lambda s: len(candidates(game, s)) >= 5)
    ranking = rank_moves(game, state, random.Random(1), playouts=4)
    assert sorted(map(str, (m.move for m in ranking.moves))) == sorted(
        map(str, game.legal_moves(state))
    )
    played = [m for m in ranking.moves if m.playouts]
    assert played and played == list(ranking.moves[: len(played)])  # played out come first
    assert [m.chance for m in played] == sorted((m.chance for m in played), reverse=True)
    assert all(0.0 <= m.chance <= 1.0 for m in ranking.moves)
    assert ranking.complete and ranking.rounds == 4 and ranking.player == state.to_move


def test_nothing_is_ranked_while_the_die_is_to_be_rolled():
    game = rules.get("manji")
    state = game.initial_state()
    assert state.phase in ("roll", "opening")
    assert rank_moves(game, state, random.Random(0)) is None


def _winning_choice(game, state):
    """A move that wins at once, when another legal move does not."""
    moves = candidates(game, state)
    wins = [m for m in moves if _wins(game, state, m)]
    return wins[0] if wins and len(wins) < len(moves) else None


def _wins(game, state, move) -> bool:
    outcome = game.outcome(game.apply(state, move))
    return outcome is not None and state.to_move in outcome.winners


def test_a_move_that_wins_at_once_ranks_first_and_a_poor_choice_is_named():
    game = rules.get("the-right-moves")
    state, winning = first_position(game, lambda s: _winning_choice(game, s))
    named = []
    for seed in range(6):
        ranking = rank_moves(game, state, random.Random(seed), playouts=16)
        assert _wins(game, state, ranking.best.move) and ranking.best.chance == 1.0
        worst = [m for m in ranking.moves if m.playouts][-1]  # a glance alone is never judged
        assert not _wins(game, state, worst.move)
        assert ranking.cost(worst.move) == pytest.approx(1.0 - worst.chance)
        assert ranking.judge(ranking.best.move) is None
        for move in ranking.moves[1:]:
            words = ranking.judge(move.move)
            cost = ranking.cost(move.move)
            if words is not None:
                assert words == f"this gave up {round(cost * 100)}% of your winning chances"
                named.append(words)
            # 16 playouts each way: the noise is under 26 points, so 30 points lost is poor
            if move.playouts >= 16 and cost >= 0.3:
                assert words is not None
    assert named  # poor choices among these moves were named


def test_a_small_or_noisy_loss_is_not_called_poor():
    good = MoveChance(rules.Pass(0, "red"), 0.55, 8, "")
    close = MoveChance(rules.Pass(1, "blue"), 0.50, 8, "")
    far = MoveChance(rules.Pass(2, "green"), 0.10, 400, "")
    ranking = Ranking(0, "red", (good, close, far), 8, True)
    assert ranking.judge(close.move) is None  # 5 points from 8 playouts: within the noise
    assert ranking.judge(far.move) == "this gave up 45% of your winning chances"
    assert ranking.cost(rules.Pass(3, "yellow")) is None  # not a ranked move


def test_a_capture_is_named_with_the_colour_captured():
    game = rules.get("manji")

    def capture(state):
        for move in candidates(game, state):
            for effect in game.explain(state, move).effects:
                if effect.kind == "capture":
                    return move, game.colour_of(effect.player)
        return None

    state, (move, victim) = first_position(game, capture)
    ranking = rank_moves(game, state, random.Random(0), playouts=1)
    words = ranking.chance_of(move).words
    assert f"captures {victim}" in words


def test_the_exposure_of_a_landed_token_is_named():
    game = rules.get("manji")
    state, _ = first_position(game, lambda s: len(candidates(game, s)) >= 2)
    ranking = rank_moves(game, state, random.Random(0), playouts=1)
    for chance in ranking.moves:
        assert (
            "could hit it next turn" in chance.words
            or "safe from" in chance.words
            or ("rolls again" in chance.words or "reaches" in chance.words)
        ), chance.words


def test_a_stopped_ranking_still_ranks_every_move_at_a_glance():
    game = rules.get("playground-battles")
    state, _ = first_position(game, lambda s: len(candidates(game, s)) >= 20)
    ranking = rank_moves(game, state, random.Random(0), playouts=50, stop=lambda: True)
    assert not ranking.complete and ranking.rounds == 0
    assert len(ranking.moves) == len(candidates(game, state))
    assert sum(m.playouts for m in ranking.moves) == 1  # stopped after the first playout


# --- Playground Battles: the coach never looks at a hidden piece -------------------------------


def _pb_position():
    game = rules.get("playground-battles")

    def interesting(state):
        if state.phase != "move" or len(candidates(game, state)) < 3:
            return None
        view = game.view(state, None)
        revealed = sum(p["revealed"] for p in view["pieces"])
        return revealed >= 2 and any(p["stalemate"] for p in view["pieces"])

    state, _ = first_position(game, interesting, seeds=range(60))
    return game, state


def _other_kinds(state, seats, keep_stalemates: bool):
    """`state` with every unrevealed kind of `seats` changed (stalemated pairs kept alike)."""
    squares = [{s for s, _k, _r in state.pieces[p]} for p in (0, 1)]
    both = squares[0] & squares[1]
    pieces = []
    for p, own in enumerate(state.pieces):
        changed = []
        for s, k, r in own:
            if p in seats and not r and k != UNSET and not (keep_stalemates and s in both):
                k = (k + 1) % 3
            changed.append((s, k, r))
        pieces.append(tuple(changed))
    assert pieces != list(state.pieces)
    return state._replace(pieces=tuple(pieces))


def test_the_player_to_move_is_coached_from_what_they_may_know_only():
    game, state = _pb_position()
    mover = state.to_move
    other = _other_kinds(state, {1 - mover}, keep_stalemates=False)
    a = rank_moves(game, state, random.Random(5), playouts=3)
    b = rank_moves(game, other, random.Random(5), playouts=3)
    assert a.to_json() == b.to_json()


def test_a_public_ranking_hides_everybody_s_pieces():
    game, state = _pb_position()
    other = _other_kinds(state, {0, 1}, keep_stalemates=True)
    a = rank_moves(game, state, random.Random(5), playouts=3, public=True)
    b = rank_moves(game, other, random.Random(5), playouts=3, public=True)
    assert a.to_json() == b.to_json()
    chances = win_chances(game, state, random.Random(2), playouts=4)
    assert chances == win_chances(game, other, random.Random(2), playouts=4)


def test_the_sampled_position_keeps_what_was_shown_and_pairs_stalemates():
    game, state = _pb_position()
    sample = sampler_for(game)
    mover = state.to_move
    shown = game.view(state, mover)
    for seed in range(10):
        drawn = sample(game, state, mover, random.Random(seed))
        kinds = {(p, s): k for p in (0, 1) for s, k, _r in drawn.pieces[p]}
        for piece in shown["pieces"]:
            square = game.board.index[piece["space"]]
            if piece["identity"] is not None:
                assert kinds[(piece["seat"], square)] == ("rock", "paper", "scissors").index(
                    piece["identity"]
                )
            if piece["stalemate"]:
                assert kinds[(0, square)] == kinds[(1, square)]
        assert [len(p) for p in drawn.pieces] == [len(p) for p in state.pieces]


# --- win chances --------------------------------------------------------------------------------


def test_win_chances_share_one_win_and_a_finished_game_gives_its_result():
    game = rules.get("manji")
    chances = win_chances(game, game.initial_state(), random.Random(0), playouts=6)
    assert len(chances) == game.players and sum(chances) == pytest.approx(1.0)
    final, _ = rules.playout(game, seed=2)
    winners = game.outcome(final).winners
    result = win_chances(game, final, random.Random(0))
    assert result == [1.0 if seat in winners else 0.0 for seat in range(game.players)]


# --- the runner and the page ---------------------------------------------------------------------


def _wait(predicate, seconds: float = 60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("the coach did not answer in time")


def _to_choice(table):
    """Play the table on (first legal move) until the player to move has a choice."""
    for _ in range(400):
        snap = table.snapshot()
        if len(candidates(table.game, table.state)) >= 2:
            return
        if snap["phase"] in ("roll", "opening"):
            table.roll()
        else:
            move = {k: v for k, v in snap["legal"][0].items() if k != "text"}
            table.manual_move(move)
    raise AssertionError("no choice came up")


def test_the_runner_ranks_the_position_now_and_never_a_stale_one():
    table = FakeTable(game="manji", players=2, options={"opening": "first-seat"}, mode="manual")
    runner = CoachRunner(table, CoachSettings(budget_s=0.2, seed=1, poll_s=0.02))
    try:
        _to_choice(table)
        first = _wait(lambda: (d := runner.latest())["status"] == "ready" and d)
        assert first["moves"] == len(table.history())
        ranked = {m["text"] for m in first["ranking"]["moves"]}
        assert ranked == {str(m) for m in candidates(table.game, table.state)}
        move = first["ranking"]["moves"][-1]["move"]
        table.manual_move(move)  # the worst-ranked move: the ranking above is now stale
        after = runner.latest()
        assert after["status"] != "ready" or after["moves"] == len(table.history())
        _to_choice(table)
        second = _wait(lambda: (d := runner.latest())["status"] == "ready" and d)
        assert second["moves"] == len(table.history()) > first["moves"]
        plot = _wait(lambda: (c := runner.chances())["points"] and c)
        assert plot["colours"] == ["red", "blue"] or len(plot["colours"]) == 2
        assert all(sum(p["chances"]) == pytest.approx(1.0, abs=0.01) for p in plot["points"])
    finally:
        runner.close()
    runner.close()  # idempotent


def test_the_coach_api_says_off_without_a_coach_and_answers_with_one():
    table = FakeTable(game="manji", players=2, options={"opening": "first-seat"}, mode="manual")
    client = create_app({"TESTING": True, "SECRET_KEY": "t"}, table=table).test_client()
    assert client.get("/api/coach").get_json() == {
        "status": "off",
        "ranking": None,
        "judgement": None,
    }
    runner = CoachRunner(table, CoachSettings(budget_s=0.1, seed=1))
    try:
        client = create_app({"TESTING": True, "SECRET_KEY": "t"}, table=table, coach=runner)
        client = client.test_client()
        data = client.get("/api/coach").get_json()
        assert data["game"] == "manji" and data["status"] in ("nothing", "thinking", "ready")
        assert "points" in client.get("/api/coach/chances").get_json()
        page = client.get("/teach/manji").get_data(as_text=True)
        assert 'id="coach"' in page and "coach.js" in page
        assert 'id="win-chart"' in client.get("/history").get_data(as_text=True)
    finally:
        runner.close()


def test_a_failing_ranking_is_logged_once_and_the_table_goes_on(monkeypatch, caplog):
    table = FakeTable(game="manji", players=2, options={"opening": "first-seat"}, mode="manual")
    _to_choice(table)
    calls = []

    def broken(*args, **kwargs):
        calls.append(args[1])
        raise ValueError("a bug in the coach")

    monkeypatch.setattr("device.coach_runner.rank_moves", broken)
    runner = CoachRunner(table, CoachSettings(budget_s=0.1, seed=1, poll_s=0.01))
    try:
        _wait(lambda: runner.latest()["status"] == "nothing" and calls)
        time.sleep(0.2)  # many polls later: the same position is not ranked again
        assert calls == [table.state]
        assert "ranking the position after move" in caplog.text
        assert table.snapshot()["phase"] == "move"  # the referee is untouched
    finally:
        runner.close()


def test_a_player_s_phone_gets_a_ranking_from_what_that_player_may_know(monkeypatch):
    from tests.test_referee_secrets import set_up

    calls = []
    real = rank_moves

    def spy(*args, **kwargs):
        calls.append(kwargs.get("public"))
        return real(*args, **kwargs)

    monkeypatch.setattr("device.coach_runner.rank_moves", spy)
    table = FakeTable(game="playground-battles", players=2, mode="manual")
    red, blue = table.join_token(0), table.join_token(1)
    set_up(table)  # red wins the opening: red to roll
    table.roll()
    assert table.state.phase == "move" and table.state.to_move == 0
    runner = CoachRunner(table, CoachSettings(budget_s=0.1, seed=1, poll_s=0.01))
    app = create_app({"TESTING": True, "SECRET_KEY": "t"}, table=table, coach=runner)
    phone, other = app.test_client(), app.test_client()
    try:
        assert phone.get(f"/play/{red}").status_code == 200  # this browser claims red's link
        assert other.get(f"/api/play/{red}/coach").status_code == 403
        assert other.get("/api/play/not-a-link/coach").status_code == 404
        data = _wait(
            lambda: (d := phone.get(f"/api/play/{red}/coach").get_json())["status"] == "ready" and d
        )
        assert data["ranking"]["colour"] == "red" and False in calls  # red's own knowledge
        assert data["judgement"] is None
        ranked = {m["text"] for m in data["ranking"]["moves"]}
        assert ranked == {str(m) for m in candidates(table.game, table.state)}
        assert other.get(f"/play/{blue}").status_code == 200
        waiting = other.get(f"/api/play/{blue}/coach").get_json()
        assert waiting["status"] == "nothing" and waiting["ranking"] is None  # not blue's turn
        _wait(lambda: other.get("/api/coach").get_json()["status"] == "ready")
        assert True in calls  # the public page's ranking hides every piece
    finally:
        runner.close()
