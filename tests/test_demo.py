"""`boardref demo`: the whole pipeline on the simulated table, run headless for a short while."""

from __future__ import annotations

import json

from device.cli import main


def test_demo_plays_through_the_camera(capsys):
    code = main(
        ["demo", "--players", "2", "--port", "0", "--duration", "20", "--pace", "0.2", "--json"]
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == "aggravation"
    assert summary["frames"] > 20  # the camera loop ran
    assert summary["rulings"].get("roll", 0) >= 2
    assert summary["moves"] >= 3
    # moves made on the table were ruled from camera frames, not typed in
    assert summary["camera_moves"] >= 1
    assert summary["camera_moves"] >= summary["moves_entered_by_hand"]


def test_demo_refuses_an_unknown_game(capsys):
    assert main(["demo", "--game", "chess", "--port", "0", "--duration", "1"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
