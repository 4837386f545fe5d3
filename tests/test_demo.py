"""`boardref demo`: the whole pipeline on the simulated table, run headless for a short while."""

from __future__ import annotations

import json

from device.cli import main


def run_demo(capsys, *args: str) -> dict:
    code = main(["demo", "--port", "0", "--pace", "0.2", "--json", *args])
    assert code == 0
    return json.loads(capsys.readouterr().out)


def test_demo_plays_through_the_camera(capsys):
    """The Right Moves has no die: every turn is a move on the table, ruled from frames. The
    run ends on a count of camera moves, not a clock, so a busy machine only makes it slower."""
    summary = run_demo(capsys, "--game", "the-right-moves", "--moves", "5", "--duration", "600")
    assert summary["game"] == "the-right-moves"
    assert summary["frames"] >= 2 * summary["camera_moves"]  # each needs two settled frames
    assert summary["rulings"].get("legal", 0) >= 5
    # moves made on the table were ruled from camera frames, hardly ever typed in
    assert summary["camera_moves"] >= 5
    assert summary["camera_moves"] >= 3 * summary["moves_entered_by_hand"]


def test_demo_rolls_and_moves_in_a_race_game(capsys):
    summary = run_demo(capsys, "--players", "2", "--duration", "12")
    assert summary["game"] == "aggravation"
    assert summary["rulings"].get("roll", 0) >= 2 and summary["moves"] >= 3


def test_demo_refuses_an_unknown_game(capsys):
    assert main(["demo", "--game", "chess", "--port", "0", "--duration", "1"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
