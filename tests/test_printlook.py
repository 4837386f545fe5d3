"""The empty look of a seat-tinted hole, predicted from the plain holes of the same photo."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import rules
from hardware.phototable import PhotoTable
from rules.palette import UNKNOWN
from vision.config import DEFAULT_CONFIG
from vision.hue_windows import prototype_windows
from vision.locate import locate
from vision.observation import observe
from vision.printlook import bgr_of, check_print, predicted_print
from vision.spaces import candidate_colours, sample_spaces
from vision.tokens import chroma

channel = st.floats(0.05, 1.5)


@given(channel, channel, channel)
def test_bgr_of_undoes_chroma(b, g, r):
    back = bgr_of(np.array(chroma(b, g, r), np.float64))
    assert np.allclose(back, (b, g, r), atol=1e-9)


def _looks(board, placement, seed, conditions):
    frame, _ = PhotoTable(board, seed=seed, conditions=conditions).render(placement, hand=False)
    loc = locate(DEFAULT_CONFIG, frame, [board])
    return sample_spaces(DEFAULT_CONFIG, frame, board, loc.homography)


def _own_and_others(board, looks):
    win = prototype_windows(candidate_colours(board), None)
    strength = np.stack(
        [np.where(win.member[k], looks.peaks, 0.0).max(1) for k in range(len(win.colours))], 1
    )
    own = np.zeros(len(board.spaces))
    others = strength.max(1)
    for i, space in enumerate(board.spaces):
        if space.owner is not None:
            k = win.colours.index(board.seat_colours[space.owner])
            own[i] = strength[i, k]
            others[i] = np.delete(strength[i], k).max()
    return own, others


def test_bare_seat_holes_show_their_print_and_covered_ones_do_not():
    board = rules.get("aggravation").board
    seat = {s.id: board.seat_colours[s.owner] for s in board.spaces if s.owner is not None}
    covered = dict(list(seat.items())[::3])  # every third seat hole holds its own colour
    for seed in range(3):
        looks = _looks(board, covered, seed, ("cast", "light", "tokens", "optics"))
        want = predicted_print(looks, board)
        printed = check_print(looks, board, want, *_own_and_others(board, looks)).shows
        shown = {sid for sid, p in zip(board.ids(), printed, strict=True) if p}
        assert not shown & set(covered), "a hole holding a token was taken for bare print"
        assert len(shown) >= 0.8 * (len(seat) - len(covered))
        assert all(board.space(sid).owner is not None for sid in shown)


def test_with_too_few_bare_plain_holes_nothing_is_predicted():
    board = rules.get("aggravation").board
    full = {s.id: "red" for s in board.spaces if s.owner is None}
    looks = _looks(board, full, 1, ("cast",))
    want = predicted_print(looks, board)
    assert np.isnan(want).all()
    assert not check_print(looks, board, want, *_own_and_others(board, looks)).shows.any()


def test_a_seat_with_no_token_anywhere_reads_empty_from_one_photo():
    """Without a calibration and with no token of a seat's colour in sight, the seat's tinted
    holes were left unclear (is the whole group tint, or pale tokens?); the print tells."""
    game = rules.get("manji")
    board = game.board
    track = [s.id for s in board.spaces if s.owner is None]
    placement = {sid: "blue" for sid in track[:6]}
    red = [s.id for s in board.spaces if s.owner is not None and s.owner == 0]
    assert board.seat_colours[0] == "red"
    read_empty = 0
    for seed in range(3):
        frame, _ = PhotoTable(board, seed=seed, conditions=("cast", "light", "optics")).render(
            placement, hand=False
        )
        obs = observe(frame, [board])
        wrong = [s for s, (c, _) in obs.spaces.items() if c not in (placement.get(s), UNKNOWN)]
        assert wrong == []
        read_empty += sum(obs.spaces[sid][0] is None for sid in red)
    # (a hole whose tint is a step above its bare neighbours' stays unclear: a pale token
    # looks just so)
    assert read_empty >= 0.85 * 3 * len(red)


def test_a_stand_on_the_other_sides_base_is_no_battle():
    """A base is a seat's only hole of its kind: with the other side's stand on it, nothing in
    the photo shows the bare tint, yet the tint beside the stand is no stand of the base's
    colour (it was read as a battle "red+blue")."""
    board = rules.get("playground-battles").board
    placement = {"red-base": "blue", "blue-base": "red"}
    for seed in range(8):
        frame, _ = PhotoTable(board, seed=seed, conditions=("offset", "tokens", "cast")).render(
            placement, hand=False
        )
        obs = observe(frame, [board])
        for sid, colour in placement.items():
            assert obs.spaces[sid][0] in (colour, UNKNOWN), (seed, sid, obs.spaces[sid])


def _bare_board_looks(board):
    """SpaceLooks of an empty board, plain holes grey at half the paper's brightness and every
    seat's hole exactly as printed (its tint predicted from those plain holes)."""
    from vision.tokens import HUE_BINS, SpaceLooks

    n = len(board.spaces)
    centre = np.tile(np.array([0.0, 0.0, 0.5], np.float32), (n, 1))
    looks = SpaceLooks(
        board.ids(), np.ones(n, bool), centre, np.zeros((n, HUE_BINS), np.float32),
        np.zeros((n, HUE_BINS), np.float32), np.zeros(n, np.float32), np.zeros(n, np.float32),
        np.zeros((n, HUE_BINS), np.float32),
    )  # fmt: skip
    want = predicted_print(looks, board)
    seat = np.array([s.owner is not None for s in board.spaces])
    looks.centre[seat] = want[seat]
    return looks, want, seat


