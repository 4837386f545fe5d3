"""Two readers agree on a die: the pip counter and the face network.

The pip counter (:mod:`vision.dice`) is exact when it is sure, but declines blurred and tiny
dice. The face network (:mod:`vision.die_model`) reads those from the whole pattern. Here
they are combined so that neither can announce a wrong value on its own:

- a face the pip counter is sure of stands, unless the network is sure it shows more pips
  (the counter lost some) or no top face at all (a side face): then neither is believed;
  in a photo of unknown scale the network need only be fairly sure (turned four ways);
- where the pip counter is unsure or found no face, the network may read the die, starting
  from the pips and doubtful faces the counter did find (and from bars of pips smeared
  together), if it is very sure (in four turned looks too), the face lies wholly in the
  photo, holds no more pips than its value, the counter fitted no more pips there either,
  its middle agrees (a pip for odd values, bare for even), its pips are seen alike (not
  round ones beside drawn-out ones: a top face and a side face; pips run together into a
  bar are of one plane; drawn-out ones all drawn out one way), the round pips it shows
  are all of its pips or all but one or two (unless all its value's pips are there, of
  one shape), no printed line runs through it
  (a board's dotted track, a dashed line: no die face has four pips in a line), and it is
  not right beside another die's face (where it could be that die's side face).
"""

from __future__ import annotations

import numpy as np

from vision.die_model import FaceFind, find_faces, steady_opinion
from vision.face_layout import part_fit
from vision.face_patterns import line_runs_on, printed_line
from vision.pips import Pip, cov_whitener, fits_ellipse, run_together

# the network's probability needed to read a die the pip counter could not
READ_ALONE = 0.98
# the network's probability of another value needed to overrule a sure pip count
OVERRULE = 0.99
# in a photo of unknown scale, the network's steady probability of no top face or of more
# pips at which it disputes a pip count (the counter's wrong values on the drawn sweep's
# development seeds: 0.87-0.99; every count read right in the real photos: undisputed)
DISPUTE = 0.8
# a one's pip at least this dark against the body around it, as a fraction of its
# brightness, is crisp: a one the network sees no top face on stands only then (the ones
# read right in the real photos that it disputes: 0.72-0.75; twos read as ones on the
# drawn sweep, a blurred second pip merged into the side face's edge: 0.48-0.53)
CRISP_ONE = 0.6
# ... and the network's probability of no top face at which it disputes a one less crisp
# (those twos read as ones: 0.80-0.94; the one read right in the real photos whose pip
# is least crisp, 0.59, it sees no face with 0.70)
DISPUTE_ONE = 0.75
# the faces whose pips include all of a face's pips at the same face size: a pip counter
# that lost pips of one of them sees that face
HOLDING = {1: (3, 5), 2: (3, 4, 5, 6), 3: (5,), 4: (5, 6), 5: (), 6: ()}
# a face the network finds closer than this many face sides to another die's face may be a
# side face of that die: not read
SIDE_REACH = 1.15
# a face the network reads must lie this many face sides clear of the photo's edge (centre
# to edge): a die cut by the edge may be showing only a part of its face
BORDER_REACH = 0.8
# pips this far from a face's centre (in face sides, along x and y) count as its own
PIP_REACH = 0.6
# a pip at most this elongated is round (a top face seen square on)
ROUND_PIP = 1.35
# ... and one at least this elongated is drawn out (a side face seen steeply, a stroke)
DRAWN_OUT_PIP = 2.0
# ... and such bars on one face lie within this many degrees of one way
BARS_ALIKE_DEG = 20.0
# a pip at least this elongated has a long axis that shows which way it is drawn out: the
# drawn-out pips of one face (seen slanted, or smeared by motion) all lie one way
DRAWN_WAY_PIP = 1.6
# a counter's face at least this strong (layout and bare body fit) within this many face
# sides of a network's face's middle must be held by the network's value
STRONG_FACE = 0.5
COUNTER_MIDDLE = 0.3
# in a photo of unknown scale the network reads a face alone only where the pip finder
# found none of its pips (blurred beyond finding) or at least this fraction of its value
# (measured, faces it read right in the real photos: at least 0.67; print and a side
# face's pips it read wrong on the drawn sweep: 0.17 to 0.33)
FEWEST_FOUND = 0.5
# pips at least this dark against the body around them, as a fraction of its brightness,
# are sharp (as the pip counter's DiceConfig.sharp_contrast): the counter sees them all
SHARP_PIPS = 0.5
# pips found on a face the network reads alone sit on its value's layout within this rms
# distance, in grid half-spacings, seen any way (measured: the faces it read right alone in
# the real photos, at most 0.05; fours and fives with two pips of a side face it read as
# sixes on the drawn sweep, 0.15 to 0.42)
OFF_LAYOUT = 0.1
# the least pip radius of a face, as a fraction of its side (dice: 0.07 to 0.15)
LEAST_PIP = 0.045
# a pip found this close to a face's middle (in face sides) is a middle pip: no even value
MIDDLE_PIP = 0.15
# the middle of a face, sampled to tell odd faces (a pip there) from even: radius in face sides
CENTRE_DISC = 0.08
# how dark the middle may be for each value, from bare body (0) to pip-dark (1): odd faces
# have a pip there; a two or four's middle is bare; a six's too, but motion blur across its
# columns can smear them over it
CENTRE_DARKNESS = {
    1: (0.35, 9.9),
    2: (-9.9, 0.3),
    3: (0.35, 9.9),
    4: (-9.9, 0.3),
    5: (0.35, 9.9),
    6: (-9.9, 0.75),
}
# at most this many searches per photo (each costs three looks of about 0.4 ms): faces
# first, then the darkest loose pips
MAX_STARTS = 32
# starts closer than this many face sides are looked at once when the die size is known
KNOWN_SIZE_MERGE = 0.45
# a face's box side in pip radii, for a search started from a lone pip
_SIDE_PER_PIP_RADIUS = 11.0
# ... and in lengths of a bar of smeared pips
_SIDE_PER_BAR = 1.25


