"""Playground Battles: two armies of hidden rock, paper and scissors race for each other's base.

Board design (the rulebook's figures are missing; every choice below is clause PB-0.1/PB-0.2):

* A battlefield of 10 columns (a..j, left to right as red sees it) by 8 rows (the `rows` option:
  6, 8 or 10), squares 26 mm apart. Row 1 is red's back row (bottom edge), the top row is
  blue's back row: ten squares each, one per piece. Square ids are "<column><row>": a1 ... j8.
* Each side's BASE is one box beyond the middle of its back row: "red-base" below e1/f1,
  "blue-base" above e8/f8. With the default `base_entry` "centre" a base is entered only from
  the two middle squares of that back row (e1 and f1 for red's base); with "row" from any
  square of it. A base is a dead end: a piece enters it as the last step of its move.
* Steps go orthogonally between squares (links are printed between neighbours and from the
  entry squares into the base). The rock-paper-scissors key ("key" region) is printed top
  right, the title top left, and the dice tray runs along the bottom edge between the corner
  markers (ArUco ids 20, 21, 22, 23).
* Positions are in millimetres on a 300 mm wide board; its height follows the rows (380 mm with
  8 rows).

Hidden identities. The state keeps every piece's identity (the referee's knowledge); the camera
sees only stand colours, and `view(state, viewer)` is what one seat (or the public table, None)
may know. Two stands of different colours in one square read as the contest mark "red+blue"
(`contest_mark`): an attacker waiting for the reveal, or a stalemate.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from ..clauses import Clause, Effect, Inference, Outcome, Verdict
from ..errors import IllegalMoveError, PlayerCountError
from ..game import Game, Placement
from ..geometry import Board, Region, Space
from ..moves import Move, Pass, Roll, Step, move_kind
from ..options import Option
from ..palette import UNKNOWN
from ..registry import register

# --- clauses ------------------------------------------------------------------------------

CLAUSES = (
    Clause(
        "PB-0.1",
        "The battlefield",
        "The board is a grid ten squares wide, one square per piece of a side, and eight rows "
        "deep; each side's back row is the row nearest its base.",
        "Game Setup 4",
        interpretation=True,
        option="rows",
    ),
    Clause(
        "PB-0.2",
        "The bases",
        "Each base is one box behind the middle of its back row, reached from the two middle "
        "squares of that row.",
        "Game Play 13",
        interpretation=True,
        option="base_entry",
    ),
    Clause(
        "PB-1.1",
        "Two armies",
        "Two players play, red and blue, each with stands of their own colour.",
        "Equipment; Game Setup 1",
    ),
    Clause(
        "PB-1.2",
        "Ten pieces, every kind",
        "Each player fields exactly ten pieces, each a rock, a paper or a scissors, with at "
        "least one of each kind; the other seven are free.",
        "Game Setup 3",
    ),
    Clause(
        "PB-1.3",
        "Identities are secret",
        "Stands face their owners, so only the owner knows what a piece is. Each player tells "
        "the referee privately what stands where before play; nobody else is told.",
        "Game Setup 2",
    ),
    Clause(
        "PB-1.4",
        "Start on the back row",
        "The ten pieces begin on the ten squares of their owner's back row, one on each.",
        "Game Setup 4",
    ),
    Clause(
        "PB-2.1",
        "Opening rock-paper-scissors",
        "A hand game of rock-paper-scissors decides who goes first; a tie is thrown again. No "
        "piece moves before it is decided.",
        "Game Play 1-2",
    ),
    Clause(
        "PB-2.2",
        "Roll, then move",
        "Each turn begins with one roll of the die; no piece moves before the roll.",
        "Game Play 2-3",
    ),
    Clause(
        "PB-2.3",
        "Turns alternate",
        "The players take turns, and only the player whose turn it is moves a piece.",
        "Game Play 2",
        interpretation=True,
    ),
    Clause(
        "PB-3.1",
        "Exact count",
        "One piece moves exactly as many squares as the die shows, one square per step.",
        "Game Play 3",
    ),
    Clause(
        "PB-3.2",
        "No diagonal steps",
        "Every step goes up, down, left or right to a neighbouring square, never diagonally.",
        "Game Play 4",
    ),
    Clause(
        "PB-3.3",
        "No square twice",
        "A piece may not enter a square it already visited this turn, its starting square "
        "included.",
        "Game Play 4",
    ),
    Clause(
        "PB-3.4",
        "No jumping",
        "A piece never passes over another piece: every square on the way must be empty.",
        "Game Play 5",
    ),
    Clause(
        "PB-3.5",
        "Not onto your own piece",
        "A move may not end on a square held by one of your own pieces alone.",
        "Game Play 6",
        interpretation=True,
    ),
    Clause(
        "PB-3.6",
        "No move with this roll",
        "When none of your pieces can use the roll, your turn passes.",
        "Game Play 3",
        interpretation=True,
        option="no_moves",
    ),
    Clause(
        "PB-3.7",
        "Moving is compulsory",
        "If any of your pieces can use the roll, you must move one of them.",
        "Game Play 3",
        interpretation=True,
    ),
    Clause(
        "PB-4.1",
        "Attack by exact landing",
        "You attack an opponent's piece only by ending your move on its square with the exact "
        "count.",
        "Game Play 6",
    ),
    Clause(
        "PB-4.2",
        "The reveal",
        "In a battle the referee compares the two secret identities and announces both; the "
        "players show their cards.",
        "Game Play 7",
    ),
    Clause(
        "PB-4.3",
        "Who wins a battle",
        "Scissors beats paper, paper beats rock, rock beats scissors. The losing piece leaves "
        "the board; a winning attacker takes the square.",
        "Game Play 8",
    ),
    Clause(
        "PB-5.1",
        "Stalemate",
        "Two pieces of the same kind stalemate: both stay in the square, facing each other, "
        "and the referee announces only that it is a stalemate, never the kind. Only equal "
        "kinds stalemate, so if one of the two was revealed earlier, the stalemate tells the "
        "table the other's kind too.",
        "Game Play 9",
    ),
    Clause(
        "PB-5.2",
        "Stalemated pieces wait",
        "A piece in a stalemate cannot move until the stalemate is broken.",
        "Game Play 10; Game Play 13",
        interpretation=True,
    ),
    Clause(
        "PB-5.3",
        "Breaking a stalemate",
        "Landing on a stalemate square with the piece that beats the stalemated kind breaks "
        "it: the opponent's stalemated piece leaves the board. Either player may try.",
        "Game Play 10",
        interpretation=True,
    ),
    Clause(
        "PB-5.4",
        "A wrong rescuer is lost",
        "Any other piece landing on a stalemate square is lost at once, and the stalemate goes on.",
        "Game Play 11",
    ),
    Clause(
        "PB-5.5",
        "What a rescue reveals",
        "A successful rescue reveals the rescuer, and with it the kind of both stalemated "
        "pieces; a failed rescue reveals nothing.",
        "Game Play 10-12",
        interpretation=True,
    ),
    Clause(
        "PB-6.1",
        "The winner keeps one",
        "After breaking a stalemate you choose which of your two pieces in that square stays.",
        "Game Play 12",
    ),
    Clause(
        "PB-6.2",
        "The other goes back",
        "Your other piece moves to any empty square of your own back row.",
        "Game Play 12",
    ),
    Clause(
        "PB-6.3",
        "No empty back-row square",
        "If your back row has no empty square, the piece you did not keep leaves the board.",
        "Game Play 12",
        interpretation=True,
    ),
    Clause(
        "PB-7.1",
        "Win by entering the base",
        "A piece that ends its move in the opponent's base by exact count wins; the base is "
        "the last step, and nobody enters their own base.",
        "Game Play 13",
    ),
    Clause(
        "PB-7.2",
        "Win by elimination",
        "A player with no pieces left loses.",
        "Game Play 13",
    ),
    Clause(
        "PB-7.3",
        "Win by leaving no legal move",
        "A player none of whose pieces could move whatever the roll (all stalemated or boxed "
        "in) loses when their turn comes, if the opponent has a piece free to move.",
        "Game Play 13",
        interpretation=True,
        option="no_moves",
    ),
    Clause(
        "PB-7.4",
        "Deadlock",
        "If neither player has a piece free to move, the game is drawn.",
        "Game Play 13",
        interpretation=True,
    ),
    Clause(
        "PB-I.1",
        "Two stands in one square",
        "The camera takes an attack only from the attacker standing in the defender's square "
        "beside it; the referee then announces the result, says which stand to take off, and "
        "waits until the board shows it. Any other picture is answered the same whatever the "
        "secret kinds, so no stand can be lifted to probe a battle.",
        "Game Play 6-7",
        interpretation=True,
    ),
)

OPTIONS = (
    Option(
        "rows",
        8,
        (6, 8, 10),
        "Rows of the battlefield between the two bases (the back rows included).",
        "PB-0.1",
    ),
    Option(
        "base_entry",
        "centre",
        ("centre", "row"),
        "Which back-row squares lead into a base: the two middle ones, or any of the ten.",
        "PB-0.2",
    ),
    Option(
        "no_moves",
        "any-roll",
        ("any-roll", "this-roll"),
        "When a player is out of legal moves and loses: when no piece could move whatever "
        "the roll (a roll that cannot be used just passes), or as soon as a roll cannot be "
        "used.",
        "PB-7.3",
    ),
)

COLOURS = ("red", "blue")
KINDS = ("rock", "paper", "scissors")
COLUMNS = "abcdefghij"
PIECES = 10
PITCH = 26.0
UNSET = -1  # identity not entered yet
# Last battle results (state.last[2]).
WON, LOST, STALEMATE, RESCUED, FAILED = range(5)
RESULT_NAMES = ("won", "lost", "stalemate", "rescued", "failed")
# Game end reasons (state.result[1]).
END_CLAUSES = ("PB-7.1", "PB-7.2", "PB-7.3", "PB-7.4")


def beats(a: int, b: int) -> bool:
    """Kind a beats kind b (0 rock, 1 paper, 2 scissors)."""
    return (a - b) % 3 == 1


# --- moves of this game ---------------------------------------------------------------------


@move_kind
@dataclass(frozen=True, slots=True)
class Assign(Move):
    """A player's secret set-up: `identities` pairs each back-row square with a kind.

    Its JSON carries the identities: only the referee's store may keep it (`public_move`).
    """

    kind: ClassVar[str] = "pb-assign"
    identities: tuple[tuple[str, str], ...]

    def __str__(self) -> str:
        return f"{self.colour} sets up {len(self.identities)} pieces"


@move_kind
@dataclass(frozen=True, slots=True)
class Opening(Move):
    """The opening rock-paper-scissors as played: hands[p] is seat p's hand.

    `player` is the winner (the seat that plays first), or seat 0 for a tie (thrown again).
    """

    kind: ClassVar[str] = "pb-opening"
    hands: tuple[str, str]

    def __str__(self) -> str:
        return f"opening: red {self.hands[0]}, blue {self.hands[1]}"


@move_kind
@dataclass(frozen=True, slots=True)
class FirstPlayer(Move):
    """The opening rock-paper-scissors entered as its result: `player` won and goes first."""

    kind: ClassVar[str] = "pb-first"

    def __str__(self) -> str:
        return f"{self.colour} won the opening and plays first"


@move_kind
@dataclass(frozen=True, slots=True)
class Keep(Move):
    """After breaking a stalemate on `space`: which of the two pieces stays there.

    `stay` is "rescuer" (the piece that just arrived) or "stalemated" (the one freed).
    """

    kind: ClassVar[str] = "pb-keep"
    space: str
    stay: str

    def __str__(self) -> str:
        return f"{self.colour} keeps the {self.stay} piece on {self.space}"


# --- board ---------------------------------------------------------------------------------


def square_id(col: int, row: int) -> str:
    """`row` counted from 1 at red's back row."""
    return f"{COLUMNS[col]}{row}"