def test_a_hole_unlike_its_print_or_above_its_neighbours_is_no_bare_print():
    board = rules.get("manipulation").board
    looks, want, seat = _bare_board_looks(board)
    strength = np.where(seat, np.hypot(want[:, 0], want[:, 1]), 0.0)
    others = np.zeros(len(board.spaces))
    bare = check_print(looks, board, want, strength, others)
    assert bare.shows[seat].all() and not bare.unexplained.any()
    i = board.ids().index("o25")  # green's start: a dark, dull green pawn on it
    looks.centre[i] = want[i] * np.array([1.3, 1.3, 0.7])
    strength[i] *= 1.4
    pawn = check_print(looks, board, want, strength, others)
    assert not pawn.shows[i] and pawn.unexplained[i]
    j = board.ids().index("green-home2")  # a pale pawn, as colourful as the print predicts,
    strength[j] += 0.12  # but clearly above the bare green holes beside it
    looks.centre[j, :2] *= 1 + 0.12 / np.hypot(*looks.centre[j, :2])
    pale = check_print(looks, board, want, strength, others)
    assert not pale.shows[j]


def test_a_bright_grey_hole_is_taken_for_glare_only_where_no_seat_plays_grey_tokens():
    """Glare's bright grey and a white token look alike: the glare rules that trust a bright
    grey plain hole hold only on boards whose seats all play coloured tokens."""
    import dataclasses

    from vision.printlook import seats_play_grey

    assert not any(seats_play_grey(rules.get(name).board) for name in rules.names())
    board = rules.get("manji").board
    assert seats_play_grey(
        dataclasses.replace(board, seat_colours=("white", "red", "blue", "green"))
    )
    assert seats_play_grey(
        dataclasses.replace(board, seat_colours=("red", "black", "blue", "green"))
    )