def _box_start(f: dict) -> tuple[float, float, float]:
    x0, y0, x1, y1 = f["box"]
    return (0.5 * (x0 + x1), 0.5 * (y0 + y1), max(x1 - x0, y1 - y0))


def _starts(
    pips: list[Pip],
    faces: list[dict],
    sure: list[dict],
    face_px: float | None = None,
    bars: list[tuple[float, float, float]] = (),
) -> list[tuple]:
    """Where to start looking: every face the counter found, and every pip no sure face
    explains (a face of ``face_px`` around it when the die size is known); starts that nearly
    coincide are looked at once (a search started within about half a face of a die arrives)."""
    taken = {i for f in sure for i in f["idx"]}
    loose = sorted((p for i, p in enumerate(pips) if i not in taken), key=lambda p: -p.contrast)
    raw = [_box_start(f) for f in faces]
    raw += [(p.x, p.y, face_px or _SIDE_PER_PIP_RADIUS * p.radius) for p in loose]
    # a bar of smeared pips is a six's or a three's row: about 0.8 of its face's side
    raw += [(x, y, _SIDE_PER_BAR * length) for x, y, length in bars]
    # with the die size known, every pip of one face starts a search that arrives at it
    near = 0.3 if face_px is None else KNOWN_SIZE_MERGE
    out: list[tuple] = []
    for x, y, s in raw:
        if not any(
            abs(x - u) < near * t and abs(y - v) < near * t and 0.8 < s / t < 1.25
            for u, v, t in out
        ):
            out.append((x, y, s))
    return out[:MAX_STARTS]


def _own_start(at: tuple[float, float, float], starts: list[tuple]) -> int:
    """Which search started from this face (or from one that nearly coincides with it)."""
    return min(
        range(len(starts)),
        key=lambda i: (
            np.hypot(starts[i][0] - at[0], starts[i][1] - at[1])
            + abs(np.log(starts[i][2] / max(at[2], 1e-6))) * at[2]
        ),
    )