def build_board(rows: int = 8, base_entry: str = "centre") -> Board:
    """The battlefield from its parameters (see the module docstring)."""
    width = 300.0
    top = 80.0  # y of the top row (blue's back row)
    bottom = top + (rows - 1) * PITCH
    height = bottom + 118.0
    blue_base_y, red_base_y = top - 36.0, bottom + 36.0

    def x_of(col: int) -> float:
        return width / 2 + (col - 4.5) * PITCH

    def y_of(row: int) -> float:
        return bottom - (row - 1) * PITCH

    spaces: list[Space] = []
    links: list[tuple[str, str]] = []
    for row in range(1, rows + 1):
        owner = 0 if row == 1 else 1 if row == rows else None
        kind = "back" if owner is not None else "field"
        for col in range(len(COLUMNS)):
            spaces.append(Space(square_id(col, row), kind, x_of(col), y_of(row), owner))
            if col:
                links.append((square_id(col - 1, row), square_id(col, row)))
            if row > 1:
                links.append((square_id(col, row - 1), square_id(col, row)))
    spaces.append(Space("red-base", "base", width / 2, red_base_y, 0, "BASE"))
    spaces.append(Space("blue-base", "base", width / 2, blue_base_y, 1, "BASE"))
    entry_cols = (4, 5) if base_entry == "centre" else tuple(range(len(COLUMNS)))
    for col in entry_cols:
        links.append((square_id(col, 1), "red-base"))
        links.append((square_id(col, rows), "blue-base"))
    # the printed base box: over its entry squares, kept clear of the corner markers
    left = max(x_of(min(entry_cols)) - PITCH / 2, 40.0)
    span = min(x_of(max(entry_cols)) + PITCH / 2, width - 40.0) - left
    regions = (
        Region("title", 44.0, 10.0, 66.0, 50.0),
        Region("key", 190.0, 10.0, 66.0, 50.0),
        Region("red-base", left, red_base_y - 13.0, span, 26.0, 0),
        Region("blue-base", left, blue_base_y - 13.0, span, 26.0, 1),
        Region("tray", 44.0, red_base_y + 24.0, 212.0, height - red_base_y - 30.0),
    )
    return Board(
        name=f"playground-battles-{rows}",
        width=width,
        height=height,
        spaces=tuple(spaces),
        links=tuple(links),
        regions=regions,
        hole_radius=11.0,
        token_radius=10.0,
        seat_colours=COLOURS,
        marker_ids=(20, 21, 22, 23),
        shared_spaces=True,
    )


