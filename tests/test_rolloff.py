"""The shared opening roll-off: best roll starts, tied seats (only) roll again."""

from rules.rolloff import record_roll, start


def play(values, players=4, lowest=False):
    rolls, seat = start(players), 0
    for value in values:
        rolls, seat, decided = record_roll(rolls, seat, value, lowest)
        if decided:
            return seat, rolls
    return None, rolls


def test_highest_roll_starts():
    assert play([3, 6, 2, 5])[0] == 1


def test_only_the_tied_leaders_roll_again():
    winner, _ = play([6, 2, 6, 1, 4, 5])  # seats 0 and 2 tie on 6; then 0 rolls 4, 2 rolls 5
    assert winner == 2
    _, rolls = play([6, 2, 6, 1])
    assert rolls == (0, -1, 0, -1)


def test_lowest_roll_variant():
    assert play([3, 1, 2], players=3, lowest=True)[0] == 1
    assert play([1, 1, 4, 2, 5], players=3, lowest=True)[0] == 0  # 0 and 1 re-roll: 2 beats 5