def _near(a: tuple[float, float, float], b: tuple[float, float, float]) -> bool:
    """Do two (x, y, side) faces overlap by much (the same die)?"""
    return np.hypot(a[0] - b[0], a[1] - b[1]) < 0.6 * max(a[2], b[2])


def _beside(a: tuple[float, float, float], b: tuple[float, float, float]) -> bool:
    """Could face ``a`` be a side face of the die whose face is ``b`` (or the same face)?
    A die's side faces show right next to its top face; the top faces of two touching dice
    lie at least a die's width apart."""
    return np.hypot(a[0] - b[0], a[1] - b[1]) < SIDE_REACH * max(a[2], b[2])


def _cut_by_border(face: tuple[float, float, float], shape: tuple[int, ...]) -> bool:
    """Does the face reach past the photo's edge? Its hidden part may hold pips."""
    x, y, side = face
    reach = BORDER_REACH * side
    return x - reach < 0 or y - reach < 0 or x + reach > shape[1] or y + reach > shape[0]


def _pips_inside(face: tuple[float, float, float], pips: list[Pip]) -> int:
    """How many pips the pip finder saw on the face or just around it: blur may merge or lose
    pips, but a face never shows more pips than its value (and a search that settled on a
    part of a face, say two pips of a three, must not read that part)."""
    x, y, side = face
    half = PIP_REACH * side
    return sum(1 for p in pips if abs(p.x - x) < half and abs(p.y - y) < half)


def _round_pips_inside(face: tuple[float, float, float], pips: list[Pip]) -> int:
    """How many round pips (as a top face seen square on shows them) lie on the face."""
    x, y, side = face
    half = PIP_REACH * side
    return sum(
        1 for p in pips if abs(p.x - x) < half and abs(p.y - y) < half and p.elongation <= ROUND_PIP
    )


def _two_planes(face: tuple[float, float, float], pips: list[Pip], value: int) -> bool:
    """Does the face hold round pips beside drawn-out ones? A face is flat: its pips are
    circles seen alike, all round or all drawn out the same way (motion blur smears all of
    them). Round pips beside drawn-out ones are a top face beside a side face: the network
    took in more than one face of a die (a small die, its top and sides, as one six), or
    print that is no die (letters). Faint specks do not count. Bars that are pips of the
    face run together (:func:`_run_together`) are of its plane."""
    clear = _clear_pips_on(face, pips)
    round_r = _round_radius(clear)
    if round_r is None:
        return False
    drawn = [p for p in clear if p.elongation >= DRAWN_OUT_PIP]
    return bool(drawn) and not _run_together(clear, round_r, value)


def _drawn_out_crossways(face: tuple[float, float, float], pips: list[Pip]) -> bool:
    """Are clear pips on the face drawn out in ways more than :data:`BARS_ALIKE_DEG` apart?
    A face is flat: slant draws all its pips out along one way, and so does motion blur.
    Blobs drawn out crossways are not one plane's pips: a top face's pips run together
    with its side faces' (each with the face it touches), which the network took, with the
    die's edges, for a bigger face (a two at 24 px, seen low, with two side faces' rows of
    pips beside it, read as a six: drawn sweep seed 510). Only blobs as wide across as a
    pip of the face count (:data:`LEAST_PIP`): a thin speck or stroke beside a blurred
    six's bar tells nothing of its plane."""
    drawn = [
        p
        for p in _clear_pips_on(face, pips)
        if p.elongation >= DRAWN_WAY_PIP and p.minor >= LEAST_PIP * face[2]
    ]
    return any(
        abs(np.sin(p.angle - q.angle)) > np.sin(np.deg2rad(BARS_ALIKE_DEG))
        for i, p in enumerate(drawn)
        for q in drawn[i + 1 :]
    )


