"""The plain photo reader (scale unknown) on drawn dice lying in a board's tray, cut out as
`bench vision --parts drawn_dice_sweep` cuts them, and on real photos shrunk as the scale
sweep shrinks them: each die here was once given a wrong value; now it is read right or
declined. A tray crop holds one die, and a board's print beside the tray (its spaces,
lines, letters)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import rules
from tests.drawn_dice import drawn_tray_crop
from vision.dice import read_dice
from vision.dice_eval import load_yolo_labels, match
from vision.dice_sweep import degrade

DATA = Path(__file__).parent / "data" / "dice"


def _drawn_crop(game: str, table_seed: int, value: int, die_px: float, look, noise_seed=0):
    """A tray crop as the bench cuts it (see `tests.drawn_dice`), the tray the board's first
    region named a tray."""
    tray = next(r for r in rules.get(game).board.regions if "tray" in r.name)
    rng = np.random.default_rng(noise_seed)
    return drawn_tray_crop(game, table_seed, value, die_px, look, rng, tray.name)


def _values(crop) -> list[int]:
    return [r.value for r in read_dice(crop)]


def test_a_pattern_of_far_bigger_spots_does_not_outrank_a_die_as_its_top_face():
    # a five at 40 px beside a tray whose board prints four red discs in a square: the
    # discs, pips three times the five's, were taken for the die's top face and the five
    # for its side face; the network then read the five with its side face's pip as a six
    # (the network, which sees the six, now has the five declined: no other value is read)
    crop = _drawn_crop("manipulation", 13 * 7919 + 5, 5, 40, (0.0, 0.0))
    assert _values(crop) in ([5], [])


def test_dark_red_discs_are_no_pips_of_a_white_die():
    # four dark red discs on tinted paper (a board's start area) were read as a four;
    # the die itself, 16 px, is too small to read
    crop = _drawn_crop("manipulation", 47 * 7919 + 9, 3, 16, (0.0, 0.0))
    assert _values(crop) in ([3], [])
    assert 4 not in _values(crop)


def test_one_column_of_a_six_is_no_three():
    # a six at 32 px whose other column's pips differ a little in shape (shaded beside a
    # side face) was read as a three from one column
    crop = _drawn_crop("manipulation", 2 * 7919 + 1, 6, 32, (0.0, 0.0))
    assert _values(crop) in ([6], [])


def test_a_six_split_into_two_threes_is_no_three_where_the_network_looks():
    # a blurred six at 40 px: the counter fitted each column as a three and declined both
    # (a column runs on beside its parallel one), but only the face it had doubted first
    # was unmarked, and the network read a three there
    crop = _drawn_crop("aggravation", 410 * 7919, 6, 40, (1.0, 4.0))
    assert _values(crop) in ([6], [])


def test_a_side_face_set_aside_is_not_read_with_the_top_faces_pip_as_a_six():
    # a blurred one at 40 px seen low, its side face's five beside it: the counter set the
    # five aside as a side face, and the network then read the five's pips with the one's
    # as a six
    crop = _drawn_crop("manipulation", 404 * 7919 + 1, 1, 40, (1.0, 4.0), noise_seed=1)
    assert _values(crop) in ([1], [])


def test_a_row_of_a_six_beside_its_other_row_half_run_together_is_no_three():
    # a six at 32 px: two pips of its far row merged into one blob, so its near row,
    # matched pip for pip by no pip of its shape, was read as a three
    crop = _drawn_crop("playground-battles", 420 * 7919 + 7, 6, 32, (0.0, 0.0))
    assert _values(crop) in ([6], [])


def test_a_pip_of_a_two_whose_other_pip_is_drawn_out_the_other_way_is_no_one():
    # a two at 32 px, both its pips round but each drawn out a little its own way, so no
    # one ellipse fitted both: the pip with its side face's pips beside it was left out
    # and the other read as a one
    crop = _drawn_crop("playground-battles", 422 * 7919 + 3, 2, 32, (0.0, 0.0))
    assert _values(crop) in ([2], [])


@pytest.mark.parametrize(
    ("game", "table_seed", "die_px", "noise_seed"),
    [
        ("playground-battles", 424 * 7919 + 11, 24, 0),
        ("playground-battles", 424 * 7919 + 11, 24, 1),
        ("manipulation", 411 * 7919 + 9, 16, 1),
        ("manipulation", 411 * 7919 + 9, 16, 2),
    ],
)
def test_a_blurred_two_whose_other_pip_is_lost_is_no_one(game, table_seed, die_px, noise_seed):
    # a small blurred two: its second pip merged into its side face's edge, and its first,
    # faint, was read as a one by a doubtful counter with a doubtful network (0.71-0.79).
    # (With noise seed 5 the 16 px two is still read as a one: the network is surer there.)
    crop = _drawn_crop(game, table_seed, 2, die_px, (1.0, 4.0), noise_seed)
    assert _values(crop) in ([2], [])


def test_a_column_of_a_six_whose_other_column_lost_a_pip_is_no_three():
    # a six at 32 px, one pip of its far column lost: the near column, matched by no whole
    # parallel line, was read as a three whose pips nearly touch (1.71 pip radii)
    crop = _drawn_crop("aggravation", 436 * 7919 + 4, 6, 32, (0.0, 0.0))
    assert _values(crop) in ([6], [])


def test_a_four_read_from_two_of_its_pips_is_no_two():
    # a four at 40 px, one of its columns a little shaded beside a side face: its other
    # column was read as a two (the parallel column's pips, round as the two's, differed
    # a little more in shape than a side face's pips may)
    crop = _drawn_crop("manji", 10 * 7919 + 6, 4, 40, (0.0, 0.0))
    assert _values(crop) in ([4], [])


@pytest.mark.parametrize(
    "game, table_seed, value, die_px, look",
    [
        # a one with a side face's two beside it (32 px) read as a four by the network
        ("manji", 7 * 7919 + 2, 1, 32, (0.0, 0.0)),
        # a two with a side face's dark edge (40 px, blurred) read as a six
        ("manji", 9 * 7919 + 6, 2, 40, (1.0, 4.0)),
    ],
)
def test_the_network_reads_no_face_whose_round_pips_are_too_few(
    game, table_seed, value, die_px, look
):
    crop = _drawn_crop(game, table_seed, value, die_px, look)
    assert _values(crop) in ([value], [])


def test_a_grid_of_printed_spots_is_no_four():
    # a board's grey spaces where its lines cross (rows of them running on beyond the
    # four) were read as a four; the die, 12 px, is too small to read
    crop = _drawn_crop("manipulation", 9 * 7919 + 9, 3, 12, (1.0, 4.0))
    assert _values(crop) in ([3], [])


@pytest.mark.parametrize("name, die_px", [("dice_11", 24), ("dice_42", 16)])
def test_a_ones_pip_and_its_side_faces_pip_are_no_two(name, die_px):
    # real photos of ones seen from the side, shrunk until a die spans 24 or 16 px,
    # blurred and noisy (as `vision.dice_sweep` does): the one's pip and a pip of its side
    # face, further apart than any two of these dice, were read as a two (on the code
    # before: 6 of these 30 looks at dice_11, 12 of 30 at dice_42)
    image = cv2.imread(str(DATA / f"{name}.jpg"))
    labels = load_yolo_labels(DATA / f"{name}.txt", image.shape[1], image.shape[0])
    for seed in range(30):
        img, moved = degrade(image, labels, die_px, 1.0, 4.0, np.random.default_rng(seed))
        readings = read_dice(img)
        for i, j in match(readings, moved):
            assert readings[i].value == moved[j].value, (name, seed, readings[i], moved[j])


@pytest.mark.parametrize(
    "game, table_seed, value, die_px",
    [
        # a six seen low, its pip columns run together: the counter read a five where the
        # network saw a six (sweep seed 109)
        ("aggravation", 109 * 7919 + 0, 6, 32),
        # a six seen low beside a side face: the counter read a three or a four from part
        # of it where the network saw no top face (sweep seed 306)
        ("playground-battles", 306 * 7919 + 7, 6, 40),
        ("manipulation", 306 * 7919 + 1, 6, 32),
    ],
)
def test_a_pip_count_the_network_disputes_is_declined(game, table_seed, value, die_px):
    crop = _drawn_crop(game, table_seed, value, die_px, (0.0, 0.0))
    assert _values(crop) in ([value], [])


@pytest.mark.parametrize(
    "game, table_seed, value, die_px, look, noise_seed",
    [
        # where the pip finder found too few pips: the board's print beside the tray ("RED
        # DICE TRAY" in small letters) read as a six by the network alone (one blob found
        # there, or two)
        ("manipulation", 303 * 7919 + 9, 5, 32, (0.0, 0.0), 0),
        ("manipulation", 202 * 7919 + 9, 2, 40, (1.0, 4.0), 3),
        # ... a printed line beside a four read as a three: one thin stroke, no pips run
        # together
        ("playground-battles", 304 * 7919 + 7, 4, 24, (1.0, 4.0), 3),
        # where the pips are sharp and the counter fitted no such value: a side face seen
        # low, its three pips sharp, read as a three beside the one on top
        ("playground-battles", 209 * 7919 + 7, 1, 40, (0.0, 0.0), 0),
        # ... a two's (a three's) pips and its side face's, sharp enough, read as a six
        ("playground-battles", 106 * 7919 + 11, 2, 40, (1.0, 4.0), 2),
        ("manji", 301 * 7919 + 10, 3, 32, (1.0, 4.0), 0),
        # where the pips found sit off the value's layout:
        # a five at 32 px, sharp, seen low: its pips and two of its side face's (one of its
        # own lost at the die's edge) read as a six by the network alone (sweep seed 426)
        ("playground-battles", 426 * 7919 + 3, 5, 32, (0.0, 0.0), 0),
        # fours, blurred, with two pips of a side face beside them read as sixes: the side
        # face's row nearer the four's than a six's rows lie (sweep seed 431), or askew, a
        # two's diagonal (sweep seeds 437, 460)
        ("playground-battles", 431 * 7919 + 11, 4, 32, (1.0, 4.0), 0),
        ("playground-battles", 437 * 7919 + 7, 4, 24, (1.0, 4.0), 1),
        ("aggravation", 460 * 7919 + 4, 4, 24, (1.0, 4.0), 0),
        # where the pips found are drawn out crossways, no one plane's: a two at 24 px seen
        # low, its pips run together with two side faces' rows, read as a six by the
        # network alone (sweep seed 510)
        ("manji", 510 * 7919 + 6, 2, 24, (0.0, 0.0), 0),
    ],
)
def test_the_network_alone_reads_no_face_the_pip_finder_does_not_bear_out(
    game, table_seed, value, die_px, look, noise_seed
):
    crop = _drawn_crop(game, table_seed, value, die_px, look, noise_seed)
    assert _values(crop) in ([value], [])


@pytest.mark.parametrize(
    "game, table_seed, value, die_px, look",
    [
        # a six at 32 px, blurred, seen low: the finder lost its middle pips, and its side
        # face's two, as round, was read where the network is sure of the six beside it
        # (sweep seed 498)
        ("aggravation", 498 * 7919 + 4, 6, 32, (1.0, 4.0)),
        # a two at 24 px seen low: its corner pip ran into its side face's edge, and its
        # other pip was read as a one where the network is sure of a six over the die
        # (sweep seed 519)
        ("manji", 519 * 7919 + 6, 2, 24, (0.0, 0.0)),
    ],
)
@pytest.mark.xfail(
    strict=True,
    reason="not fixed (issue 19): declining a count beside or under a face of more pips the "
    "network is sure of lost 29 of 1103 right readings on the development seeds and 53 "
    "in the real photos",
)
def test_a_count_beside_a_face_of_more_pips_the_network_is_sure_of_is_declined(
    game, table_seed, value, die_px, look
):
    crop = _drawn_crop(game, table_seed, value, die_px, look)
    assert _values(crop) in ([value], [])


def test_a_count_the_network_is_sure_has_more_pips_where_it_lies_is_declined():
    # a six at 32 px, blurred: the counter lost a column's pip and fitted a five; the
    # network's look right there was 0.998 sure of a six, its search had drifted off and
    # its four turned looks together only 0.72 (sweep seed 537, per_size 12; 10 of 12
    # noise draws read a five before)
    crop = _drawn_crop("playground-battles", 537 * 7919 + 7, 6, 32, (1.0, 4.0), noise_seed=0)
    assert _values(crop) in ([6], [])


def test_a_strong_one_is_no_two_of_the_network():
    # a one at 40 px, blurred, seen low: the network read its pip and its side face's as
    # a two where the pip counter had fitted a strong one (one pip on bare body)
    crop = _drawn_crop("manji", 111 * 7919 + 10, 1, 40, (1.0, 4.0), noise_seed=0)
    assert _values(crop) in ([1], [])


@pytest.mark.parametrize("die_px, noise_seed", [(32, 0), (24, 0), (24, 3)])
def test_a_blurred_one_the_network_sees_no_face_on_is_declined(die_px, noise_seed):
    # a two seen low, blurred: its second pip merged into the side face's dark edge and
    # the counter read a one, where the network saw no top face (sweep seed 207)
    crop = _drawn_crop("playground-battles", 207 * 7919 + 3, 2, die_px, (1.0, 4.0), noise_seed)
    assert _values(crop) in ([2], [])


def test_a_blurred_one_the_network_sees_no_face_on_as_the_photo_lies_is_declined():
    # a two at 24 px, blurred, seen low: its second pip lost in the side face's edge, the
    # counter read a less than crisp one; the network saw no top face there 0.80 sure as
    # the photo lies, 0.69 over its four turned looks (sweep seed 541, per_size 12; 5 of
    # 12 noise draws read a one before)
    crop = _drawn_crop("manji", 541 * 7919 + 2, 2, 24, (1.0, 4.0), noise_seed=0)
    assert _values(crop) in ([2], [])


@pytest.mark.parametrize(
    "game, table_seed, value, die_px, look, noise_seed",
    [
        # a six at 24 px, blurred, in a tray edged by a dashed line: the network read three
        # of the dashes as a three, three times over (sweep seed 445)
        ("manipulation", 445 * 7919 + 1, 6, 24, (1.0, 4.0), 0),
        # a one at 24 px, blurred, beside a tray's dashed edge: dashes read as a three and
        # the one with its side faces' pips as a four (sweep seed 443)
        ("manji", 443 * 7919 + 10, 1, 24, (1.0, 4.0), 1),
        # a four at 40 px beside Aggravation's track: three of its holes read as a three
        # by the counter, sure of it, the next hole cut by the crop's edge (sweep seed 456)
        ("aggravation", 456 * 7919 + 8, 4, 40, (0.0, 0.0), 0),
        # a one at 40 px in Aggravation's tray: three holes of the track read as a three by
        # the counter, sure of it, the fourth cut by the crop's edge to a drawn-out sliver
        # (sweep seed 541)
        ("aggravation", 541 * 7919 + 4, 1, 40, (0.0, 0.0), 0),
    ],
)
def test_a_printed_line_is_no_face(game, table_seed, value, die_px, look, noise_seed):
    crop = _drawn_crop(game, table_seed, value, die_px, look, noise_seed)
    assert _values(crop) in ([value], [])


def test_the_network_reads_no_face_alone_below_the_size_it_was_seen_to_read_right():
    # a one at 24 px, sharp, seen low: the network alone read it with its side faces' pips
    # as a four in a 30 px box (sweep seed 440); in the real photos the faces it read
    # alone right span 35 px or more
    crop = _drawn_crop("playground-battles", 440 * 7919 + 11, 1, 24, (0.0, 0.0), noise_seed=0)
    assert _values(crop) in ([1], [])


@pytest.mark.parametrize(
    "game, table_seed, value, die_px",
    [
        # a five at 40 px and a three at 32 px on a die at a board's edge, seen low: its
        # front face's six shows almost as squarely as the top, and its pips, just beyond
        # the top's, had the top refused as part of a bigger face; the six was read as the
        # top (sweep seed 481)
        ("playground-battles", 481 * 7919 + 7, 5, 40),
        ("playground-battles", 481 * 7919 + 7, 3, 32),
        # ... and a three beside its side face's six, the six beyond it (sweep seed 470)
        ("manji", 470 * 7919 + 10, 3, 32),
    ],
)
def test_a_side_face_is_not_read_where_it_had_the_top_face_refused(game, table_seed, value, die_px):
    crop = _drawn_crop(game, table_seed, value, die_px, (0.0, 0.0))
    assert _values(crop) in ([value], [])


def test_a_side_face_is_not_read_beside_a_top_whose_pips_fit_its_layout_but_not_its_body():
    # a six at 32 px, blurred, at a tray's edge, seen low: its front face's five shows
    # almost as squarely and was read as the top; the six's pips fit its layout, but its
    # bare-body check failed, so it was no rival and the five stood (sweep seed 533)
    crop = _drawn_crop("aggravation", 533 * 7919 + 4, 6, 32, (1.0, 4.0), noise_seed=0)
    assert _values(crop) in ([6], [])


def test_a_top_face_clearly_more_top_like_than_a_refused_face_beside_it_is_read():
    # a six at 24 px, blurred: two pips of its side face, flatter, smaller and fainter than
    # the six's, fit a two the counter refused for the six's pips; the six is clearly the
    # top of the two and is still read (sweep seed 453)
    crop = _drawn_crop("manipulation", 453 * 7919 + 5, 6, 24, (1.0, 4.0), noise_seed=0)
    assert _values(crop) == [6]


def test_a_face_with_its_tops_pips_run_together_beyond_it_is_a_side_face():
    # a six at 32 px, blurred, seen low: its columns ran together into two bars, and its
    # front face's five, as round and bright as a top face, was read (sweep seed 410)
    crop = _drawn_crop("manipulation", 410 * 7919 + 1, 6, 32, (1.0, 4.0), noise_seed=0)
    assert _values(crop) in ([6], [])


def test_a_top_face_with_one_bar_of_a_steep_side_faces_pips_beyond_it_is_read():
    # a four at 32 px, sharp: beyond it, away from where side faces show, a side face seen
    # steeply squeezed a row of its pips into one bar; one bar is no six's columns, and the
    # four is its top (sweep seed 449)
    crop = _drawn_crop("manji", 449 * 7919 + 6, 4, 32, (0.0, 0.0))
    assert _values(crop) == [4]