@functools.lru_cache(maxsize=8)
def _walk_tables(rows: int) -> tuple:
    """Every orthogonal walk of 1..6 steps that never revisits a square, from every square.

    Result: table[square][d] = ((dest, (mask, ...)), ...): for each destination the minimal
    sets (bit masks) of squares that must be empty on the way. Grid squares only (bases are
    added by the game: a base is only ever the last step).
    """
    cols = len(COLUMNS)
    n = rows * cols
    neighbours = []
    for i in range(n):
        r, c = divmod(i, cols)
        near = []
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols:
                near.append(rr * cols + cc)
        neighbours.append(tuple(near))
    table = []
    for start in range(n):
        found: list[dict[int, set[int]]] = [{} for _ in range(7)]

        def walk(at: int, visited: int, inner: int, depth: int, found=found, start=start) -> None:
            for nxt in neighbours[at]:
                bit = 1 << nxt
                if visited & bit:
                    continue
                found[depth + 1].setdefault(nxt, set()).add(inner)
                if depth + 1 < 6:
                    walk(nxt, visited | bit, inner | bit, depth + 1)

        walk(start, 1 << start, 0, 0)
        by_die = [()]
        for d in range(1, 7):
            entries = []
            for dest, masks in sorted(found[d].items()):
                ordered = sorted(masks, key=lambda m: m.bit_count())
                minimal: list[int] = []
                for m in ordered:
                    if not any(k & m == k for k in minimal):
                        minimal.append(m)
                entries.append((dest, tuple(minimal)))
            by_die.append(tuple(entries))
        table.append(tuple(by_die))
    return tuple(table), tuple(neighbours)


# --- state ---------------------------------------------------------------------------------


class PlaygroundState(NamedTuple):
    """Whose turn, what is expected next, and every piece with its secret identity.

    pieces[p] is seat p's pieces as sorted (space index, identity, revealed) triples: identity
    0 rock, 1 paper, 2 scissors, -1 not entered yet; revealed is 1 once the table has been
    told the piece's kind. Two seats on one square is a stalemate (or, in phase keep/place,
    the rescuer's two pieces share the square). hold is (square, identity) during keep (the
    rescuer's identity) and place (the identity of the piece going back). last is the last
    battle: (square, attacker seat, result, attacker identity, defender identity), identities
    -1 where the table was not told. result is (winner or -1 for a draw, end reason) once over.
    """

    to_move: int
    phase: str  # setup | opening | roll | move | keep | place | over
    dice: int
    actor: int
    pieces: tuple[tuple[tuple[int, int, int], ...], ...]
    hold: tuple[int, ...] = ()
    last: tuple[int, ...] = ()
    result: tuple[int, ...] = ()


# --- the game ------------------------------------------------------------------------------


