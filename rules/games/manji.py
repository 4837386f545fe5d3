"""Manji: race two pawns around a manji-shaped track into the centre (2 to 4 players).

Board design (the rulebook's figures are missing; everything below is our interpretation,
clause MANJI-1.4; see ../shared/rulebooks/BOARDS.md):

* The manji: a cross of four arms whose ends bend clockwise. Arms are numbered clockwise from
  the bottom edge (arm 0 bottom, 1 left, 2 top, 3 right); seats take arms 0 and 2 (two
  players), 0-2 (three) or all four. Seen from the centre, each arm is three squares wide: a
  stem of four rows, then a hook of three rows bending clockwise (the top arm's hook points
  right).
* The outer track (76 squares, 19 per arm) runs clockwise around the outline of the manji:
  up the left side of a stem (5), across the top of the hook (5), down the hook's end (2), back
  along the hook's underside (3), down the right side of the stem (2), then two corner squares
  on the diagonal to the next arm. Black arrows print the direction on the outside.
* Each seat's HOUSE (two spots) sits inside its own hook, in the middle row. Its EXIT square is
  the top-of-hook square next to the house (marked "5"); its ARRIVAL square is the square just
  before the exit, at the top of the stem, with an arrow pointing down the stem.
  A pawn's lap: EXIT, clockwise around all four arms, ARRIVAL (75 steps).
* The INNER SECTION (safe: no captures) is the seat's LANE (four squares down the middle of
  its stem), the SMALL INNER CIRCLE (twelve squares around the centre), the APPROACH square
  and the CENTRAL square. Each lane ends beside the circle square on its arm's axis.
* SHORTCUT: the corner square just before each seat's arm (the last square of the previous
  arm) is a circle of that seat's colour; its arrow points to the TIP, the small-circle square
  just counter-clockwise of the seat's lane entry.
* The ARROW square is the small-circle square between the top arm's entry and the right arm's
  tip (one for the whole board). After one full turn around the circle a pawn goes from it to
  the APPROACH square and then the CENTRAL square (two squares). The central square has five
  spots: at most 2 + (players - 1) pawns can be there before someone wins.
* Ids: track t01..t76 clockwise from the bottom arm's stem; small circle r01..r12 clockwise
  from the top; "app" the approach; ctr1..ctr5 the central spots; "<colour>-h1/h2" the house
  and "<colour>-l1..l4" the lane (l1 nearest the arrival square). Space kinds: track, exit,
  arrival, shortcut (outer track); house; lane, ring, tip, arrow, approach, centre (inner
  section). A space's owner is its arm: board.seat_colours[owner] is its colour, and seat p
  plays arm game.arms[p].

Positions are in millimetres on a 280 x 340 mm board: the play area is the top 280 mm square
(15 mm between neighbouring squares) and the dice tray runs along the bottom edge between the
corner markers (ArUco ids 12-15).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from ..clauses import Clause, Effect, Outcome, Verdict
from ..game import Game
from ..geometry import Board, Region, Space
from ..moves import Decline, Move, Pass, Roll, Step
from ..options import Option
from ..registry import register
from ..rolloff import record_roll

# --- clauses ------------------------------------------------------------------------------

CLAUSES = (
    Clause(
        "MANJI-1.1",
        "Two pawns in the house",
        "Each player has two pawns of one colour; both begin in the house of that colour.",
        "Material; Setup",
    ),
    Clause(
        "MANJI-1.2",
        "Lowest roll starts",
        "Everyone rolls once and the lowest roll plays first. Players tied for lowest roll "
        "again among themselves.",
        "To play",
        interpretation=True,
        option="opening",
    ),
    Clause(
        "MANJI-1.3",
        "Turns go clockwise",
        "Play passes clockwise around the table; only the player whose turn it is moves a "
        "pawn, and pawns travel clockwise along the outer track.",
        "To play",
    ),
    Clause(
        "MANJI-1.4",
        "The board as designed",
        "The track follows the outline of a manji of four hooked arms, 19 squares per arm; "
        "each house sits inside its hook, its lane runs down the middle of its stem, and the "
        "small inner circle has twelve squares around the central square.",
        "Material (figures missing)",
        interpretation=True,
    ),
    Clause(
        "MANJI-2.1",
        "Roll before moving",
        "A turn begins with one roll of the die; no pawn moves before it.",
        "To play",
    ),
    Clause(
        "MANJI-2.2",
        "Moving is compulsory",
        "If any of your pawns can make a legal move with the roll, you must make one.",
        "To play",
    ),
    Clause(
        "MANJI-2.3",
        "No move: pass",
        "When none of your pawns can use the roll, your turn is passed.",
        "To play",
    ),
    Clause(
        "MANJI-2.4",
        "Move the exact count",
        "A pawn moves forward exactly the number rolled, counting every square; on the outer "
        "track it may pass over any pawn.",
        "To play",
    ),
    Clause(
        "MANJI-2.5",
        "One pawn per square",
        "A pawn may not end its move on a square already holding a pawn of its own colour "
        "(the central square excepted).",
        "To play",
        interpretation=True,
    ),
    Clause(
        "MANJI-3.1",
        "Out of the house on a 5",
        "A pawn leaves its house only with a roll of 5, and only onto its own exit square.",
        "To play",
    ),
    Clause(
        "MANJI-3.2",
        "Coming out is obligatory",
        "With a 5 and a pawn still at home, you must bring a pawn out rather than move "
        "another one.",
        "To play",
    ),
    Clause(
        "MANJI-3.3",
        "Own pawn on the exit square",
        "No pawn can come out while one of your own pawns stands on your exit square; the 5 "
        "is then played with another pawn, if one can use it.",
        "To play",
    ),
    Clause(
        "MANJI-3.4",
        "Coming out onto an opponent",
        "A pawn coming out onto an exit square held by an opponent captures that pawn.",
        "To play",
    ),
    Clause(
        "MANJI-4.1",
        "A 6 rolls again",
        "After a roll of 6 and its move, the same player may roll again.",
        "To play",
    ),
    Clause(
        "MANJI-4.2",
        "A 6 counts as 7",
        "Once neither of your pawns is in the house, a roll of 6 moves a pawn 7 squares. "
        "A pawn on the central square counts as out.",
        "To play",
        interpretation=True,
    ),
    Clause(
        "MANJI-4.3",
        "Three 6s in a row",
        "A third 6 in a row is not played: the pawn you moved last in this run of sixes goes "
        "back to its house and the turn passes to the next player.",
        "To play",
        interpretation=True,
    ),
    Clause(
        "MANJI-4.4",
        "Three 6s: exceptions",
        "Nothing goes home on a third 6 if you moved no pawn in that run, or if the pawn "
        "moved last stands in the inner section; the turn still passes.",
        "To play",
    ),
    Clause(
        "MANJI-4.5",
        "A 6 after a pass",
        "A 6 gives the extra roll even when no pawn could use it.",
        "To play",
        interpretation=True,
        option="extra_roll_after_pass",
    ),
    Clause(
        "MANJI-4.6",
        "The extra roll may be declined",
        "The rulebook says a player who rolls a 6 'can' play again, so the extra roll is "
        "offered, not forced: declining it ends the turn. A player with two 6s in a row may "
        "stop there rather than risk a third (house rule: the extra roll is compulsory).",
        "To play",
        interpretation=True,
        option="extra_roll",
    ),
    Clause(
        "MANJI-5.1",
        "Capture",
        "A pawn whose count lands on an opponent's pawn outside the inner section captures "
        "it: the captured pawn goes back to its house.",
        "To play",
    ),
    Clause(
        "MANJI-5.2",
        "The inner section is safe",
        "Lanes, the small inner circle, the approach and the central square form the inner "
        "section; a pawn there can never be captured or sent home.",
        "Interior section",
    ),
    Clause(
        "MANJI-5.3",
        "Captured pawn back home",
        "The referee accepts a captured pawn either already in its house or still in its "
        "owner's hand, and reminds the table to put it back.",
        "To play",
        interpretation=True,
    ),
    Clause(
        "MANJI-6.1",
        "One lap, then inside",
        "A pawn's lap runs from its exit square clockwise round all four arms to its arrival "
        "square, just before the exit; from there it can only go inside, never round again.",
        "1. Entrance",
        interpretation=True,
    ),
    Clause(
        "MANJI-6.2",
        "Entrance by exact count",
        "A pawn reaches its arrival square only by exact count; a roll that would carry it "
        "past the arrival square cannot be used by that pawn.",
        "1. Entrance",
    ),
    Clause(
        "MANJI-6.3",
        "Arrival: as far inside as possible",
        "A pawn that lands on its arrival square (capturing an opponent there) carries on in "
        "the same move down its lane as far as it can, stopping before its partner pawn in "
        "the lane (house rule: passing it, to the deepest free square).",
        "1. Entrance",
        interpretation=True,
        option="arrival_slide",
    ),
    Clause(
        "MANJI-6.4",
        "Moving in the lane",
        "Only the owner's pawns use a lane. A pawn in its lane moves on by count into the "
        "small inner circle; it may pass its partner pawn in the lane but not land on it.",
        "Interior section",
        interpretation=True,
    ),
    Clause(
        "MANJI-7.1",
        "Shortcut",
        "A pawn whose move ends on the circle of its own colour (capturing an opponent there) "
        "may, as part of that move, follow the arrow to the small-circle square at its tip.",
        "2. The Shortcut",
        interpretation=True,
    ),
    Clause(
        "MANJI-7.2",
        "Shortcut needs a free tip",
        "The shortcut cannot be taken while any pawn stands on the square at the arrow's tip.",
        "2. The Shortcut",
        interpretation=True,
    ),
    Clause(
        "MANJI-8.1",
        "Round the small circle",
        "In the small inner circle pawns move clockwise, going round as often as needed, "
        "until one lands exactly on the arrow square (or, with house rule MANJI-8.6, passes "
        "it by a count that fits).",
        "The small inner circle",
        interpretation=True,
        option="arrow_square",
    ),
    Clause(
        "MANJI-8.2",
        "Arrow square: a full turn",
        "A pawn that lands on the arrow square must go once all the way round the small "
        "circle and come back to the arrow square by exact count.",
        "The small inner circle",
    ),
    Clause(
        "MANJI-8.3",
        "Two squares to the centre",
        "After its full turn a pawn on the arrow square has two squares left: the approach "
        "and the central square, reached only by exact count. A 2 may pass a pawn standing "
        "on the approach.",
        "The small inner circle, note",
        interpretation=True,
    ),
    Clause(
        "MANJI-8.4",
        "No passing in the small circle",
        "A pawn may not pass or land on another pawn in the small inner circle: it stops on "
        "the square just before; if that is where it stands, it cannot move.",
        "The small inner circle",
    ),
    Clause(
        "MANJI-8.5",
        "Stopping short only as a last resort",
        "The full count is mandatory when possible, so a pawn may stop short in the small "
        "circle only when no pawn can move the full count (house rule: stopping short is "
        "always a legal choice).",
        "The small inner circle",
        interpretation=True,
        option="short_ring_moves",
    ),
    Clause(
        "MANJI-9.1",
        "Winning",
        "The first player with both pawns on the central square wins.",
        "Interior section",
    ),
    Clause(
        "MANJI-9.2",
        "Room in the centre",
        "The central square has five spots; a pawn that arrives may stand on any free spot.",
        "Interior section",
        interpretation=True,
    ),
    Clause(
        "MANJI-8.6",
        "Turning off at the arrow (house rule)",
        "With this house rule a circling pawn whose count passes the arrow square turns off "
        "there: one square past it is the approach (if free), two the central square; a "
        "longer count goes on round. Only a pawn landing on the arrow makes the full turn.",
        "The small inner circle",
        interpretation=True,
        option="arrow_square",
    ),
)

OPTIONS = (
    Option(
        "opening",
        "roll-off",
        ("roll-off", "first-seat"),
        "Who takes the first turn: a roll-off (lowest starts, ties roll again) or simply the "
        "first seat.",
        "MANJI-1.2",
    ),
    Option(
        "extra_roll_after_pass",
        True,
        (True, False),
        "Whether a 6 still gives another roll when no pawn could use it.",
        "MANJI-4.5",
    ),
    Option(
        "short_ring_moves",
        "last-resort",
        ("last-resort", "always"),
        "A pawn stopped short in the small circle: a legal move only when no pawn can use the "
        "full count (last-resort, the rulebook's 'exact number if possible'), or always a legal "
        "choice (always).",
        "MANJI-8.5",
    ),
    Option(
        "extra_roll",
        "optional",
        ("optional", "compulsory"),
        "After a 6: the player may roll again or decline (optional, the rulebook's 'can'), or "
        "must roll again (compulsory).",
        "MANJI-4.6",
    ),
    Option(
        "arrival_slide",
        "stop-before",
        ("stop-before", "deepest-free"),
        "A pawn landing on its arrival square slides down its lane: stopping before its partner "
        "pawn there (stop-before), or passing it to the deepest free square (deepest-free).",
        "MANJI-6.3",
    ),
    Option(
        "arrow_square",
        "full-turn",
        ("full-turn", "turn-off"),
        "The arrow square of the small circle: the only way to the centre, reached by landing "
        "on it and then a full turn (full-turn); or a turn-off that a pawn passing it takes to "
        "the approach or the central square, the full turn being only for landing on it "
        "(turn-off).",
        "MANJI-8.1",
    ),
)

ARM_COLOURS = ("red", "blue", "yellow", "green")
SEAT_ARMS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
PAWNS = 2
HOME = -1  # a pawn in its house (the two spots are interchangeable)
CENTRE = -2  # a pawn on the central square (its spots are interchangeable)
NOBODY = -3  # `last` when no pawn has moved in the current run of sixes
LAP = 75  # route position of the arrival square (the exit square is position 0)
RING = 12  # squares in the small inner circle
ARROW = 1  # index of the arrow square on the small circle (0 = top, clockwise)
PITCH = 15.0  # millimetres between neighbouring squares
CX = CY = 140.0  # the centre of the play area

# One arm in its own frame (units of PITCH, the top arm, y pointing down): the outer track in
# clockwise order. Local 5 is the arm's arrival square, 6 its exit square, 18 the shortcut
# circle of the next arm's seat.
ARM_TRACK = (
    (-1, -4), (-1, -5), (-1, -6), (-1, -7), (-1, -8),
    (0, -8), (1, -8), (2, -8), (3, -8), (4, -8),
    (4, -7), (4, -6),
    (3, -6), (2, -6), (1, -6),
    (1, -5), (1, -4),
    (2, -3), (3, -2),
)  # fmt: skip
ARM_LANE = ((0, -7), (0, -6), (0, -5), (0, -4))
ARM_HOUSE = ((1.8, -7.0), (2.9, -7.0))
ARRIVAL_LOCAL, EXIT_LOCAL, SHORTCUT_LOCAL = 5, 6, 18
PER_ARM = len(ARM_TRACK)
RING_RADIUS, APPROACH_RADIUS, CENTRE_RADIUS = 38.0, 24.0, 10.5


# --- board ---------------------------------------------------------------------------------


def _rotate(arm: int, x: float, y: float) -> tuple[float, float]:
    """A point of the top arm's frame turned to `arm` (quarter turns clockwise, y down)."""
    for _ in range((arm - 2) % 4):
        x, y = -y, x
    return CX + PITCH * x, CY + PITCH * y


