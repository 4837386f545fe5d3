"""The Right Moves: move and jump along the paths of four circles to take the inner circle.

Two players (red and blue), or four people in two teams of two (seats alternate red, blue, red,
blue clockwise, so partners sit opposite and every person plays their team's pieces over the
whole board).

Board design (the rulebook's figures are missing; see ../shared/rulebooks/BOARDS.md, nothing is
published, so the whole board is our interpretation, clause TRM-0.1):

* Four concentric circles of 4, 8, 16 and 32 spaces: 60 spaces. Ids are a1..a4 (the inner
  circle), b1..b8 (the second innermost), c1..c16 and d1..d32 (the outer circle), each circle
  numbered clockwise from 12 o'clock, so space 1 of every circle lies on the vertical line
  above the centre. Kinds: "inner", "second", "third", "outer".
* Paths: every circle is a closed path joining neighbouring spaces. Straight spokes join each
  space to the space directly outward of it on the next circle (every space of a circle lines
  up with every other space of the next circle out): 4 spokes run from the outer circle to the
  inner circle, 4 more to the second circle, 8 more to the third circle; the 16 outer spaces
  in between have no spoke and are left only around the outer circle.
* With the `centre_paths` option (on by default) the four long spokes continue straight
  through the middle of the board: a1-a3 and a2-a4 are joined by a path crossing the centre,
  where there is no space, so a piece passes straight across and can never turn there
  (rulebook note, clause TRM-3.5).
* A "line" is a maximal straight run of path: a circle (closed) or a spoke (open, the long
  ones through the centre). Jumps and skips go along one line; steps join neighbours on a line.
* Setup (TRM-0.2): red takes the lower half, blue the upper half; each side has 15 outer
  spaces and the 3 spokes' third-circle spaces of its half (18 pieces). The outer spaces on
  the horizontal line (d9, d25) and the third-circle spaces c5, c13 stay empty, as do the two
  inner circles. Setup spaces carry their side as `owner` so the printed board can tint them.

Positions are in millimetres. The board is 360 mm wide and 410 mm tall: the play area is the
top 360 mm square, centre (180, 180), circle radii 32, 70, 110 and 150 mm; a "captured" strip
between the bottom corner markers holds jumped pieces, off the spaces. The nearest space is
about 104 mm from a board corner (ArUco markers 16-19).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from ..clauses import Clause, Effect, Inference, Outcome, Verdict
from ..game import Game, Placement
from ..geometry import Board, Region, Space
from ..moves import Move, Step, move_kind
from ..options import Option
from ..palette import UNKNOWN
from ..registry import register

# --- clauses ------------------------------------------------------------------------------

CLAUSES = (
    Clause(
        "TRM-0.1",
        "The board",
        "Sixty spaces lie on four circles of 4, 8, 16 and 32. Paths run around each circle "
        "and along straight spokes joining spaces that line up; the four long spokes cross "
        "the centre, where there is no space.",
        "Equipment: Playing board",
        interpretation=True,
        option="centre_paths",
    ),
    Clause(
        "TRM-0.2",
        "Starting setup",
        "Each side has 18 pieces, plain side up: red on the lower half, blue on the upper "
        "half, 15 on the outer circle and 3 on the third circle. The two inner circles and "
        "the spaces on the horizontal line start empty.",
        "Equipment: Pieces, Figure 1",
        interpretation=True,
    ),
    Clause(
        "TRM-0.3",
        "Red starts",
        "The red side always makes the first move of the game.",
        "Rules of play",
    ),
    Clause(
        "TRM-0.4",
        "Taking turns",
        "The sides move in turn; only the side whose turn it is may move a piece.",
        "Rules of play",
    ),
    Clause(
        "TRM-0.5",
        "One piece per turn",
        "A turn is the whole movement of one single piece; no other piece of yours moves.",
        "Rules of play",
    ),
    Clause(
        "TRM-0.6",
        "No move loses",
        "A side that cannot make any move when its turn comes forfeits the game.",
        "Rules of play",
    ),
    Clause(
        "TRM-1.1",
        "Paths only",
        "A piece travels only along the printed paths and only onto an empty space.",
        "1. Basic movement a",
    ),
    Clause(
        "TRM-1.2",
        "Around or inward",
        "A piece that is not promoted steps or jumps either way around its circle or toward "
        "the inner circle, never away from the centre.",
        "1. Basic movement b",
    ),
    Clause(
        "TRM-1.3",
        "Outward from the second circle",
        "A piece that starts its turn on the second innermost circle may also move away "
        "from the centre, for the whole of that turn.",
        "1. Basic movement b, exception",
        interpretation=True,
    ),
    Clause(
        "TRM-1.4",
        "One space at a time",
        "A piece that is not promoted moves a single space per turn, unless it is jumping.",
        "1. Basic movement c",
    ),
    Clause(
        "TRM-2.1",
        "Jumped pieces are removed",
        "A piece may jump only an opponent's piece; every piece jumped is taken off the "
        "board. Pieces leave the board in no other way.",
        "2. Jumping a",
    ),
    Clause(
        "TRM-2.2",
        "How to jump",
        "A jump goes straight along one path from the space next to an opponent's piece, "
        "over it, to the empty space just beyond it.",
        "2. Jumping b",
    ),
    Clause(
        "TRM-2.3",
        "Several jumps",
        "A piece may go on jumping in the same turn, changing direction between jumps.",
        "2. Jumping c",
    ),
    Clause(
        "TRM-3.1",
        "Promotion",
        "A piece that arrives on one of the four inner spaces is promoted for the rest of the "
        "game (turn it over); the referee keeps track of promoted pieces.",
        "3. Promotion a",
    ),
    Clause(
        "TRM-3.2",
        "Promoted pieces go anywhere",
        "From the next turn on, a promoted piece may step, jump or skip in any direction, "
        "outward included.",
        "3. Promotion b",
    ),
    Clause(
        "TRM-3.3",
        "Skipping",
        "A promoted piece may skip: travel several spaces straight along one path to an "
        "empty space, provided no piece of either side stands in between.",
        "3. Promotion c",
    ),
    Clause(
        "TRM-3.4",
        "Skip or jump, not both",
        "A single move is a step, a skip or a series of jumps; skips and jumps never mix in "
        "one move.",
        "3. Promotion d",
    ),
    Clause(
        "TRM-3.5",
        "No turning in the inner circle",
        "There is no space at the centre, so a move crossing the middle goes straight on; "
        "a piece that lands on an inner space during a series of jumps may go on jumping "
        "only in the same direction (house rule: it may turn there, the centre excepted).",
        "3. Promotion, note",
        interpretation=True,
        option="turn_on_inner_spaces",
    ),
    Clause(
        "TRM-4.1",
        "Team game",
        "Four people play as two teams of two, partners sitting opposite; turns go "
        "clockwise, so red and blue players alternate.",
        "Four player game a",
        interpretation=True,
    ),
    Clause(
        "TRM-4.2",
        "Playing for the team",
        "On your turn you move any of your team's pieces anywhere on the board; partners do "
        "not discuss their plans.",
        "Four player game b",
    ),
    Clause(
        "TRM-5.1",
        "Win by the inner circle",
        "A side whose pieces fill all four spaces of the inner circle wins at once.",
        "Objective 1",
    ),
    Clause(
        "TRM-5.2",
        "Win by elimination",
        "A side that leaves its opponent with three pieces or fewer wins, since the "
        "opponent can no longer fill the inner circle.",
        "Objective 2",
    ),
    Clause(
        "TRM-I.1",
        "Jumping is a choice",
        "Jumping is never compulsory and a series of jumps may stop after any jump.",
        "2. Jumping",
        interpretation=True,
        option="must_jump",
    ),
    Clause(
        "TRM-I.2",
        "Promotion ends the move",
        "A piece that is not yet promoted stops when it arrives in the inner circle, even in "
        "the middle of a series of jumps (house rule: it may jump on, promoted from that "
        "moment, so its further jumps may go in any direction, outward included).",
        "3. Promotion a",
        interpretation=True,
        option="promotion_ends_move",
    ),
    Clause(
        "TRM-I.3",
        "Skips go straight",
        "A skip follows one circle or one spoke without turning, so it never passes through "
        "a space where it could change path (house rule: a skip may turn onto another path "
        "at any space where paths meet, though never in the inner circle, TRM-3.5).",
        "3. Promotion c",
        interpretation=True,
        option="skip_turns",
    ),
    Clause(
        "TRM-I.4",
        "Jumps are short",
        "Promoted pieces jump like any other piece: from the next space over one piece to "
        "the space right behind it.",
        "3. Promotion b, d",
        interpretation=True,
    ),
    Clause(
        "TRM-I.5",
        "Removed as jumped",
        "A jumped piece leaves the board at once, so later jumps of the same move may pass "
        "over or land on its space, and no piece can be jumped twice.",
        "2. Jumping c",
        interpretation=True,
    ),
)

OPTIONS = (
    Option(
        "centre_paths",
        True,
        (True, False),
        "Whether the four long spokes cross the centre (a1-a3, a2-a4), letting pieces pass "
        "straight through the middle.",
        "TRM-0.1",
    ),
    Option(
        "must_jump",
        False,
        (False, True),
        "Checkers style: when a jump is possible the move must be a jump, and a series of "
        "jumps goes on while it can.",
        "TRM-I.1",
    ),
    Option(
        "promotion_ends_move",
        True,
        (True, False),
        "Whether arriving in the inner circle ends a series of jumps (off: the piece may "
        "jump on, promoted from the moment it arrives, so its further jumps may go in any "
        "direction, outward included; turning on an inner space still needs "
        "turn_on_inner_spaces).",
        "TRM-I.2",
    ),
    Option(
        "skip_turns",
        False,
        (False, True),
        "Whether a promoted piece's skip may turn onto another path where paths meet (on: any "
        "empty space reached along paths through empty spaces; still straight through the "
        "inner circle unless turn_on_inner_spaces).",
        "TRM-I.3",
    ),
    Option(
        "turn_on_inner_spaces",
        False,
        (False, True),
        "Whether a series of jumps may change direction on an inner space (on: only the centre, "
        "where there is no space, keeps pieces going straight).",
        "TRM-3.5",
    ),
)

SIDE_COLOURS = ("red", "blue")
RING_SIZES = (4, 8, 16, 32)
RING_LETTERS = "abcd"
RING_KINDS = ("inner", "second", "third", "outer")
RING_RADII = (32.0, 70.0, 110.0, 150.0)
PIECES = 18
SIZE = 360.0  # the square play area
HEIGHT = 410.0  # with a strip along the bottom edge for jumped pieces


def space_id(ring: int, j: int) -> str:
    """Id of the j-th (0-based, clockwise from 12 o'clock) space of a circle (0 = inner)."""
    return f"{RING_LETTERS[ring]}{j + 1}"


def setup_spaces() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(red spaces, blue spaces) of the starting setup (TRM-0.2)."""
    red = [space_id(3, j) for j in range(9, 24)] + [space_id(2, j) for j in (6, 8, 10)]
    blue = [space_id(3, j % 32) for j in range(25, 40)] + [space_id(2, j) for j in (14, 0, 2)]
    return tuple(red), tuple(blue)


# --- board ---------------------------------------------------------------------------------


def build_board(centre_paths: bool = True) -> Board:
    """The four-circle board (see the module docstring)."""
    cx = cy = SIZE / 2
    red, blue = setup_spaces()
    owner = {s: 0 for s in red} | {s: 1 for s in blue}
    spaces = []
    for ring, n in enumerate(RING_SIZES):
        for j in range(n):
            theta = 2 * math.pi * j / n
            r = RING_RADII[ring]
            sid = space_id(ring, j)
            x, y = cx + r * math.sin(theta), cy - r * math.cos(theta)
            spaces.append(Space(sid, RING_KINDS[ring], x, y, owner.get(sid)))
    links = []
    for ring, n in enumerate(RING_SIZES):
        links += [(space_id(ring, j), space_id(ring, (j + 1) % n)) for j in range(n)]
    for ring in range(3):
        links += [(space_id(ring, j), space_id(ring + 1, 2 * j)) for j in range(RING_SIZES[ring])]
    if centre_paths:
        links += [(space_id(0, 0), space_id(0, 2)), (space_id(0, 1), space_id(0, 3))]
    captured = Region("captured", 44.0, SIZE + 6.0, SIZE - 88.0, HEIGHT - SIZE - 12.0)
    return Board(
        name="the-right-moves" + ("" if centre_paths else "-no-centre"),
        width=SIZE,
        height=HEIGHT,
        regions=(captured,),
        spaces=tuple(spaces),
        links=tuple(links),
        hole_radius=7.0,
        token_radius=9.0,
        seat_colours=SIDE_COLOURS,
        marker_ids=(16, 17, 18, 19),
    )


def board_lines(centre_paths: bool = True) -> tuple[tuple[tuple[str, ...], bool], ...]:
    """Every straight run of path as (space ids in order, closed?): circles, then spokes."""
    lines: list[tuple[tuple[str, ...], bool]] = []
    for ring, n in enumerate(RING_SIZES):
        lines.append((tuple(space_id(ring, j) for j in range(n)), True))
    done = set()
    for j in range(RING_SIZES[3]):
        if j in done:
            continue
        # walk inward from outer space j while the angle exists on the next circle in
        run, ring, k = [], 3, j
        while True:
            run.append(space_id(ring, k))
            if ring == 0 or k % 2:
                break
            ring, k = ring - 1, k // 2
        if len(run) < 2:
            continue
        if ring == 0 and centre_paths:
            # carry on straight across the centre and out along the opposite spoke
            opposite = (j + 16) % 32
            done.add(opposite)
            far, ring2, k2 = [], 3, opposite
            while True:
                far.append(space_id(ring2, k2))
                if ring2 == 0:
                    break
                ring2, k2 = ring2 - 1, k2 // 2
            run += far[::-1]
        lines.append((tuple(run), False))
    return tuple(lines)


# --- moves ---------------------------------------------------------------------------------


@move_kind
@dataclass(frozen=True, slots=True)
class Jump(Move):
    """One piece jumping once or several times: `path` is every space it lands on, the start
    first; `captured` the opponent's pieces it jumps, in order."""

    kind: ClassVar[str] = "jump"
    path: tuple[str, ...]
    captured: tuple[str, ...]

    def __str__(self) -> str:
        taken = ", ".join(self.captured)
        return f"{self.colour} {'>'.join(self.path)} (jumps {taken})"


# --- state ---------------------------------------------------------------------------------


class RightMovesState(NamedTuple):
    """Whose turn, and where every piece is.

    to_move is the person whose turn it is (0..players-1, clockwise); they move the pieces of
    side to_move % 2 (0 red, 1 blue). pieces[side] are board-space indices, sorted. promoted
    lists the spaces (sorted indices) holding promoted pieces, of either side. dice is always
    0 (no die); actor equals to_move.
    """

    to_move: int
    phase: str  # move | over
    dice: int
    actor: int
    pieces: tuple[tuple[int, ...], tuple[int, ...]]
    promoted: tuple[int, ...]


# --- the game ------------------------------------------------------------------------------


@register
class TheRightMoves(Game):
    name = "the-right-moves"
    title = "The Right Moves"
    player_counts = (2, 4)
    default_players = 2
    token_name = "piece"
    option_specs = OPTIONS
    clause_list = CLAUSES
    state_type = RightMovesState
    turn_clause = "TRM-0.4"
    roll_first_clause = ""

    def __init__(self, players: int, options: dict | None = None) -> None:
        super().__init__(players, options)
        self._precompute()

    # Board and seats --------------------------------------------------------------------
    def build_board(self) -> Board:
        return build_board(self.options["centre_paths"])

    def seat_colours(self) -> tuple[str, ...]:
        return tuple(SIDE_COLOURS[p % 2] for p in range(self.players))

    def side_of(self, person: int) -> int:
        return person % 2

    def team(self, side: int) -> tuple[int, ...]:
        """The people (seats) playing for a side."""
        return tuple(p for p in range(self.players) if p % 2 == side)

    def _precompute(self) -> None:
        """Rays, steps and setup from the geometry, so a move never searches the board."""
        board = self.board
        index = board.index
        ids = board.ids()
        n = len(ids)
        self._ids = ids
        self._bits = tuple(1 << i for i in range(n))
        self._ring = tuple(RING_KINDS.index(s.kind) for s in board.spaces)
        self._inner = tuple(i for i in range(n) if self._ring[i] == 0)
        self._inner_mask = sum(self._bits[i] for i in self._inner)
        # rays[s]: ((direction, spaces straight on from s in that direction), ...)
        rays: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(n)]
        lines = board_lines(self.options["centre_paths"])
        for number, (line, closed) in enumerate(lines):
            seq = [index[s] for s in line]
            m = len(seq)
            for pos, s in enumerate(seq):
                for orient, sign in ((0, 1), (1, -1)):
                    if closed:
                        ray = tuple(seq[(pos + sign * k) % m] for k in range(1, m))
                    else:
                        ray = tuple(
                            seq[pos + sign * k] for k in range(1, m) if 0 <= pos + sign * k < m
                        )
                    if ray:
                        rays[s].append((2 * number + orient, ray))
        self._rays = tuple(tuple(r) for r in rays)
        self._neighbours = tuple(tuple(sorted({ray[0] for _d, ray in rays[s]})) for s in range(n))
        linked = {frozenset((index[a], index[b])) for a, b in board.links}
        assert all(frozenset((s, t)) in linked for s in range(n) for t in self._neighbours[s]), (
            "every step of a line must be a printed link"
        )
        red, blue = setup_spaces()
        self._setup = (
            tuple(sorted(index[s] for s in red)),
            tuple(sorted(index[s] for s in blue)),
        )
        self._steps: dict[tuple[int, int, int, str], Step] = {}
        # the last position asked about: (state, its legal moves, their ids)
        self._last: tuple[Any, tuple, frozenset] | None = None
        ring, bits = self._ring, self._bits
        # per person and space: steps of a piece that is not promoted (around, inward, and
        # outward from the second circle), and a promoted piece's rays as (space, bit, move)
        self._plain_steps = tuple(
            tuple(
                tuple(
                    (bits[t], self._step(p, s, t, ""))
                    for t in self._neighbours[s]
                    if ring[t] <= ring[s] or ring[s] == 1
                )
                for s in range(n)
            )
            for p in range(self.players)
        )
        self._crowned_rays = tuple(
            tuple(
                tuple(
                    tuple(
                        (t, bits[t], self._step(p, s, t, "skip" if k else ""))
                        for k, t in enumerate(ray)
                        if t != s
                    )
                    for _d, ray in self._rays[s]
                )
                for s in range(n)
            )
            for p in range(self.players)
        )
        self._jump_pairs = tuple(
            tuple((bits[ray[0]], bits[ray[1]]) for _d, ray in self._rays[s] if len(ray) > 1)
            for s in range(n)
        )
        # per space, every square a plain step may go to and every square a jump may go over:
        # a piece with none of them free (or held by the opponent) is passed over at once
        self._plain_reach = tuple(
            sum(bit for bit, _move in self._plain_steps[0][s]) for s in range(n)
        )
        self._jump_over = tuple(sum(over for over, _land in pairs) for pairs in self._jump_pairs)

    def _step(self, person: int, frm: int, to: int, route: str) -> Step:
        key = (person, frm, to, route)
        move = self._steps.get(key)
        if move is None:
            move = Step(person, self.colours[person], self._ids[frm], self._ids[to], route)
            self._steps[key] = move
        return move

    # State ---------------------------------------------------------------------------------
    def initial_state(self) -> RightMovesState:
        return RightMovesState(0, "move", 0, 0, self._setup, ())

    # Moves ---------------------------------------------------------------------------------
    def legal_moves(self, state: RightMovesState) -> list[Move]:
        if state.phase != "move":
            return []
        last = self._last
        if last is not None and last[0] == state:
            return list(last[1])
        moves = self._generate(state, state.to_move)
        self._last = (state, tuple(moves), frozenset(map(id, moves)))
        return moves

    def _is_legal(self, state: RightMovesState, move: Move) -> bool:
        """Legal in `state`; a move object handed out by legal_moves is found by identity."""
        if state.phase != "move":
            return False
        last = self._last
        if last is None or not (last[0] is state or last[0] == state):
            self.legal_moves(state)
            last = self._last
        return id(move) in last[2] or move in last[1]

    def _masks(self, state: RightMovesState, side: int) -> tuple[int, int]:
        bits = self._bits
        own = opp = 0
        for s in state.pieces[side]:
            own |= bits[s]
        for s in state.pieces[1 - side]:
            opp |= bits[s]
        return own, opp

    def _generate(self, state: RightMovesState, person: int, first: bool = False) -> list[Move]:
        """Every legal move for `person` (with `first`, stop at the first one found)."""
        side = person % 2
        own, opp = self._masks(state, side)
        occupied = own | opp
        bits = self._bits
        promoted = state.promoted
        plain_steps = self._plain_steps[person]
        crowned_rays = self._crowned_rays[person]
        jump_pairs, plain_reach, jump_over = self._jump_pairs, self._plain_reach, self._jump_over
        empty = ~occupied
        steps: list[Move] = []
        jumps: list[Move] = []
        maximal: list[Move] = []
        for s in state.pieces[side]:
            crowned = s in promoted
            if not crowned and not (plain_reach[s] & empty or jump_over[s] & opp):
                continue  # boxed in: no step, nothing to jump
            if crowned and self.options["skip_turns"]:
                steps.extend(self._turning_skips(person, s, occupied).values())
            elif crowned:
                dests: dict[int, Move] = {}
                for ray in crowned_rays[s]:
                    t, bit, move = ray[0]
                    if occupied & bit:
                        continue
                    dests[t] = move
                    for t, bit, move in ray[1:]:
                        if occupied & bit:
                            break
                        dests.setdefault(t, move)
                steps.extend(dests.values())
            elif plain_reach[s] & empty:
                for bit, move in plain_steps[s]:
                    if not occupied & bit:
                        steps.append(move)
            if first and steps:
                return steps
            if not jump_over[s] & opp:
                continue
            for over, land in jump_pairs[s]:
                if opp & over and not occupied & land:
                    free = crowned or self._ring[s] == 1
                    self._jumps(person, s, crowned, free, occupied & ~bits[s], opp, jumps, maximal)
                    break
            if first and jumps:
                return jumps
        if self.options["must_jump"] and jumps:
            return maximal
        return steps + jumps

    def _turning_skips(self, person: int, start: int, occupied: int) -> dict[int, Move]:
        """House rule TRM-I.3 off: every empty space a promoted piece reaches along paths
        through empty spaces, turning where paths meet but not on an inner space (TRM-3.5,
        unless turn_on_inner_spaces). A neighbour is a step, anything further a skip."""
        bits, ring, rays = self._bits, self._ring, self._rays
        turn_inner = self.options["turn_on_inner_spaces"]
        dests: dict[int, Move] = {}
        frontier: list[tuple[int, int]] = []
        for direction, ray in rays[start]:
            t = ray[0]
            if not occupied & bits[t]:
                dests.setdefault(t, self._step(person, start, t, ""))
                frontier.append((t, direction))
        seen = set(frontier)
        while frontier:
            pos, came = frontier.pop()
            for direction, ray in rays[pos]:
                if ring[pos] == 0 and direction != came and not turn_inner:
                    continue
                t = ray[0]
                if t == start or occupied & bits[t] or (t, direction) in seen:
                    continue
                seen.add((t, direction))
                dests.setdefault(t, self._step(person, start, t, "skip"))
                frontier.append((t, direction))
        return dests

    def _jumps(
        self,
        person: int,
        start: int,
        crowned: bool,
        free: bool,
        occupied: int,
        opp: int,
        out: list,
        maximal: list,
    ) -> None:
        """Depth-first search of jump series from `start`; each series is a move."""
        bits, ring, rays, ids = self._bits, self._ring, self._rays, self._ids
        colour = self.colours[person]
        stop_inner = self.options["promotion_ends_move"] and not crowned
        turn_inner = self.options["turn_on_inner_spaces"]

        def search(
            pos: int,
            occ: int,
            opp_left: int,
            path: tuple,
            taken: tuple,
            came: int,
            move: Jump | None,
            free: bool,
        ) -> None:
            extended = False
            if not (move is not None and stop_inner and ring[pos] == 0):  # TRM-I.2
                # promoted on arrival (house rule): it jumps on as a promoted piece (TRM-3.2)
                free = free or (move is not None and ring[pos] == 0)
                turning_ok = move is None or turn_inner or ring[pos] != 0  # TRM-3.5
                for direction, ray in rays[pos]:
                    if len(ray) < 2:
                        continue
                    over, land = ray[0], ray[1]
                    if not opp_left & bits[over] or occ & bits[land]:
                        continue
                    if not turning_ok and direction != came:
                        continue
                    if not free and ring[land] > ring[pos]:
                        continue
                    extended = True
                    new_path = path + (ids[land],)
                    new_taken = taken + (ids[over],)
                    jump = Jump(person, colour, new_path, new_taken)
                    out.append(jump)
                    search(
                        land,
                        occ & ~bits[over],
                        opp_left & ~bits[over],
                        new_path,
                        new_taken,
                        direction,
                        jump,
                        free,
                    )
            if move is not None and not extended:
                maximal.append(move)

        search(start, occupied, opp, (ids[start],), (), -1, None, free)

    def _has_move(self, state: RightMovesState, person: int) -> bool:
        return bool(self._generate(state, person, first=True))

    def apply(self, state: RightMovesState, move: Move) -> RightMovesState:
        if not self._is_legal(state, move):
            self.check(state, move)  # raises IllegalMoveError naming the clause
            raise AssertionError(f"{move} passed the legality check")
        after = self._moved(state, move)
        if self._decided(after) is not None:
            return after._replace(phase="over")
        return after

    def _moved(self, state: RightMovesState, move: Move) -> RightMovesState:
        """The position after a legal `move`, before asking whether the game is over."""
        side = state.to_move % 2
        index = self.board.index
        if move.__class__ is Step:
            frm, to, captured = index[move.frm], index[move.to], ()
            visited = (to,)
        else:
            visited = tuple(index[s] for s in move.path[1:])
            frm, to = index[move.path[0]], visited[-1]
            captured = tuple(index[s] for s in move.captured)
        own = [to if s == frm else s for s in state.pieces[side]]
        pieces = [(), ()]
        pieces[side] = tuple(sorted(own))
        pieces[1 - side] = tuple(s for s in state.pieces[1 - side] if s not in captured)
        promoted = [s for s in state.promoted if s != frm and s not in captured]
        if frm in state.promoted or any(self._ring[v] == 0 for v in visited):
            promoted.append(to)
        return RightMovesState(
            (state.to_move + 1) % self.players,
            "move",
            0,
            (state.to_move + 1) % self.players,
            (pieces[0], pieces[1]),
            tuple(sorted(promoted)),
        )

    def _decided(self, state: RightMovesState) -> tuple[int, str] | None:
        """(winning side, clause id) when the game is over in this position, else None."""
        won = self._won(state)
        if won is None and not self._has_move(state, state.to_move):
            return 1 - state.to_move % 2, "TRM-0.6"
        return won

    def _won(self, state: RightMovesState) -> tuple[int, str] | None:
        """(winning side, clause id) when a side holds the inner circle or has taken all but
        three of the other side's pieces, else None (see `_decided`)."""
        bits = self._bits
        mover = 1 - state.to_move % 2  # the side that has just moved
        for side in (mover, 1 - mover):
            mask = 0
            for s in state.pieces[side]:
                mask |= bits[s]
            if mask & self._inner_mask == self._inner_mask:
                return side, "TRM-5.1"
        for side in (mover, 1 - mover):
            if len(state.pieces[1 - side]) <= 3:
                return side, "TRM-5.2"
        return None

    # Verdicts ------------------------------------------------------------------------------
    def explain(self, state: RightMovesState, move: Move) -> Verdict:
        if not isinstance(move, Step | Jump):
            return self._against("TRM-0.5", f"{move} is not a move of The Right Moves")
        if state.phase != "move":
            return self._over_verdict(state)
        if move.player != state.to_move or move.colour != self.colours[state.to_move]:
            mover = self.colours[state.to_move]
            return self._against("TRM-0.4", f"it is {mover}'s turn (seat {state.to_move})")
        if move in self.legal_moves(state):
            return self._legal_verdict(state, move)
        if isinstance(move, Step):
            return self.explain_attempt(state, move.frm, move.to)
        return self._explain_jump(state, move)

    def _over_verdict(self, state: RightMovesState) -> Verdict:
        decided = self._decided(state)
        if decided is None:
            return self._against("TRM-0.4", "no move is expected in this position")
        winner, key = decided
        return self._against(key, f"the game is over: {self._win_text(winner)}")

    def _against(self, clause_id: str, reason: str) -> Verdict:
        return Verdict(False, (self.clause(clause_id),), reason=reason)

    def _legal_verdict(self, state: RightMovesState, move: Move) -> Verdict:
        index = self.board.index
        side = state.to_move % 2
        colour = self.colours[state.to_move]
        clauses: list[str] = []
        effects: list[Effect] = []
        if self.players == 4:
            clauses.append("TRM-4.2")
        if isinstance(move, Step):
            frm, to = index[move.frm], index[move.to]
            visited: tuple[int, ...] = (to,)
            crowned = frm in state.promoted
            if move.route == "skip":
                clauses += ["TRM-3.3", "TRM-I.3"]
            elif crowned:
                clauses.append("TRM-3.2")
            else:
                clauses += ["TRM-1.1", "TRM-1.4"]
                if self._ring[to] > self._ring[frm]:
                    clauses.append("TRM-1.3")
                else:
                    clauses.append("TRM-1.2")
            reason = f"{colour} moves {move.frm} to {move.to}" + (
                " (skip)" if move.route == "skip" else ""
            )
        else:
            frm = index[move.path[0]]
            visited = tuple(index[s] for s in move.path[1:])
            to = visited[-1]
            crowned = frm in state.promoted
            clauses.append("TRM-2.2")
            if len(move.captured) > 1:
                clauses.append("TRM-2.3")
            other = SIDE_COLOURS[1 - side]
            for c in move.captured:
                text = f"{other} piece on {c} jumped and removed"
                effects.append(Effect("capture", "TRM-2.1", text, c, self.team(1 - side)[0]))
            reason = f"{colour} jumps from {move.path[0]} to {move.path[-1]}, taking " + (
                ", ".join(move.captured)
            )
        reached = [v for v in visited if self._ring[v] == 0]
        if not crowned and reached:
            clauses.append("TRM-3.1")
            text = f"{colour} piece promoted on {self._ids[reached[0]]}: turn it over"
            if reached[0] != to:
                text += f" (it is now on {self._ids[to]})"
            effects.append(Effect("promote", "TRM-3.1", text, self._ids[to], state.to_move))
            if isinstance(move, Jump) and self.options["promotion_ends_move"]:
                clauses.append("TRM-I.2")
        after = self.apply(state, move)
        if after.phase == "over":
            winner, key = self._decided(after)
            text = self._win_text(winner)
            if key == "TRM-0.6":
                loser = SIDE_COLOURS[1 - winner]
                effects.append(
                    Effect("forfeit", key, f"{loser} cannot move and forfeits", None, after.to_move)
                )
            effects.append(Effect("win", key, text, None, self.team(winner)[0]))
        return Verdict(True, tuple(self.clause(c) for c in clauses), tuple(effects), reason)

    def _win_text(self, side: int) -> str:
        return f"{SIDE_COLOURS[side]} wins"

    def _explain_jump(self, state: RightMovesState, move: Jump) -> Verdict:
        """Why a jump series given as a move is not legal: the first hop that breaks a rule."""
        index = self.board.index
        if len(move.path) < 2 or len(move.captured) != len(move.path) - 1:
            return self._against("TRM-2.2", "a jump lists each landing space and each piece jumped")
        if any(s not in index for s in move.path + move.captured):
            return self._against("TRM-1.1", f"{move} names spaces that are not on this board")
        side = state.to_move % 2
        colour = self.colours[state.to_move]
        frm = index[move.path[0]]
        if frm not in state.pieces[side]:
            return self._against("TRM-0.5", f"there is no {colour} piece on {move.path[0]}")
        own, opp = self._masks(state, side)
        bits = self._bits
        crowned = frm in state.promoted
        free = crowned or self._ring[frm] == 1
        occ = (own | opp) & ~bits[frm]
        came = -1
        pos = frm
        for hop, (land_id, over_id) in enumerate(zip(move.path[1:], move.captured, strict=True)):
            land, over = index[land_id], index[over_id]
            direction = next(
                (d for d, ray in self._rays[pos] if len(ray) > 1 and ray[:2] == (over, land)),
                None,
            )
            where = f"{self._ids[pos]} over {over_id} to {land_id}"
            if hop and self._ring[pos] == 0:
                if not crowned and self.options["promotion_ends_move"]:
                    return self._against(
                        "TRM-I.2", f"the piece was promoted on {self._ids[pos]}; its move ends"
                    )
                free = True  # promoted there, it jumps on as a promoted piece (TRM-I.2 off)
            if direction is None:
                return self._against("TRM-2.2", f"{where} is not a straight jump along a path")
            if not opp & bits[over]:
                if own & bits[over]:
                    return self._against("TRM-2.1", f"{over_id} holds your own piece")
                return self._against("TRM-2.2", f"there is no piece to jump on {over_id}")
            if occ & bits[land]:
                return self._against("TRM-2.2", f"{land_id} is not empty")
            turn_inner = self.options["turn_on_inner_spaces"]
            if hop and self._ring[pos] == 0 and direction != came and not turn_inner:
                return self._against("TRM-3.5", f"the jump turns on {self._ids[pos]}")
            if not free and self._ring[land] > self._ring[pos]:
                return self._against("TRM-1.2", f"{where} moves away from the centre")
            occ &= ~bits[over]
            opp &= ~bits[over]
            came, pos = direction, land
        if self.options["must_jump"]:
            return self._against("TRM-I.1", "the jumps must go on while another jump is possible")
        return self._against("TRM-2.2", f"{move} is not a legal series of jumps")

    def explain_attempt(self, state: RightMovesState, frm: str, to: str) -> Verdict:
        """Why the mover's piece cannot go from `frm` to `to` now."""
        if state.phase != "move":
            return self._over_verdict(state)
        index = self.board.index
        colour = self.colours[state.to_move]
        if frm not in index or to not in index:
            return self._against("TRM-1.1", f"{frm}->{to} is not on this board")
        side = state.to_move % 2
        s, t = index[frm], index[to]
        if s not in state.pieces[side]:
            return self._against("TRM-0.4", f"no {colour} piece was on {frm}")
        own, opp = self._masks(state, side)
        bits, ring = self._bits, self._ring
        if (own | opp) & bits[t]:
            return self._against("TRM-1.1", f"{to} is not empty")
        legal = [
            m
            for m in self.legal_moves(state)
            if (m.frm if isinstance(m, Step) else m.path[0]) == frm
            and (m.to if isinstance(m, Step) else m.path[-1]) == to
        ]
        if legal:
            jumps = [m for m in legal if isinstance(m, Jump)]
            if jumps:
                need = ", ".join(jumps[0].captured)
                return self._against(
                    "TRM-2.1", f"jumping from {frm} to {to} takes the pieces on {need}"
                )
            return self._against("TRM-2.1", "pieces leave the board only when jumped")
        crowned = s in state.promoted
        free = crowned or ring[s] == 1
        if self.options["must_jump"] and any(isinstance(m, Jump) for m in self.legal_moves(state)):
            return self._against("TRM-I.1", "a jump is possible, so the move must be a jump")
        for _d, ray in self._rays[s]:
            if t not in ray:
                continue
            k = ray.index(t)
            between = ray[:k]
            if k == 0:
                if not free and ring[t] > ring[s]:
                    return self._against("TRM-1.2", f"{frm} to {to} moves away from the centre")
                continue
            if k == 1 and opp & bits[between[0]]:
                if not free and ring[t] > ring[s]:
                    return self._against("TRM-1.2", f"jumping {frm} to {to} moves outward")
                continue
            if k == 1 and own & bits[between[0]]:
                return self._against(
                    "TRM-2.1", f"the piece on {self._ids[between[0]]} is your own: no jump"
                )
            if not crowned:
                return self._against(
                    "TRM-1.4",
                    f"a piece that is not promoted moves one space; {frm} to {to} is {k + 1}",
                )
            blockers = [b for b in between if (own | opp) & bits[b]]
            if blockers == [between[-1]] and opp & bits[between[-1]]:
                return self._against(
                    "TRM-3.4", f"{frm} to {to} would skip and then jump: a move is one or the other"
                )
            if blockers:
                blocked = self._ids[blockers[0]]
                return self._against(
                    "TRM-3.3", f"the skip from {frm} to {to} is blocked on {blocked}"
                )
        if crowned and self.options["skip_turns"]:
            return self._against(
                "TRM-3.3", f"every path from {frm} to {to} is blocked, and no jumps lead there"
            )
        if crowned:
            return self._against(
                "TRM-I.3", f"{frm} to {to} is not straight along one path, and no jumps lead there"
            )
        return self._against("TRM-1.1", f"no path or series of jumps leads from {frm} to {to}")

    def outcome(self, state: RightMovesState) -> Outcome | None:
        decided = self._decided(state) if state.phase == "over" else None
        if decided is None:
            return None
        winner, key = decided
        return Outcome(self.team(winner), self.clause(key), self._win_text(winner))

    # What the camera should see ---------------------------------------------------------------
    def placement(self, state: RightMovesState) -> dict[str, str]:
        ids = self._ids
        seen = {ids[s]: SIDE_COLOURS[0] for s in state.pieces[0]}
        seen.update((ids[s], SIDE_COLOURS[1]) for s in state.pieces[1])
        return seen

    def promoted_spaces(self, state: RightMovesState) -> tuple[str, ...]:
        """Spaces whose piece should show its promoted side (a cross-check for the camera)."""
        return tuple(self._ids[s] for s in state.promoted)

    # Inference ------------------------------------------------------------------------------
    def infer(self, state: RightMovesState, placement: Placement) -> Inference:
        """As the base class, plus jumped pieces left on (or extra pieces taken off) the board,
        named with the jumping clause.

        When several jump routes give the placement seen, the base class returns the first;
        every such route gives the same state. Pieces and captures are read off the
        placement, and so is promotion: a route visits the inner circle exactly when it ends
        there or jumps an inner piece. Jumping an inner piece means starting or landing on an
        inner space (its ring neighbours, the space across the centre, or the spoke space
        reached only by crossing the centre). A piece landing on an inner space stops
        (TRM-I.2, or its spoke ends there without centre paths) or goes straight on
        (TRM-3.5): over the next inner space, unless it arrived by jumping one. With
        turn_on_inner_spaces it may also turn there; the rule above still holds, since every
        neighbour of an inner space is inner but its spoke space, and a piece that arrived
        by that spoke has just jumped the piece on it.
        The property tests check this for every option."""
        result = super().infer(state, placement)
        if result.kind == "legal":
            return result
        if state.phase != "move" or not isinstance(placement, Mapping):
            return result
        if any(c == UNKNOWN for c in placement.values()) or any(
            s not in self.board.index for s in placement
        ):
            return result
        expected = self.placement(state)
        mover = self.colours[state.to_move]
        other = SIDE_COLOURS[1 - state.to_move % 2]
        lost = sorted(s for s, c in expected.items() if c == mover and placement.get(s) != mover)
        gained = sorted(s for s, c in placement.items() if c == mover and expected.get(s) != mover)
        vanished = sorted(
            s for s, c in expected.items() if c == other and placement.get(s) != other
        )
        appeared = [s for s, c in placement.items() if c == other and expected.get(s) != other]
        other_lost = [s for s, c in expected.items() if c == other and placement.get(s) != other]
        if len(appeared) == 1 and len(other_lost) == 1 and not gained:
            verdict = self._against("TRM-0.4", f"a {other} piece moved, but it is {mover}'s turn")
            return Inference("illegal", None, verdict, verdict.reason, (other_lost[0], appeared[0]))
        if appeared:
            return result
        if not lost and not gained and vanished:
            verdict = self._against(
                "TRM-2.1",
                f"{other} pieces left the board without being jumped: " + ", ".join(vanished),
            )
            return Inference("illegal", None, verdict, verdict.reason, tuple(vanished))
        if len(lost) == 1 and len(gained) == 1:
            frm, to = lost[0], gained[0]
            routes = [
                m
                for m in self.legal_moves(state)
                if isinstance(m, Jump) and m.path[0] == frm and m.path[-1] == to
            ]
            if routes:
                taken = set(vanished)
                best = min(routes, key=lambda m: len(taken ^ set(m.captured)))
                left = sorted(set(best.captured) - taken)
                extra = sorted(taken - set(best.captured))
                parts = []
                if left:
                    parts.append("remove the jumped piece(s) on " + ", ".join(left))
                if extra:
                    parts.append("put back the piece(s) on " + ", ".join(extra) + ", not jumped")
                verdict = self._against("TRM-2.1", f"{frm} to {to}: " + "; ".join(parts))
                return Inference(
                    "illegal", best, verdict, verdict.reason, tuple([frm, to] + left + extra)
                )
            attempt = self._jump_shape(state, frm, to, vanished) if vanished else None
            if attempt is not None:
                verdict = self._explain_jump(state, attempt)
                return Inference(
                    "illegal", attempt, verdict, verdict.reason, tuple([frm, to] + vanished)
                )
        return result

    def _jump_shape(
        self, state: RightMovesState, frm: str, to: str, taken: list[str]
    ) -> Jump | None:
        """A chain of straight jumps from `frm` to `to` over exactly the pieces `taken`,
        ignoring every other rule: the attempt the players made, to explain what broke."""
        index, ids, bits = self.board.index, self._ids, self._bits
        side = state.to_move % 2
        own, opp = self._masks(state, side)
        start, goal = index[frm], index[to]
        targets = 0
        for c in taken:
            targets |= bits[index[c]]
        found: list[Jump] = []

        def search(pos: int, occ: int, left: int, path: tuple, hops: tuple) -> None:
            if found:
                return
            if not left and pos == goal and hops:
                found.append(Jump(state.to_move, self.colours[state.to_move], path, hops))
                return
            for _d, ray in self._rays[pos]:
                if len(ray) > 1 and left & bits[ray[0]] and not occ & bits[ray[1]]:
                    over, land = ray[0], ray[1]
                    search(
                        land,
                        occ & ~bits[over],
                        left & ~bits[over],
                        path + (ids[land],),
                        hops + (ids[over],),
                    )

        if targets & opp == targets:
            search(start, (own | opp) & ~bits[start], targets, (frm,), ())
        return found[0] if found else None

    def groups(self) -> tuple[tuple[str, ...], ...]:
        return ()
