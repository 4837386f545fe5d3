"""`boardref demo`: the whole pipeline on the simulated table, run headless for a short while."""

from __future__ import annotations

import json
import re

from device.cli import main
from device.demo import ruling_line, summary_text
from device.network import page_addresses


def run_demo(capsys, *args: str) -> dict:
    code = main(["demo", "--port", "0", "--pace", "0.2", "--json", *args])
    assert code == 0
    out, err = capsys.readouterr()
    summary = json.loads(out)  # with --json, stdout is the JSON document alone
    ruled = [line for line in err.splitlines() if line.startswith("  ")]
    assert len(ruled) == sum(summary["rulings"].values())  # one line per ruling, on stderr
    return summary


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


def test_demo_rolls_and_moves_in_a_race_game_and_says_so_in_words(capsys):
    code = main(["demo", "--port", "0", "--pace", "0.2", "--players", "2", "--duration", "12"])
    assert code == 0
    out = capsys.readouterr().out
    rolls = re.findall(r"^  roll +(red|blue|yellow|green) rolled ([1-6])$", out, re.M)
    assert len(rolls) >= 2
    moves = int(re.search(r"^  moves played +(\d+) \(", out, re.M).group(1))
    assert moves >= 3
    assert re.search(r"^boardref demo: Aggravation, stopped after [\d.]+ s$", out, re.M)
    assert "{" not in out  # no Python dict in the summary


def test_a_ruling_is_one_line_with_its_rule_and_fix():
    illegal = {
        "kind": "illegal",
        "text": "a red marble leaving BASE must go to its START hole",
        "clauses": [{"id": "AGG-3.1", "title": "Leaving BASE", "text": "..."}],
        "effects": [],
        "fix": "take your marble off t12 and put it back in red's BASE",
    }
    assert ruling_line(illegal) == (
        "ILLEGAL     a red marble leaving BASE must go to its START hole (AGG-3.1) -> "
        "take your marble off t12 and put it back in red's BASE"
    )
    passed = {
        "kind": "pass",
        "text": "blue passes",
        "effects": [{"text": "blue cannot move and passes"}] * 2,
    }
    assert ruling_line(passed) == "pass        blue passes; blue cannot move and passes"
    # the referee's text often says its effects already: they are not said twice
    said = dict(passed, text="blue passes; blue cannot move and passes")
    assert ruling_line(said) == "pass        blue passes; blue cannot move and passes"


def test_the_summary_reads_as_sentences():
    text = summary_text(
        {
            "title": "Manji",
            "seconds": 30.2,
            "moves": 12,
            "camera_moves": 9,
            "moves_entered_by_hand": 1,
            "dice_thrown": 8,
            "dice_not_read_by_camera": 2,
            "dice_thrown_again": 1,
            "illegal_attempts": 1,
            "rulings": {"roll": 8, "legal": 10, "illegal": 1},
            "frames": 90,
            "fps": 3.0,
        }
    )
    assert text.splitlines()[0] == "boardref demo: Manji, stopped after 30.2 s"
    assert "  moves played       12 (9 seen by the camera, 1 entered by hand)" in text
    assert "  rulings            10 legal, 8 roll, 1 illegal" in text
    assert (
        "  dice thrown        8 into the tray (2 not read, rolled with the button instead; "
        "1 thrown again when the referee took them for the last die)"
    ) in text


def test_the_addresses_to_tell_a_phone():
    everywhere = page_addresses("0.0.0.0", 8080, lan="192.168.1.20")
    assert everywhere.local == "http://localhost:8080/"
    assert everywhere.phone == "http://192.168.1.20:8080/"
    here_only = page_addresses("127.0.0.1", 8080, lan="192.168.1.20")
    assert here_only.phone is None and "--host 0.0.0.0" in here_only.why_not_phone


def test_demo_refuses_an_unknown_game(capsys):
    assert main(["demo", "--game", "chess", "--port", "0", "--duration", "1"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_a_second_ctrl_c_while_the_demo_shuts_down_is_ignored():
    """Ctrl-C stops the demo; a second one during its shutdown cut the camera's closing short
    with a traceback. While the demo closes, interrupts are held (and restored after)."""
    import os
    import signal

    from device.demo import interrupts_held

    before = signal.getsignal(signal.SIGINT)
    with interrupts_held():
        os.kill(os.getpid(), signal.SIGINT)  # would raise KeyboardInterrupt here otherwise
    assert signal.getsignal(signal.SIGINT) is before
