"""The roll after a 6 may be declined (MANJI-4.6, MANIP-2.2) through the referee: the table
page offers the decline as a move; a die the camera reads in the tray is the extra roll taken."""

from __future__ import annotations

import rules
from device.referee import Referee
from device.store import Store


def manipulation_after_a_six() -> Referee:
    game = rules.get("manipulation", players=4, options={"opening": "first-seat"})
    ref = Referee(game, store=Store(":memory:"))
    ref.roll("button", 6)
    ref.manual_move({"kind": "step", "player": 0, "colour": "red", "frm": "o01", "to": "o07"})
    assert ref.state.phase == "roll" and ref.state.to_move == 0
    return ref


def test_the_page_lists_the_decline_and_declining_passes_the_turn():
    ref = manipulation_after_a_six()
    legal = ref.snapshot()["legal"]
    assert {"kind": "decline", "player": 0, "colour": "red", "text": "red does not roll again"} in (
        legal
    )
    assert "may roll again" in ref.history()[-1]["ruling"]["text"]
    ruling = ref.manual_move({"kind": "decline", "player": 0, "colour": "red"})
    assert ruling["kind"] == "legal" and ruling["clauses"][0]["id"] == "MANIP-2.2"
    assert (ref.state.phase, ref.state.to_move) == ("roll", 1)
    assert not any(m["kind"] == "decline" for m in ref.snapshot()["legal"])


def test_a_die_read_in_the_tray_takes_the_extra_roll():
    ref = manipulation_after_a_six()
    placement = ref.game.placement(ref.state)
    ref.observe(placement, dice=[3], dice_owners=[0])
    assert (ref.state.phase, ref.state.to_move, ref.state.dice) == ("move", 0, 3)
    assert ref.history()[-1]["text"] == "red rolls 3"


def test_manji_two_sixes_then_stop_before_the_third():
    game = rules.get("manji", players=2, options={"opening": "first-seat"})
    ref = Referee(game, store=Store(":memory:"))
    ref.roll("button", 5)
    ref.manual_move(
        {
            "kind": "step",
            "player": 0,
            "colour": "red",
            "frm": "red-h1",
            "to": "t07",
            "route": "exit",
        }
    )
    ref.roll("button", 5)  # yellow brings a pawn out too
    ref.manual_move(
        {
            "kind": "step",
            "player": 1,
            "colour": "yellow",
            "frm": "yellow-h1",
            "to": "t45",
            "route": "exit",
        }
    )
    for to in ("t13", "t19"):
        ref.roll("button", 6)
        frm = next(s for s, c in game.placement(ref.state).items() if c == "red" and s[0] == "t")
        ref.manual_move({"kind": "step", "player": 0, "colour": "red", "frm": frm, "to": to})
    assert ref.state.sixes == 2 and ref.state.to_move == 0
    ruling = ref.manual_move({"kind": "decline", "player": 0, "colour": "red"})
    assert "no third 6" in ruling["text"]
    assert ref.state.to_move == 1 and game.placement(ref.state)["t19"] == "red"


def test_a_throw_in_the_next_players_tray_declines_the_extra_roll():
    ref = manipulation_after_a_six()
    placement = ref.game.placement(ref.state)
    ref.observe(placement, dice=[4], dice_owners=[1])  # yellow throws: red let the roll go
    texts = [entry["text"] for entry in ref.history()[-2:]]
    assert texts == ["red does not roll again", "yellow rolls 4"]
    assert (ref.state.phase, ref.state.to_move, ref.state.dice) == ("move", 1, 4)
    assert ref.history()[-2]["ruling"]["source"] == "camera"


def test_a_die_in_a_shared_tray_is_the_extra_roll_not_a_decline():
    ref = manipulation_after_a_six()
    ref.observe(ref.game.placement(ref.state), dice=[2])
    assert (ref.state.to_move, ref.state.dice) == (0, 2)