def _run_together(clear: list[Pip], round_r: float, value: int) -> bool:
    """Are the face's drawn-out pips each two of its pips run together (a six's column
    smeared along), so that its round pips and two per bar make just its ``value``? The
    bars must be as wide as the round pips (:func:`vision.pips.run_together`) and lie one
    way, as one smear draws them (a board's dots joined by drawn lines do not add up or lie
    so)."""
    drawn = [p for p in clear if p.elongation > ROUND_PIP]
    if not drawn or not all(run_together(p, round_r) for p in drawn):
        return False
    if len(clear) - len(drawn) + 2 * len(drawn) != value:
        return False
    angles = [p.angle for p in drawn]
    return all(abs(np.sin(a - angles[0])) < np.sin(np.deg2rad(BARS_ALIKE_DEG)) for a in angles)


def _round_radius(clear: list[Pip]) -> float | None:
    """The median radius of the round pips among ``clear`` (None if there is none)."""
    radii = [p.radius for p in clear if p.elongation <= ROUND_PIP]
    return float(np.median(radii)) if radii else None


def _clear_pips_on(face: tuple[float, float, float], pips: list[Pip]) -> list[Pip]:
    """The pips on the face but faint specks (under half the darkest blob's contrast)."""
    x, y, side = face
    half = PIP_REACH * side
    inside = [p for p in pips if abs(p.x - x) < half and abs(p.y - y) < half]
    if not inside:
        return []
    strong = max(p.contrast for p in inside)
    return [p for p in inside if p.contrast >= 0.5 * strong]


def _line_runs_on(face: tuple[float, float, float], pips: list[Pip], value: int) -> bool:
    """Is the two or three the network reads here the end of a longer line of pips (a
    window shifted off a bigger face)? See :func:`vision.face_patterns.line_runs_on`."""
    if value not in (2, 3):
        return False
    clear = _clear_pips_on(face, pips)
    return line_runs_on(clear, [p for p in pips if all(p is not c for c in clear)])


def _centre_agrees(
    grey: np.ndarray, pips: list[Pip], face: tuple[float, float, float], value: int
) -> bool:
    """Odd faces have a pip in the middle, even faces bare body: a check the image makes of
    the network's reading, whatever the face's turn (a three whose middle pip the network
    overlooked is no two, a blurred five no six)."""
    x, y, side = face
    if value % 2 == 0 and any(
        abs(p.x - x) < MIDDLE_PIP * side and abs(p.y - y) < MIDDLE_PIP * side for p in pips
    ):
        return False
    h, w = grey.shape
    half = max(2, int(0.4 * side))
    x0, y0 = max(0, int(x) - half), max(0, int(y) - half)
    box = grey[y0 : min(h, int(y) + half + 1), x0 : min(w, int(x) + half + 1)]
    r = max(1, int(round(CENTRE_DISC * side)))
    mid = grey[max(0, int(y) - r) : int(y) + r + 1, max(0, int(x) - r) : int(x) + r + 1]
    if box.size == 0 or mid.size == 0:
        return False
    body, pip = np.percentile(box, (90, 3))
    if body - pip < 20:
        return False
    darkness = (body - float(mid.mean())) / (body - pip)
    low, high = CENTRE_DARKNESS[value]
    return low <= darkness <= high


def _counter_saw_more(find: FaceFind, faces: list[dict]) -> bool:
    """Did the pip counter, even doubtfully, fit more pips than the network's value into a
    face around this one? Then the network may have settled on a part of that face (two pips
    of a three); the counter may lose pips, but it does not invent a layout."""
    return any(
        f["value"] > find.opinion.value
        and f["box"][0] <= find.cx <= f["box"][2]
        and f["box"][1] <= find.cy <= f["box"][3]
        for f in faces
    )


