"""The referee loop driven by placements (as the camera reports them) and die rolls."""

from __future__ import annotations

import itertools

import pytest

import rules
from device.referee import Referee
from device.store import Store
from webui.table import TableError


class FakePanel:
    """Records which pattern the referee asked for (the real Panel is tested on mock pins)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __getattr__(self, name: str):
        if name.startswith("show_") or name == "clear":
            return lambda: self.calls.append(name)
        raise AttributeError(name)

    def status(self) -> dict:
        return {"pattern": self.calls[-1] if self.calls else None}


def dice(*values: int):
    it = itertools.cycle(values)
    return lambda: next(it)


def make(values=(6,), players=4, **options) -> Referee:
    game = rules.get("aggravation", players=players, options={"opening": "first-seat", **options})
    return Referee(game, store=Store(":memory:"), panel=FakePanel(), roll_die=dice(*values))


def after(ref: Referee, move_text: str) -> dict:
    """The placement the camera would see after the legal move whose text is given."""
    game = ref.game
    move = next(m for m in game.legal_moves(ref.state) if str(m) == move_text)
    return game.placement(game.apply(ref.state, move))


def test_roll_then_camera_move_is_ruled_legal_with_effects():
    ref = make(values=(6,))
    ref.roll()
    ruling = ref.observe(after(ref, "red red-b1->t09 (start)"))
    assert ruling["kind"] == "legal"
    assert {e["kind"] for e in ruling["effects"]} == {"start", "extra_turn"}
    assert "AGG-3.1" in [c["id"] for c in ruling["clauses"]]
    assert ref.snapshot()["phase"] == "roll" and ref.snapshot()["to_move"] == 0  # AGG-2.1
    assert ref.panel.calls[-1] == "show_extra_turn"


def test_no_move_possible_is_announced_without_waiting_for_the_board():
    ref = make(values=(3,))
    snap = ref.roll()
    assert snap["ruling"]["kind"] == "pass"
    assert snap["ruling"]["clauses"][0]["id"] == "AGG-7.2"
    assert snap["to_move"] == 1 and snap["phase"] == "roll"


def test_illegal_attempt_is_held_until_the_board_is_put_back():
    ref = make(values=(6, 3))
    ref.roll()
    ref.observe(after(ref, "red red-b1->t09 (start)"))
    ref.roll()  # a 3: red's started marble may go t09 -> t12
    before = ref.game.placement(ref.state)
    wrong = dict(before)
    del wrong["t09"]
    wrong["t13"] = "red"  # four holes instead of three
    ruling = ref.observe(wrong)
    assert ruling["kind"] == "illegal"
    assert ruling["clauses"][0]["id"] == "AGG-4.1"
    assert ruling["fix"] == (
        "move your marble from the 2nd hole before the star hole in front of red's BASE "
        "back to red's START, then make a legal move"
    )
    assert ruling["fix_steps"] == [
        {"action": "off", "space": "t13", "colour": "red"},
        {"action": "back", "space": "t09", "colour": "red"},
    ]
    assert ref.panel.calls[-1] == "show_illegal"
    assert ref.snapshot()["moves"] == 3  # nothing applied
    ruling = ref.observe(before)
    assert ruling["kind"] == "restored"
    assert ref.panel.calls[-1] == "clear"
    legal = ref.observe(after(ref, "red t09->t12"))
    assert legal["kind"] == "legal"


def test_unclear_reading_waits_and_names_the_spaces():
    ref = make(values=(6,))
    ref.roll()
    ruling = ref.observe({"t09": "?"} | ref.game.placement(ref.state) | {"t09": "?"})
    assert ruling["kind"] == "unclear" and ruling["spaces"] == ["t09"]
    assert ref.snapshot()["moves"] == 1
    assert ref.panel.calls[-1] == "show_unclear"


def test_hand_over_the_board_is_not_a_ruling():
    ref = make(values=(6,))
    ref.roll()
    assert ref.observe(None, hand=True) is None
    assert ref.snapshot()["moves"] == 1


def test_die_read_in_the_tray_rolls_once_per_throw():
    ref = make(values=(1,))
    placement = ref.game.placement(ref.state)
    ref.observe(placement, dice=[6])
    assert ref.snapshot()["dice"] == 6 and ref.snapshot()["phase"] == "move"
    ref.observe(after(ref, "red red-b1->t09 (start)"), dice=[6])
    # the same die still lying in the tray is not a new throw
    assert ref.snapshot()["phase"] == "roll"
    ref.observe(ref.game.placement(ref.state), dice=[6])
    assert ref.snapshot()["phase"] == "roll"
    ref.observe(ref.game.placement(ref.state), hand=True)  # picked up
    ref.observe(ref.game.placement(ref.state), dice=[2])
    assert ref.snapshot()["phase"] == "move" and ref.snapshot()["dice"] == 2


def test_roll_out_of_turn_and_bad_moves_are_refused_without_changing_the_game():
    ref = make(values=(6,))
    ref.roll()
    with pytest.raises(TableError, match="not the time to roll"):
        ref.roll()
    with pytest.raises(TableError, match="bad move"):
        ref.manual_move({"kind": "teleport"})
    ruling = ref.manual_move(
        {"kind": "step", "player": 0, "colour": "red", "frm": "red-b1", "to": "t20"}
    )
    assert ruling["kind"] == "illegal" and ruling["clauses"][0]["id"] == "AGG-3.1"
    assert ref.snapshot()["moves"] == 1


def test_manual_move_undo_and_history():
    ref = make(values=(6,))
    ref.roll()
    ruling = ref.manual_move(
        {
            "kind": "step",
            "player": 0,
            "colour": "red",
            "frm": "red-b1",
            "to": "t09",
            "route": "start",
        }
    )
    assert ruling["kind"] == "legal"
    assert [h["text"] for h in ref.history()] == ["red rolls 6", "red red-b1->t09 (start)"]
    ref.undo()
    assert ref.snapshot()["phase"] == "move" and ref.snapshot()["moves"] == 1
    ref.undo()
    with pytest.raises(TableError, match="nothing to undo"):
        ref.undo()


def test_subscribers_receive_rulings_and_states():
    ref = make(values=(6,))
    q = ref.subscribe()
    ref.roll()
    kinds = [q.get_nowait()[0] for _ in range(q.qsize())]
    assert "ruling" in kinds and "state" in kinds
    ref.unsubscribe(q)
    assert q.empty()


def test_win_is_announced_with_its_clause():
    game = rules.get("aggravation", players=2, options={"opening": "first-seat"})
    ref = Referee(game, panel=FakePanel(), roll_die=dice(1))
    index = game.board.index
    homes = tuple(sorted(index[f"red-h{j}"] for j in (2, 3, 4)))
    entry = index["t09"] - 1  # t08: red's HOME entry
    state = game.initial_state()._replace(pieces=(tuple(sorted((entry, *homes))), (-1, -1, -1, -1)))
    ref._state = state
    ref.roll()
    ruling = ref.observe(after(ref, "red t08->red-h1"))
    assert ruling["kind"] == "win"
    assert any(e["kind"] == "win" and e["clause"] == "AGG-8.1" for e in ruling["effects"])
    assert ref.panel.calls[-1] == "show_win"
    with pytest.raises(TableError, match="game is over"):
        ref.roll()


def test_new_game_validates_and_keeps_the_old_game_on_error():
    ref = make(values=(6,))
    ref.roll()
    with pytest.raises(TableError, match="players"):
        ref.new_game("aggravation", 9, {})
    with pytest.raises(TableError, match="unknown game"):
        ref.new_game("chess", 2, {})
    assert ref.snapshot()["moves"] == 1
    snap = ref.new_game("aggravation", 2, {})
    assert snap["players"] == 2 and snap["moves"] == 0


def rolled_six_and_moved(box: tuple[int, int, int, int]) -> Referee:
    """Red's 6 read in the tray at `box` and its piece moved out: red rolls again (a 6), and
    the die that made the first roll still lies in the tray where it landed."""
    ref = make(values=(1,))
    ref.observe(ref.game.placement(ref.state), dice=[6], dice_boxes=[box])
    assert ref.snapshot()["phase"] == "move"
    ref.observe(after(ref, "red red-b1->t09 (start)"), dice=[6], dice_boxes=[box])
    assert ref.snapshot()["phase"] == "roll" and ref.state.to_move == 0
    return ref


DIE = (400, 300, 40, 40)  # the die's box in the frame: x, y, w, h


def test_a_hand_passing_over_the_die_does_not_make_it_a_new_throw():
    ref = rolled_six_and_moved(DIE)
    ref.observe(None, hand=True)  # a hand reaches over the board; nobody picks up the die
    ruling = ref.observe(ref.game.placement(ref.state), dice=[6], dice_boxes=[(402, 299, 41, 40)])
    assert ref.snapshot()["phase"] == "roll" and ref.snapshot()["moves"] == 2
    assert ruling["kind"] == "ignored" and "pick up the die and throw it again" in ruling["text"]
    ref.observe(None, hand=True)  # said once: the same die again says nothing more
    assert ref.observe(ref.game.placement(ref.state), dice=[6], dice_boxes=[DIE]) is None
    assert ref.snapshot()["moves"] == 2
    ref.roll("button")  # the button still rolls
    assert ref.snapshot()["phase"] == "move" and ref.snapshot()["dice"] == 1


def test_a_die_after_the_tray_was_seen_empty_is_a_new_throw():
    ref = rolled_six_and_moved(DIE)
    ref.observe(None, hand=True)
    ref.observe(ref.game.placement(ref.state), dice=[6], dice_boxes=[DIE])
    assert ref.snapshot()["phase"] == "roll"  # the hand alone re-arms nothing
    ref.observe(ref.game.placement(ref.state), dice=[])  # picked up: the tray is empty
    ref.observe(ref.game.placement(ref.state), dice=[6], dice_boxes=[DIE])  # landed on the spot
    assert ref.snapshot()["phase"] == "move" and ref.history()[-1]["text"] == "red rolls 6"


def test_a_die_seen_elsewhere_in_the_tray_is_a_new_throw():
    ref = rolled_six_and_moved(DIE)
    # thrown again without the camera seeing the tray empty or a hand: it landed elsewhere
    ref.observe(ref.game.placement(ref.state), dice=[6], dice_boxes=[(430, 310, 40, 40)])
    assert ref.snapshot()["phase"] == "move" and ref.history()[-1]["text"] == "red rolls 6"


def test_a_turned_die_seen_most_of_a_side_away_is_a_new_throw():
    turned = (392, 292, 56, 56)  # a 40 px die turned by 45 degrees: its box is 56 px
    ref = rolled_six_and_moved(turned)
    ref.observe(None, hand=True)
    # thrown again: it landed 0.6 of its side away, turned the same way, showing a 6 again
    ref.observe(ref.game.placement(ref.state), dice=[6], dice_boxes=[(412, 304, 56, 56)])
    assert ref.snapshot()["phase"] == "move" and ref.history()[-1]["text"] == "red rolls 6"


def test_a_die_showing_another_face_is_a_new_throw_only_after_a_hand():
    ref = rolled_six_and_moved(DIE)
    ref.observe(ref.game.placement(ref.state), dice=[5], dice_boxes=[DIE])  # a misread: no hand
    assert ref.snapshot()["phase"] == "roll"
    ref.observe(None, hand=True)
    ref.observe(ref.game.placement(ref.state), dice=[5], dice_boxes=[DIE])
    assert ref.snapshot()["phase"] == "move" and ref.history()[-1]["text"] == "red rolls 5"


def test_only_the_rollers_own_tray_counts_in_manipulation():
    """Manipulation: one die per player; a die in another player's tray is not this roll."""
    game = rules.get("manipulation", players=4, options={"opening": "first-seat"})
    ref = Referee(game, roll_die=dice(1))
    roller = ref.state.to_move
    other = (roller + 1) % 4
    placement = game.placement(ref.state)
    ref.observe(placement, dice=[6], dice_owners=[other])
    assert ref.snapshot()["moves"] == 0  # someone else's die
    ref.observe(placement, hand=True)
    ref.observe(placement, dice=[6, 3], dice_owners=[other, roller])
    assert ref.snapshot()["moves"] >= 1 and ref.history()[0]["text"].endswith("rolls 3")


def test_the_same_unclear_reading_is_announced_once():
    ref = make(values=(6,))
    ref.roll()
    seen = ref.game.placement(ref.state) | {"t09": "?"}
    first = ref.observe(seen)
    assert first["kind"] == "unclear"
    calls = len(ref.panel.calls)
    assert ref.observe(seen) is None  # nothing new to say, the amber light keeps going
    assert len(ref.panel.calls) == calls


def test_a_broken_panel_never_stops_the_referee():
    class BrokenPanel(FakePanel):
        def __getattr__(self, name):
            if name.startswith("show_") or name == "clear":

                def fail():
                    raise RuntimeError("the panel is closed")

                return fail
            raise AttributeError(name)

    game = rules.get("aggravation", players=2, options={"opening": "first-seat"})
    ref = Referee(game, panel=BrokenPanel(), roll_die=dice(6))
    ref.roll()
    assert ref.observe(after(ref, "red red-b1->t09 (start)"))["kind"] == "legal"
