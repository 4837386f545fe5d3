"""Manipulation's opening roll-off read from every player's tray at once.

Everyone throws together (MANIP-1.3): the referee enters each new die it sees in the tray of a
seat still to roll, in seat order, as single rolls are entered; a die in the tray of a seat that
has rolled, or is out of a re-roll, does not count and the page says so once. The referee is fed
readings as the pipeline hands them over; the pipeline test drives real frames of the simulated
table with a fake tray reader, to check the dice must hold still with no hand over the board.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import rules
from device.pipeline import Pipeline
from device.referee import Referee
from device.store import Store
from hardware.simcamera import SimulatedCamera, TableWorld
from vision.tray import TrayDie

RED, YELLOW, GREEN, BLUE = range(4)


def manipulation() -> rules.Game:
    return rules.get("manipulation", players=4, options={"opening": "roll-off"})


def referee(store: Store | None = None) -> Referee:
    return Referee(manipulation(), store=store, roll_die=lambda: 1)


def see(
    ref: Referee, trays: dict[int, int], at: dict[int, tuple[int, int]] | None = None
) -> dict | None:
    """The board as it stands with a die showing `trays[seat]` in each seat's tray, its
    top-left corner at `at[seat]` in the frame (a 30 px die; not given: place unknown)."""
    placement = ref.game.placement(ref.state)
    seats = sorted(trays)
    boxes = [(*at[s], 30, 30) if at and s in at else None for s in seats]
    return ref.observe(
        placement, dice=[trays[s] for s in seats], dice_owners=seats, dice_boxes=boxes
    )


def hand(ref: Referee) -> None:
    ref.observe(None, hand=True)


def rolls(ref: Referee) -> list[str]:
    return [entry["text"] for entry in ref.history()]


def test_four_dice_in_four_trays_are_four_rolls_in_seat_order():
    ref = referee()
    ruling = see(ref, {BLUE: 2, GREEN: 3, YELLOW: 5, RED: 4})
    assert rolls(ref) == ["red rolls 4", "yellow rolls 5", "green rolls 3", "blue rolls 2"]
    assert all(e["ruling"]["source"] == "camera" for e in ref.history())
    assert ruling["text"] == "blue rolled 2"
    assert "MANIP-1.4" in [c["id"] for c in ruling["clauses"]]  # the last roll decided it
    snap = ref.snapshot()
    assert (snap["phase"], snap["to_move"], snap["dice"]) == ("move", YELLOW, 5)


def test_a_tie_is_rethrown_by_the_tied_seats_only_and_the_others_are_told_once():
    ref = referee()
    see(ref, {RED: 6, YELLOW: 2, GREEN: 6, BLUE: 1})
    assert ref.state.phase == "opening" and ref.state.rolloff == (0, -1, 0, -1)
    assert see(ref, {RED: 6, YELLOW: 2, GREEN: 6, BLUE: 1}) is None  # the same dice: entered
    hand(ref)  # red and green pick up their dice; yellow and blue throw again all the same
    ruling = see(ref, {YELLOW: 4, BLUE: 3})
    assert ruling["kind"] == "ignored" and len(rolls(ref)) == 4
    told = ruling["effects"]
    assert [(e["player"], e["clause"]) for e in told] == [
        (YELLOW, "MANIP-1.3"),
        (BLUE, "MANIP-1.3"),
    ]
    assert "yellow is out of the roll-off" in told[0]["text"]
    hand(ref)  # red and green throw again
    ruling = see(ref, {RED: 3, YELLOW: 4, GREEN: 5, BLUE: 3})
    assert rolls(ref)[4:] == ["red rolls 3", "green rolls 5"]
    assert not [e for e in ruling["effects"] if e["kind"] == "ignored"]  # said once already
    assert (ref.state.phase, ref.state.to_move, ref.state.dice) == ("move", GREEN, 5)


def test_a_tied_players_unmoved_die_is_not_their_rethrow():
    ref = referee()
    places = {RED: (100, 50), YELLOW: (600, 300), GREEN: (300, 700), BLUE: (40, 400)}
    see(ref, {RED: 6, YELLOW: 2, GREEN: 6, BLUE: 1}, places)
    assert ref.state.rolloff == (0, -1, 0, -1)  # red and green tie: they throw again
    hand(ref)  # a hand passes over the board; red's and green's dice have not moved
    ruling = see(ref, {RED: 6, YELLOW: 2, GREEN: 6, BLUE: 1}, places)
    assert len(rolls(ref)) == 4 and ref.state.rolloff == (0, -1, 0, -1)
    told = [e for e in ruling["effects"] if "pick up the die" in e["text"]]
    assert [e["player"] for e in told] == [RED, GREEN]
    hand(ref)  # red throws again: the die lands elsewhere; green's still lies where it was
    see(ref, {RED: 6, YELLOW: 2, GREEN: 6, BLUE: 1}, places | {RED: (160, 60)})
    assert rolls(ref)[4:] == ["red rolls 6"] and ref.state.rolloff == (6, -1, 0, -1)
    see(ref, {RED: 6, YELLOW: 2, GREEN: 4, BLUE: 1}, places | {RED: (160, 60)})  # green: 4
    assert rolls(ref)[4:] == ["red rolls 6", "green rolls 4"]
    assert (ref.state.phase, ref.state.to_move, ref.state.dice) == ("move", RED, 6)


def test_a_die_in_the_tray_of_a_seat_that_already_rolled_does_not_count():
    ref = referee()
    ref.roll("web", value=3)  # red rolls on the page; red's die lies in red's tray showing 5
    hand(ref)
    ruling = see(ref, {RED: 5, YELLOW: 4})
    assert rolls(ref) == ["red rolls 3", "yellow rolls 4"]
    assert ruling["text"] == "yellow rolled 4"
    [note] = [e for e in ruling["effects"] if e["kind"] == "ignored"]
    assert note["player"] == RED and "red has already rolled" in note["text"]
    hand(ref)
    assert see(ref, {RED: 5, YELLOW: 4}) is None  # nothing new: nothing entered, nothing said
    assert ref.state.rolloff == (3, 4, 0, 0)
    see(ref, {GREEN: 6})  # green's die lands later: it still rolls from its tray
    assert rolls(ref)[-1] == "green rolls 6"


def test_a_seat_whose_die_is_not_seen_rolls_later():
    ref = referee()
    see(ref, {YELLOW: 2, BLUE: 6})
    assert ref.state.rolloff == (0, 2, 0, 6) and ref.state.to_move == RED
    ref.roll("web", value=4)  # the button throws for red, the first seat still to roll
    assert ref.state.rolloff == (4, 2, 0, 6) and ref.state.to_move == GREEN
    see(ref, {YELLOW: 2, GREEN: 1, BLUE: 6})
    assert rolls(ref) == ["yellow rolls 2", "blue rolls 6", "red rolls 4", "green rolls 1"]
    assert (ref.state.phase, ref.state.to_move, ref.state.dice) == ("move", BLUE, 6)


def test_a_restart_from_the_log_replays_the_rolls_read_at_once(tmp_path: Path):
    database = tmp_path / "boardref.sqlite3"
    first = referee(Store(database))
    see(first, {RED: 6, YELLOW: 2, GREEN: 6, BLUE: 1})
    hand(first)
    see(first, {RED: 1, GREEN: 4})
    before = first.snapshot()
    first._store.close()
    again = referee(Store(database))
    assert again.resumed and again.state == first.state
    assert [e["text"] for e in again.history()] == rolls(first)
    after = again.snapshot()
    for key in ("phase", "to_move", "dice", "placement", "moves", "state"):
        assert after[key] == before[key], key
    assert (after["phase"], after["to_move"], after["dice"]) == ("move", GREEN, 4)
    again._store.close()


@pytest.fixture
def table(monkeypatch):
    """Real frames of the simulated Manipulation table; the trays read from `dice` (seat ->
    value), since the simulated table throws every die into one tray."""
    ref = referee()
    world = TableWorld(placement=ref.game.placement(ref.state))
    camera = SimulatedCamera(ref.game.board, world, seed=5, fps=0)
    pipeline = Pipeline(ref, camera, frames_required=2)
    dice: dict[int, int] = {}
    places: dict[int, tuple[int, int]] = {}  # seat -> the die's top-left corner (else 0, 0)
    trays = {r.owner: r.name for r in ref.game.board.regions if "tray" in r.name}

    def read_trays(image, board, homography, detail=None):
        return [
            TrayDie(v, *places.get(s, (0, 0)), 30, 30, 0.9, trays[s], s)
            for s, v in sorted(dice.items())
        ]

    monkeypatch.setattr(pipeline.trays, "read", read_trays)

    def frames(n: int) -> None:
        for _ in range(n):
            pipeline.process(camera.read().image)

    frames(2)  # calibrate on the starting position
    frames.places = places
    return ref, world, dice, frames


def test_the_pipeline_enters_every_tray_once_the_dice_hold_still(table):
    ref, world, dice, frames = table
    dice.update({RED: 2, GREEN: 5})
    frames(1)
    assert rolls(ref) == []  # one frame is not a reading
    dice.update({YELLOW: 5, BLUE: 3})  # the last two dice land: settling starts again
    frames(1)
    assert rolls(ref) == []
    frames(1)
    assert rolls(ref) == ["red rolls 2", "yellow rolls 5", "green rolls 5", "blue rolls 3"]
    assert ref.state.rolloff == (-1, 0, 0, -1)  # yellow and green tie on 5
    world.set(hand=True)  # they pick up their dice
    dice.pop(YELLOW), dice.pop(GREEN)
    frames(3)
    world.set(hand=False)
    dice.update({YELLOW: 6, GREEN: 1})
    frames(3)
    assert rolls(ref)[4:] == ["yellow rolls 6", "green rolls 1"]
    assert (ref.state.phase, ref.state.to_move, ref.state.dice) == ("move", YELLOW, 6)


def test_the_pipeline_reads_no_die_under_a_hand(table):
    ref, world, dice, frames = table
    world.set(hand=True)
    dice.update({RED: 4, YELLOW: 1, GREEN: 2, BLUE: 3})
    frames(4)
    assert rolls(ref) == []
    world.set(hand=False)
    frames(2)
    assert len(rolls(ref)) == 4


def test_the_pipeline_takes_a_rethrow_that_lands_elsewhere_on_the_same_face(table):
    """No hand seen, the tray never seen empty (a quick throw): a die at a new place is a new
    throw, even showing the value it showed before; a die that stays put is not."""
    ref, world, dice, frames = table
    dice.update({RED: 2, YELLOW: 5, GREEN: 5, BLUE: 3})
    frames(3)
    assert ref.state.rolloff == (-1, 0, 0, -1)  # yellow and green tie on 5
    frames(4)  # the same dice where they were: nothing new
    assert len(rolls(ref)) == 4
    frames.places.update({YELLOW: (60, 0), GREEN: (0, 45)})  # both thrown again: 5 and 5
    frames(3)
    assert rolls(ref)[4:] == ["yellow rolls 5", "green rolls 5"]  # a tie again