def _counter_disagrees(find: FaceFind, faces: list[dict]) -> bool:
    """Did the pip counter fit a strong face (its layout and bare body fit, declined only in
    doubt, or set aside as a side face) of another value in the middle of the network's
    face? The counter does not invent a layout: a strong three is no six (a six has no
    middle pip), whatever the network sees around it (a small die's top and side faces
    together), nor a strong one (one pip on bare body) a two made of its pip and its side
    face's. Nor does a strong face hide lost pips: its bare-body check found bare body on
    every spot of its pip grid where it has no pip, the spots where a value holding its
    pips (a six round a four) has its others."""
    reach = COUNTER_MIDDLE * find.size
    for f in faces:
        if not f["idx"] or f.get("strength", 0.0) < STRONG_FACE:
            continue
        cx, cy, _ = _box_start(f)
        if abs(cx - find.cx) > reach or abs(cy - find.cy) > reach:
            continue
        if f["value"] != find.opinion.value:
            return True
    return False


def _no_face_there(face: tuple[float, float, float], faces: list[dict]) -> bool:
    """Did the pip counter find the pips here to be no die's face (marked ``no_face``: a
    pattern running on beyond them, as print does; a two spanning further than the
    photo's dice do)? That is read from where the pips lie, which the network does not
    weigh: it may not read a face there."""
    return any(f.get("no_face") and _near(face, _box_start(f)) for f in faces)


def _round_pips_missing(face: tuple[float, float, float], pips: list[Pip], value: int) -> bool:
    """Does the face show round clear pips, but three or more fewer than ``value``? Round
    pips are a face seen nearly square on, in focus; blur, which makes the pip finder lose
    pips, spares none of a face's pips, so such a face shows all its pips or all but one
    or two (lost in a shadow or at the die's edge). A network counting more has counted
    another face's pips or dark edges with them (a small die's side face beside its top
    face: a one with a side face's two read as a four). Faces whose pips are all blurred
    or drawn out are left to the other checks."""
    clear = _clear_pips_on(face, pips)
    round_r = _round_radius(clear)
    if round_r is None:
        return False
    seen = sum(1 for p in clear if p.elongation <= ROUND_PIP)
    if seen >= value - 2:
        return False
    return not (_all_pips_alike(clear, value) or _run_together(clear, round_r, value))


def _all_pips_alike(clear: list[Pip], value: int) -> bool:
    """Are there just ``value`` clear pips, each seen as the face's common ellipse (circles
    on one plane)? Then the face shows all its pips: slanted or a little blurred, most of
    them fall just short of round, but no other face's pips are counted with them (a side
    face's are of another shape)."""
    if len(clear) != value:
        return False
    wh = cov_whitener(np.mean([p.cov() for p in clear], axis=0))
    return all(fits_ellipse(q, wh) for q in clear)


def _too_few_pips_found(face: tuple[float, float, float], pips: list[Pip], value: int) -> bool:
    """Did the pip finder find some of the face's pips, but fewer than half its value (a
    drawn-out blob counting as two pips run together)? Blur that hides pips from the finder
    hides all or most of them alike, and smears pairs of them into bars (a thin stroke is
    no such bar: :func:`_pips_run_together`); a blob or two where
    the network reads a three or a six is print (letters, a line with dots on it) or a
    side face's pips, which it took for a face of the size it learnt."""
    clear = _clear_pips_on(face, pips)
    found = sum(2 if _pips_run_together(p, face[2]) else 1 for p in clear)
    return 0 < found < FEWEST_FOUND * value


def _pips_run_together(p: Pip, side: float) -> bool:
    """Is the blob drawn out and as wide across as a pip of a face of ``side`` pixels (pips
    smeared together), not a thin stroke (a printed line, a letter)?"""
    return p.elongation >= DRAWN_OUT_PIP and p.minor >= LEAST_PIP * side