def test_a_dim_grey_hole_never_vouches_for_itself():
    """A plain hole darker than usual says a shadow lies beside it, for its neighbours; alone
    it says nothing of itself (a dark token on it would look just so)."""
    from vision.printlook import _dimmed, _plan

    board = rules.get("aggravation").board
    plan = _plan(board)
    pick = np.nonzero(plan.plain)[0]
    plain_bgr = np.full((len(pick), 3), 0.5)
    lonely = int(pick[0])
    dim = pick == lonely
    plain_bgr[dim] = 0.3
    dimmed = _dimmed(plan, pick, plain_bgr, dim)
    assert np.isnan(dimmed[lonely])
    beside = plan.distance[lonely] <= plan.spacing * 1.01
    beside[lonely] = False
    assert beside.any() and np.allclose(dimmed[beside & plan.plain], 0.3, atol=0.02)
    far = plan.distance[lonely] > 3 * plan.spacing
    assert np.isnan(dimmed[far]).all()


@given(st.integers(0, 2**32 - 1))
def test_masked_median_is_each_rows_median(seed):
    from vision.printlook import _masked_median

    rng = np.random.default_rng(seed)
    values = rng.random((int(rng.integers(1, 12)), 3))
    masks = rng.random((5, len(values))) < 0.5
    masks[np.arange(5), rng.integers(0, len(values), 5)] = True  # (each picks at least one)
    want = np.array([np.median(values[m], axis=0) for m in masks])
    assert np.allclose(_masked_median(values, masks), want, rtol=0, atol=1e-12)


def test_a_bright_grey_is_glare_unless_the_camera_overexposed_the_board():
    """Plain holes far brighter against their paper than a printed grey can look are glare
    over the board, and the seats' tints are predicted washed; but where the camera clipped
    the paper itself, the plain holes are lifted evenly and the markers' black is as dark as
    ever (an overexposed board under a lamp: twin playground-battles issue14 7900/6), the
    paper's white is unknown and every grey reads lighter against it: no glare is taken, and
    the tints are predicted as colourful as they are (they were all unclear). Glare with the
    paper clipped too lifts the markers' black (twin all 10300/0 and /8)."""
    import dataclasses

    from vision.printlook import predicted_prints
    from vision.topview import TopView

    board = rules.get("aggravation").board
    looks, _, seat = _bare_board_looks(board)
    looks.centre[~seat, 2] = 0.76
    looks.centre[seat] = predicted_prints(looks, board).bare[seat]  # (each tint as bright)
    glared = predicted_prints(looks, board)
    assert glared.veil[seat].min() > 0.3
    tint = np.hypot(glared.veiled[seat, 0], glared.veiled[seat, 1])
    assert (tint < 0.75 * np.hypot(glared.bare[seat, 0], glared.bare[seat, 1])).all()

    def seen(clipped: float, ink: float):
        """The looks with a top view (1 px per mm) whose bare paper is clipped on this share
        of its pixels and whose markers' black reads `ink` against the paper."""
        h, w = int(board.height), int(board.width)
        image = np.ones((h, w, 3), np.float32)
        for corners in board.marker_squares().values():
            (x0, y0), (x1, y1) = corners[0], corners[2]
            image[int(y0) : int(y1), int(x0) : int(x1)] = ink
        raw = np.full((h, w, 3), 220, np.uint8)
        raw.reshape(-1, 3)[: int(round(clipped * h * w)), 1] = 255
        view = TopView(image, np.ones((h, w), bool), 1.0, raw, np.ones((h, w), bool))
        return dataclasses.replace(looks, view=view, board=board)

    overexposed = predicted_prints(seen(0.9, 0.08), board)
    assert overexposed.veil.max() < 0.05
    assert np.allclose(overexposed.veiled[seat], overexposed.bare[seat])
    for clipped, ink in ((0.3, 0.08), (0.9, 0.5)):  # little paper clipped; the black lifted
        assert np.allclose(predicted_prints(seen(clipped, ink), board).veil, glared.veil)
    # and glare is patchy: plain holes lifted unevenly are glare, whatever the paper and ink
    plain = np.flatnonzero(~seat)
    looks.centre[plain[::2], 2] = 0.64
    looks.centre[plain[1::2], 2] = 0.9
    patchy = predicted_prints(looks, board).veil
    assert patchy.max() > 0.1
    assert np.allclose(predicted_prints(seen(0.9, 0.08), board).veil, patchy)