@register
class PlaygroundBattles(Game):
    name = "playground-battles"
    title = "Playground Battles"
    player_counts = (2,)
    default_players = 2
    token_name = "piece"
    option_specs = OPTIONS
    clause_list = CLAUSES
    state_type = PlaygroundState
    move_phases = frozenset({"move", "place"})
    turn_clause = "PB-2.3"
    roll_first_clause = "PB-2.2"

    def __init__(self, players: int, options: dict | None = None) -> None:
        super().__init__(players, options)
        self._precompute()

    # Board and seats --------------------------------------------------------------------
    def build_board(self) -> Board:
        return build_board(self.options["rows"], self.options["base_entry"])

    def seat_colours(self) -> tuple[str, ...]:
        return COLOURS

    @property
    def contest_mark(self) -> str:
        """What the camera reports for a square holding a red and a blue stand."""
        return "+".join(self.colours)

    def _precompute(self) -> None:
        """Movement tables from the geometry, so a move never walks the board."""
        rows = self.options["rows"]
        cols = len(COLUMNS)
        self._rows = rows
        self._n = rows * cols
        self._ids = self.board.ids()
        index = self.board.index
        self._walks, grid_near = _walk_tables(rows)
        self._base = (index["red-base"], index["blue-base"])
        self._back = (
            tuple(index[square_id(c, 1)] for c in range(cols)),
            tuple(index[square_id(c, rows)] for c in range(cols)),
        )
        entry_cols = (4, 5) if self.options["base_entry"] == "centre" else tuple(range(cols))
        entries = (
            frozenset(index[square_id(c, 1)] for c in entry_cols),
            frozenset(index[square_id(c, rows)] for c in entry_cols),
        )
        # neighbours including the bases (a base is a neighbour of its entry squares)
        near = [list(ns) for ns in grid_near]
        for q in (0, 1):
            for s in entries[q]:
                near[s].append(self._base[q])
        self._near = tuple(tuple(ns) for ns in near)
        # base_paths[q][square][d]: minimal masks of squares to keep empty to end in q's base
        base_paths = []
        for q in (0, 1):
            per_square = []
            for s in range(self._n):
                by_die: list[tuple[int, ...]] = [()]
                for d in range(1, 7):
                    masks: set[int] = set()
                    if d == 1 and s in entries[q]:
                        masks.add(0)
                    elif d > 1:
                        for dest, inner in self._walks[s][d - 1]:
                            if dest in entries[q]:
                                masks.update(m | 1 << dest for m in inner)
                    by_die.append(tuple(sorted(masks)))
                per_square.append(tuple(by_die))
            base_paths.append(tuple(per_square))
        self._base_paths = tuple(base_paths)
        # the same tables with each seat's Step objects, built once (legal_moves is hot)
        ids = self._ids
        self._step_table = tuple(
            tuple(
                tuple(
                    tuple(
                        (dest, masks, Step(p, COLOURS[p], ids[s], ids[dest]))
                        for dest, masks in walks
                    )
                    for walks in self._walks[s]
                )
                for s in range(self._n)
            )
            for p in (0, 1)
        )
        self._base_steps = tuple(
            tuple(Step(p, COLOURS[p], ids[s], ids[self._base[1 - p]]) for s in range(self._n))
            for p in (0, 1)
        )
        self._rolls = [[Roll(p, COLOURS[p], v) for v in range(1, 7)] for p in (0, 1)]
        self._passes = [Pass(p, COLOURS[p]) for p in (0, 1)]
        self._samples = tuple(self._sample_assigns(p) for p in (0, 1))
        self._openings = [
            Opening(w if w >= 0 else 0, COLOURS[w if w >= 0 else 0], (KINDS[a], KINDS[b]))
            for a in range(3)
            for b in range(3)
            for w in [0 if beats(a, b) else 1 if beats(b, a) else -1]
        ]
        self._firsts = [FirstPlayer(p, COLOURS[p]) for p in (0, 1)]

    def _sample_assigns(self, p: int) -> tuple[Assign, ...]:
        """Some valid set-ups (every mix of kinds, a few arrangements): what a random playout
        picks from. Any valid set-up is legal (`is_legal`), not only these."""
        ids = [self._ids[s] for s in self._back[p]]
        out = {}
        for rocks in range(1, PIECES - 1):
            for papers in range(1, PIECES - rocks):
                scissors = PIECES - rocks - papers
                kinds = [0] * rocks + [1] * papers + [2] * scissors
                for shift in (0, 3, 7):
                    order = kinds[shift:] + kinds[:shift]
                    pairs = tuple((s, KINDS[k]) for s, k in zip(ids, order, strict=True))
                    out[pairs] = Assign(p, COLOURS[p], pairs)
        return tuple(out.values())

    # State ---------------------------------------------------------------------------------
    def initial_state(self) -> PlaygroundState:
        pieces = tuple(tuple((s, UNSET, 0) for s in sorted(self._back[p])) for p in (0, 1))
        return PlaygroundState(0, "setup", 0, 0, pieces)

    @staticmethod
    def _masks(pieces: tuple) -> tuple[int, int]:
        red = blue = 0
        for s, _k, _r in pieces[0]:
            red |= 1 << s
        for s, _k, _r in pieces[1]:
            blue |= 1 << s
        return red, blue

    def _can_move(self, p: int, pieces: tuple) -> bool:
        """Whether any piece of p could move with some roll (a first step is open)."""
        masks = self._masks(pieces)
        own, other = masks[p], masks[1 - p]
        blocked = own & ~other  # squares held by p alone
        own_base = self._base[p]
        for s, _k, _r in pieces[p]:
            if other >> s & 1:
                continue  # stalemated
            for nb in self._near[s]:
                if nb != own_base and not blocked >> nb & 1:
                    return True
        return False

    # Moves ---------------------------------------------------------------------------------
    def legal_moves(self, state: PlaygroundState) -> list[Move]:
        phase = state.phase
        if phase == "move":
            return self._steps(state) or [self._passes[state.actor]]
        if phase == "roll":
            return list(self._rolls[state.to_move])
        if phase == "keep":
            p = state.actor
            space = self._ids[state.hold[0]]
            return [Keep(p, COLOURS[p], space, "rescuer"), Keep(p, COLOURS[p], space, "stalemated")]
        if phase == "place":
            p = state.actor
            frm = self._ids[state.hold[0]]
            return [
                Step(p, COLOURS[p], frm, self._ids[s]) for s in self._open_back(p, state.pieces)
            ]
        if phase == "setup":
            waiting = tuple(p for p in (0, 1) if not self._assigned(state, p))
            return _SetupMoves(
                [m for p in waiting for m in self._samples[p]], self._assign_problem, state
            )
        if phase == "opening":
            return self._openings + self._firsts
        return []

    def _steps(self, state: PlaygroundState) -> list[Move]:
        p, d = state.actor, state.dice
        red, blue = self._masks(state.pieces)
        occupied = red | blue
        own, other = (red, blue) if p == 0 else (blue, red)
        blocked = own & ~other
        table, base_paths = self._step_table[p], self._base_paths[1 - p]
        base_steps = self._base_steps[p]
        moves: list[Move] = []
        for s, _k, _r in state.pieces[p]:
            if other >> s & 1:
                continue  # stalemated pieces wait (PB-5.2)
            for dest, masks, step in table[s][d]:
                if blocked >> dest & 1:
                    continue
                for m in masks:
                    if not m & occupied:
                        moves.append(step)
                        break
            for m in base_paths[s][d]:
                if not m & occupied:
                    moves.append(base_steps[s])
                    break
        return moves

    def _step_ok(self, state: PlaygroundState, s: int, t: int) -> bool:
        """Whether the actor's piece on s may move to t with the roll (phase move)."""
        p, d = state.actor, state.dice
        red, blue = self._masks(state.pieces)
        own, other = (red, blue) if p == 0 else (blue, red)
        if s < 0 or t < 0 or not own >> s & 1 or other >> s & 1 or not 1 <= d <= 6:
            return False
        occupied = red | blue
        if t == self._base[1 - p]:
            return any(not m & occupied for m in self._base_paths[1 - p][s][d])
        if t >= self._n or (own & ~other) >> t & 1:
            return False
        for dest, masks in self._walks[s][d]:
            if dest == t:
                return any(not m & occupied for m in masks)
        return False

    def _open_back(self, p: int, pieces: tuple) -> list[int]:
        red, blue = self._masks(pieces)
        occupied = red | blue
        return [s for s in self._back[p] if not occupied >> s & 1]

    @staticmethod
    def _assigned(state: PlaygroundState, p: int) -> bool:
        return state.phase != "setup" or state.pieces[p][0][1] != UNSET

    def is_legal(self, state: PlaygroundState, move: Move) -> bool:
        if isinstance(move, Assign):
            return self._assign_problem(state, move) is None
        if state.phase == "move" and move.__class__ is Step:
            index = self.board.index
            if move.player != state.actor or move.colour != COLOURS[state.actor]:
                return False
            if move.frm not in index or move.to not in index:
                return False
            return self._step_ok(state, index[move.frm], index[move.to])
        return move in self.legal_moves(state)

    def check(self, state: PlaygroundState, move: Move) -> None:
        if not self.is_legal(state, move):
            verdict = self.explain(state, move)
            cited = ", ".join(c.id for c in verdict.clauses)
            raise IllegalMoveError(move, _short(state), f"{verdict.reason} [{cited}]")

    def _assign_problem(self, state: PlaygroundState, move: Assign) -> tuple[str, str] | None:
        if state.phase != "setup":
            return "PB-1.3", "identities are entered only during the set-up, before play"
        p = move.player
        if p not in (0, 1) or move.colour != COLOURS[p]:
            return "PB-1.1", f"there is no seat {p!r} with colour {move.colour!r}"
        if self._assigned(state, p):
            return "PB-1.3", f"{COLOURS[p]} has already entered their identities"
        pairs = move.identities
        if not isinstance(pairs, tuple) or not all(
            isinstance(x, tuple) and len(x) == 2 and all(isinstance(v, str) for v in x)
            for x in pairs
        ):
            return "PB-1.2", "identities must be pairs of (square, kind)"
        back = {self._ids[s] for s in self._back[p]}
        squares = [x[0] for x in pairs]
        if len(squares) != PIECES or set(squares) != back:
            first, last = self._ids[self._back[p][0]], self._ids[self._back[p][-1]]
            return (
                "PB-1.4",
                f"give one kind for each of the ten squares of {COLOURS[p]}'s back row "
                f"({first} to {last})",
            )
        kinds = {x[1] for x in pairs}
        if not kinds <= set(KINDS) or len(kinds) != len(KINDS):
            return (
                "PB-1.2",
                "each piece is a rock, a paper or a scissors, with at least one of each kind",
            )
        return None

    def apply(self, state: PlaygroundState, move: Move) -> PlaygroundState:
        phase = state.phase
        kind = move.__class__
        if phase == "move" and kind is Step:
            index = self.board.index
            s, t = index.get(move.frm, -1), index.get(move.to, -1)
            if move.player != state.actor or not self._step_ok(state, s, t):
                self.check(state, move)
            return self._apply_step(state, s, t)
        if phase == "roll" and kind is Roll and move in self._rolls[state.to_move]:
            return state._replace(phase="move", dice=move.value)
        self.check(state, move)  # raises for anything else that is not legal
        if kind is Assign:
            return self._apply_assign(state, move)
        if kind is Opening:
            a, b = (KINDS.index(h) for h in move.hands)
            if a == b:
                return state
            return self._first(state, 0 if beats(a, b) else 1)
        if kind is FirstPlayer:
            return self._first(state, move.player)
        if kind is Keep:
            return self._apply_keep(state, move)
        if kind is Step:  # phase place
            return self._apply_place(state, self.board.index[move.to])
        return self._apply_pass(state)

    def _apply_assign(self, state: PlaygroundState, move: Assign) -> PlaygroundState:
        p = move.player
        index = self.board.index
        chosen = {index[sq]: KINDS.index(k) for sq, k in move.identities}
        pieces = list(state.pieces)
        pieces[p] = tuple((s, chosen[s], 0) for s, _k, _r in state.pieces[p])
        pieces = tuple(pieces)
        waiting = [q for q in (0, 1) if pieces[q][0][1] == UNSET]
        if waiting:
            return state._replace(to_move=waiting[0], actor=waiting[0], pieces=pieces)
        return PlaygroundState(0, "opening", 0, 0, pieces)

    @staticmethod
    def _first(state: PlaygroundState, p: int) -> PlaygroundState:
        return PlaygroundState(p, "roll", 0, p, state.pieces)

    def _apply_step(self, state: PlaygroundState, s: int, t: int) -> PlaygroundState:
        p, q = state.actor, 1 - state.actor
        mine, theirs = list(state.pieces[p]), list(state.pieces[q])
        i = next(i for i, piece in enumerate(mine) if piece[0] == s)
        mover = mine.pop(i)
        a = mover[1]
        if t == self._base[q]:
            mine.append((t, a, mover[2]))
            pieces = _pack(p, mine, theirs)
            return PlaygroundState(p, "over", state.dice, p, pieces, (), (), (p, 0))
        j = next((j for j, piece in enumerate(theirs) if piece[0] == t), None)
        if j is None:
            mine.append((t, a, mover[2]))
            return self._end_turn(state, _pack(p, mine, theirs), ())
        e = theirs[j][1]
        own_there = next((k for k, piece in enumerate(mine) if piece[0] == t), None)
        if own_there is not None:  # a stalemate square: a rescue
            if beats(a, e):
                theirs.pop(j)
                mine[own_there] = (t, mine[own_there][1], 1)
                mine.append((t, a, 1))
                pieces = _pack(p, mine, theirs)
                last = (t, p, RESCUED, a, e)
                if not theirs:  # the opponent's last piece: won at once (PB-7.2)
                    return PlaygroundState(p, "over", state.dice, p, pieces, (), last, (p, 1))
                return PlaygroundState(p, "keep", state.dice, p, pieces, (t, a), last)
            return self._end_turn(state, _pack(p, mine, theirs), (t, p, FAILED, UNSET, UNSET))
        if beats(a, e):
            theirs.pop(j)
            mine.append((t, a, 1))
            last = (t, p, WON, a, e)
        elif beats(e, a):
            theirs[j] = (t, e, 1)
            last = (t, p, LOST, a, e)
        else:  # equal kinds: a piece the table knew tells it the other's kind (PB-5.1)
            known = 1 if mover[2] or theirs[j][2] else 0
            mine.append((t, a, known))
            theirs[j] = (t, e, known)
            last = (t, p, STALEMATE, UNSET, UNSET)
        return self._end_turn(state, _pack(p, mine, theirs), last)

    def _apply_keep(self, state: PlaygroundState, move: Keep) -> PlaygroundState:
        p = state.actor
        t, rescuer = state.hold
        if move.stay == "stalemated":
            going = rescuer
        else:
            going = next(k for s, k, _r in state.pieces[p] if s == t and k != rescuer)
        if self._open_back(p, state.pieces):
            return state._replace(phase="place", hold=(t, going))
        mine = [piece for piece in state.pieces[p] if not (piece[0] == t and piece[1] == going)]
        pieces = _pack(p, mine, list(state.pieces[1 - p]))
        return self._end_turn(state, pieces, state.last)

    def _apply_place(self, state: PlaygroundState, b: int) -> PlaygroundState:
        p = state.actor
        t, going = state.hold
        mine = list(state.pieces[p])
        i = next(i for i, piece in enumerate(mine) if piece[0] == t and piece[1] == going)
        mine[i] = (b, going, mine[i][2])
        pieces = _pack(p, mine, list(state.pieces[1 - p]))
        return self._end_turn(state, pieces, state.last)

    def _apply_pass(self, state: PlaygroundState) -> PlaygroundState:
        p, q = state.actor, 1 - state.actor
        if self.options["no_moves"] == "this-roll":
            winner = q if self._can_move(q, state.pieces) else -1
            reason = 2 if winner >= 0 else 3
            return PlaygroundState(p, "over", state.dice, p, state.pieces, (), (), (winner, reason))
        return self._end_turn(state, state.pieces, ())

    def _end_turn(self, state: PlaygroundState, pieces: tuple, last: tuple) -> PlaygroundState:
        p, q = state.actor, 1 - state.actor
        for loser, winner in ((q, p), (p, q)):
            if not pieces[loser]:
                return PlaygroundState(p, "over", state.dice, p, pieces, (), last, (winner, 1))
        if self.options["no_moves"] == "any-roll" and not self._can_move(q, pieces):
            if self._can_move(p, pieces):
                return PlaygroundState(p, "over", state.dice, p, pieces, (), last, (p, 2))
            return PlaygroundState(p, "over", state.dice, p, pieces, (), last, (-1, 3))
        return PlaygroundState(q, "roll", 0, q, pieces, (), last)

    # Verdicts ------------------------------------------------------------------------------
    def explain(self, state: PlaygroundState, move: Move) -> Verdict:
        """Why `move` is legal or not, safe to show before it is played: a battle's result
        is never in it (see `announce`), nor any identity the table was not told."""
        legal = self.is_legal(state, move)
        if isinstance(move, Assign):
            if legal:
                return Verdict(
                    True,
                    self._cite("PB-1.2", "PB-1.3", "PB-1.4"),
                    reason=f"{move.colour} has entered their ten pieces in secret",
                )
            clause, reason = self._assign_problem(state, move)
            return self._against(clause, reason)
        if isinstance(move, Opening | FirstPlayer):
            if legal:
                return self._opening_verdict(move)
            if state.phase == "opening" and isinstance(move, Opening):
                return self._against(
                    "PB-2.1", f"those hands do not make {move.colour} the winner of the opening"
                )
            return self._against("PB-2.1", "the opening is decided once, after the set-up")
        if isinstance(move, Roll):
            if legal:
                return Verdict(True, self._cite("PB-2.2"), reason=str(move))
            return self._against("PB-2.2", f"{move.colour} cannot roll now{self._waiting(state)}")
        if isinstance(move, Pass):
            if legal:
                return self._pass_verdict(state, move)
            return self._against("PB-3.7", "a piece can use the roll, so passing is not allowed")
        if isinstance(move, Keep):
            if legal:
                return self._keep_verdict(state, move)
            return self._against("PB-6.1", "there is no broken stalemate to choose a piece for")
        if isinstance(move, Step):
            if legal:
                return self._step_verdict(state, move)
            if state.phase in self.move_phases and move.player != state.actor:
                return self._against("PB-2.3", f"it is {COLOURS[state.actor]}'s turn")
            return self.explain_attempt(state, move.frm, move.to)
        return self._against("PB-2.3", f"{move} is not a Playground Battles move")

    def _cite(self, *ids: str) -> tuple[Clause, ...]:
        return tuple(self.clause(i) for i in ids)

    def _against(self, clause_id: str, reason: str) -> Verdict:
        return Verdict(False, (self.clause(clause_id),), reason=reason)

    def _waiting(self, state: PlaygroundState) -> str:
        waiting = {
            "setup": ": both players first enter their pieces",
            "opening": ": the opening rock-paper-scissors comes first",
            "move": ": the die has been rolled, move a piece",
            "keep": ": choose first which piece stays",
            "place": ": move your other piece back to your back row first",
            "over": ": the game is over",
        }
        return waiting.get(state.phase, "")

    def _opening_verdict(self, move: Move) -> Verdict:
        if isinstance(move, Opening) and move.hands[0] == move.hands[1]:
            effect = Effect("again", "PB-2.1", "a tie: throw again")
            return Verdict(True, self._cite("PB-2.1"), (effect,), f"{move}: a tie, throw again")
        effect = Effect("first", "PB-2.1", f"{move.colour} plays first", None, move.player)
        return Verdict(True, self._cite("PB-2.1"), (effect,), str(move))

    def _pass_verdict(self, state: PlaygroundState, move: Pass) -> Verdict:
        effects = [
            Effect(
                "pass", "PB-3.6", f"{move.colour} cannot use the {state.dice}", None, move.player
            )
        ]
        after = self._apply_pass(state)
        clauses = ["PB-3.6"]
        if after.phase == "over":
            clauses.append(END_CLAUSES[after.result[1]])
            effects.append(self._end_effect(after))
        return Verdict(True, self._cite(*clauses), tuple(effects), str(move))

    def _keep_verdict(self, state: PlaygroundState, move: Keep) -> Verdict:
        after = self._apply_keep(state, move)
        effects = []
        clauses = ["PB-6.1"]
        reason = f"{move.colour} keeps the {move.stay} piece on {move.space}"
        if after.phase != "place":
            clauses.append("PB-6.3")
            effects.append(
                Effect(
                    "lost",
                    "PB-6.3",
                    f"no empty square on {move.colour}'s back row: the other piece leaves",
                    move.space,
                    move.player,
                )
            )
            if after.phase == "over":
                clauses.append(END_CLAUSES[after.result[1]])
                effects.append(self._end_effect(after))
        else:
            reason += "; move the other piece to an empty square of your back row"
        return Verdict(True, self._cite(*clauses), tuple(effects), reason)

    def _step_verdict(self, state: PlaygroundState, move: Step) -> Verdict:
        p, q = move.player, 1 - move.player
        index = self.board.index
        t = index[move.to]
        if state.phase == "place":
            after = self._apply_place(state, t)
            effects = [self._end_effect(after)] if after.phase == "over" else []
            clauses = ["PB-6.2"] + ([END_CLAUSES[after.result[1]]] if effects else [])
            return Verdict(
                True,
                self._cite(*clauses),
                tuple(effects),
                f"{move.colour} puts its other piece back on {move.to}",
            )
        clauses = ["PB-3.1", "PB-3.2", "PB-3.3", "PB-3.4"]
        effects = []
        red, blue = self._masks(state.pieces)
        theirs = (red, blue)[q]
        mine = (red, blue)[p]
        if t == self._base[q]:
            clauses.append("PB-7.1")
            effects.append(
                Effect(
                    "win",
                    "PB-7.1",
                    f"{move.colour} enters {COLOURS[q]}'s base and wins",
                    move.to,
                    p,
                )
            )
            reason = f"{move.colour} moves {move.frm} into {COLOURS[q]}'s base"
        elif theirs >> t & 1 and mine >> t & 1:
            clauses += ["PB-5.3", "PB-5.4", "PB-I.1"]
            effects.append(
                Effect(
                    "battle",
                    "PB-5.3",
                    f"{move.colour} tries to break the stalemate on {move.to}: the referee decides",
                    move.to,
                    p,
                )
            )
            reason = f"{move.colour} moves {move.frm} onto the stalemate on {move.to}"
        elif theirs >> t & 1:
            clauses += ["PB-4.1", "PB-4.2", "PB-I.1"]
            effects.append(
                Effect(
                    "battle",
                    "PB-4.2",
                    f"{move.colour} attacks {COLOURS[q]} on {move.to}: the referee reveals both",
                    move.to,
                    p,
                )
            )
            reason = f"{move.colour} attacks from {move.frm} to {move.to}"
        else:
            reason = f"{move.colour} moves {move.frm} to {move.to}"
            after = self._apply_step(state, index[move.frm], t)
            if after.phase == "over":
                clauses.append(END_CLAUSES[after.result[1]])
                effects.append(self._end_effect(after))
        return Verdict(True, self._cite(*clauses), tuple(effects), reason)

    def _end_effect(self, after: PlaygroundState) -> Effect:
        outcome = self.outcome(after)
        winner = outcome.winners[0] if outcome.winners else None
        return Effect(
            "win" if outcome.winners else "draw", outcome.clause.id, outcome.text, None, winner
        )

    def announce(self, state: PlaygroundState, move: Move) -> Verdict:
        """The ruling for `move` as it is played: `explain` plus what playing it reveals (a
        battle's result, by the rulebook's reveal; a stalemate only as a stalemate)."""
        verdict = self.explain(state, move)
        if not verdict.legal or not isinstance(move, Step) or state.phase != "move":
            return verdict
        after = self.apply(state, move)
        if after.last == state.last or not after.last or after.last[0] != self.board.index[move.to]:
            return verdict
        t, p, result, a, e = after.last
        q = 1 - p
        mover, other = COLOURS[p], COLOURS[q]
        sq = move.to
        if result == WON:
            text = f"{mover} {KINDS[a]} beats {other} {KINDS[e]} on {sq}: take {other}'s piece off"
            effects = [Effect("capture", "PB-4.3", text, sq, q)]
            clauses = ["PB-4.3"]
        elif result == LOST:
            text = f"{other} {KINDS[e]} beats {mover} {KINDS[a]} on {sq}: take {mover}'s piece off"
            effects = [Effect("capture", "PB-4.3", text, sq, p)]
            clauses = ["PB-4.3"]
        elif result == STALEMATE:
            text = f"stalemate on {sq}: both pieces stay, facing each other"
            effects = [Effect("stalemate", "PB-5.1", text, sq, None)]
            clauses = ["PB-5.1", "PB-5.2"]
            if any(r for side in after.pieces for s, _k, r in side if s == t):
                known = "only equal kinds stalemate: both pieces' kind is known to the table"
                effects.append(Effect("reveal", "PB-5.1", known, sq, None))
        elif result == RESCUED:
            text = (
                f"{mover}'s {KINDS[a]} breaks the stalemate on {sq}: take {other}'s {KINDS[e]} off"
            )
            effects = [
                Effect("capture", "PB-5.3", text, sq, q),
                Effect("reveal", "PB-5.5", f"{mover}'s pieces on {sq} are now known", sq, p),
            ]
            clauses = ["PB-5.3", "PB-5.5"]
            if after.phase == "keep":
                choose = f"{mover} chooses which piece stays on {sq}"
                effects.append(Effect("choose", "PB-6.1", choose, sq, p))
                clauses.append("PB-6.1")
        else:
            text = f"{mover}'s piece was not the winning piece: take it off {sq}"
            effects = [Effect("capture", "PB-5.4", text, sq, p)]
            clauses = ["PB-5.4"]
        if after.phase == "over":
            clauses.append(END_CLAUSES[after.result[1]])
            effects.append(self._end_effect(after))
        return Verdict(
            True,
            verdict.clauses + self._cite(*clauses),
            verdict.effects + tuple(effects),
            text,
        )

    def explain_attempt(self, state: PlaygroundState, frm: str, to: str) -> Verdict:
        """Why the mover's piece cannot go from `frm` to `to` now."""
        phase = state.phase
        if phase not in self.move_phases:
            if phase in ("setup", "opening"):
                return self._against("PB-2.1", f"no piece moves yet{self._waiting(state)}")
            if phase == "keep":
                return self._against("PB-6.1", "choose first which of your two pieces stays")
            return self._against("PB-2.2", f"roll the die before moving{self._waiting(state)}")
        index = self.board.index
        if frm not in index or to not in index:
            return self._against("PB-3.1", f"{frm}->{to} is not on this board")
        p, q = state.actor, 1 - state.actor
        colour = COLOURS[p]
        s, t = index[frm], index[to]
        red, blue = self._masks(state.pieces)
        own, other = (red, blue) if p == 0 else (blue, red)
        if phase == "place":
            box = state.hold[0]
            if s != box:
                return self._against(
                    "PB-6.2", f"move the piece you did not keep from {self._ids[box]} first"
                )
            if t not in self._back[p]:
                return self._against("PB-6.2", f"it goes to a square of {colour}'s back row")
            return self._against("PB-6.2", f"{to} is not empty")
        if s >= self._n or not own >> s & 1:
            return self._against("PB-2.3", f"no {colour} piece stands on {frm}")
        if other >> s & 1:
            return self._against("PB-5.2", f"the {colour} piece on {frm} is in a stalemate")
        if s == t:
            return self._against("PB-3.3", "a piece may not come back to its starting square")
        if t == self._base[p]:
            return self._against("PB-7.1", "nobody enters their own base")
        if t < self._n and own >> t & 1 and not other >> t & 1:
            return self._against("PB-3.5", f"your own piece stands on {to}")
        if self._step_ok(state, s, t):
            return self.explain(state, Step(p, colour, frm, to))
        d = state.dice
        if t == self._base[q]:
            if self._base_paths[q][s][d]:
                return self._against("PB-3.4", f"pieces stand in the way to {to}")
            return self._against("PB-7.1", f"the base needs the exact count; the roll is {d}")
        if any(dest == t for dest, _m in self._walks[s][d]):
            return self._against("PB-3.4", f"pieces stand in the way between {frm} and {to}")
        cols = len(COLUMNS)
        (r1, c1), (r2, c2) = divmod(s, cols), divmod(t, cols)
        dist = abs(r1 - r2) + abs(c1 - c2)
        if dist > d and r1 != r2 and c1 != c2 and abs(r1 - r2) == abs(c1 - c2):
            return self._against(
                "PB-3.2", f"no diagonal steps: {frm} to {to} takes {dist} steps, the roll is {d}"
            )
        if dist > d or (dist - d) % 2:
            return self._against("PB-3.1", f"{frm} to {to} cannot be walked in exactly {d} steps")
        return self._against("PB-3.3", f"{d} steps from {frm} to {to} would visit a square twice")

    def outcome(self, state: PlaygroundState) -> Outcome | None:
        if state.phase != "over":
            return None
        winner, reason = state.result
        clause = self.clause(END_CLAUSES[reason])
        if winner < 0:
            return Outcome((), clause, "neither side can move: a draw")
        loser = COLOURS[1 - winner]
        texts = (
            f"{COLOURS[winner]} entered {loser}'s base",
            f"{loser} has no pieces left",
            f"{loser} has no legal move",
        )
        return Outcome((winner,), clause, f"{COLOURS[winner]} wins: {texts[reason]}")

    # What the camera should see ---------------------------------------------------------------
    def placement(self, state: PlaygroundState) -> dict[str, str]:
        ids = self._ids
        seen: dict[str, str] = {}
        for p, pieces in enumerate(state.pieces):
            colour = COLOURS[p]
            for s, _k, _r in pieces:
                sq = ids[s]
                if seen.get(sq, colour) != colour:
                    seen[sq] = self.contest_mark
                else:
                    seen[sq] = colour
        return seen

    def groups(self) -> tuple[tuple[str, ...], ...]:
        return ()

    # What each seat may know ------------------------------------------------------------------
    def view(self, state: PlaygroundState, viewer: int | None = None) -> dict[str, Any]:
        """What seat `viewer` may know (None: the public table), as plain JSON data.

        A piece's kind is shown to its owner, and to everybody once revealed (PB-4.2, PB-5.5);
        a stalemate is shown as a stalemate, never its kind (PB-5.1).
        """
        if viewer is not None and (type(viewer) is not int or viewer not in (0, 1)):
            raise PlayerCountError(self.name, viewer, (0, 1))
        red, blue = self._masks(state.pieces)
        both = red & blue
        pieces = []
        for p, own in enumerate(state.pieces):
            for s, k, r in own:
                visible = k != UNSET and (r or viewer == p)
                pieces.append(
                    {
                        "space": self._ids[s],
                        "seat": p,
                        "colour": COLOURS[p],
                        "identity": KINDS[k] if visible else None,
                        "revealed": bool(r),
                        "stalemate": bool(both >> s & 1) and state.phase not in ("keep", "place"),
                    }
                )
        outcome = self.outcome(state)
        return {
            "viewer": viewer,
            "phase": state.phase,
            "to_move": state.to_move,
            "actor": state.actor,
            "dice": state.dice,
            "assigned": [self._assigned(state, p) for p in (0, 1)],
            "placement": self.placement(state),
            "pieces": pieces,
            "battle": self._battle_view(state.last),
            "outcome": outcome.to_json() if outcome else None,
        }

    def _battle_view(self, last: tuple) -> dict[str, Any] | None:
        if not last:
            return None
        t, p, result, a, e = last
        return {
            "space": self._ids[t],
            "attacker": p,
            "result": RESULT_NAMES[result],
            "attacker_identity": KINDS[a] if a != UNSET else None,
            "defender_identity": KINDS[e] if e != UNSET else None,
        }

    def public_move(self, move: Move, viewer: int | None = None) -> dict[str, Any]:
        """A move's JSON as seat `viewer` (None: the public table) may see it: a set-up's
        identities only for their owner."""
        data = move.to_json()
        if isinstance(move, Assign) and viewer != move.player:
            data["identities"] = [[sq, None] for sq, _k in move.identities]
        return data

    # Inference -------------------------------------------------------------------------------
    def infer(self, state: PlaygroundState, placement: Placement) -> Inference:
        """The move that explains `placement`; an attacker may still share the square with
        the defender (the contest mark) until the referee has ruled (PB-I.1)."""
        if not isinstance(placement, Mapping):
            return Inference("unclear", reason="the reading is not a placement of spaces")
        off = tuple(s for s in placement if s not in self.board.index)
        if off:
            return Inference(
                "unclear", reason="spaces not on this board: " + ", ".join(off), spaces=off
            )
        unknown = tuple(s for s, c in placement.items() if c == UNKNOWN)
        if unknown:
            return Inference(
                "unclear", reason="cannot see what is on " + ", ".join(unknown), spaces=unknown
            )
        seen = dict(placement)
        expected = self.placement(state)
        if seen == expected:
            return Inference("unclear", reason="nothing has moved yet")
        changed = tuple(
            sorted(s for s in set(seen) | set(expected) if seen.get(s) != expected.get(s))
        )
        mark = self.contest_mark
        if all(seen.get(s) == mark and expected.get(s) in COLOURS for s in changed):
            stays = {s: expected[s] for s in changed}
            todo = "; ".join(
                f"take the {COLOURS[1 - COLOURS.index(c)]} piece off {s}" for s, c in stays.items()
            )
            return Inference("unclear", reason=f"battle decided: {todo}", spaces=changed)
        phase = state.phase
        if phase in ("setup", "opening"):
            extra = [s for s in changed if seen.get(s) is not None]
            if not extra:
                return Inference(
                    "unclear",
                    reason="waiting for every piece on its back row: " + ", ".join(changed),
                    spaces=changed,
                )
            clause = "PB-1.4" if phase == "setup" else "PB-2.1"
            verdict = self._against(clause, "pieces start on their own back row; none moves yet")
            return Inference("illegal", None, verdict, reason=verdict.reason, spaces=changed)
        if phase == "keep":
            return Inference(
                "unclear",
                reason=f"{COLOURS[state.actor]}: first choose which piece stays on "
                f"{self._ids[state.hold[0]]}",
                spaces=changed,
            )
        if phase == "over":
            return Inference("unclear", reason="the game is over", spaces=changed)
        if phase == "roll":
            verdict = self._against("PB-2.2", "pieces moved before the roll")
            return Inference("illegal", None, verdict, reason=verdict.reason, spaces=changed)
        matches = [m for m in self._camera_moves(state, expected, changed) if seen == m[1]]
        if len(matches) == 1:
            move = matches[0][0]
            return Inference("legal", move, self.explain(state, move), reason=str(move))
        if matches:
            options = ", ".join(f"{m.frm}->{m.to}" for m, _look in matches)
            return Inference(
                "unclear",
                reason=f"several moves look the same to the camera ({options}); enter the move",
                spaces=changed,
            )
        return self._attempt(state, expected, seen, changed)

    def _camera_moves(
        self, state: PlaygroundState, expected: dict, changed: tuple
    ) -> list[tuple[Step, dict]]:
        """Each step the camera could accept now, with the one picture that shows it.

        The picture never depends on a hidden kind (PB-I.1): a quiet move shows the board
        after it; an attack or a rescue shows the contest picture, the attacker standing on
        the defender's square (read as the contest mark), whatever the battle's result.
        """
        return [
            (move, self.camera_picture(state, move, expected))
            for move in self.legal_moves(state)
            if isinstance(move, Step) and (state.phase != "move" or move.frm in changed)
        ]  # (in phase place the square left keeps its colour: one of two stands stays)

    def camera_picture(
        self, state: PlaygroundState, move: Move, before: dict | None = None
    ) -> dict[str, str]:
        """The picture that shows `move`: for an attack or a rescue the attacker standing on
        the defender's square (the contest mark, PB-I.1), never the battle's result; for any
        other move the board after it."""
        before = self.placement(state) if before is None else before
        if state.phase != "move" or not isinstance(move, Step):
            return self.placement(self.apply(state, move))
        if before.get(move.to) in (None, COLOURS[state.actor]):
            return self.placement(self.apply(state, move))
        look = {s: c for s, c in before.items() if s != move.frm}
        look[move.to] = self.contest_mark
        return look

    def _attempt(
        self, state: PlaygroundState, expected: dict, seen: dict, changed: tuple
    ) -> Inference:
        mark = self.contest_mark
        p = state.actor

        def has(place: dict, s: str, colour: str) -> bool:
            c = place.get(s)
            return c == colour or c == mark

        def diff(colour: str) -> tuple[list[str], list[str]]:
            lost = [s for s in changed if has(expected, s, colour) and not has(seen, s, colour)]
            gained = [s for s in changed if has(seen, s, colour) and not has(expected, s, colour)]
            return lost, gained

        lost, gained = diff(COLOURS[p])
        if len(lost) == 1 and len(gained) == 1:
            verdict = self.explain_attempt(state, lost[0], gained[0])
            if not verdict.legal:
                return Inference(
                    "illegal", None, verdict, reason=verdict.reason, spaces=(lost[0], gained[0])
                )
            if has(expected, gained[0], COLOURS[1 - p]):  # an attack shown already settled
                return Inference(
                    "unclear",
                    reason=f"{COLOURS[p]} {lost[0]}->{gained[0]} is an attack: stand the "
                    f"{COLOURS[p]} piece on {gained[0]} beside the {COLOURS[1 - p]} one and "
                    "wait for the referee to announce the battle (PB-I.1)",
                    spaces=(lost[0], gained[0]),
                )
        if not lost and not gained:
            o_lost, o_gained = diff(COLOURS[1 - p])
            if len(o_lost) == 1 and len(o_gained) == 1:
                verdict = self._against(
                    "PB-2.3", f"a {COLOURS[1 - p]} piece moved, but it is {COLOURS[p]}'s turn"
                )
                return Inference(
                    "illegal", None, verdict, reason=verdict.reason, spaces=(o_lost[0], o_gained[0])
                )
        if len(lost) > len(gained):
            reason = f"a {COLOURS[p]} piece is missing from " + ", ".join(lost)
        else:
            reason = "the board does not match any single move; changed: " + ", ".join(changed)
        return Inference("unclear", reason=reason, spaces=changed)


class _SetupMoves(list):
    """The set-up's legal moves: a list of sample set-ups, for random playouts, whose `in`
    accepts every valid set-up (there are tens of thousands), so `move in legal_moves(state)`
    stays the test of legality for callers that use it."""

    def __init__(self, samples: list, problem: Any, state: PlaygroundState) -> None:
        super().__init__(samples)
        self._problem = problem
        self._state = state

    def __contains__(self, move: object) -> bool:
        if isinstance(move, Assign):
            return self._problem(self._state, move) is None
        return super().__contains__(move)


def _pack(p: int, mine: list, theirs: list) -> tuple:
    mine_t, theirs_t = tuple(sorted(mine)), tuple(sorted(theirs))
    return (mine_t, theirs_t) if p == 0 else (theirs_t, mine_t)


def _short(state: PlaygroundState) -> str:
    """A state in an error message without its secret identities."""
    return f"(phase {state.phase}, {COLOURS[state.actor]} to act, dice {state.dice})"