def _sharp_pips_counted_otherwise(
    face: tuple[float, float, float], pips: list[Pip], faces: list[dict], value: int
) -> bool:
    """Are the face's pips sharp and round (none smeared), yet the pip counter fitted no
    face of the network's value there? The network is there to read the dice the counter
    cannot (blurred, smeared, tiny). Where the pips are sharp the counter sees each of them;
    a value it did not fit is the network's guess from the whole picture: a two's pips and
    its side face's read as a six, a side face seen low as a three (the faces it read right
    alone in the real photos are blurred, their pips at most 0.4 as dark as sharp ones, or
    smeared, or the counter fitted their value)."""
    clear = _clear_pips_on(face, pips)
    if not clear or any(p.elongation >= DRAWN_OUT_PIP for p in clear):
        return False
    if float(np.median([p.darkness for p in clear])) < SHARP_PIPS:
        return False
    return not any(
        f["idx"] and f["value"] == value and not f.get("no_face") and _near(face, _box_start(f))
        for f in faces
    )


def _pips_off_layout(face: tuple[float, float, float], pips: list[Pip], value: int) -> bool:
    """Do the clear pips found on the face (four or more, at most ``value``) sit off every
    choice of ``value``'s layout spots, however the face is seen
    (:func:`vision.face_layout.part_fit`), by more than :data:`OFF_LAYOUT`? A die's pips
    lie on its 3 x 3 grid, blurred or not; the network sees a pattern, not a grid: a four
    or five and two pips of its side face, seen low, made it a six (the side face's row
    lies nearer the top's than a six's rows lie, or askew: drawn sweep seeds 426, 431,
    437, 460). Pips run together are left out (their middles lie between the spots)."""
    clear = [p for p in _clear_pips_on(face, pips) if p.elongation < DRAWN_OUT_PIP]
    if not 4 <= len(clear) <= value:
        return False
    return part_fit(np.array([[p.x, p.y] for p in clear]), value) > OFF_LAYOUT


def _pips_too_small(face: tuple[float, float, float], pips: list[Pip]) -> bool:
    """Are the pips on the face too small for it? A die's pips span at least 0.045 of its
    side in radius: tiny blobs in a big face are a far smaller die, or print, that the
    network took for a face of the size it learnt (a die a few pixels wide in a photo
    read as one die filling it). Faint specks do not count."""
    radii = [p.radius for p in _clear_pips_on(face, pips)]
    return bool(radii) and float(np.median(radii)) < LEAST_PIP * face[2]


def _network_disputes(grey: np.ndarray, face: dict, here: FaceFind, pips: list[Pip]) -> bool:
    """Is the network, looking where the pip counter found the face (turned four ways),
    fairly sure (:data:`DISPUTE`) that it shows no top face or more pips? In a photo of
    unknown scale the counter alone has given wrong values just there: a side face taken
    for the top of a die seen low, part of a six read as a three or four, a six's columns
    run together as a five. Such a die is declined: each reader alone errs, and a value
    stands only where they do not contradict each other. A network that sees fewer pips
    does not dispute (the counter checks each pip it counts against the image; the network
    errs so beside a touching die), nor one that sees no face on a one whose pip is crisp
    (it says so of 4 of the 153 ones read right in the real photos: one pip leaves it
    little to go by; see :func:`_blurred_one`). A one whose pip the counter found faint
    stands only where the network is as sure of a one as it must be of anything else to
    dispute (:data:`DISPUTE`): twos read as ones at 16 and 24 px on the drawn sweep had
    both readers doubtful (the counter 0.62, the network 0.71-0.79); of the 153 ones read
    right in the real photos one has a faint pip, and the network is 0.94 sure of it."""
    seen = steady_opinion(grey, here)
    if face["value"] == 1 and face.get("faint"):
        # a lone pip fainter than the counter asks may be a two's whose partner the same
        # blur hid at the die's edge: two doubtful readers do not make one sure reading
        return seen.value != 1 or seen.probability < DISPUTE
    if _blurred_one(face, pips) and any(
        look.value == 0 and look.probability >= DISPUTE_ONE for look in (seen, here.opinion)
    ):
        # little backs a blurred one: less doubt is enough, in the turned looks together or
        # in the look as the photo lies (drawn sweep seed 541: a blurred two at 24 px read
        # as a one, no top face 0.80 as it lies and 0.69 over the four turns)
        return True
    if seen.probability < DISPUTE:
        return False
    if seen.value == 0:
        return face["value"] != 1
    return seen.value > face["value"]


