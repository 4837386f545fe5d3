"""Playground Battles through the camera referee: an attack is accepted only from the contest
picture (attacker on the defender's square), then the result is announced and the referee waits
for the loser's stand to come off; every other picture gets the same ruling whatever the hidden
kinds (issue 15). Two referees play the same public game; only blue's e8 kind differs."""

from __future__ import annotations

import json

import rules
from device.referee import Referee
from device.store import Store
from tests.test_playground_battles import pos
from tests.test_referee import FakePanel

KIND_WORDS = ("rock", "paper", "scissors")
RED_KINDS = ["rock", "paper", "scissors", "paper", "rock"] + [
    "scissors",
    "rock",
    "paper",
    "rock",
    "rock",
]
RED = {f"{c}1": k for c, k in zip("abcdefghij", RED_KINDS, strict=True)}  # e1: rock


def blue(e8: str) -> dict[str, str]:
    kinds = ["paper", "rock", "scissors", "paper", e8, "rock", "scissors", "paper", "rock", "rock"]
    return {f"{c}8": k for c, k in zip("abcdefghij", kinds, strict=True)}


def referee_at_the_attack(e8: str) -> Referee:
    """Red's rock on e7 beside blue's `e8` piece, red to move with a 1."""
    ref = Referee(rules.get("playground-battles"), store=Store(":memory:"), panel=FakePanel())
    ref.seat_assign(0, RED)
    ref.seat_assign(1, blue(e8))
    ref.seat_hand(0, "rock")
    ref.seat_hand(1, "scissors")
    ref.roll("camera", 6)
    ref.manual_move({"kind": "step", "player": 0, "colour": "red", "frm": "e1", "to": "e7"})
    ref.roll("camera", 6)
    ref.manual_move({"kind": "step", "player": 1, "colour": "blue", "frm": "a8", "to": "a2"})
    ref.roll("camera", 1)
    assert ref.state.phase == "move" and ref.state.actor == 0
    return ref


def public(ruling: dict | None) -> str:
    if ruling is None:
        return "null"
    return json.dumps({k: v for k, v in ruling.items() if k not in ("at",)}, sort_keys=True)


def board(ref: Referee) -> dict[str, str]:
    return dict(ref.game.placement(ref.state))


def test_pictures_other_than_the_contest_are_ruled_the_same_whatever_the_kinds():
    wins, loses = referee_at_the_attack("scissors"), referee_at_the_attack("paper")
    start = board(wins)
    assert start == board(loses)
    moved = {s: c for s, c in start.items() if s != "e7"}
    for seen in (
        moved,  # red's stand lifted off: not a lost attack
        {s: c for s, c in start.items() if s != "e8"},  # blue's stand lifted: no battle
        dict(moved, e8="red"),  # the attack shown already settled
        {s: c for s, c in moved.items() if s != "e8"},  # both lifted
    ):
        a, b = wins.observe(seen), loses.observe(seen)
        assert public(a) == public(b)
        assert a is not None and a["kind"] == "unclear" and "battle" not in a
        assert not any(w in json.dumps(a) for w in KIND_WORDS)
        assert wins.state == referee_at_the_attack("scissors").state  # nothing applied
        wins.observe(start)
        loses.observe(start)
    assert "missing from e7" in wins.observe(moved)["text"]


def test_the_contest_picture_announces_the_result_then_waits_for_the_loser_to_go():
    for e8, winner, off in (("scissors", "red", "blue"), ("paper", "blue", "red")):
        ref = referee_at_the_attack(e8)
        seen = {s: c for s, c in board(ref).items() if s != "e7"}
        seen["e8"] = "red+blue"
        ruling = ref.observe(seen)
        assert ruling["kind"] == "legal" and ruling["battle"]["result"] == (
            "won" if winner == "red" else "lost"
        )
        assert f"{winner} " in ruling["text"] and e8 in ruling["text"] and "rock" in ruling["text"]
        assert ref.state.phase == "roll" and ref.state.to_move == 1
        waiting = ref.observe(seen)  # both stands still there
        assert waiting["kind"] == "unclear"
        assert f"take the {off} piece off e8" in waiting["text"]
        assert ref.state.to_move == 1 and len(ref.history()) == 9
        settled = dict(seen, e8=winner)
        assert ref.observe(settled) is None  # the board matches: carry on
        assert board(ref)["e8"] == winner and ref.state.phase == "roll"


def test_a_rescue_taking_the_last_piece_is_won_at_once():
    game = rules.get("playground-battles")
    ref = Referee(game, store=Store(":memory:"), panel=FakePanel())
    # blue's last piece is in the stalemate on e5; red's paper on e4 beats its rock
    ref._state = pos(game, {"e5": "rock", "e4": "paper"}, {"e5": "rock"}, dice=1)
    seen = {s: c for s, c in board(ref).items() if s != "e4"}  # the rescuer joins e5
    ruling = ref.observe(seen)
    assert ruling["kind"] == "win" and ruling["battle"]["result"] == "rescued"
    assert game.outcome(ref.state).winners == (0,)
    assert game.outcome(ref.state).clause.id == "PB-7.2"
    assert not any(e["kind"] == "choose" for e in ruling["effects"])
