"""Spaces and fixes in players' words (rules/wording.py), checked against the board designs in
docs/games/ (red's START is t09 on the four-arm Aggravation board, Manji's red exit square is
t07 and its arrival square t06, The Right Moves numbers each circle from 12 o'clock)."""

from __future__ import annotations

import pytest

import rules
from rules.wording import FixStep, fix_sentence, fix_steps, ordinal, space_names


def names(game: str, **kw):
    g = rules.get(game, **kw)
    return space_names(g.board, g.name)


def test_ordinals():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st",
    ]  # fmt: skip


def test_aggravation_counts_holes_from_the_nearest_start_or_star():
    n = names("aggravation", players=4)
    assert n["t09"] == "red's START"
    assert n["t10"] == "the hole just after red's START"
    assert n["t12"] == "the 3rd hole after red's START"
    assert n["t08"] == "the hole just before red's START"
    assert n["red-b2"] == "red's BASE"
    assert n["red-h1"] == "the 1st hole of red's HOME"
    assert n["ctr"] == "the centre hole"
    assert n["t01"].startswith("the star hole in front of ")


def test_manji_and_manipulation_use_their_rulebooks_words():
    manji = names("manji")
    assert manji["t07"] == "red's exit square"
    assert manji["t06"] == "red's arrival square"
    assert manji["t08"] == "the square just after red's exit square"
    assert manji["red-l2"] == "the 2nd square of red's lane"
    manip = names("manipulation")
    assert manip["o01"] == "red's Starting Position"
    assert manip["o07"] == "the Beast between red and yellow"
    assert manip["world"] == "The World"


def test_the_right_moves_says_where_on_the_clock():
    n = names("the-right-moves")
    assert n["a1"] == "the inner circle at 12 o'clock"
    assert n["a2"] == "the inner circle at 3 o'clock"
    assert n["d1"] == "the outer circle at 12 o'clock"
    assert n["d9"] == "the outer circle at 3 o'clock"


@pytest.mark.parametrize("game", rules.names())
def test_every_space_has_a_name_that_is_not_its_bare_id(game):
    g = rules.get(game)
    n = space_names(g.board, g.name)
    for space in g.board.spaces:
        assert n[space.id] and n[space.id] != space.id


def test_fix_steps_take_off_what_is_extra_and_put_back_what_is_missing():
    expected = {"t09": "red", "t20": "blue"}
    seen = {"t13": "red", "t20": "blue"}
    assert fix_steps(expected, seen) == [
        FixStep("off", "t13", "red"),
        FixStep("back", "t09", "red"),
    ]
    assert fix_steps(expected, dict(expected)) == []


def test_fix_sentence_speaks_to_the_player_who_moved():
    n = names("aggravation", players=4)
    steps = [FixStep("off", "t12", "red"), FixStep("back", "t09", "red")]
    assert fix_sentence(steps, n, token="marble", mover="red") == (
        "move your marble from the 3rd hole after red's START back to red's START"
    )
    assert fix_sentence(steps, n, token="marble", mover="blue") == (
        "move the red marble from the 3rd hole after red's START back to red's START"
    )
    lone = [FixStep("off", "t10", "blue")]
    assert fix_sentence(lone, n, token="marble", mover="red") == (
        "take the blue marble off the hole just after red's START"
    )
    assert fix_sentence([], n) == "put the board back as it was"


def test_a_two_player_manipulation_names_the_colours_printed_on_the_board():
    """Player 1 plays red and green: green's Starting Position is still green's."""
    n = names("manipulation", players=2)
    assert n["o25"] == "green's Starting Position"
    assert n["o31"] == "the Beast between green and blue"