def _blurred_one(face: dict, pips: list[Pip]) -> bool:
    """Is the face a one whose pip is less than crisp (:data:`CRISP_ONE`)? Blur that softens
    the pip can merge a two's other pip into its side face's dark edge, where the counter
    sees bare body and no partner: then the network's "no top face" (:data:`DISPUTE_ONE`)
    is not overruled."""
    if face["value"] != 1 or not face["idx"]:
        return False
    p = pips[face["idx"][0]]
    return p.darkness < CRISP_ONE


def _look_overrules(here: FaceFind, face: dict) -> bool:
    """Is the network's look right where the counter found the face (no walk) sure
    (:data:`OVERRULE`) of no top face there, or of more pips than the counter's? Then that
    look, not its search's, stands for it. A search may drift off the face: onto the
    die's true top beside a side face the counter took for one, or off a six whose
    column the counter lost to a part of a five (drawn sweep seed 537: a blurred six at
    32 px read as a five, the look there 0.998 sure of a six, its search elsewhere)."""
    seen = here.opinion
    if seen.probability < OVERRULE:
        return False
    return seen.value == 0 or seen.value > face["value"]


def _face_of(find: FaceFind) -> dict:
    half = 0.5 * find.size
    return {
        "value": find.opinion.value,
        "idx": [],
        "centre": np.array([find.cx, find.cy]),
        "box": (find.cx - half, find.cy - half, find.cx + half, find.cy + half),
        "confidence": find.opinion.probability,
    }


def _own_looks(
    grey: np.ndarray, sure: list[dict], at: list[tuple], face_px: float | None
) -> list[FaceFind | None]:
    """In a view square to the table: the network's look at each sure face where the counter
    found it, at the die's known size (``face_px``, else the face's own). A face none of
    whose :data:`HOLDING` values is left (a five, a six) cannot be vetoed, whatever the
    network sees, so it is not looked at (None): that saves the network's cost on a third
    of the dice."""
    ask = [i for i, f in enumerate(sure) if HOLDING[f["value"]]]
    looks = find_faces(grey, [(at[i][0], at[i][1], face_px or at[i][2]) for i in ask], steps=0)
    owns: list[FaceFind | None] = [None] * len(sure)
    for i, look in zip(ask, looks, strict=True):
        owns[i] = look
    return owns