def _ring_xy(i: int, radius: float) -> tuple[float, float]:
    angle = math.radians(-90.0 + 360.0 / RING * i)
    return CX + radius * math.cos(angle), CY + radius * math.sin(angle)


def ring_entry(arm: int) -> int:
    """Index on the small circle beside the end of `arm`'s lane (on the arm's axis)."""
    return (3 * (arm - 2)) % RING


def build_board(centre_spots: int = 5) -> Board:
    """The manji board (see the module docstring); the geometry does not depend on players."""
    spaces: list[Space] = []
    links: list[tuple[str, str]] = []
    track: list[str] = []
    for arm in range(4):
        colour = ARM_COLOURS[arm]
        nxt = ARM_COLOURS[(arm + 1) % 4]
        for k, (x, y) in enumerate(ARM_TRACK):
            sid = f"t{arm * PER_ARM + k + 1:02d}"
            if k == EXIT_LOCAL:
                space = Space(sid, "exit", *_rotate(arm, x, y), arm, "5")
            elif k == ARRIVAL_LOCAL:
                space = Space(sid, "arrival", *_rotate(arm, x, y), arm)
            elif k == SHORTCUT_LOCAL:
                space = Space(sid, "shortcut", *_rotate(arm, x, y), (arm + 1) % 4, nxt[0].upper())
            else:
                space = Space(sid, "track", *_rotate(arm, x, y))
            spaces.append(space)
            track.append(sid)
    links += [(track[i], track[(i + 1) % len(track)]) for i in range(len(track))]
    ring = [f"r{i + 1:02d}" for i in range(RING)]
    tips = {(ring_entry(arm) - 1) % RING: arm for arm in range(4)}
    for i, sid in enumerate(ring):
        if i == ARROW:
            spaces.append(Space(sid, "arrow", *_ring_xy(i, RING_RADIUS), None, "->"))
        elif i in tips:
            spaces.append(Space(sid, "tip", *_ring_xy(i, RING_RADIUS), tips[i]))
        else:
            spaces.append(Space(sid, "ring", *_ring_xy(i, RING_RADIUS)))
    links += [(ring[i], ring[(i + 1) % RING]) for i in range(RING)]
    spaces.append(Space("app", "approach", *_ring_xy(ARROW, APPROACH_RADIUS)))
    links += [(ring[ARROW], "app"), ("app", "ctr1")]
    for j in range(centre_spots):
        angle = math.radians(-90.0 + 360.0 / centre_spots * j)
        x = CX + CENTRE_RADIUS * math.cos(angle)
        y = CY + CENTRE_RADIUS * math.sin(angle)
        spaces.append(Space(f"ctr{j + 1}", "centre", x, y))
    for arm in range(4):
        colour = ARM_COLOURS[arm]
        lane = [f"{colour}-l{j + 1}" for j in range(len(ARM_LANE))]
        for j, (x, y) in enumerate(ARM_LANE):
            spaces.append(Space(lane[j], "lane", *_rotate(arm, x, y), arm, str(j + 1)))
        arrival = track[arm * PER_ARM + ARRIVAL_LOCAL]
        links += [(arrival, lane[0])] + list(zip(lane, lane[1:], strict=False))
        links.append((lane[-1], ring[ring_entry(arm)]))
        shortcut = track[((arm - 1) % 4) * PER_ARM + SHORTCUT_LOCAL]
        links.append((shortcut, ring[(ring_entry(arm) - 1) % RING]))
        exit_id = track[arm * PER_ARM + EXIT_LOCAL]
        for j, (x, y) in enumerate(ARM_HOUSE):
            spaces.append(Space(f"{colour}-h{j + 1}", "house", *_rotate(arm, x, y), arm))
            links.append((f"{colour}-h{j + 1}", exit_id))
    return Board(
        name="manji",
        width=280.0,
        height=340.0,
        spaces=tuple(spaces),
        links=tuple(links),
        regions=(Region("tray", 44.0, 290.0, 192.0, 44.0),),
        hole_radius=5.0,
        token_radius=5.5,
        seat_colours=ARM_COLOURS,
        marker_ids=(12, 13, 14, 15),
    )


