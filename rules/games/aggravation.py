"""Aggravation: race four marbles from BASE around the board to HOME (2 to 6 players).

Board design (the rulebook's figures are missing; see ../shared/rulebooks/BOARDS.md):

* An asterisk with one arm per seat: four arms (2-4 players) or six arms (5-6 players, or any
  count with the `board` option). Arms are numbered clockwise from the bottom edge.
* The track runs clockwise around the outline of the arms. Each arm contributes
  `2 * lane + 6` holes (14 with the default lane of 4): the inner corner (a star hole), `lane`
  holes outward, five holes across the arm's end, `lane` holes back inward. 56 track holes on
  the four-arm board, 84 on the six-arm board.
* The middle hole of an arm's end is that seat's HOME entry; the next hole clockwise is the
  seat's START. The HOME row (four holes) runs from the HOME entry straight toward the centre.
  A marble's lap is START ... HOME entry (one hole short of a full circle), then HOME.
* The star holes are the inner corners of the arms (on the track); the centre hole sits in the
  middle. A seat's "home star" is the inner corner where the track turns into its own arm.
* Each seat's BASE row (four holes) sits beside its START, in the gap between two arms.
* Track ids are t01..t56 (t84) clockwise from the bottom arm's inner corner; "ctr" is the
  centre; BASE and HOME holes are "<colour>-b1..4" and "<colour>-h1..4" (h1 nearest the track).

Positions are in millimetres; the board is 280 mm wide and 340 mm tall: the play area is the
top 280 mm square and a dice tray runs along the bottom edge between the corner markers.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, NamedTuple

from ..clauses import Clause, Effect, Inference, Outcome, Verdict
from ..errors import RecordError
from ..game import Game, Placement
from ..geometry import Board, Region, Space
from ..moves import Declare, Move, Pass, Roll, Step
from ..options import Option
from ..registry import register
from ..rolloff import record_roll

# --- clauses ------------------------------------------------------------------------------

CLAUSES = (
    Clause(
        "AGG-1.1",
        "Marbles begin in BASE",
        "Each player has four marbles of one colour, all in the BASE row of that colour.",
        "Setup 1",
    ),
    Clause(
        "AGG-1.2",
        "Highest roll starts",
        "Everyone rolls once; the highest roll takes the first turn. Players who tie for "
        "highest roll again among themselves.",
        "Setup 2",
        interpretation=True,
        option="opening",
    ),
    Clause(
        "AGG-1.3",
        "Turns go clockwise",
        "Play passes to the left, clockwise around the board. Only the player whose turn it "
        "is moves a marble.",
        "Setup 2",
    ),
    Clause(
        "AGG-2.1",
        "A six rolls again",
        "A roll of 6 gives the same player another turn after this one.",
        "How to play",
    ),
    Clause(
        "AGG-2.2",
        "Roll before moving",
        "Each turn starts with one roll of the die; no marble moves before it.",
        "How to play",
    ),
    Clause(
        "AGG-3.1",
        "Start on 1 or 6",
        "A marble leaves BASE only onto its own START hole and only on a roll of 1 or 6.",
        "Start a Marble First",
    ),
    Clause(
        "AGG-3.2",
        "Own START must be free",
        "A new marble cannot enter START while one of your own marbles is sitting there.",
        "Start a Marble First, note",
    ),
    Clause(
        "AGG-3.3",
        "Starting onto an opponent",
        "If an opponent's marble sits on your START when you start a marble, it is "
        "aggravated back to its BASE.",
        "Getting Aggravated, note",
    ),
    Clause(
        "AGG-4.1",
        "Move the full count clockwise",
        "A marble on the path moves clockwise exactly the number rolled, counting every "
        "hole, empty or occupied.",
        "Moving Your Marbles",
    ),
    Clause(
        "AGG-4.2",
        "No jumping your own marbles",
        "A marble may not pass over or land on a marble of its own colour; a marble blocked "
        "this way cannot make that move.",
        "Moving Your Marbles",
    ),
    Clause(
        "AGG-4.3",
        "Choose on 1 or 6",
        "With a 1 or 6 you may either start a new marble or move one already on the path.",
        "Moving Your Marbles",
    ),
    Clause(
        "AGG-5.1",
        "Aggravation",
        "Landing by exact count on another player's marble sends that marble back to its "
        "BASE; the moving marble takes the hole.",
        "Getting Aggravated",
    ),
    Clause(
        "AGG-5.2",
        "BASE and HOME are safe",
        "Marbles in BASE or HOME can never be aggravated.",
        "Getting Aggravated",
    ),
    Clause(
        "AGG-6.1",
        "Star hole shortcut",
        "A marble that starts its turn on a star hole may travel clockwise from star hole to "
        "star hole, each counting as one hole, and then continue along the path with the "
        "rest of the roll.",
        "Shortcuts: Star Hole",
    ),
    Clause(
        "AGG-6.2",
        "Leaving the stars",
        "The star ride ends at the star hole that leads to your own HOME, or at any earlier "
        "star hole you choose; it never carries a marble past its own home star.",
        "Shortcuts: Star Hole",
        interpretation=True,
    ),
    Clause(
        "AGG-6.3",
        "Entering the centre",
        "A marble enters the centre hole only by exact count, stepping in from a star hole "
        "as the last step of its move; a marble already on a star hole needs exactly a 1.",
        "Shortcuts: Center Hole",
    ),
    Clause(
        "AGG-6.4",
        "Leaving the centre",
        "A marble in the centre leaves only on a roll of 1, onto any star hole (usually the "
        "one nearest its HOME).",
        "Shortcuts: Center Hole",
    ),
    Clause(
        "AGG-7.1",
        "HOME by exact count",
        "A marble enters HOME only by exact count; a roll too large for that marble means it "
        "cannot move.",
        "Getting Home Safe",
    ),
    Clause(
        "AGG-7.2",
        "No move possible",
        "When none of your marbles can move the full count, your turn is over.",
        "Getting Home Safe",
    ),
    Clause(
        "AGG-7.3",
        "Moving is compulsory",
        "If any of your marbles can make a legal move with the roll, you must make one.",
        "How to play",
        interpretation=True,
    ),
    Clause(
        "AGG-8.1",
        "Winning",
        "The first player with all four marbles in HOME wins.",
        "Winning the Game",
    ),
    Clause(
        "AGG-I.1",
        "One lap, never past START",
        "A marble's lap ends at its HOME entry, the hole just before its own START, and it "
        "must turn into HOME there; no route, shortcuts included, takes it past its START.",
        "Moving Your Marbles",
        interpretation=True,
    ),
    Clause(
        "AGG-I.2",
        "Six after a pass",
        "A 6 gives the extra turn even when no marble could move with it.",
        "How to play",
        interpretation=True,
        option="extra_turn_after_pass",
    ),
    Clause(
        "AGG-I.3",
        "Captured marble back to BASE",
        "The referee accepts the aggravated marble either already back in its BASE or "
        "still in the hand of its owner, and reminds the table to put it back.",
        "Getting Aggravated",
        interpretation=True,
    ),
    Clause(
        "AGG-I.4",
        "Moving inside HOME",
        "A marble already in HOME may move further in by exact count, without jumping your own "
        "marbles; like any move, it is compulsory when it is the only one.",
        "Getting Home Safe",
        interpretation=True,
        option="home_moves",
    ),
    Clause(
        "AGG-P.1",
        "Partners",
        "In partnership play partners sit opposite. You may jump your partner's marbles; "
        "landing on one by exact count aggravates it.",
        "Partnership Play 1",
    ),
    Clause(
        "AGG-P.2",
        "Rolling for a partner",
        "Once all your marbles are HOME you keep rolling in turn and your partner moves by "
        "your rolls.",
        "Partnership Play 2",
    ),
    Clause(
        "AGG-P.3",
        "Partnership win",
        "The first partnership with all of its marbles HOME wins.",
        "Partnership Play",
    ),
    Clause(
        "AGG-T.1",
        "Teams of three",
        "In team play two teams of three sit alternately around the six-arm board; otherwise "
        "partnership rules apply.",
        "Team Play",
    ),
    Clause(
        "AGG-T.2",
        "Declare before rolling",
        "A player whose marbles are all HOME, with both teammates still playing, names the "
        "teammate who will use the roll before rolling.",
        "Team Play 1",
    ),
    Clause(
        "AGG-T.3",
        "Two home, one to go",
        "When two teammates are HOME, both roll in turn for the third; the first team with "
        "every marble HOME wins.",
        "Team Play 2",
    ),
)

OPTIONS = (
    Option(
        "opening",
        "roll-off",
        ("roll-off", "first-seat"),
        "Who takes the first turn: a roll-off (highest starts, ties roll again) or simply "
        "the first seat.",
        "AGG-1.2",
    ),
    Option(
        "extra_turn_after_pass",
        True,
        (True, False),
        "Whether a 6 still gives an extra turn when no marble could move.",
        "AGG-I.2",
    ),
    Option(
        "play",
        "individual",
        ("individual", "partners", "teams"),
        "Everyone for themselves, partners sitting opposite (4 or 6 players), or two teams "
        "of three (6 players).",
        "AGG-P.1",
    ),
    Option(
        "board",
        "auto",
        ("auto", "four", "six"),
        "Which printed board: four arms (up to 4 players), six arms (up to 6).",
        None,
    ),
    Option(
        "home_moves",
        True,
        (True, False),
        "Whether a marble already in HOME may move further into HOME.",
        "AGG-I.4",
    ),
    Option(
        "lane",
        4,
        (2, 3, 4, 5, 6),
        "Holes on each side of an arm (the classic board has 4: 14 holes per arm).",
        None,
    ),
)

ARM_COLOURS = ("red", "blue", "yellow", "green", "purple", "orange")
SEAT_ARMS = {
    4: {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)},
    6: {2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4), 5: (0, 1, 2, 3, 4), 6: (0, 1, 2, 3, 4, 5)},
}
BASE = -1  # a marble in its BASE row (marbles there are interchangeable)
MARBLES = 4
MARBLE_SETTLE = 1.5  # mm: a marble rolls to rest in its hole, not where the hand let it go


# --- board ---------------------------------------------------------------------------------


def build_board(arms: int, lane: int) -> Board:
    """The asterisk board from its parameters (see the module docstring)."""
    half = 2.0  # half the arm's width in hole spacings
    corner = half / math.tan(math.pi / arms)
    end = corner + lane + 1
    # BASE row: beside the arm's outer end, but never further in than two holes past the inner
    # corner, where it would sit on the neighbouring arm's track (short lanes)
    base_first = max(end - MARBLES + 1, corner + 2.0)
    width, height, cx, cy = 280.0, 340.0, 140.0, 140.0
    pitch = 14.0

    def unit(arm: int, u: float, v: float) -> tuple[float, float]:
        phi = math.pi / 2 + arm * 2 * math.pi / arms
        return u * math.cos(phi) - v * math.sin(phi), u * math.sin(phi) + v * math.cos(phi)

    def at(arm: int, u: float, v: float) -> tuple[float, float]:
        x, y = unit(arm, u, v)
        return cx + pitch * x, cy + pitch * y

    # Largest hole spacing (at most 14 mm) that keeps every hole off the corner markers.
    outline = [
        unit(a, u, v)
        for a in range(arms)
        for u, v in (
            (end, half),
            (end, -half),
            (base_first + MARBLES - 1, half + 2.0),
            (base_first, half + 2.0),
        )
    ]
    while pitch > 6.0 and any(
        max(abs(x), abs(y)) * pitch > 122.0 or min(abs(x), abs(y)) * pitch > 96.0
        for x, y in outline
    ):
        pitch -= 0.25

    spaces: list[Space] = []
    links: list[tuple[str, str]] = []
    track_ids: list[str] = []
    per_arm = 2 * lane + 6
    for arm in range(arms):
        local = [(corner, -half)]
        local += [(corner + i, -half) for i in range(1, lane + 1)]
        local += [(end, v) for v in (-half, -half / 2, 0.0, half / 2, half)]
        local += [(corner + i, half) for i in range(lane, 0, -1)]
        for k, (u, v) in enumerate(local):
            number = arm * per_arm + k + 1
            kind = "star" if k == 0 else "start" if k == lane + 4 else "track"
            owner = arm if k in (lane + 3, lane + 4) else None
            label = "S" if kind == "start" else ""
            spaces.append(Space(f"t{number:02d}", kind, *at(arm, u, v), owner, label))
            track_ids.append(f"t{number:02d}")
    total = len(track_ids)
    links += [(track_ids[i], track_ids[(i + 1) % total]) for i in range(total)]
    spaces.append(Space("ctr", "centre", cx, cy))
    stars = track_ids[::per_arm]
    links += [(stars[i], stars[(i + 1) % arms]) for i in range(arms)]
    links += [(star, "ctr") for star in stars]
    for arm in range(arms):
        colour = ARM_COLOURS[arm]
        entry = track_ids[arm * per_arm + lane + 3]
        previous = entry
        for j in range(1, MARBLES + 1):
            hole = f"{colour}-h{j}"
            spaces.append(Space(hole, "home", *at(arm, end - j, 0.0), arm, str(j)))
            links.append((previous, hole))
            previous = hole
        for j in range(1, MARBLES + 1):
            spaces.append(
                Space(f"{colour}-b{j}", "base", *at(arm, base_first + j - 1, half + 2.0), arm)
            )
    tray = Region("tray", 44.0, 290.0, 192.0, 44.0)
    return Board(
        name=f"aggravation-{arms}",
        width=width,
        height=height,
        spaces=tuple(spaces),
        links=tuple(links),
        regions=(tray,),
        hole_radius=round(pitch * 0.3, 2),
        token_radius=round(pitch * 0.38, 2),
        token_settle=MARBLE_SETTLE,
        seat_colours=ARM_COLOURS[:arms],
        marker_ids=(0, 1, 2, 3) if arms == 4 else (4, 5, 6, 7),
    )


# --- state ---------------------------------------------------------------------------------


class AggravationState(NamedTuple):
    """Whose turn, what is expected next, and where every marble is.

    pieces[p] is seat p's four marbles as sorted board-space indices, BASE (-1) for a marble in
    BASE. actor is the seat whose marbles move this turn (a partner's, once yours are home).
    rolloff holds the opening roll-off: 0 still to roll, -1 out of it, else the value rolled.
    """

    to_move: int
    phase: str  # opening | declare | roll | move | over
    dice: int  # the value rolled this turn, 0 before the roll
    pieces: tuple[tuple[int, ...], ...]
    actor: int
    rolloff: tuple[int, ...] = ()


def _new_state(fields: tuple) -> AggravationState:
    """Build a state without NamedTuple's Python-level __new__ (this is the hot path)."""
    return tuple.__new__(AggravationState, fields)


# --- the game ------------------------------------------------------------------------------


@register
class Aggravation(Game):
    name = "aggravation"
    title = "Aggravation"
    player_counts = (2, 3, 4, 5, 6)
    default_players = 4
    token_name = "marble"
    option_specs = OPTIONS
    clause_list = CLAUSES
    state_type = AggravationState
    turn_clause = "AGG-1.3"
    roll_first_clause = "AGG-2.2"

    def __init__(self, players: int, options: dict | None = None) -> None:
        super().__init__(players, options)
        self._check_play_mode()
        self._precompute()

    # Board and seats --------------------------------------------------------------------
    def _arm_count(self) -> int:
        board = self.options["board"]
        if board == "auto":
            return 4 if self.players <= 4 else 6
        return 4 if board == "four" else 6

    def build_board(self) -> Board:
        arms = self._arm_count()
        if self.players > arms:
            from ..errors import OptionError

            raise OptionError(
                f"aggravation option 'board' cannot be {self.options['board']!r} for "
                f"{self.players} players; allowed: 'auto', 'six'"
            )
        self.arms = SEAT_ARMS[arms][self.players]
        return build_board(arms, self.options["lane"])

    def seat_colours(self) -> tuple[str, ...]:
        return tuple(ARM_COLOURS[arm] for arm in self.arms)

    def _check_play_mode(self) -> None:
        from ..errors import OptionError

        play = self.options["play"]
        n = self.players
        if play == "partners" and n not in (4, 6):
            raise OptionError(
                f"aggravation option 'play' cannot be 'partners' with {n} players; "
                "allowed: 4 or 6 players"
            )
        if play == "teams" and n != 6:
            raise OptionError(
                f"aggravation option 'play' cannot be 'teams' with {n} players; allowed: 6"
            )
        if play == "individual":
            self.sides = tuple((p,) for p in range(n))
        elif play == "partners":
            self.sides = tuple((p, p + n // 2) for p in range(n // 2))
        else:
            self.sides = ((0, 2, 4), (1, 3, 5))
        self.side_of = {p: side for side in self.sides for p in side}

    def _precompute(self) -> None:
        """Movement tables from the geometry, so a move never walks the board."""
        self._six_after_pass = self.options["extra_turn_after_pass"]
        board = self.board
        index = board.index
        ids = [s.id for s in board.spaces]
        self._ids = ids
        self._bits = [1 << i for i in range(len(ids))] + [0]  # bits[BASE] == 0
        arms = len(board.seat_colours)
        lane = self.options["lane"]
        per_arm = 2 * lane + 6
        track = [index[f"t{k:02d}"] for k in range(1, arms * per_arm + 1)]
        stars = set(track[::per_arm])
        self._stars = stars
        self._track_holes = track
        self._trackset = {s: k for k, s in enumerate(track)}  # track hole -> clockwise number
        self._centre = index["ctr"]
        self._start, self._home, self._base_ids, self._home_star = [], [], [], []
        self._first_home: list[int] = []  # index of each seat's h1; h1..h4 are consecutive
        self._opts: list[dict[int, tuple[tuple, ...]]] = []
        self._route_pos: list[dict[int, int]] = []
        for p, arm in enumerate(self.arms):
            colour = ARM_COLOURS[arm]
            start = arm * per_arm + lane + 4
            route = [track[(start + i) % len(track)] for i in range(len(track))]
            route += [index[f"{colour}-h{j}"] for j in range(1, MARBLES + 1)]
            pos = {s: i for i, s in enumerate(route)}
            self._route_pos.append(pos)
            self._start.append(route[0])
            self._home.append(frozenset(route[len(track) :]))
            self._first_home.append(route[len(track)])
            # _all_home relies on this: HOME holes numbered above every track hole and the centre
            assert route[len(track) :] == list(range(route[len(track)], route[len(track)] + 4))
            assert route[len(track)] > max(index["ctr"], *track)
            self._base_ids.append(tuple(f"{colour}-b{j}" for j in range(1, MARBLES + 1)))
            self._home_star.append(track[arm * per_arm])
            self._opts.append(self._tables(p, route, pos, len(track)))
        self._rolls = [
            [Roll(p, self.colours[p], v) for v in range(1, 7)] for p in range(self.players)
        ]
        self._passes = [Pass(p, self.colours[p]) for p in range(self.players)]

    def _tables(self, p: int, route: list[int], pos: dict[int, int], laps: int) -> dict:
        """{space or BASE: (moves for die 1, ..., die 6)}: each (dest, path mask, Step)."""
        colour, ids, bits = self.colours[p], self._ids, self._bits
        ordered_stars = sorted((pos[s], s) for s in self._stars)

        def entry(frm: int, dest: int, path: list[int], route_tag: str) -> tuple:
            mask = bits[dest]
            for s in path:
                mask |= bits[s]
            frm_id = self._base_ids[p][0] if frm == BASE else ids[frm]
            return (dest, mask, Step(p, colour, frm_id, ids[dest], route_tag))

        table: dict[int, tuple] = {}
        table[BASE] = tuple(
            (entry(BASE, route[0], [], "start"),) if d in (1, 6) else () for d in range(7)
        )
        for space, i in pos.items():
            by_die = []
            settled = i >= laps and not self.options["home_moves"]
            for d in range(7):
                options = []
                if d and i + d < len(route) and not settled:
                    options.append(entry(space, route[i + d], route[i + 1 : i + d], ""))
                if d and i < laps and i + d - 1 < laps and route[i + d - 1] in self._stars:
                    options.append(entry(space, self._centre, route[i + 1 : i + d], "centre"))
                if d and space in self._stars:
                    ahead = [s for r, s in ordered_stars if r > i]
                    for k in range(1, min(d, len(ahead)) + 1):
                        star = ahead[k - 1]
                        j, rest = pos[star], d - k
                        if j + rest >= len(route):
                            continue
                        path = ahead[: k - 1] + ([star] if rest else []) + route[j + 1 : j + rest]
                        options.append(entry(space, route[j + rest], path, "star"))
                by_die.append(tuple(options))
            table[space] = tuple(by_die)
        centre = tuple(
            tuple(entry(self._centre, s, [], "centre exit") for _, s in ordered_stars)
            if d == 1
            else ()
            for d in range(7)
        )
        table[self._centre] = centre
        return table

    # State ---------------------------------------------------------------------------------
    def initial_state(self) -> AggravationState:
        pieces = tuple((BASE,) * MARBLES for _ in range(self.players))
        if self.options["opening"] == "roll-off":
            return AggravationState(0, "opening", 0, pieces, 0, (0,) * self.players)
        phase, actor = self._turn_start(0, pieces)
        return AggravationState(0, phase, 0, pieces, actor, ())

    def _all_home(self, p: int, pieces: tuple) -> bool:
        # marbles are sorted and a seat's HOME holes are its highest hole numbers (BASE is -1),
        # so all four are HOME exactly when the lowest one is at or past h1
        return pieces[p][0] >= self._first_home[p]

    def _turn_start(self, p: int, pieces: tuple) -> tuple[str, int]:
        """(phase, actor) at the start of seat p's turn."""
        if not self._all_home(p, pieces):
            return "roll", p
        playing = [q for q in self.side_of[p] if not self._all_home(q, pieces)]
        if len(playing) >= 2:
            return "declare", p
        return "roll", playing[0] if playing else p

    def state_from_json(self, data: Any) -> AggravationState:
        """A state read back from JSON; RecordError when it could not occur at this table."""
        state = super().state_from_json(data)
        problem = self._state_problem(state)
        if problem:
            raise RecordError(f"not a state of this {self.name} table: {problem}")
        return state

    def _state_problem(self, state: AggravationState) -> str:
        n = self.players
        to_move, phase, dice, pieces, actor, rolloff = state
        if phase not in ("opening", "declare", "roll", "move", "over"):
            return f"unknown phase {phase!r}"
        for name, seat in (("to_move", to_move), ("actor", actor)):
            if type(seat) is not int or not 0 <= seat < n:
                return f"{name} must be a seat 0..{n - 1}, not {seat!r}"
        if type(dice) is not int or not 0 <= dice <= 6:
            return f"dice must be 0..6, not {dice!r}"
        if (phase == "move") != (dice != 0) and phase != "over":
            return f"dice {dice} does not fit phase {phase!r}"
        if phase == "opening":
            if len(rolloff) != n or any(type(r) is not int or not -1 <= r <= 6 for r in rolloff):
                return f"the opening roll-off needs one value -1..6 per seat, not {rolloff!r}"
        elif rolloff != ():
            return "a roll-off outside the opening"
        if not isinstance(pieces, tuple) or len(pieces) != n:
            return f"pieces must list {n} seats"
        seen: set[int] = set()
        for p, marbles in enumerate(pieces):
            if not isinstance(marbles, tuple) or len(marbles) != MARBLES:
                return f"seat {p} must have {MARBLES} marbles, not {marbles!r}"
            if any(type(s) is not int for s in marbles) or list(marbles) != sorted(marbles):
                return f"seat {p}'s marbles must be sorted hole numbers, not {marbles!r}"
            for s in marbles:
                if s == BASE:
                    continue
                if s not in self._route_pos[p] and s != self._centre:
                    return f"a {self.colours[p]} marble cannot be on hole {s!r}"
                if s in seen:
                    return f"two marbles on {self._ids[s]}"
                seen.add(s)
        return ""

    # Moves ---------------------------------------------------------------------------------
    def legal_moves(self, state: AggravationState) -> list[Move]:
        phase = state.phase
        if phase == "move":
            actor = state.actor
            own = state.pieces[actor]
            bits = self._bits
            mask = bits[own[0]] | bits[own[1]] | bits[own[2]] | bits[own[3]]
            table = self._opts[actor]
            dice = state.dice
            moves = []
            previous = None
            for s in own:
                if s == previous:
                    continue
                previous = s
                for _dest, path, move in table[s][dice]:
                    if not path & mask:
                        moves.append(move)
            return moves or [self._passes[actor]]
        if phase == "roll" or phase == "opening":
            return list(self._rolls[state.to_move])
        if phase == "declare":
            p = state.to_move
            return [
                Declare(p, self.colours[p], q, self.colours[q])
                for q in self.side_of[p]
                if q != p and not self._all_home(q, state.pieces)
            ]
        return []

    def apply(self, state: AggravationState, move: Move) -> AggravationState:
        phase = state.phase
        kind = move.__class__
        if phase == "move" and kind is Step:
            return self._apply_step(state, move)
        if (
            kind is Roll
            and phase in ("roll", "opening")
            and move.player == state.to_move
            and move.colour == self.colours[move.player]
        ):
            if not 1 <= move.value <= 6:
                self.check(state, move)
            if phase == "opening":
                return self._apply_rolloff(state, move.value)
            return _new_state(
                (state.to_move, "move", move.value, state.pieces, state.actor, state.rolloff)
            )
        self.check(state, move)  # raises for anything else that is not legal
        if kind is Declare:
            return state._replace(phase="roll", actor=move.teammate)
        return self._end_turn(state, state.pieces, passed=True)

    def _apply_step(self, state: AggravationState, move: Step) -> AggravationState:
        actor = state.actor
        frm = self._from_index(actor, move.frm)
        own = state.pieces[actor]
        bits = self._bits
        mask = bits[own[0]] | bits[own[1]] | bits[own[2]] | bits[own[3]]
        # only from a hole holding one of the actor's marbles (BASE only while one is there)
        entries = self._opts[actor].get(frm, ()) if frm in own else ()
        for dest, path, candidate in entries[state.dice] if entries else ():  # noqa: B007
            if (candidate is move or candidate == move) and not path & mask:
                break
        else:
            self.check(state, move)  # raises IllegalMoveError naming the clause
            raise AssertionError(f"{move} passed the legality check but has no table entry")
        moved = list(own)
        moved[moved.index(frm)] = dest
        pieces = list(state.pieces)
        pieces[actor] = tuple(sorted(moved))
        for q, theirs in enumerate(pieces):
            if q != actor and dest in theirs:
                hit = list(theirs)
                hit[hit.index(dest)] = BASE
                pieces[q] = tuple(sorted(hit))
                break
        return self._end_turn(state, tuple(pieces), passed=False)

    def _from_index(self, actor: int, space_id: str) -> int | None:
        """The hole's index, BASE for the actor's first BASE hole, None when not on the board."""
        if space_id == self._base_ids[actor][0]:
            return BASE
        return self.board.index.get(space_id)

    def _end_turn(self, state: AggravationState, pieces: tuple, passed: bool) -> AggravationState:
        if self._side_done(state.actor, pieces):
            return _new_state((state.to_move, "over", state.dice, pieces, state.actor, ()))
        p = state.to_move
        again = state.dice == 6 and (not passed or self._six_after_pass)
        nxt = p if again else (p + 1) % self.players
        phase, actor = self._turn_start(nxt, pieces)
        return _new_state((nxt, phase, 0, pieces, actor, ()))

    def _side_done(self, p: int, pieces: tuple) -> bool:
        first = self._first_home
        for q in self.side_of[p]:
            if pieces[q][0] < first[q]:
                return False
        return True

    def _apply_rolloff(self, state: AggravationState, value: int) -> AggravationState:
        rolls, seat, decided = record_roll(state.rolloff, state.to_move, value)
        if not decided:
            return state._replace(to_move=seat, rolloff=rolls)
        phase, actor = self._turn_start(seat, state.pieces)
        return AggravationState(seat, phase, 0, state.pieces, actor, ())

    # Verdicts ------------------------------------------------------------------------------
    def explain(self, state: AggravationState, move: Move) -> Verdict:
        legal = move in self.legal_moves(state)
        if isinstance(move, Roll):
            if legal:
                key = "AGG-1.2" if state.phase == "opening" else "AGG-2.2"
                return Verdict(True, (self.clause(key),), reason=str(move))
            if move.player != state.to_move or move.colour != self.colours[state.to_move]:
                return self._verdict_against(
                    state, "AGG-1.3", f"it is {self.colours[state.to_move]}'s turn to roll"
                )
            if state.phase == "declare":
                return self._verdict_against(
                    state, "AGG-T.2", f"{move.colour} names the teammate before rolling"
                )
            return self._verdict_against(state, "AGG-2.2", f"{move.colour} cannot roll now")
        if isinstance(move, Declare):
            if legal:
                return Verdict(True, self._cite(["AGG-T.2", "AGG-T.1"]), reason=str(move))
            return self._verdict_against(state, "AGG-T.2", "no teammate can be declared now")
        if isinstance(move, Pass):
            if legal:
                effects = [Effect("pass", "AGG-7.2", f"{move.colour} cannot move and passes")]
                effects += self._extra_turn_effects(state, passed=True)
                return Verdict(True, (self.clause("AGG-7.2"),), tuple(effects), str(move))
            if state.phase != "move":
                return self._verdict_against(state, "AGG-2.2", "roll the die before passing")
            if move.player != state.actor or move.colour != self.colours[state.actor]:
                return self._verdict_against(
                    state, "AGG-1.3", f"it is {self.colours[state.actor]}'s marbles that move now"
                )
            return self._verdict_against(
                state, "AGG-7.3", "a legal move exists, so passing is not allowed"
            )
        if isinstance(move, Step):
            if legal:
                return self._legal_step_verdict(state, move)
            if move.player != state.actor:
                return self._verdict_against(
                    state, "AGG-1.3", f"it is {self.colours[state.actor]}'s marbles that move now"
                )
            return self.explain_attempt(state, move.frm, move.to)
        return self._verdict_against(state, "AGG-1.3", f"{move} is not an Aggravation move")

    def _verdict_against(self, state: Any, clause_id: str, reason: str) -> Verdict:
        return Verdict(False, (self.clause(clause_id),), reason=reason)

    def _legal_step_verdict(self, state: AggravationState, move: Step) -> Verdict:
        actor = state.actor
        dest = self.board.index[move.to]
        clauses = []
        effects = []
        if move.route == "start":
            clauses.append("AGG-3.1")
            effects.append(
                Effect("start", "AGG-3.1", f"{move.colour} starts a marble", move.to, actor)
            )
        elif move.route == "star":
            clauses += ["AGG-6.1", "AGG-6.2"]
        elif move.route == "centre":
            clauses.append("AGG-6.3")
        elif move.route == "centre exit":
            clauses.append("AGG-6.4")
        else:
            clauses.append("AGG-4.1")
        if state.dice in (1, 6) and self._start_or_move(state):
            clauses.append("AGG-4.3")  # this 1 or 6 could start a marble or move one
        if dest in self._home[actor]:
            if self.board.index[move.frm] in self._home[actor]:
                clauses.append("AGG-I.4")
            else:
                clauses += ["AGG-7.1", "AGG-5.2"]
                effects.append(
                    Effect("home", "AGG-7.1", f"{move.colour} marble safe in HOME", move.to, actor)
                )
        for q, theirs in enumerate(state.pieces):
            if q != actor and dest in theirs:
                key = "AGG-3.3" if move.route == "start" else "AGG-5.1"
                if self.side_of[q] is self.side_of[actor]:
                    key = "AGG-P.1"
                clauses += [key, "AGG-I.3"]
                effects.append(
                    Effect(
                        "capture",
                        key,
                        f"{self.colours[q]} marble on {move.to} aggravated back to BASE",
                        move.to,
                        q,
                    )
                )
        after = self.apply(state, move)
        if after.phase == "over":
            win = self._win_clause(actor)
            effects.append(Effect("win", win, self._win_text(actor), None, actor))
        else:
            effects += self._extra_turn_effects(state, passed=False)
        if actor != state.to_move:
            clauses.append("AGG-P.2")
        reason = f"{move.colour} moves {move.frm} to {move.to}"
        return Verdict(True, self._cite(clauses), tuple(effects), reason)

    def _cite(self, ids: list[str]) -> tuple[Clause, ...]:
        """The clauses `ids`; in team play a partnership rule also cites AGG-T.1, which makes
        the partnership rules the teams' rules."""
        if self.options["play"] == "teams" and any(c.startswith("AGG-P.") for c in ids):
            ids = [*ids, "AGG-T.1"]
        return tuple(self.clause(c) for c in ids)

    def _start_or_move(self, state: AggravationState) -> bool:
        """Whether the roll leaves a choice between starting a marble and moving one."""
        moves = [m for m in self.legal_moves(state) if isinstance(m, Step)]
        starts = sum(m.route == "start" for m in moves)
        return 0 < starts < len(moves)

    def _extra_turn_effects(self, state: AggravationState, passed: bool) -> list[Effect]:
        if state.dice == 6 and (not passed or self.options["extra_turn_after_pass"]):
            colour = self.colours[state.to_move]
            clause = "AGG-I.2" if passed else "AGG-2.1"
            return [
                Effect(
                    "extra_turn",
                    clause,
                    f"{colour} rolled a 6 and rolls again",
                    None,
                    state.to_move,
                )
            ]
        return []

    def _win_text(self, p: int) -> str:
        side = self.side_of[p]
        return " and ".join(self.colours[q] for q in side) + " win"

    def explain_attempt(self, state: AggravationState, frm: str, to: str) -> Verdict:
        """Why the mover's marble cannot go from `frm` to `to` with this roll."""
        if state.phase != "move":
            return self._verdict_against(state, "AGG-2.2", "roll the die before moving")
        actor, dice = state.actor, state.dice
        colour = self.colours[actor]
        index = self.board.index
        if frm not in index or to not in index:
            return self._verdict_against(state, "AGG-4.1", f"{frm}->{to} is not on this board")
        own = state.pieces[actor]
        bits = self._bits
        mask = 0
        for s in own:
            mask |= bits[s]
        target = index[to]
        if frm in self._base_ids[actor]:
            if target != self._start[actor]:
                return self._verdict_against(
                    state, "AGG-3.1", f"a {colour} marble leaving BASE must go to its START hole"
                )
            if dice not in (1, 6):
                return self._verdict_against(
                    state, "AGG-3.1", f"a marble starts only on a 1 or a 6; the roll is {dice}"
                )
            if BASE not in own:
                return self._verdict_against(
                    state, "AGG-3.1", f"no {colour} marble is left in BASE to start"
                )
            if target in own:
                return self._verdict_against(
                    state, "AGG-3.2", f"your own marble is already on START ({to})"
                )
            return self._verdict_against(
                state, "AGG-3.1", f"a start is written {self._base_ids[actor][0]}->{to}"
            )
        origin = index[frm]
        if origin not in own:
            return self._verdict_against(state, "AGG-1.3", f"no {colour} marble was on {frm}")
        if target in (index[b] for b in self._base_ids[actor]):
            return self._verdict_against(
                state, "AGG-5.1", "a marble goes back to BASE only when it is aggravated"
            )
        for q in range(self.players):
            if q != actor and (to in self._base_ids[q] or target in self._home[q]):
                return self._verdict_against(
                    state,
                    "AGG-5.2",
                    f"{to} is in {self.colours[q]}'s BASE or HOME: no other marble goes there, "
                    "and marbles there are never aggravated",
                )
        table = self._opts[actor][origin]
        for dest, path, _move in table[dice]:
            if dest == target and path & mask:
                if bits[dest] & mask:
                    reason = f"your own marble is on {to}"
                else:
                    reason = f"your own marble is in the way between {frm} and {to}"
                return self._verdict_against(state, "AGG-4.2", reason)
        counts = [d for d in range(1, 7) if any(e[0] == target for e in table[d])]
        centre = self._centre
        if target == centre:
            return self._verdict_against(
                state,
                "AGG-6.3",
                "the centre is entered by exact count from a star hole (from a star hole "
                f"itself only with a 1); the roll is {dice}",
            )
        if origin == centre:
            return self._verdict_against(
                state,
                "AGG-6.4",
                f"a marble leaves the centre only with a 1, onto a star hole; the roll is {dice}",
            )
        if target in self._home[actor]:
            return self._verdict_against(
                state, "AGG-7.1", f"HOME is entered only by exact count; the roll is {dice}"
            )
        ahead = self._track_ahead(origin, target)
        pos = self._route_pos[actor]
        if 0 < ahead <= 6 and origin in pos and pos[target] < pos[origin]:
            last = len(self._trackset) - 1
            entry = self._ids[next(s for s, i in pos.items() if i == last)]
            return self._verdict_against(
                state,
                "AGG-I.1",
                f"a {colour} marble turns into HOME after {entry}; it never goes past its START",
            )
        if origin in self._stars and self._rides_past_home_star(actor, origin, target, dice):
            home_star = self._ids[self._home_star[actor]]
            return self._verdict_against(
                state, "AGG-6.2", f"the star ride ends at your home star {home_star}"
            )
        if counts:
            return self._verdict_against(
                state, "AGG-4.1", f"that is {counts[0]} holes, but the roll is {dice}"
            )
        if target in pos and origin in pos and pos[target] > pos[origin]:
            steps = pos[target] - pos[origin]
            return self._verdict_against(
                state, "AGG-4.1", f"that is {steps} holes, but the roll is {dice}"
            )
        return self._verdict_against(
            state, "AGG-4.1", f"{frm} to {to} is not a clockwise move along the path"
        )

    def _track_ahead(self, origin: int, target: int) -> int:
        """Holes clockwise along the track from origin to target; 0 unless both are track."""
        if origin not in self._trackset or target not in self._trackset:
            return 0
        return (self._trackset[target] - self._trackset[origin]) % len(self._trackset)

    def _rides_past_home_star(self, actor: int, origin: int, target: int, dice: int) -> bool:
        """Whether a star ride from `origin` that ignored the home star would reach `target`."""
        track = self._track_holes
        order = [s for s in track if s in self._stars]
        n = order.index(origin)
        stars = order[n + 1 :] + order[:n]
        home = self._home_star[actor]
        for k in range(1, min(dice, len(stars)) + 1):
            if home in stars[: k - 1]:
                at = track.index(stars[k - 1])
                if track[(at + dice - k) % len(track)] == target:
                    return True
        return False

    def outcome(self, state: AggravationState) -> Outcome | None:
        if state.phase != "over":
            return None
        actor = state.actor
        clause = self.clause(self._win_clause(actor))
        return Outcome(self.side_of[actor], clause, self._win_text(actor))

    def _win_clause(self, p: int) -> str:
        if len(self.side_of[p]) == 1:
            return "AGG-8.1"
        return "AGG-T.3" if self.options["play"] == "teams" else "AGG-P.3"

    # Inference ------------------------------------------------------------------------------
    def infer(self, state: AggravationState, placement: Placement) -> Inference:
        """As the base class; a capture seen with the aggravated marble still in its owner's
        hand also cites AGG-I.3 and reminds the table to put it back in BASE."""
        result = super().infer(state, placement)
        if result.kind != "legal" or result.verdict is None:
            return result
        captured = [e for e in result.verdict.effects if e.kind == "capture"]
        after = self.canonical(self.placement(self.apply(state, result.move)))
        if not captured or self.canonical(placement) == after:
            return result
        reminders = tuple(
            Effect(
                "reminder",
                "AGG-I.3",
                f"the {self.colours[e.player]} marble is still in hand: put it back in "
                f"{self.colours[e.player]}'s BASE",
                None,
                e.player,
            )
            for e in captured
        )
        verdict = replace(result.verdict, effects=result.verdict.effects + reminders)
        return replace(result, verdict=verdict)

    def _moved_out_of_phase(self, state: Any, expected: tuple, seen: tuple) -> Inference:
        """Before anyone has rolled in the roll-off, every marble belongs in BASE (AGG-1.1)."""
        result = super()._moved_out_of_phase(state, expected, seen)
        if state.phase != "opening" or result.verdict is None:
            return result
        verdict = Verdict(
            False,
            self._cite(["AGG-1.1", "AGG-1.2"]),
            reason="every marble stays in BASE until the roll-off has decided who starts",
        )
        return replace(result, verdict=verdict, reason=verdict.reason)

    # What the camera should see ---------------------------------------------------------------
    def placement(self, state: AggravationState) -> dict[str, str]:
        ids = self._ids
        seen: dict[str, str] = {}
        for p, marbles in enumerate(state.pieces):
            colour = self.colours[p]
            base = 0
            for s in marbles:
                if s == BASE:
                    seen[self._base_ids[p][base]] = colour
                    base += 1
                else:
                    seen[ids[s]] = colour
        return seen

    def groups(self) -> tuple[tuple[str, ...], ...]:
        return tuple(self._base_ids)