def combine(
    grey: np.ndarray,
    pips: list[Pip],
    faces: list[dict],
    sure_at: float,
    face_px: float | None = None,
    square_view: bool = False,
    bars: list[tuple[float, float, float]] = (),
    side_faces: list[dict] = (),
) -> list[dict]:
    """The faces both readers stand behind (see the module docstring). ``faces`` are the pip
    counter's, with any confidence; those at ``sure_at`` or above stand on their own. The
    result keeps the doubtful ones the network did not replace, so callers can still see them
    as doubtful. ``face_px``: a face's side in pixels, when the scale is known;
    ``square_view``: the photo is a view square to the table (a tray's top view);
    ``side_faces``: faces the counter fitted and then found to be side faces of a die (a
    layout all the same, which the network may not read as another value)."""
    sure = [f for f in faces if f["confidence"] >= sure_at]
    disputed = [False] * len(sure)
    if square_view:
        # the die's size is known and the view square: the network looks at each sure face
        # where the counter found it (no walk), and searches only from what lies clear of
        # them (what lies beside a sure face could only be read as its side face)
        at = [_box_start(f) for f in sure]
        # ... at the die's known size: a face box reckoned from the pip grid is too big
        # for a die with pips set far out, and the network then sees its side face's pips
        # as more pips of the top face
        owns = _own_looks(grey, sure, at, face_px)
        rest = [f for f in faces if f["confidence"] < sure_at]
        starts = [
            s for s in _starts(pips, rest, sure, face_px) if not any(_beside(s, c) for c in at)
        ]
        finds = find_faces(grey, starts)
    else:
        starts = _starts(pips, faces, sure, face_px, bars)
        finds = find_faces(grey, starts)
        # the network's opinion of each sure face from its own search (not a neighbour's
        # that drifted), unless, looking right where the counter found the face, it is
        # sure there is no face there or more pips (see :func:`_look_overrules`)
        owns = [finds[_own_start(_box_start(f), starts)] for f in sure]
        heres = find_faces(grey, [_box_start(f) for f in sure], steps=0)
        owns = [
            here if _look_overrules(here, f) else own
            for f, own, here in zip(sure, owns, heres, strict=True)
        ]
        # with the scale unknown, a count the network disputes does not stand
        disputed = [
            _network_disputes(grey, f, here, pips) for f, here in zip(sure, heres, strict=True)
        ]
    read = sorted(
        (f for f in finds if f.opinion.value > 0 and f.opinion.probability >= READ_ALONE),
        key=lambda f: -f.opinion.probability,
    )
    kept, doubted = [], []
    for f, own, against_it in zip(sure, owns, disputed, strict=True):
        if against_it:
            doubted.append(f)
            continue
        if own is None:
            kept.append(f)  # no value of the network's may veto it
            continue
        # the counter's pips are real (it checks each against the image): the network may
        # overrule it only by seeing more pips than it did, or no top face at all
        # (in a view square to the table a side face is told apart by its drawn-out pips and
        # its place beside the top face, both checked by the counter: the network, which
        # learnt from slanted photos, may not call a round-pipped face of the die's size no
        # face at all)
        more = own.opinion.value > f["value"]
        if square_view:
            # a face of the die's size loses pips only to a face whose pips hold its own (a
            # five never looks like a six with a pip lost): a network that counts the side
            # face's pips beside a five as a six's is not believed
            more = own.opinion.value in HOLDING[f["value"]]
        against = own.opinion.probability >= OVERRULE and (
            (own.opinion.value == 0 and not square_view) or more
        )
        (doubted if against else kept).append(f)
    claimed = [_box_start(f) for f in kept + doubted]
    added = []
    for g in read:
        here = (g.cx, g.cy, g.size)
        if any(_beside(here, c) for c in claimed):
            continue
        if _cut_by_border(here, grey.shape) or _pips_inside(here, pips) > g.opinion.value:
            continue
        if not _centre_agrees(grey, pips, here, g.opinion.value):
            continue
        if _counter_saw_more(g, faces):
            continue
        if _two_planes(here, pips, g.opinion.value) or _pips_too_small(here, pips):
            continue
        if _line_runs_on(here, pips, g.opinion.value):
            continue
        if not square_view and (
            _counter_disagrees(g, [*faces, *side_faces])
            or _too_few_pips_found(here, pips, g.opinion.value)
            or _sharp_pips_counted_otherwise(here, pips, faces, g.opinion.value)
            or _round_pips_missing(here, pips, g.opinion.value)
            or _pips_off_layout(here, pips, g.opinion.value)
            or _drawn_out_crossways(here, pips)
            or _no_face_there(here, faces)
            or printed_line(here, pips, PIP_REACH)
        ):
            continue
        if square_view and _round_pips_inside(here, pips) != g.opinion.value:
            # a view square to the table shows a top face's pips round: they must all be
            # there (a side face, drawn out and sheared, may look to the network like a face)
            continue
        steady = steady_opinion(grey, g)
        if steady.value != g.opinion.value or steady.probability < READ_ALONE:
            continue
        claimed.append(here)
        added.append(_face_of(g))
    unsure = [
        f
        for f in faces
        if f["confidence"] < sure_at and not any(_near(_box_start(f), c) for c in claimed)
    ]
    return kept + added + unsure