# --- state ---------------------------------------------------------------------------------


class ManjiState(NamedTuple):
    """Whose turn, what is expected next, and where every pawn is.

    pieces[p] is seat p's two pawns as sorted nodes: HOME (-1), CENTRE (-2), or a board-space
    index; a pawn on the small circle that has started its full turn is stored as index + N
    (N spaces on the board), and one back on the arrow square after the turn as index + 2N.
    sixes counts the sixes rolled in a row this turn; last is the node of the pawn moved last
    in that run (NOBODY if none). rolloff holds the opening roll-off: 0 still to roll, -1 out
    of it, else the value rolled.
    """

    to_move: int
    phase: str  # opening | roll | move | penalty | over
    dice: int  # the value rolled this turn, 0 before the roll
    pieces: tuple[tuple[int, ...], ...]
    actor: int
    sixes: int = 0
    last: int = NOBODY
    rolloff: tuple[int, ...] = ()


# --- the game ------------------------------------------------------------------------------


@register
class Manji(Game):
    name = "manji"
    title = "Manji"
    player_counts = (2, 3, 4)
    default_players = 4
    token_name = "pawn"
    option_specs = OPTIONS
    clause_list = CLAUSES
    state_type = ManjiState
    move_phases = frozenset({"move", "penalty"})
    turn_clause = "MANJI-1.3"
    roll_first_clause = "MANJI-2.1"

    def __init__(self, players: int, options: dict | None = None) -> None:
        super().__init__(players, options)
        self._precompute()

    # Board and seats --------------------------------------------------------------------
    def build_board(self) -> Board:
        self.arms = SEAT_ARMS[self.players]
        return build_board()

    def seat_colours(self) -> tuple[str, ...]:
        return tuple(ARM_COLOURS[arm] for arm in self.arms)

    def _precompute(self) -> None:
        """Routes and square kinds from the geometry, so a move never searches the board."""
        board = self.board
        index = board.index
        self._ids = ids = [s.id for s in board.spaces]
        self._n = len(ids)
        kinds = [s.kind for s in board.spaces]
        inner = {"lane", "ring", "tip", "arrow", "approach", "centre"}
        self._inner = [k in inner for k in kinds] * 3  # stage-B/C ring nodes are inner too
        self._ring = [index[f"r{i + 1:02d}"] for i in range(RING)]
        self._ring_pos = {s: i for i, s in enumerate(self._ring)}
        self._arrow = self._ring[ARROW]
        self._approach = index["app"]
        self._centre_ids = tuple(s.id for s in board.spaces if s.kind == "centre")
        track = [index[f"t{k:02d}"] for k in range(1, 4 * PER_ARM + 1)]
        self._route, self._rpos, self._lane, self._lane_pos = [], [], [], []
        self._entry, self._shortcut, self._tip, self._house_ids = [], [], [], []
        for arm in self.arms:
            colour = ARM_COLOURS[arm]
            start = arm * PER_ARM + EXIT_LOCAL
            route = [track[(start + i) % len(track)] for i in range(LAP + 1)]
            self._route.append(route)
            self._rpos.append({s: i for i, s in enumerate(route)})
            lane = [index[f"{colour}-l{j + 1}"] for j in range(len(ARM_LANE))]
            self._lane.append(lane)
            self._lane_pos.append({s: j for j, s in enumerate(lane)})
            self._entry.append(ring_entry(arm))
            self._shortcut.append(track[((arm - 1) % 4) * PER_ARM + SHORTCUT_LOCAL])
            self._tip.append(self._ring[(ring_entry(arm) - 1) % RING])
            self._house_ids.append((f"{colour}-h1", f"{colour}-h2"))
        self._rolls = [
            [Roll(p, self.colours[p], v) for v in range(1, 7)] for p in range(self.players)
        ]
        self._passes = [Pass(p, self.colours[p]) for p in range(self.players)]
        self._declines = [Decline(p, self.colours[p]) for p in range(self.players)]
        self._rolls_or_decline = [
            (*rolls, decline) for rolls, decline in zip(self._rolls, self._declines, strict=True)
        ]
        self._steps: dict[tuple, Step] = {}
        self._where: tuple[tuple, dict[int, int]] = ((), {})

    def _step(self, p: int, frm: str, to: str, route: str = "") -> Step:
        key = (p, frm, to, route)
        step = self._steps.get(key)
        if step is None:
            step = self._steps[key] = Step(p, self.colours[p], frm, to, route)
        return step

    def space_of(self, node: int) -> int:
        """Board-space index of a node on the board (not HOME or CENTRE)."""
        return node % self._n

    def _node_id(self, p: int, node: int) -> str:
        if node == HOME:
            return self._house_ids[p][0]
        if node == CENTRE:
            return self._centre_ids[0]
        return self._ids[node % self._n]

    # State ---------------------------------------------------------------------------------
    def initial_state(self) -> ManjiState:
        pieces = tuple((HOME,) * PAWNS for _ in range(self.players))
        if self.options["opening"] == "roll-off":
            return ManjiState(0, "opening", 0, pieces, 0, 0, NOBODY, (0,) * self.players)
        return ManjiState(0, "roll", 0, pieces, 0, 0, NOBODY, ())

    def steps(self, state: ManjiState) -> int:
        """Squares the roll moves a pawn: a 6 counts as 7 once no pawn is at home."""
        if state.dice == 6 and HOME not in state.pieces[state.actor]:
            return 7
        return state.dice

    # Moves ---------------------------------------------------------------------------------
    def legal_moves(self, state: ManjiState) -> list[Move]:
        phase = state.phase
        if phase == "move":
            return [option[0] for option in self._options(state)] or [self._passes[state.actor]]
        if phase == "roll":
            return list(self._roll_choices(state))
        if phase == "opening":
            return list(self._rolls[state.to_move])
        if phase == "penalty":
            target = self._penalty_target(state)
            if target is None:
                return [self._passes[state.actor]]
            p = state.actor
            return [self._step(p, self._node_id(p, target), self._house_ids[p][0], "home")]
        return []

    def _roll_choices(self, state: ManjiState) -> Sequence[Move]:
        """The rolls of phase roll, and the decline when the extra roll may be declined."""
        seat = state.to_move
        return self._rolls_or_decline[seat] if self._may_decline(state) else self._rolls[seat]

    def _may_decline(self, state: ManjiState) -> bool:
        """An extra roll after a 6 (MANJI-4.1) that the player may decline (MANJI-4.6)."""
        return state.sixes > 0 and self.options["extra_roll"] == "optional"

    def _penalty_target(self, state: ManjiState) -> int | None:
        """The node of the pawn a third 6 sends home, or None (MANJI-4.4)."""
        last = state.last
        if last < 0 or self._inner[last] or last not in state.pieces[state.actor]:
            return None
        return last

    def _occupancy(self, pieces: tuple) -> dict[int, int]:
        """{space: seat of the pawn on it}, kept for the last position seen or played
        (`_apply_option` updates it instead of a rebuild); never changed once made."""
        known, occupants = self._where
        if known is pieces:
            return occupants
        n = self._n
        occupants = {node % n: q for q, own in enumerate(pieces) for node in own if node >= 0}
        self._where = (pieces, occupants)
        return occupants

    def _options(self, state: ManjiState, everything: bool = False) -> list[tuple]:
        """Legal (Step, old node, new node, captured seat or -1, tag, captured square) for the roll.

        `everything` skips the filters that choose between pawns (coming out is obligatory,
        short moves as a last resort), for explaining attempts.
        """
        p = state.actor
        own = state.pieces[p]
        occ = self._occupancy(state.pieces)
        dice = state.dice
        steps = 7 if dice == 6 and HOME not in own else dice
        out: list[tuple] = []
        previous = None
        for node in own:  # sorted: a second pawn at home or in the centre moves alike
            if node != previous:
                out += self._pawn_options(p, node, dice, steps, occ)
                previous = node
        if everything:
            return out
        if dice == 5 and HOME in own:
            exits = [o for o in out if o[4] == "exit"]
            if exits:
                return exits
        if self.options["short_ring_moves"] == "last-resort":
            full = [o for o in out if o[4] != "short"]
            if full:
                return full
        return out

    def _pawn_options(self, p: int, node: int, dice: int, steps: int, occ: dict) -> list[tuple]:
        """Every move of one pawn with this roll (see MANJI-3.x, 2.4-2.5, 6.x, 7.x, 8.x)."""
        ids = self._ids
        if node == HOME:
            if dice != 5:
                return []
            dest = self._route[p][0]
            holder = occ.get(dest, -1)
            if holder == p:
                return []
            step = self._step(p, self._house_ids[p][0], ids[dest], "exit")
            return [(step, node, dest, holder, "exit", dest)]
        if node == CENTRE:
            return []
        n = self._n
        space = node % n
        frm = ids[space]
        pos = self._rpos[p].get(space) if node < n else None
        if pos is not None and pos < LAP:
            j = pos + steps
            if j > LAP:
                return []
            dest = self._route[p][j]
            holder = occ.get(dest, -1)
            if holder == p:
                return []
            if j == LAP:
                deepest = -1
                passing = self.options["arrival_slide"] == "deepest-free"
                for k, lane_sq in enumerate(self._lane[p]):
                    if lane_sq in occ:
                        if passing:
                            continue
                        break
                    deepest = k
                if deepest >= 0:
                    to = self._lane[p][deepest]
                    step = self._step(p, frm, ids[to], "arrival")
                    return [(step, node, to, holder, "arrival", dest)]
                return [(self._step(p, frm, ids[dest]), node, dest, holder, "move", dest)]
            found = [(self._step(p, frm, ids[dest]), node, dest, holder, "move", dest)]
            if dest == self._shortcut[p]:
                tip = self._tip[p]
                if tip not in occ:
                    step = self._step(p, frm, ids[tip], "shortcut")
                    found.append((step, node, tip, holder, "shortcut", dest))
            return found
        ring_pos = self._ring_pos
        if pos == LAP or space in self._lane_pos[p]:
            # In the lane (or stuck on the arrival square): on by count into the circle.
            k = self._lane_pos[p].get(space, -1)
            lane = self._lane[p]
            entry = self._entry[p]
            path = lane[k + 1 :] + [self._ring[(entry + t) % RING] for t in range(steps)]
            path = path[:steps]
            reached = 0
            turn_off = self.options["arrow_square"] == "turn-off"
            for sq in path:
                if sq in ring_pos and sq in occ:
                    break
                reached += 1
                if turn_off and sq == self._arrow and reached < steps:
                    option = self._turn_off(p, frm, node, steps - reached, occ)
                    if option is not None:
                        return [option]
            if reached == 0:
                return []
            dest = path[reached - 1]
            if dest in occ:
                return []  # own partner in the lane (MANJI-6.4)
            tag = "short" if reached < steps else "move"
            new = dest
            if dest == self._arrow:
                new, tag = dest + n, ("turn" if tag == "move" else "short")
            return [(self._step(p, frm, ids[dest]), node, new, -1, tag, -1)]
        if space in ring_pos:
            i = ring_pos[space]
            stage = node // n  # 0 circling, 1 on the full turn, 2 back on the arrow square
            if stage == 2:
                if steps == 1 and self._approach not in occ:
                    dest = self._approach
                    return [(self._step(p, frm, ids[dest]), node, dest, -1, "approach", -1)]
                if steps == 2:
                    to = self._centre_ids[0]
                    return [(self._step(p, frm, to), node, CENTRE, -1, "centre", -1)]
                return []
            if stage == 1:
                remaining = RING - (i - ARROW) % RING
                if steps > remaining:
                    return []
            reached = 0
            turn_off = stage == 0 and self.options["arrow_square"] == "turn-off"
            for t in range(1, steps + 1):
                sq = self._ring[(i + t) % RING]
                if sq in occ:
                    break
                reached = t
                if turn_off and sq == self._arrow and t < steps:
                    option = self._turn_off(p, frm, node, steps - t, occ)
                    if option is not None:
                        return [option]
            if reached == 0:
                return []
            dest = self._ring[(i + reached) % RING]
            tag = "move" if reached == steps else "short"
            new = dest + stage * n
            if dest == self._arrow:
                if stage == 0:
                    new, tag = dest + n, ("turn" if tag == "move" else "short")
                else:
                    new, tag = dest + 2 * n, "turn done"
            return [(self._step(p, frm, ids[dest]), node, new, -1, tag, -1)]
        if space == self._approach:
            if steps == 1:
                to = self._centre_ids[0]
                return [(self._step(p, frm, to), node, CENTRE, -1, "centre", -1)]
        return []

    def _turn_off(self, p: int, frm: str, node: int, rest: int, occ: dict) -> tuple | None:
        """House rule MANJI-8.6: `rest` squares left after passing the arrow square."""
        if rest == 1 and self._approach not in occ:
            dest = self._approach
            return (self._step(p, frm, self._ids[dest]), node, dest, -1, "turn off", -1)
        if rest == 2:
            to = self._centre_ids[0]
            return (self._step(p, frm, to), node, CENTRE, -1, "turn off", -1)
        return None  # a longer count (or a taken approach): on round the circle

    # Applying moves --------------------------------------------------------------------------
    def apply(self, state: ManjiState, move: Move) -> ManjiState:
        phase = state.phase
        kind = move.__class__
        if phase == "move" and kind is Step and move.player == state.actor:
            for option in self._options(state):
                if option[0] == move:
                    return self._apply_option(state, option)
            self.check(state, move)  # raises IllegalMoveError naming the clause
            raise AssertionError(f"{move} passed the legality check but has no option")
        if kind is Roll and phase in ("roll", "opening") and move.player == state.to_move:
            if not 1 <= move.value <= 6:
                self.check(state, move)
            if phase == "opening":
                return self._apply_rolloff(state, move.value)
            return self._rolled(state, move.value)
        self.check(state, move)  # raises for anything else that is not legal
        if kind is Decline:
            return self._next_player(state, state.pieces)
        if phase == "penalty":
            pieces = state.pieces
            if kind is Step:
                pieces = self._replace_node(pieces, state.actor, state.last, HOME)
            return self._next_player(state, pieces)
        return self._passed(state)

    def _passed(self, state: ManjiState) -> ManjiState:
        """The pass of phase move (no pawn can use the roll)."""
        return self._end_turn(state, state.pieces, state.last, moved=False)

    @staticmethod
    def _rolled(state: ManjiState, value: int) -> ManjiState:
        """The turn's roll (phase roll, a legal value): a third 6 in a row is a penalty."""
        to_move, _phase, _dice, pieces, actor, sixes, last, rolloff = state
        if value != 6:
            return ManjiState(to_move, "move", value, pieces, actor, 0, last, rolloff)
        sixes += 1
        phase = "penalty" if sixes == 3 else "move"
        return ManjiState(to_move, phase, 6, pieces, actor, sixes, last, rolloff)

    @staticmethod
    def _replace_node(pieces: tuple, p: int, old: int, new: int) -> tuple:
        own = list(pieces[p])
        own[own.index(old)] = new
        out = list(pieces)
        out[p] = tuple(sorted(own))
        return tuple(out)

    def _apply_option(self, state: ManjiState, option: tuple) -> ManjiState:
        _step, old, new, victim, _tag, hit = option
        p = state.actor
        pieces = self._replace_node(state.pieces, p, old, new)
        if victim >= 0:
            pieces = self._replace_node(pieces, victim, hit, HOME)
        known, occupants = self._where
        if known is state.pieces:  # one pawn per space: old is left, a victim goes home
            n = self._n
            occupants = dict(occupants)
            if old >= 0:
                occupants.pop(old % n, None)
            if victim >= 0:
                occupants.pop(hit % n, None)
            if new >= 0:
                occupants[new % n] = p
            self._where = (pieces, occupants)
        return self._end_turn(state, pieces, new, moved=True)

    def _end_turn(self, state: ManjiState, pieces: tuple, last: int, moved: bool) -> ManjiState:
        p = state.actor
        if pieces[p] == (CENTRE, CENTRE):
            return ManjiState(p, "over", state.dice, pieces, p, state.sixes, last, ())
        if state.dice == 6 and (moved or self.options["extra_roll_after_pass"]):
            return ManjiState(p, "roll", 0, pieces, p, state.sixes, last, ())
        return self._next_player(state, pieces)

    def _next_player(self, state: ManjiState, pieces: tuple) -> ManjiState:
        nxt = (state.to_move + 1) % self.players
        return ManjiState(nxt, "roll", 0, pieces, nxt, 0, NOBODY, ())

    def _apply_rolloff(self, state: ManjiState, value: int) -> ManjiState:
        rolls, seat, decided = record_roll(state.rolloff, state.to_move, value, lowest=True)
        if not decided:
            return state._replace(to_move=seat, actor=seat, rolloff=rolls)
        return ManjiState(seat, "roll", 0, state.pieces, seat, 0, NOBODY, ())

    # Verdicts ------------------------------------------------------------------------------
    def explain(self, state: ManjiState, move: Move) -> Verdict:
        legal = move in self.legal_moves(state)
        if isinstance(move, Roll):
            return self._roll_verdict(state, move, legal)
        if isinstance(move, Decline):
            return self._decline_verdict(state, move, legal)
        if isinstance(move, Pass):
            if not legal and state.phase in ("roll", "opening"):
                return self._against("MANJI-2.1", "roll the die first")
            if not legal:
                return self._against("MANJI-2.2", "a legal move exists, so passing is not allowed")
            if state.phase == "penalty":
                effect = Effect(
                    "pass", "MANJI-4.4", f"third 6: no {move.colour} pawn goes home; turn passes"
                )
                reason = f"{move.colour} rolled a third 6; the turn passes"
                return Verdict(True, (self.clause("MANJI-4.4"),), (effect,), reason)
            effects = [Effect("pass", "MANJI-2.3", f"{move.colour} cannot move and passes")]
            effects += self._extra_roll_effects(state, moved=False)
            return Verdict(True, (self.clause("MANJI-2.3"),), tuple(effects), str(move))
        if isinstance(move, Step):
            if legal:
                return self._legal_step_verdict(state, move)
            if move.player != state.actor:
                return self._against(
                    "MANJI-1.3", f"it is {self.colours[state.actor]}'s turn to move"
                )
            return self.explain_attempt(state, move.frm, move.to)
        return self._against("MANJI-1.3", f"{move} is not a Manji move")

    def _against(self, clause_id: str, reason: str) -> Verdict:
        return Verdict(False, (self.clause(clause_id),), reason=reason)

    def _decline_verdict(self, state: ManjiState, move: Decline, legal: bool) -> Verdict:
        if not legal:
            if state.phase == "roll" and state.sixes and move.player == state.to_move:
                return self._against("MANJI-4.6", "with this house rule the extra roll is taken")
            return self._against("MANJI-4.6", "only a player who may roll again after a 6 declines")
        nxt = self.colours[(state.to_move + 1) % self.players]
        text = f"{move.colour} does not roll again; {nxt} plays next"
        if state.sixes == 2:
            text += " (no third 6 to risk)"
        effect = Effect("pass", "MANJI-4.6", text, None, move.player)
        return Verdict(True, (self.clause("MANJI-4.6"),), (effect,), text)

    def _roll_verdict(self, state: ManjiState, move: Roll, legal: bool) -> Verdict:
        if not legal:
            return self._against("MANJI-2.1", f"{move.colour} cannot roll now")
        if state.phase == "opening":
            return Verdict(True, (self.clause("MANJI-1.2"),), reason=str(move))
        if move.value == 6 and state.sixes == 2:
            target = self._penalty_target(state._replace(phase="penalty"))
            if target is None:
                text = f"third 6 in a row: {move.colour}'s turn ends, no pawn goes home"
                clauses, key = ("MANJI-4.3", "MANJI-4.4"), "MANJI-4.4"
            else:
                where = self._ids[target % self._n]
                text = f"third 6 in a row: the {move.colour} pawn on {where} goes back home"
                clauses, key = ("MANJI-4.3",), "MANJI-4.3"
            effect = Effect("send_home", key, text, None, move.player)
            return Verdict(True, tuple(self.clause(c) for c in clauses), (effect,), text)
        return Verdict(True, (self.clause("MANJI-2.1"),), reason=str(move))

    def _legal_step_verdict(self, state: ManjiState, move: Step) -> Verdict:
        p = state.actor
        colour = move.colour
        if state.phase == "penalty":
            text = f"third 6 in a row: the {colour} pawn on {move.frm} goes back home"
            effect = Effect("send_home", "MANJI-4.3", text, move.frm, p)
            return Verdict(True, (self.clause("MANJI-4.3"),), (effect,), text)
        option = next(o for o in self._options(state) if o[0] == move)
        _step, old, new, victim, tag, hit = option
        clauses: list[str] = []
        effects: list[Effect] = []
        if tag == "exit":
            clauses.append("MANJI-3.1")
            effects.append(Effect("start", "MANJI-3.1", f"{colour} pawn comes out", move.to, p))
        else:
            if state.dice == 5 and HOME in state.pieces[p]:
                clauses.append("MANJI-3.3")  # a 5 with a pawn at home: the exit was blocked
            if tag not in ("short", "arrival"):  # those cite their own rules (8.4-8.5, 6.2-6.3)
                clauses.append("MANJI-2.4")
            if self.steps(state) == 7:
                clauses.append("MANJI-4.2")
            origin = old % self._n if old >= 0 else -1
            if origin in self._lane_pos[p]:
                clauses.append("MANJI-6.4")
            elif origin in self._ring_pos and old < self._n:
                clauses.append("MANJI-8.1")
            if tag == "move" and new == self._route[p][LAP]:
                clauses.append("MANJI-6.2")  # on the arrival square, its lane full
        if victim >= 0:
            key = "MANJI-3.4" if tag == "exit" else "MANJI-5.1"
            landed = self._ids[hit]
            clauses.append(key)
            effects.append(
                Effect(
                    "capture",
                    key,
                    f"{self.colours[victim]} pawn on {landed} captured and sent home",
                    landed,
                    victim,
                )
            )
        if tag == "arrival":
            clauses += ["MANJI-6.2", "MANJI-6.3"]
            effects.append(
                Effect("enter", "MANJI-6.3", f"{colour} pawn enters its lane to {move.to}", move.to)
            )
        elif tag == "shortcut":
            clauses += ["MANJI-7.1"]
            effects.append(
                Effect("shortcut", "MANJI-7.1", f"{colour} pawn takes the shortcut", move.to, p)
            )
        elif tag == "turn":
            clauses += ["MANJI-8.2"]
            effects.append(
                Effect("turn", "MANJI-8.2", f"{colour} pawn starts its full turn", move.to, p)
            )
        elif tag == "turn done":
            clauses += ["MANJI-8.2", "MANJI-8.3"]
            effects.append(
                Effect("turn", "MANJI-8.2", f"{colour} pawn completed its full turn", move.to, p)
            )
        elif tag == "short":
            clauses += ["MANJI-8.4", "MANJI-8.5"]
            effects.append(
                Effect(
                    "blocked",
                    "MANJI-8.4",
                    f"{colour} pawn stops on {move.to}, just before another pawn",
                    move.to,
                    p,
                )
            )
            if new >= self._n and new % self._n == self._arrow:
                clauses.append("MANJI-8.2")
        elif tag in ("approach", "centre"):
            clauses.append("MANJI-8.3")
        elif tag == "turn off":
            clauses.append("MANJI-8.6")
        if new == CENTRE:
            clauses.append("MANJI-9.2")
            effects.append(
                Effect("home", "MANJI-8.3", f"{colour} pawn reaches the central square", None, p)
            )
        if state.pieces[p].count(CENTRE) == 1 and new == CENTRE:
            clauses.append("MANJI-9.1")
            effects.append(Effect("win", "MANJI-9.1", f"{colour} wins", None, p))
        else:
            effects += self._extra_roll_effects(state, moved=True)
        reason = f"{colour} moves {move.frm} to {move.to}"
        return Verdict(True, tuple(self.clause(c) for c in clauses), tuple(effects), reason)

    def _extra_roll_effects(self, state: ManjiState, moved: bool) -> list[Effect]:
        if state.dice == 6 and (moved or self.options["extra_roll_after_pass"]):
            colour = self.colours[state.to_move]
            key = "MANJI-4.1" if moved else "MANJI-4.5"
            text = f"{colour} rolled a 6 and may roll again"
            return [Effect("extra_turn", key, text, None, state.to_move)]
        return []

    def explain_attempt(self, state: ManjiState, frm: str, to: str) -> Verdict:
        """Why the mover's pawn cannot go from `frm` to `to` now, citing the rule broken."""
        if state.phase == "penalty":
            target = self._penalty_target(state)
            if target is None:
                return self._against("MANJI-4.4", "after a third 6 no pawn moves; the turn passes")
            where = self._ids[target % self._n]
            return self._against(
                "MANJI-4.3", f"after a third 6 only the pawn on {where} moves: back to its house"
            )
        if state.phase != "move":
            return self._against("MANJI-2.1", "roll the die before moving")
        p = state.actor
        colour = self.colours[p]
        index = self.board.index
        if frm not in index or to not in index:
            return self._against("MANJI-2.4", f"{frm}->{to} is not on this board")
        dice, steps = state.dice, self.steps(state)
        own = state.pieces[p]
        if frm in self._house_ids[p]:
            node = HOME if HOME in own else None
        else:
            node = next((x for x in own if x >= 0 and x % self._n == index[frm]), None)
            if node is None and frm in self._centre_ids and CENTRE in own:
                node = CENTRE
        if node is None:
            return self._against("MANJI-1.3", f"no {colour} pawn was on {frm}")
        target = index[to]
        kind = self.board.spaces[target].kind
        if node == CENTRE:
            return self._against("MANJI-9.1", "a pawn on the central square has finished")
        if kind == "house":
            if to in self._house_ids[p] and node != HOME:
                return self._against(
                    "MANJI-5.1", "a pawn goes back to its house only when it is captured"
                )
            return self._against("MANJI-3.1", f"that is not the {colour} house")
        if node == HOME:
            if target != self._route[p][0]:
                return self._against(
                    "MANJI-3.1", f"a {colour} pawn leaving its house goes to its exit square"
                )
            if dice != 5:
                return self._against(
                    "MANJI-3.1", f"a pawn comes out only on a 5; the roll is {dice}"
                )
            return self._against("MANJI-3.3", f"your own pawn already stands on {to}")
        everything = self._options(state, everything=True)
        mine = [o for o in everything if o[1] == node]
        if any(o[0].to == to for o in mine):
            if dice == 5 and HOME in own:
                return self._against(
                    "MANJI-3.2", "with a 5 and a pawn at home, a pawn must come out"
                )
            return self._against(
                "MANJI-8.5", "a pawn may stop short only when no pawn can use the full count"
            )
        return self._explain_unreachable(state, node, frm, to, target, kind, steps)

    def _explain_unreachable(
        self, state: ManjiState, node: int, frm: str, to: str, target: int, kind: str, steps: int
    ) -> Verdict:
        p = state.actor
        n = self._n
        dice = state.dice
        space = node % n
        roll = f"the roll is {dice}" + (" (counts as 7)" if steps == 7 else "")
        empty: dict[int, int] = {}
        # Same roll on an empty board: then the pawns in the way are the reason.
        free = self._pawn_options(p, node, dice, steps, empty)
        if any(o[0].to == to for o in free):
            tag = next(o[4] for o in free if o[0].to == to)
            if tag == "turn off":
                if kind == "approach" and self._approach in self._occupancy(state.pieces):
                    return self._against("MANJI-8.6", "a pawn already stands on the approach")
                return self._against(
                    "MANJI-8.4", "pawns cannot pass each other in the small circle"
                )
            if kind in ("ring", "tip", "arrow"):
                if tag == "shortcut":
                    circle = self._shortcut[p]
                    if self._occupancy(state.pieces).get(circle) == p:
                        return self._against(
                            "MANJI-2.5",
                            f"your own pawn stands on {self._ids[circle]}, the circle the "
                            "shortcut starts from",
                        )
                    return self._against("MANJI-7.2", f"a pawn stands on the shortcut's tip {to}")
                return self._against(
                    "MANJI-8.4", "pawns cannot pass each other in the small circle"
                )
            arriving = self._rpos[p].get(space, -1) < LAP and space not in self._lane_pos[p]
            if kind == "lane" and arriving:
                return self._against(
                    "MANJI-6.3", "an arriving pawn goes down its lane as far as it can"
                )
            if kind == "approach":
                return self._against("MANJI-8.3", "a pawn already stands on the approach square")
            return self._against("MANJI-2.5", f"your own pawn already stands on {to}")
        if kind == "lane" and to not in (self._ids[s] for s in self._lane[p]):
            return self._against("MANJI-6.4", f"{to} is another player's lane")
        pos = self._rpos[p].get(space) if node < n else None
        if pos is not None and pos < LAP:
            arrival = self._route[p][LAP]
            if kind == "lane" or (target == arrival and pos + steps == LAP):
                if pos + steps == LAP:
                    occ = self._occupancy(state.pieces)
                    real = self._pawn_options(p, node, dice, steps, occ)
                    deepest = real[0][0].to if real else "its lane"
                    return self._against(
                        "MANJI-6.3",
                        f"a pawn landing on its arrival square goes on down its lane as far as "
                        f"it can (here {deepest})",
                    )
                return self._against(
                    "MANJI-6.2",
                    "a pawn enters its lane only by landing exactly on its arrival square, "
                    f"{_squares(LAP - pos)} away; {roll}",
                )
            if target in self._rpos[p]:
                ahead = self._rpos[p][target] - pos
                onward = ahead % len(self._route[p])  # squares forward, round the track
                if ahead <= 0 and 0 < onward <= 7 and pos + onward > LAP:
                    # carried on round the track past its own arrival square
                    where = self._ids[arrival]
                    if pos + steps > LAP:
                        return self._against(
                            "MANJI-6.2",
                            f"the arrival square {where} is {_squares(LAP - pos)} away; {roll}",
                        )
                    return self._against(
                        "MANJI-6.1",
                        f"the lap ends on the arrival square {where}; from there a pawn goes "
                        "inside, never round again",
                    )
                if ahead <= 0:
                    return self._against("MANJI-2.4", "pawns move forward (clockwise) only")
                if pos + steps > LAP:
                    return self._against(
                        "MANJI-6.2",
                        f"the arrival square is {_squares(LAP - pos)} away; {roll}",
                    )
                key = "MANJI-4.2" if steps == 7 and ahead == 6 else "MANJI-2.4"
                return self._against(key, f"that is {_squares(ahead)}, but {roll}")
            if kind in ("ring", "tip", "arrow"):
                return self._against(
                    "MANJI-7.1",
                    "from the track a pawn reaches the small circle only by the shortcut of its "
                    "own colour, ending its move on that circle",
                )
            return self._against("MANJI-8.3", "the centre is reached only from the arrow square")
        if kind in ("track", "exit", "arrival", "shortcut"):
            if pos == LAP:
                return self._against(
                    "MANJI-6.1", "a pawn on its arrival square goes on only inside, down its lane"
                )
            return self._against("MANJI-6.1", "a pawn in the inner section never goes back out")
        circling = node < n and (space in self._ring_pos or space in self._lane_pos[p])
        if kind in ("centre", "approach") and circling:
            if self.options["arrow_square"] == "turn-off":
                return self._against(
                    "MANJI-8.6",
                    "a pawn turns off at the arrow square only when its count ends one square "
                    f"past it (the approach) or two (the central square); {roll}",
                )
        if kind == "centre" or kind == "approach":
            return self._against(
                "MANJI-8.3",
                "the approach and the central square are reached by exact count from the arrow "
                f"square, after a full turn of the small circle; {roll}",
            )
        stage = node // n
        if stage == 1 and space in self._ring_pos:
            remaining = RING - (self._ring_pos[space] - ARROW) % RING
            if steps > remaining:
                return self._against(
                    "MANJI-8.2",
                    f"the full turn ends on the arrow square, {_squares(remaining)} away; {roll}",
                )
        if stage == 2:
            return self._against(
                "MANJI-8.3", "after its full turn the pawn goes only to the approach and centre"
            )
        ring_pos = self._ring_pos
        if space in ring_pos and target in ring_pos:
            ahead = (ring_pos[target] - ring_pos[space]) % RING
            return self._against(
                "MANJI-2.4", f"that is {_squares(ahead)} clockwise round the circle, but {roll}"
            )
        return self._against("MANJI-2.4", f"{frm} to {to} is not {_squares(steps)} forward")

    # Outcome -------------------------------------------------------------------------------
    def outcome(self, state: ManjiState) -> Outcome | None:
        if state.phase != "over":
            return None
        p = state.actor
        return Outcome((p,), self.clause("MANJI-9.1"), f"{self.colours[p]} wins")

    # What the camera should see ---------------------------------------------------------------
    def placement(self, state: ManjiState) -> dict[str, str]:
        ids, n = self._ids, self._n
        seen: dict[str, str] = {}
        centre = 0
        for p, pawns in enumerate(state.pieces):
            colour = self.colours[p]
            home = 0
            for node in pawns:
                if node == HOME:
                    seen[self._house_ids[p][home]] = colour
                    home += 1
                elif node == CENTRE:
                    seen[self._centre_ids[centre]] = colour
                    centre += 1
                else:
                    seen[ids[node % n]] = colour
        return seen

    def groups(self) -> tuple[tuple[str, ...], ...]:
        return tuple(self._house_ids) + (self._centre_ids,)


def _squares(count: int) -> str:
    return f"{count} square" if count == 1 else f"{count} squares"
