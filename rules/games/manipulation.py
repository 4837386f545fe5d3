"""Manipulation: four colours race around a square lane, through a centre diamond, into home.

Board design (the rulebook's figures are missing; see ../shared/rulebooks/BOARDS.md; the whole
design is recorded as the interpretation clause MANIP-I.1):

* The outer lane is a square ring of 48 spaces, 13 to a side with shared corners (a 13 x 13
  grid's border), run clockwise. Lane ids are o01..o48 clockwise from the top-left corner.
* The four corners are the Starting Positions: red top-left (o01), yellow top-right (o13),
  green bottom-right (o25), blue bottom-left (o37). Each colour's Holding Position (four
  spaces, red-hold1..4 and so on) sits in the board corner just outside its Starting Position.
* The middle space of each side is a Beast (o07, o19, o31, o43): 6 spaces on from a Starting
  Position and 6 more to the next one. Its Star-Beast (sb07, sb19, sb31, sb43) sits directly
  inward of it, one grid step away.
* The centre diamond is a 5 x 5 grid turned 45 degrees whose four corners are the Star-Beasts
  and whose middle is The World ("world"): 25 spaces, the other twenty "d<i><j>" (i, j = 0..4
  along the two printed grid directions). Inside the diamond a token moves along the printed
  lines; a Star-Beast is four steps from The World.
* Each colour's Home Refuge Entrance (red-entry, ...) sits diagonally inside its corner, next
  to the last lane space of that colour's lap; its Home Refuge area (red-home1..4, 1 nearest
  the entrance) runs from there along the inside of the lane toward the next Star-Beast.
* A token's lap: Starting Position, 47 lane spaces clockwise, then its Home Refuge Entrance and
  home (or a short cut through the diamond). It never passes its own Starting Position again.

Positions are in millimetres on a 380 mm square board, grid pitch 18 mm. Each colour's dice
tray runs along the board edge in front of that colour's player (red top, yellow right, green
bottom, blue left), between the corner markers (ArUco ids 8, 9, 10, 11).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ..clauses import Clause, Effect, Inference, Outcome, Verdict
from ..errors import OptionError
from ..game import Game, _changed, _moves_of
from ..geometry import Board, Region, Space
from ..moves import Decline, Move, Pass, Roll, Step
from ..options import Option
from ..registry import register
from ..rolloff import record_roll

# --- clauses ------------------------------------------------------------------------------

CLAUSES = (
    Clause(
        "MANIP-1.1",
        "Four sets of four tokens",
        "Red, yellow, green and blue each have four tokens. A set begins with three tokens in "
        "its Holding Position and one on its Starting Position.",
        "Equipment; setup",
    ),
    Clause(
        "MANIP-1.2",
        "Ways to play",
        "Four players play separately, or as two partnerships sitting opposite (red with "
        "green, yellow with blue). Two players play tournament mode: player 1 runs red and "
        "green, player 2 yellow and blue.",
        "Setup",
        option="play",
    ),
    Clause(
        "MANIP-1.3",
        "Opening roll-off",
        "Everyone rolls; the highest roll plays first. Players tied for the highest roll "
        "throw again among themselves.",
        "To start the game",
    ),
    Clause(
        "MANIP-1.4",
        "First move uses the winning roll",
        "The winner of the roll-off does not roll again: the winning roll is their first "
        "move, counted from the Starting Position.",
        "To start the game",
        interpretation=True,
        option="opening",
    ),
    Clause(
        "MANIP-1.5",
        "Turns go to the left",
        "Play passes to the player on the left, clockwise. Only the player whose turn it is "
        "moves, and only their own tokens.",
        "To start the game",
    ),
    Clause(
        "MANIP-1.6",
        "Each player's own die and tray",
        "Every player has a die and rolls it into the tray in front of their seat; the "
        "referee reads the roll from the tray of the player whose turn it is.",
        "Equipment",
        interpretation=True,
    ),
    Clause(
        "MANIP-2.1",
        "Roll before moving",
        "A turn starts with a roll of the die; no token moves before it.",
        "To start the game",
    ),
    Clause(
        "MANIP-2.2",
        "The six rule",
        "A 6 is used in full: a token moves six spaces, or one comes out (MANIP-3.1). When a "
        "token did move six spaces, the same player may roll again, or decline and pass the "
        "turn on: the rulebook says 'may' (house rule: the extra roll is compulsory).",
        "To start the game",
        interpretation=True,
        option="extra_roll",
    ),
    Clause(
        "MANIP-2.3",
        "Bringing out with a 6",
        "Bringing a token out of the Holding Position with a 6 does not move it six spaces, "
        "so it does not earn another roll.",
        "To start the game; bring out playing tokens",
        interpretation=True,
        option="six_bring_out",
    ),
    Clause(
        "MANIP-2.4",
        "Sit-out",
        "When no token can use the full value rolled, the player sits out and the turn "
        "passes to the left. A 6 that could not be used gives no second roll.",
        "Manipulative sit-out",
    ),
    Clause(
        "MANIP-2.5",
        "Moving is compulsory",
        "If some token can use the roll, the player must move one; sitting out is only for "
        "a roll that cannot be used.",
        "Manipulative sit-out",
        interpretation=True,
    ),
    Clause(
        "MANIP-3.1",
        "Bring out on 1 or 6",
        "A token leaves the Holding Position only onto its own Starting Position, and only "
        "with a 1 or a 6 (the one exception: attacking back onto its entrance, MANIP-8.5).",
        "Bring out playing tokens",
    ),
    Clause(
        "MANIP-3.2",
        "Bringing out onto an opponent",
        "A token brought out onto its Starting Position while an opponent's token stands "
        "there attacks it.",
        "Bring out playing tokens; manipulative attack",
        interpretation=True,
    ),
    Clause(
        "MANIP-4.1",
        "Full count, clockwise",
        "On the outer lane a token moves clockwise exactly the number rolled, counting every "
        "space, empty or not.",
        "To start the game; moving the tokens",
    ),
    Clause(
        "MANIP-4.2",
        "No passing your own colour",
        "A token may not pass, jump over or land on a token of its own colour.",
        "Moving the tokens",
    ),
    Clause(
        "MANIP-4.3",
        "Tournament: your other colour",
        "In tournament mode a token may pass the player's other colour but may not land on it.",
        "Moving the tokens (tournament mode)",
        interpretation=True,
    ),
    Clause(
        "MANIP-5.1",
        "Attack",
        "Landing by exact count on an opponent's token sends that token back to its Holding "
        "Position. Tokens go back to holding only this way.",
        "Manipulative attack",
    ),
    Clause(
        "MANIP-5.2",
        "Set-back",
        "In partnership play a token may land on a partner's token only when no other move "
        "can be made with the roll; the partner's token then goes back to its Holding "
        "Position.",
        "Manipulative set-back",
        interpretation=True,
        option="setback",
    ),
    Clause(
        "MANIP-6.1",
        "Safety areas",
        "A token on a Beast or a Star-Beast cannot be attacked or set back. A move whose "
        "count ends on a Beast held by another colour goes one space further instead (never "
        "past a token of its own colour, MANIP-4.2).",
        "Safety areas",
    ),
    Clause(
        "MANIP-7.1",
        "Entering the diamond",
        "The centre diamond is entered only from a Beast: a token that is standing on a "
        "Beast moves onto that Beast's Star-Beast with a roll of 1.",
        "Accessing the center diamond area",
    ),
    Clause(
        "MANIP-7.2",
        "Blocking",
        "No token may enter an occupied Star-Beast, so a token on a Star-Beast blocks the "
        "way into the diamond from the Beast below it.",
        "Manipulative blocking",
        interpretation=True,
    ),
    Clause(
        "MANIP-7.3",
        "Moving in the diamond",
        "Inside the diamond a token moves the full count along the printed lines, turning "
        "as it likes, but never through the same space twice in one move.",
        "Moving within the center diamond area",
        interpretation=True,
    ),
    Clause(
        "MANIP-7.4",
        "Leaving the diamond",
        "A token may leave the diamond through any Star-Beast: the step onto that Beast "
        "counts as one space, and the rest of the roll continues clockwise on the lane. It may "
        "pass over another colour's token on that Star-Beast on its way out.",
        "Exiting the center diamond area",
        interpretation=True,
    ),
    Clause(
        "MANIP-7.5",
        "The World",
        "A token that ends its move on The World goes at once to its own Home Refuge "
        "Entrance (attacking an opponent there; not possible while its own colour holds it).",
        "The World symbol",
        interpretation=True,
    ),
    Clause(
        "MANIP-8.1",
        "Home by exact count",
        "Home is entered only by exact count, to the deepest free home space: from the Home "
        "Refuge Entrance the roll must equal the number of home spaces still free.",
        "Home refuge entrance and area",
        interpretation=True,
        option="home_entry",
    ),
    Clause(
        "MANIP-8.2",
        "Home from the lane",
        "Coming round the lane, a token goes into home through its Home Refuge Entrance "
        "without having to stop on it; it never passes its own Starting Position.",
        "Home refuge entrance and area",
    ),
    Clause(
        "MANIP-8.3",
        "Partner's entrance",
        "A count that ends on a partner's Starting Position may end on that partner's Home "
        "Refuge Entrance instead, and the other way round. In tournament mode the same goes "
        "for the player's other colour.",
        "Home refuge entrance, 1. partners",
        interpretation=True,
    ),
    Clause(
        "MANIP-8.4",
        "Opponent's entrance",
        "A count that ends on an opponent's Starting Position may end on that opponent's Home "
        "Refuge Entrance only to attack that opponent's token there; otherwise it ends on the "
        "Starting Position.",
        "Home refuge entrance, 2. an opposing player",
    ),
    Clause(
        "MANIP-8.5",
        "Attack back with a 1",
        "While an opponent's token sits on your Home Refuge Entrance, a roll of 1 may bring a "
        "token from your Holding Position straight onto it, attacking it. A 6 only brings a "
        "token out onto the Starting Position.",
        "Special playing rule",
    ),
    Clause(
        "MANIP-8.6",
        "Leaving another's entrance",
        "A token standing on another colour's Home Refuge Entrance moves on as if it stood on "
        "that colour's Starting Position.",
        "Home refuge entrance",
        interpretation=True,
    ),
    Clause(
        "MANIP-9.1",
        "Winning alone",
        "Playing separately, the first player with all four tokens in their Home Refuge area wins.",
        "Winning the game",
    ),
    Clause(
        "MANIP-9.2",
        "Winning as partners",
        "Partners win together once both have all their tokens in their Home Refuge areas.",
        "Winning the game",
    ),
    Clause(
        "MANIP-9.3",
        "Winning a tournament",
        "In tournament mode the first player with both colour sets in their Home Refuge "
        "areas wins.",
        "Winning the game",
    ),
    Clause(
        "MANIP-9.4",
        "Partner's assistance",
        "Once one partner has every token home, that partner keeps taking turns and moves the "
        "other partner's tokens with their rolls.",
        "Partners assistance",
    ),
    Clause(
        "MANIP-I.1",
        "The board as designed",
        "48 lane spaces, a Beast 6 spaces after each Starting Position, its Star-Beast one "
        "step inward, a 25-space diamond around The World, an entrance and four home spaces "
        "per colour (the rulebook's figures are missing).",
        "Equipment",
        interpretation=True,
    ),
    Clause(
        "MANIP-I.2",
        "Attacked token back to holding",
        "The referee accepts an attacked or set-back token either already back in its Holding "
        "Position or still in its owner's hand, and reminds the table to put it back.",
        "Manipulative attack",
        interpretation=True,
    ),
)

OPTIONS = (
    Option(
        "play",
        "auto",
        ("auto", "separate", "partners", "tournament"),
        "auto: four players play separately, two play tournament mode; or name the mode "
        "(partners needs 4 players, tournament 2).",
        "MANIP-1.2",
    ),
    Option(
        "opening",
        "roll-off",
        ("roll-off", "first-seat"),
        "roll-off: the highest roll plays first and moves by it; first-seat: red starts "
        "with an ordinary roll.",
        "MANIP-1.4",
    ),
    Option(
        "extra_roll",
        "optional",
        ("optional", "compulsory"),
        "After moving six: the player may roll again or decline (optional, the rulebook's "
        "'may'), or must roll again (compulsory).",
        "MANIP-2.2",
    ),
    Option(
        "six_bring_out",
        False,
        (False, True),
        "Whether bringing a token out with a 6 also earns another roll.",
        "MANIP-2.3",
    ),
    Option(
        "setback",
        "last-resort",
        ("last-resort", "any-time"),
        "last-resort: landing on a partner only when nothing else can move; any-time: it is "
        "an ordinary choice.",
        "MANIP-5.2",
    ),
    Option(
        "home_entry",
        "exact-fill",
        ("exact-fill", "any-space"),
        "exact-fill: home only to the deepest free space; any-space: any free home space by "
        "exact count, moving deeper later by exact count.",
        "MANIP-8.1",
    ),
)

COLOURS = ("red", "yellow", "green", "blue")  # clockwise from the top-left corner
TOKENS = 4
HOME = 4  # spaces in each Home Refuge area
LANE = 48
SIDE = 12  # lane spaces from one Starting Position to the next
BEAST_AT = 6  # lane spaces from a Starting Position to the Beast
HOLD = -1  # a token in its Holding Position (tokens there are interchangeable)

_TABLES: dict[tuple, tuple] = {}  # movement tables by (seat of each colour, home_entry)

# Relations between colours (rel[c][o]): how a token of colour c treats a token of colour o.
OWN, ALLY, PARTNER, OPPONENT = 0, 1, 2, 3

# --- board ---------------------------------------------------------------------------------


def build_board(owners: tuple[int, ...] = (0, 1, 2, 3), home: int = HOME) -> Board:
    """The Manipulation board; `owners[c]` is the seat playing colour c (see the docstring)."""
    size, pitch = 380.0, 18.0
    cx = cy = size / 2
    q = 1.25 * pitch  # diamond lattice: the corners land 5 pitches from the centre

    def grid(dx: float, dy: float) -> tuple[float, float]:
        return cx + dx * pitch, cy + dy * pitch

    def turn(c: int, dx: float, dy: float) -> tuple[float, float]:
        """Offsets drawn for red (top-left), turned clockwise to colour c's corner."""
        for _ in range(c):
            dx, dy = -dy, dx
        return dx, dy

    spaces: list[Space] = []
    links: list[tuple[str, str]] = []
    cells = [(g, 0) for g in range(13)] + [(12, g) for g in range(1, 13)]
    cells += [(g, 12) for g in range(11, -1, -1)] + [(0, g) for g in range(11, 0, -1)]
    lane = [f"o{k:02d}" for k in range(1, LANE + 1)]
    for k, (gx, gy) in enumerate(cells):
        owner = None
        if k % SIDE == 0:
            kind, label, owner = "start", "S", owners[k // SIDE]
        elif k % SIDE == BEAST_AT:
            kind, label = "beast", "B"
        else:
            kind, label = "track", ""
        spaces.append(Space(lane[k], kind, *grid(gx - 6, gy - 6), owner, label))
    links += [(lane[k], lane[(k + 1) % LANE]) for k in range(LANE)]

    def lattice(i: int, j: int) -> str:
        corners = {(4, 0): 7, (4, 4): 19, (0, 4): 31, (0, 0): 43}
        if (i, j) in corners:
            return f"sb{corners[i, j]:02d}"
        return "world" if (i, j) == (2, 2) else f"d{i}{j}"

    for i in range(5):
        for j in range(5):
            sid = lattice(i, j)
            kind = "starbeast" if sid.startswith("sb") else "world" if sid == "world" else "diamond"
            label = {"starbeast": "SB", "world": "W"}.get(kind, "")
            spaces.append(Space(sid, kind, cx + q * (i + j - 4), cy + q * (j - i), None, label))
            if i < 4:
                links.append((sid, lattice(i + 1, j)))
            if j < 4:
                links.append((sid, lattice(i, j + 1)))
    for beast in (7, 19, 31, 43):
        links.append((f"o{beast:02d}", f"sb{beast:02d}"))
    for c, colour in enumerate(COLOURS):
        owner = owners[c]
        entry = f"{colour}-entry"
        spaces.append(Space(entry, "entrance", *grid(*turn(c, -5, -5)), owner, "E"))
        links.append((lane[(c * SIDE - 1) % LANE], entry))
        previous = entry
        for h in range(1, home + 1):
            sid = f"{colour}-home{h}"
            spaces.append(Space(sid, "home", *grid(*turn(c, -5 + h, -5)), owner, str(h)))
            links.append((previous, sid))
            previous = sid
        for h, (hx, hy) in enumerate(((-142, -142), (-124, -142), (-142, -124), (-124, -124))):
            x, y = turn(c, hx, hy)
            spaces.append(Space(f"{colour}-hold{h + 1}", "hold", cx + x, cy + y, owner))
    trays = (
        Region("tray-red", 46.0, 6.0, 288.0, 34.0, owners[0]),
        Region("tray-yellow", size - 40.0, 46.0, 34.0, 288.0, owners[1]),
        Region("tray-green", 46.0, size - 40.0, 288.0, 34.0, owners[2]),
        Region("tray-blue", 6.0, 46.0, 34.0, 288.0, owners[3]),
    )
    return Board(
        name="manipulation",
        width=size,
        height=size,
        spaces=tuple(spaces),
        links=tuple(links),
        regions=trays,
        hole_radius=5.0,
        token_radius=6.5,
        seat_colours=COLOURS,
        marker_ids=(8, 9, 10, 11),
    )


# --- state ---------------------------------------------------------------------------------


class ManipulationState(NamedTuple):
    """Whose turn, what is expected next, and where every token is.

    pieces[c] is colour c's four tokens (red, yellow, green, blue) as sorted board-space
    indices, HOLD (-1) for a token in its Holding Position. to_move is the seat rolling; actor
    is the seat whose tokens move (the partner's, once a partner's tokens are all home).
    rolloff holds the opening roll-off: 0 still to roll, -1 out of it, else the value rolled.
    In the roll-off everyone throws at once: any seat still to roll may, and to_move is the
    first of them (the seat the roll button throws for). bonus is 1 while to_move may roll
    again after moving six (MANIP-2.2).
    """

    to_move: int
    phase: str  # opening | roll | move | over
    dice: int  # the value rolled this turn, 0 before the roll
    pieces: tuple[tuple[int, ...], ...]
    actor: int
    rolloff: tuple[int, ...] = ()
    bonus: int = 0


# --- the game ------------------------------------------------------------------------------


@register
class Manipulation(Game):
    name = "manipulation"
    title = "Manipulation"
    player_counts = (2, 4)
    default_players = 4
    option_specs = OPTIONS
    clause_list = CLAUSES
    state_type = ManipulationState
    turn_clause = "MANIP-1.5"
    roll_first_clause = "MANIP-2.1"

    def __init__(self, players: int, options: dict | None = None) -> None:
        self._set_mode(players, options)
        super().__init__(players, options)
        self._precompute()

    # Board and seats --------------------------------------------------------------------
    def _set_mode(self, players: int, options: dict | None) -> None:
        play = (options or {}).get("play", "auto") if isinstance(options, dict) else "auto"
        if players == 2 and play in ("auto", "tournament"):
            self.mode = "tournament"
        elif players == 4 and play in ("auto", "separate", "partners"):
            self.mode = "separate" if play == "auto" else play
        elif players in self.player_counts and play in OPTIONS[0].choices:
            allowed = "'auto', 'tournament'" if players == 2 else "'auto', 'separate', 'partners'"
            raise OptionError(
                f"manipulation option 'play' cannot be {play!r} with {players} players; "
                f"allowed: {allowed}"
            )
        else:
            self.mode = "separate"  # the base class reports the bad player count or option
        if self.mode == "tournament":
            self.seat_of = (0, 1, 0, 1)
        else:
            self.seat_of = (0, 1, 2, 3)
        self.colours_of = tuple(
            tuple(c for c in range(4) if self.seat_of[c] == s) for s in range(max(self.seat_of) + 1)
        )
        if self.mode == "separate":
            self.side = tuple((c,) for c in range(4))
        else:
            self.side = tuple((c, (c + 2) % 4) if c < 2 else ((c + 2) % 4, c) for c in range(4))
        kinds = {"separate": OPPONENT, "partners": PARTNER, "tournament": ALLY}
        self.rel = tuple(
            tuple(
                OWN if o == c else kinds[self.mode] if (o - c) % 4 == 2 else OPPONENT
                for o in range(4)
            )
            for c in range(4)
        )

    def build_board(self) -> Board:
        return build_board(self.seat_of, HOME)

    def seat_colours(self) -> tuple[str, ...]:
        return tuple(COLOURS[cs[0]] for cs in self.colours_of)

    def _precompute(self) -> None:
        """Movement tables from the geometry, so a move never walks the board."""
        board = self.board
        index = board.index
        ids = [s.id for s in board.spaces]
        self._ids = ids
        n = len(ids)
        self._bits = [1 << i for i in range(n)]
        lane = [index[f"o{k:02d}"] for k in range(1, LANE + 1)]
        self._lane = lane
        self._lane_index = {s: k for k, s in enumerate(lane)}
        self._beast = {
            lane[k * SIDE + BEAST_AT]: index[f"sb{k * SIDE + BEAST_AT + 1:02d}"] for k in range(4)
        }
        self._star_beasts = frozenset(self._beast.values())
        self._beast_of = {sb: b for b, sb in self._beast.items()}
        self._world = index["world"]
        self._start = tuple(lane[c * SIDE] for c in range(4))
        self._start_colour = {s: c for c, s in enumerate(self._start)}
        self._entry = tuple(index[f"{col}-entry"] for col in COLOURS)
        self._entry_colour = {e: c for c, e in enumerate(self._entry)}
        self._home = tuple(
            tuple(index[f"{col}-home{h}"] for h in range(1, HOME + 1)) for col in COLOURS
        )
        self._home_set = tuple(frozenset(h) for h in self._home)
        self._hold_ids = tuple(
            tuple(f"{col}-hold{h}" for h in range(1, TOKENS + 1)) for col in COLOURS
        )
        self._hold_index = {index[h]: c for c, hs in enumerate(self._hold_ids) for h in hs}
        diamond = [s for s in board.spaces if s.kind in ("diamond", "starbeast", "world")]
        self._diamond = frozenset(index[s.id] for s in diamond)
        neighbours: dict[int, list[int]] = {s: [] for s in self._diamond}
        for a, b in board.links:
            ia, ib = index[a], index[b]
            if ia in self._diamond and ib in self._diamond:
                neighbours[ia].append(ib)
                neighbours[ib].append(ia)
        self._neighbours = neighbours
        key = (self.seat_of, self.options["home_entry"])
        if key not in _TABLES:  # immutable, so shared by every game with the same seats
            self._walks = self._diamond_walks()
            self._step_cache: dict[tuple, Step] = {}
            self._routes: list[list[int]] = []
            self._pos: list[dict[int, int]] = []
            tables = [self._table(c) for c in range(4)]
            _TABLES[key] = (tables, self._routes, self._pos)
        self._tables, self._routes, self._pos = _TABLES[key]
        self._rolls = [
            [Roll(s, self.colours[s], v) for v in range(1, 7)] for s in range(self.players)
        ]
        self._passes = [Pass(s, self.colours[s]) for s in range(self.players)]
        self._declines = [Decline(s, self.colours[s]) for s in range(self.players)]
        self._rolls_or_decline = [
            (*rolls, decline) for rolls, decline in zip(self._rolls, self._declines, strict=True)
        ]
        self._last: tuple[Any, list] = (None, [])
        self._where: tuple[tuple, dict[int, int], tuple[int, ...]] = ((), {}, ())
        self._declinable = self._offers_decline()

    def _diamond_walks(self) -> dict[int, list[tuple[int, tuple[int, ...]]]]:
        """Every simple walk of 1..6 steps inside the diamond: origin -> [(end, inner path)]."""
        walks: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
        nb = self._neighbours
        for origin in self._diamond:
            found: list[tuple[int, tuple[int, ...]]] = []
            stack = [(origin, ())]
            while stack:
                at, path = stack.pop()
                for nxt in nb[at]:
                    if nxt != origin and nxt not in path:
                        found.append((nxt, path))
                        if len(path) < 5:
                            stack.append((nxt, path + (nxt,)))
            walks[origin] = found
        return walks

    def _step(self, c: int, frm: int, to: int, tag: str) -> Step:
        key = (c, frm, to, tag)
        step = self._step_cache.get(key)
        if step is None:
            frm_id = self._hold_ids[c][0] if frm == HOLD else self._ids[frm]
            step = Step(self.seat_of[c], COLOURS[c], frm_id, self._ids[to], tag)
            self._step_cache[key] = step
        return step

    def _table(self, c: int) -> dict[int, tuple[tuple, ...]]:
        """{origin or HOLD: (entries for die 0..6)}; see `_entry` for an entry's fields."""
        lane = self._lane
        first = c * SIDE
        route = [lane[(first + i) % LANE] for i in range(LANE)]
        route += [self._entry[c], *self._home[c]]
        pos = {s: i for i, s in enumerate(route)}
        self._routes.append(route)
        self._pos.append(pos)
        bits = self._bits
        last = len(route) - 1

        def lane_entry(frm: int, i: int, d: int, prefix: int, tag: str) -> tuple | None:
            """Count d clockwise from route position i (path mask `prefix` already passed)."""
            j = i + d
            if j > last:
                return None
            mask = prefix
            for s in route[i + 1 : j]:
                mask |= bits[s]
            return self._plan(c, frm, route[j], mask, tag, route[j + 1] if j < last else -1)

        table: dict[int, tuple] = {}
        by_die: list[list] = [[] for _ in range(7)]
        for d in (1, 6):
            by_die[d].append(self._plan(c, HOLD, self._start[c], 0, "bring"))
        by_die[1].append(self._plan(c, HOLD, self._entry[c], 0, "attack-back"))
        table[HOLD] = tuple(tuple(e) for e in by_die)
        origins = [(s, i) for s, i in pos.items()]
        origins += [(self._entry[x], pos[self._start[x]]) for x in range(4) if x != c]
        for frm, i in origins:
            by_die = [[] for _ in range(7)]
            for d in range(1, 7):
                entry = lane_entry(frm, i, d, 0, "")
                if entry is not None:
                    by_die[d].append(entry)
            if frm in self._beast:
                by_die[1].append(self._plan(c, frm, self._beast[frm], 0, "enter"))
            table[frm] = tuple(tuple(e) for e in by_die)
        for frm in self._diamond:
            if frm == self._world:
                continue
            options: list[dict] = [{} for _ in range(7)]

            def add(d: int, entry: tuple | None, options: list = options) -> None:
                if entry is None:
                    return
                key = entry[:2] + entry[3:5]  # tag, dest, need, beyond: all but the path
                masks = options[d].setdefault(key, [])
                path = entry[2]
                if any(m & path == m for m, _ in masks):
                    return  # an existing path passes no more spaces than this one
                masks[:] = [(m, e) for m, e in masks if m & path != path] + [(path, entry)]

            exits = [(frm, ())] if frm in self._star_beasts else []
            for end, inner in self._walks[frm]:
                k = len(inner) + 1
                mask = 0
                for s in inner:
                    mask |= bits[s]
                if end == self._world:
                    add(k, self._plan(c, frm, self._entry[c], mask, "world", -1))
                else:
                    add(k, self._plan(c, frm, end, mask, "diamond", -1))
                if end in self._star_beasts:
                    exits.append((end, inner + (end,)))
            for sb, inner in exits:
                beast = self._beast_of[sb]
                mask = 0
                for s in inner:
                    mask |= bits[s]
                for d in range(len(inner) + 1, 7):
                    rest = d - len(inner) - 1
                    if rest == 0:
                        nxt = route[pos[beast] + 1]
                        add(d, self._plan(c, frm, beast, mask, "exit", nxt))
                    else:
                        add(d, lane_entry(frm, pos[beast], rest, mask | bits[beast], "exit"))
            table[frm] = tuple(
                tuple(e for masks in options[d].values() for _, e in masks) for d in range(7)
            )
        return table

    def _plan(self, c: int, frm: int, dest: int, path: int, tag: str, nxt: int = -1) -> tuple:
        """One way for a colour-c token to go: (tag, dest, path mask, need mask, beyond dest,
        beyond path mask, alternative entrance, step, step beyond, step to the alternative).

        `need`: home spaces that must already hold own tokens (exact-fill home entry);
        `beyond`: when dest is a Beast, the next lane space (used when the Beast is occupied);
        `alt`: when dest is another colour's Starting Position, that colour's entrance.
        """
        bits = self._bits
        need = 0
        home = self._home[c]
        if dest in self._home_set[c] and self.options["home_entry"] == "exact-fill":
            for s in home[home.index(dest) + 1 :]:
                need |= bits[s]
        beyond, bpath, sbeyond = -1, 0, None
        if dest in self._beast and nxt >= 0:
            beyond, bpath = nxt, path | bits[dest]
            sbeyond = self._step(c, frm, nxt, f"{tag}-beyond" if tag else "beyond")
        alt, salt = -1, None
        x = self._start_colour.get(dest)
        if x is not None and x != c:
            alt = self._entry[x]
            salt = self._step(c, frm, alt, "entrance")
        return (
            tag,
            dest,
            path,
            need,
            beyond,
            bpath,
            alt,
            self._step(c, frm, dest, tag),
            sbeyond,
            salt,
        )

    # State ---------------------------------------------------------------------------------
    def initial_state(self) -> ManipulationState:
        pieces = tuple((HOLD,) * (TOKENS - 1) + (self._start[c],) for c in range(4))
        if self.options["opening"] == "roll-off":
            return ManipulationState(0, "opening", 0, pieces, 0, (0,) * self.players)
        return ManipulationState(0, "roll", 0, pieces, self._actor_for(0, pieces), ())

    def _all_home(self, c: int, pieces: tuple) -> bool:
        return self._home_set[c].issuperset(pieces[c])

    def _actor_for(self, seat: int, pieces: tuple) -> int:
        """The seat whose tokens move on `seat`'s turn (MANIP-9.4, partner's assistance)."""
        if self.mode == "partners" and self._all_home(seat, pieces):
            return (seat + 2) % 4
        return seat

    # Moves ---------------------------------------------------------------------------------
    def legal_moves(self, state: ManipulationState) -> list[Move]:
        phase = state.phase
        if phase == "move":
            options = self._options(state)
            return [o[0] for o in options] if options else [self._passes[state.to_move]]
        if phase == "roll":
            return list(self._roll_choices(state))
        if phase == "opening":
            return [roll for seat in self.rolloff_seats(state) for roll in self._rolls[seat]]
        return []

    def _roll_choices(self, state: ManipulationState) -> Sequence[Move]:
        """The rolls of phase roll, and the decline when the extra roll may be declined."""
        seat = state.to_move
        if state.bonus and self._declinable:  # as _may_decline, asked once per roll
            return self._rolls_or_decline[seat]
        return self._rolls[seat]

    def _may_decline(self, state: ManipulationState) -> bool:
        """A roll again after moving six that the player may decline (MANIP-2.2)."""
        return bool(state.bonus) and self._offers_decline()

    def _offers_decline(self) -> bool:
        return self.options["extra_roll"] == "optional"

    def rolloff_seats(self, state: ManipulationState) -> list[int]:
        """Seats that may throw now in the opening roll-off, in seat order (to_move first).

        Everyone throws at once (MANIP-1.3), so any seat still to roll in this round may; the
        roll-off does not wait for the seats before it.
        """
        if state.phase != "opening":
            return []
        return [seat for seat, rolled in enumerate(state.rolloff) if rolled == 0]

    def _options(self, state: ManipulationState) -> list[tuple]:
        """Legal token moves: (step, colour, origin, dest, victim colour or -1, is set-back)."""
        if self._last[0] is state:
            return self._last[1]
        pieces = state.pieces
        known, occupants, masks = self._where
        if known is not pieces:
            occupants, masks = self._occupants(pieces)
        at = occupants.get  # who is on a space
        dice = state.dice
        normal: list[tuple] = []
        setbacks: list[tuple] = []
        star_beasts = self._star_beasts
        for c in self.colours_of[state.actor]:
            own = masks[c]
            rel = self.rel[c]
            table = self._tables[c]
            previous = None
            for frm in pieces[c]:
                if frm == previous:
                    continue
                previous = frm
                entries = table.get(frm)
                if entries is None:
                    continue
                ways = entries[dice]
                # two ways of one token may reach one space: keep the first (one way never
                # reaches a space twice, so a single way needs no check)
                seen: set | None = set() if len(ways) > 1 else None
                for tag, dest, path, need, beyond, bpath, alt, step, sbeyond, salt in ways:
                    if path & own or (need and own & need != need):
                        continue
                    if tag == "attack-back":
                        o = at(dest, -1)
                        if o >= 0 and rel[o] == OPPONENT:
                            normal.append((step, c, frm, dest, o, False))
                        continue
                    o = at(dest, -1)
                    if o >= 0 and dest in star_beasts:
                        continue  # MANIP-7.2: an occupied Star-Beast is closed
                    if beyond >= 0 and o >= 0 and o != c:
                        if bpath & own:
                            continue
                        dest, step, o = beyond, sbeyond, at(beyond, -1)
                    targets = ((dest, step, o),) if alt < 0 else ((dest, step, o), (alt, salt, -2))
                    for target, move, who in targets:
                        if target < 0:
                            continue
                        if who == -2:  # the other colour's entrance, instead of its start
                            who = at(target, -1)
                            x = self._entry_colour[target]
                            if rel[x] == OPPONENT and who != x:
                                continue  # MANIP-8.4
                        if who < 0:
                            victim, setback = -1, False
                        else:
                            r = rel[who]
                            if r == OWN or r == ALLY:
                                continue
                            victim, setback = who, r == PARTNER
                        if seen is not None:
                            if target in seen:
                                continue
                            seen.add(target)
                        option = (move, c, frm, target, victim, setback)
                        (setbacks if setback else normal).append(option)
        if setbacks and (not normal or self.options["setback"] == "any-time"):
            normal += setbacks
        self._last = (state, normal)
        return normal

    def _occupants(self, pieces: tuple) -> tuple[dict[int, int], tuple[int, ...]]:
        """{space: colour of the token on it} (HOLD too, but nobody asks about it) and each
        colour's spaces as a bit mask, kept for the last position seen or played
        (`_apply_option` updates them instead of a rebuild)."""
        bits = self._bits
        occupants = {s: o for o, tokens in enumerate(pieces) for s in tokens}
        masks = tuple(sum(bits[s] for s in tokens if s >= 0) for tokens in pieces)
        self._where = (pieces, occupants, masks)
        return occupants, masks

    def apply(self, state: ManipulationState, move: Move) -> ManipulationState:
        phase = state.phase
        kind = move.__class__
        if phase == "move" and kind is Step:
            for option in self._options(state):
                if option[0] == move:
                    return self._apply_option(state, option)
            self.check(state, move)  # raises IllegalMoveError naming the clause
            raise AssertionError(f"{move} passed the legality check but is not an option")
        if kind is Roll and self._may_roll(state, move.player):
            if move.colour != self.colours[move.player] or not 1 <= move.value <= 6:
                self.check(state, move)
            if phase == "opening":
                return self._apply_rolloff(state, move.player, move.value)
            return self._rolled(state, move.value)
        self.check(state, move)  # raises for anything else that is not legal
        return self._passed(state)  # a Pass or Decline

    def _passed(self, state: ManipulationState) -> ManipulationState:
        """A pass (no token can use the roll) or a declined extra roll: the turn ends."""
        return self._end_turn(state, state.pieces, extra=False, mover=-1)

    @staticmethod
    def _rolled(state: ManipulationState, value: int) -> ManipulationState:
        """The turn's roll (phase roll, a legal value)."""
        to_move, _phase, _dice, pieces, actor, rolloff, _bonus = state
        return ManipulationState(to_move, "move", value, pieces, actor, rolloff, 0)

    def _apply_option(self, state: ManipulationState, option: tuple) -> ManipulationState:
        step, c, frm, dest, victim, _setback = option
        pieces = list(state.pieces)
        moved = list(pieces[c])
        moved[moved.index(frm)] = dest
        pieces[c] = tuple(sorted(moved))
        if victim >= 0:
            hit = list(pieces[victim])
            hit[hit.index(dest)] = HOLD
            pieces[victim] = tuple(sorted(hit))
        after = tuple(pieces)
        known, occupants, masks = self._where
        if known is state.pieces:  # one token per space: the mover leaves frm, takes dest
            bits = self._bits
            occupants = dict(occupants)
            occupants.pop(frm, None)
            occupants[dest] = c
            masks = list(masks)
            masks[c] = masks[c] & ~bits[frm] | bits[dest] if frm >= 0 else masks[c] | bits[dest]
            if victim >= 0:
                masks[victim] &= ~bits[dest]
            self._where = (after, occupants, tuple(masks))
        extra = state.dice == 6 and self._rolls_again(state, step)
        return self._end_turn(state, after, extra, c)

    def _rolls_again(self, state: ManipulationState, step: Step) -> bool:
        if state.dice != 6:
            return False
        return step.route not in ("bring", "attack-back") or self.options["six_bring_out"]

    def _end_turn(
        self, state: ManipulationState, pieces: tuple, extra: bool, mover: int
    ) -> ManipulationState:
        all_home = self._all_home
        if (
            mover >= 0
            and all_home(mover, pieces)
            and all(all_home(c, pieces) for c in self.side[mover])
        ):
            return ManipulationState(state.to_move, "over", state.dice, pieces, state.actor, ())
        nxt = state.to_move if extra else (state.to_move + 1) % self.players
        actor = self._actor_for(nxt, pieces) if self.mode == "partners" else nxt
        return ManipulationState(nxt, "roll", 0, pieces, actor, (), 1 if extra else 0)

    def _may_roll(self, state: ManipulationState, seat: int) -> bool:
        if state.phase == "opening":
            return seat in self.rolloff_seats(state)
        return state.phase == "roll" and seat == state.to_move

    def _apply_rolloff(self, state: ManipulationState, seat: int, value: int) -> ManipulationState:
        rolls, seat, decided = record_roll(state.rolloff, seat, value)
        if not decided:
            return state._replace(to_move=seat, rolloff=rolls)
        # the winner moves by the winning roll (MANIP-1.4)
        return ManipulationState(seat, "move", rolls[seat], state.pieces, seat, ())

    # Verdicts ------------------------------------------------------------------------------
    def explain(self, state: ManipulationState, move: Move) -> Verdict:
        legal = move in self.legal_moves(state)
        if isinstance(move, Roll):
            if legal:
                key = "MANIP-1.3" if state.phase == "opening" else "MANIP-2.1"
                clauses = [key]
                if state.phase == "opening" and self._decides_rolloff(state, move):
                    clauses.append("MANIP-1.4")
                return Verdict(True, tuple(self.clause(k) for k in clauses), reason=str(move))
            if state.phase == "opening" and not self._may_roll(state, move.player):
                return self._against("MANIP-1.3", self._not_in_rolloff(state, move.player))
            if state.phase == "roll" and move.player != state.to_move:
                return self._against("MANIP-1.5", f"it is {self.colours[state.to_move]}'s roll")
            if state.phase in ("roll", "opening"):
                return self._against("MANIP-2.1", f"{move} is not a roll of this die")
            return self._against("MANIP-2.1", f"{move.colour} cannot roll now")
        if isinstance(move, Decline):
            return self._decline_verdict(state, move, legal)
        if isinstance(move, Pass):
            if legal:
                effects = (
                    Effect("pass", "MANIP-2.4", f"{move.colour} sits out", None, move.player),
                )
                return Verdict(True, (self.clause("MANIP-2.4"),), effects, str(move))
            if state.phase == "move":
                return self._against("MANIP-2.5", "a token can use the roll, so it must move")
            return self._against("MANIP-2.1", "roll the die first")
        if isinstance(move, Step):
            if legal:
                return self._legal_step_verdict(state, move)
            if state.phase != "move":
                return self._against("MANIP-2.1", "roll the die before moving")
            if move.player != state.actor or move.colour not in self._actor_colours(state):
                return self._against("MANIP-1.5", f"{move.colour} tokens do not move on this turn")
            return self.explain_attempt(state, move.frm, move.to)
        return self._against("MANIP-1.5", f"{move} is not a Manipulation move")

    def _decline_verdict(self, state: ManipulationState, move: Decline, legal: bool) -> Verdict:
        if not legal:
            if state.bonus and move.player == state.to_move:
                return self._against("MANIP-2.2", "with this house rule the extra roll is taken")
            return self._against("MANIP-2.2", "only a player who moved six may decline a roll")
        nxt = self.colours[(state.to_move + 1) % self.players]
        text = f"{self.player_name(move.player)} does not roll again; {nxt} plays next"
        effect = Effect("pass", "MANIP-2.2", text, None, move.player)
        return Verdict(True, (self.clause("MANIP-2.2"),), (effect,), text)

    def player_name(self, seat: int) -> str:
        """How the table calls a seat: its colour, or both colours in tournament mode."""
        colours = [COLOURS[c] for c in self.colours_of[seat]]
        return colours[0] if len(colours) == 1 else f"the {'-and-'.join(colours)} player"

    def _not_in_rolloff(self, state: ManipulationState, seat: int) -> str:
        if not 0 <= seat < self.players:
            return f"there is no seat {seat} in this game"
        colour = self.colours[seat]
        if state.rolloff[seat] > 0:
            return f"{colour} has already rolled in this round of the roll-off"
        return f"{colour} is out of the roll-off: only the tied players throw again"

    def _decides_rolloff(self, state: ManipulationState, move: Roll) -> bool:
        return record_roll(state.rolloff, move.player, move.value).decided

    def _actor_colours(self, state: ManipulationState) -> tuple[str, ...]:
        return tuple(COLOURS[c] for c in self.colours_of[state.actor])

    def _against(self, clause_id: str, reason: str) -> Verdict:
        return Verdict(False, (self.clause(clause_id),), reason=reason)

    def _legal_step_verdict(self, state: ManipulationState, move: Step) -> Verdict:
        option = next(o for o in self._options(state) if o[0] == move)
        _step, c, frm, dest, victim, setback = option
        colour = COLOURS[c]
        clauses: list[str] = []
        effects: list[Effect] = []
        route = move.route
        if route == "bring":
            clauses.append("MANIP-3.1")
            effects.append(
                Effect("start", "MANIP-3.1", f"{colour} brings a token out", move.to, move.player)
            )
        elif route == "attack-back":
            clauses.append("MANIP-8.5")
        elif route == "enter":
            clauses.append("MANIP-7.1")
        elif route == "diamond":
            clauses.append("MANIP-7.3")
        elif route == "world":
            clauses += ["MANIP-7.3", "MANIP-7.5"]
            effects.append(
                Effect(
                    "portal",
                    "MANIP-7.5",
                    f"{colour} token lands on The World and goes to {move.to}",
                    move.to,
                    move.player,
                )
            )
        elif route.startswith("exit"):
            clauses.append("MANIP-7.4")
        else:
            clauses.append("MANIP-4.1")
        if frm in self._entry_colour and self._entry_colour[frm] != c:
            clauses.append("MANIP-8.6")
        if route.endswith("beyond"):
            clauses.append("MANIP-6.1")
            effects.append(
                Effect(
                    "beyond",
                    "MANIP-6.1",
                    f"the Beast is occupied and safe, so {colour} goes one space further",
                    move.to,
                    move.player,
                )
            )
        if dest in self._entry_colour and self._entry_colour[dest] != c and route != "world":
            x = self._entry_colour[dest]
            clauses.append("MANIP-8.4" if self.rel[c][x] == OPPONENT else "MANIP-8.3")
        if dest in self._home_set[c]:
            clauses.append("MANIP-8.1")
            effects.append(
                Effect("home", "MANIP-8.1", f"{colour} token safe at home", move.to, move.player)
            )
            if frm not in self._home_set[c] and frm != self._entry[c]:
                clauses.append("MANIP-8.2")
        if victim >= 0:
            if setback:
                key = "MANIP-5.2"
            else:
                key = {"bring": "MANIP-3.2", "attack-back": "MANIP-8.5"}.get(route, "MANIP-5.1")
            clauses.append(key)
            clauses.append("MANIP-I.2")
            word = "set back" if setback else "attacked"
            effects.append(
                Effect(
                    "capture",
                    key,
                    f"{COLOURS[victim]} token on {move.to} {word}: back to holding",
                    move.to,
                    self.seat_of[victim],
                )
            )
        if state.actor != state.to_move:
            clauses.append("MANIP-9.4")
        after = self.apply(state, move)
        if after.phase == "over":
            key = self._win_clause()
            clauses.append(key)
            effects.append(Effect("win", key, self._win_text(c), None, move.player))
        elif self._rolls_again(state, move):
            clauses.append("MANIP-2.2")
            roller = self.player_name(state.to_move)
            again = "may roll again" if self._offers_decline() else "rolls again"
            text = f"{colour} moved six and {again}"
            if roller != colour:
                text = f"{colour} moved six: {roller} {again}"
            effects.append(Effect("extra_turn", "MANIP-2.2", text, None, state.to_move))
        elif state.dice == 6 and route in ("bring", "attack-back"):
            clauses.append("MANIP-2.3")
        reason = f"{colour} moves {move.frm} to {move.to}"
        unique = tuple(dict.fromkeys(clauses))
        return Verdict(True, tuple(self.clause(k) for k in unique), tuple(effects), reason)

    def _win_clause(self) -> str:
        return {"separate": "MANIP-9.1", "partners": "MANIP-9.2", "tournament": "MANIP-9.3"}[
            self.mode
        ]

    def _win_text(self, c: int) -> str:
        seats = sorted({self.seat_of[x] for x in self.side[c]})
        if self.mode == "tournament":
            return f"player {seats[0] + 1} ({' and '.join(COLOURS[x] for x in self.side[c])}) wins"
        return " and ".join(COLOURS[x] for x in self.side[c]) + " win"

    def explain_attempt(self, state: ManipulationState, frm: str, to: str) -> Verdict:
        """Why moving a token of the mover's from `frm` to `to` is not legal now."""
        if state.phase != "move":
            return self._against("MANIP-2.1", "roll the die before moving")
        index = self.board.index
        if frm not in index or to not in index:
            return self._against("MANIP-4.1", f"{frm}->{to} is not on this board")
        dice = state.dice
        f, t = index[frm], index[to]
        colours = self.colours_of[state.actor]
        c = self._colour_at(state, f, colours)
        if c is None:
            others = [o for o in range(4) if self._colour_at(state, f, (o,)) is not None]
            if others:
                return self._against(
                    "MANIP-1.5", f"the {COLOURS[others[0]]} token on {frm} does not move now"
                )
            return self._against("MANIP-1.5", f"no token of the mover's is on {frm}")
        colour = COLOURS[c]
        origin = HOLD if f in self._hold_index else f
        for option in self._options(state):
            if option[1] == c and option[2] == origin and option[3] == t:
                return Verdict(True, (self.clause("MANIP-4.1"),), reason="that move is legal")
        if t in self._hold_index:
            return self._against("MANIP-5.1", "a token goes back to holding only when attacked")
        if t == self._world and origin in self._diamond:
            return self._world_attempt(state, c, origin, dice)
        for x in range(4):
            if x != c and t in self._home_set[x]:
                return self._against("MANIP-8.1", f"only {COLOURS[x]} tokens go into that home")
        table = self._tables[c].get(origin)
        if origin in self._home_set[c] and self.options["home_entry"] == "exact-fill":
            return self._against("MANIP-8.1", "a token at home stays in its space")
        reach = {d: self._reaching(table[d], t) for d in range(1, 7)} if table else {}
        now = reach.get(dice, [])
        if now:
            return self._blocked_reason(state, c, origin, t, now)
        counts = [d for d, found in reach.items() if found]
        if origin == HOLD:
            if t == self._entry[c] and counts:
                return self._against(
                    "MANIP-8.5",
                    "a token comes out onto its entrance only with a 1, to attack an opponent "
                    f"there; the roll is {dice}",
                )
            if t != self._start[c]:
                return self._against(
                    "MANIP-3.1", f"a {colour} token comes out only onto {self._ids[self._start[c]]}"
                )
            return self._against(
                "MANIP-3.1", f"a token comes out only with a 1 or a 6; the roll is {dice}"
            )
        if t in self._star_beasts and origin in self._beast and self._beast[origin] == t:
            return self._against(
                "MANIP-7.1", f"a token steps onto the Star-Beast only with a 1; the roll is {dice}"
            )
        if t in self._diamond and origin not in self._diamond:
            return self._against(
                "MANIP-7.1",
                "the diamond is entered only from a Beast onto its Star-Beast, with a 1",
            )
        if t in self._home_set[c] or (counts == [] and self._overshoots(c, origin, dice)):
            return self._against(
                "MANIP-8.1", f"home is entered only by exact count; the roll is {dice}"
            )
        if t in self._lane_index and self._laps_past_start(c, origin, t, dice):
            return self._against(
                "MANIP-8.2",
                f"a {colour} token never passes its own Starting Position "
                f"{self._ids[self._start[c]]}: it goes on into home through {colour}-entry",
            )
        # MANIP-7.4 counts a way out of the diamond (own entrance: by The World, MANIP-7.3)
        leaving = origin in self._diamond and t not in self._diamond and t != self._entry[c]
        if counts:
            key = (
                "MANIP-7.4" if leaving else "MANIP-7.3" if origin in self._diamond else "MANIP-4.1"
            )
            return self._against(key, f"that takes a roll of {counts[0]}, but the roll is {dice}")
        if leaving:
            return self._against(
                "MANIP-7.4",
                f"{to} is not {dice} spaces out of the diamond: through a Star-Beast onto its "
                "Beast (one space), then clockwise",
            )
        if origin in self._diamond:
            return self._against(
                "MANIP-7.3", f"{to} cannot be reached in {dice} steps along the diamond's lines"
            )
        return self._against("MANIP-4.1", f"{frm} to {to} is not {dice} spaces clockwise")

    def _colour_at(self, state: ManipulationState, f: int, colours: tuple) -> int | None:
        for c in colours:
            if f in state.pieces[c] or (self._hold_index.get(f) == c and HOLD in state.pieces[c]):
                return c
        return None

    def _world_attempt(self, state: ManipulationState, c: int, origin: int, dice: int) -> Verdict:
        """Why a token of colour c moved from `origin` (in the diamond) onto The World is wrong."""
        table = self._tables[c].get(origin)
        worlds = {d: [e for e in table[d] if e[0] == "world"] if table else [] for d in range(1, 7)}
        entry = self._entry[c]
        name = self._ids[entry]
        if worlds[dice]:
            for option in self._options(state):
                if option[1] == c and option[2] == origin and option[0].route == "world":
                    return self._against(
                        "MANIP-7.5", f"a token that lands on The World goes on at once to {name}"
                    )
            if entry in state.pieces[c]:
                return self._against(
                    "MANIP-7.5",
                    f"{name} already holds a {COLOURS[c]} token, so The World cannot be used",
                )
            return self._blocked_reason(state, c, origin, entry, worlds[dice])
        counts = [d for d, found in worlds.items() if found]
        if counts:
            return self._against(
                "MANIP-7.3", f"The World takes a roll of {counts[0]}, but the roll is {dice}"
            )
        return self._against(
            "MANIP-7.3", f"The World cannot be reached in {dice} steps along the diamond's lines"
        )

    def _laps_past_start(self, c: int, origin: int, t: int, dice: int) -> bool:
        """Whether lane space t is `dice` spaces clockwise from origin only past c's own start
        (or origin is c's own entrance, from where a token goes on only into home)."""
        if origin == self._entry[c]:
            return True
        x = self._entry_colour.get(origin)
        k = self._lane_index.get(self._start[x] if x is not None else origin)
        if k is None:
            return False
        lap_end = (c * SIDE - 1) % LANE  # the last lane space of c's lap
        left = (lap_end - k) % LANE  # spaces still ahead on the lap
        return (self._lane_index[t] - k) % LANE == dice and dice > left

    @staticmethod
    def _reaching(entries: tuple, t: int) -> list[tuple]:
        return [e for e in entries if e[1] == t or e[4] == t or e[6] == t]

    def _overshoots(self, c: int, origin: int, dice: int) -> bool:
        pos = self._pos[c]
        i = pos.get(origin)
        if i is None and origin in self._entry_colour:
            i = pos[self._start[self._entry_colour[origin]]]
        return i is not None and i + dice > len(self._routes[c]) - 1

    def _blocked_reason(
        self, state: ManipulationState, c: int, origin: int, t: int, entries: list
    ) -> Verdict:
        """The geometry allows origin -> t with this roll; say what on the board forbids it."""
        pieces = state.pieces
        occ = {s: o for o in range(4) for s in pieces[o] if s >= 0}
        own = 0
        for s in pieces[c]:
            if s >= 0:
                own |= self._bits[s]
        rel = self.rel[c]
        reasons: list[tuple[str, str]] = []
        for tag, dest, path, need, beyond, bpath, alt, *_ in entries:
            o = occ.get(dest, -1)
            if tag == "attack-back":
                reasons.append(
                    (
                        "MANIP-8.5",
                        "a token comes out onto its entrance only to attack "
                        "an opponent's token there",
                    )
                )
            elif path & own:
                reasons.append(("MANIP-4.2", "a token of your own colour is in the way"))
            elif need and own & need != need:
                reasons.append(
                    (
                        "MANIP-8.1",
                        "home is filled from the deepest space: the roll "
                        "must equal the free home spaces",
                    )
                )
            elif dest in self._star_beasts and o >= 0:
                reasons.append(("MANIP-7.2", f"the Star-Beast {self._ids[dest]} is occupied"))
            elif t == dest and beyond >= 0 and o >= 0 and o != c:
                reasons.append(
                    (
                        "MANIP-6.1",
                        f"the {COLOURS[o]} token on the Beast is safe: go one space further",
                    )
                )
            elif t == beyond and o == c:
                reasons.append(("MANIP-4.2", "a token of your own colour is on the Beast"))
            elif t == beyond and o < 0:
                reasons.append(
                    ("MANIP-6.1", "a token goes past a Beast only when the Beast is occupied")
                )
            elif t == alt:
                x = self._entry_colour[alt]
                if rel[x] == OPPONENT and occ.get(alt, -1) != x:
                    reasons.append(
                        (
                            "MANIP-8.4",
                            f"{COLOURS[x]}'s entrance may be used only to "
                            f"attack {COLOURS[x]}'s token there",
                        )
                    )
                else:
                    reasons.append(self._landing_reason(state, c, occ.get(t, -1)))
            else:
                if t == beyond and bpath & own:
                    reasons.append(("MANIP-4.2", "a token of your own colour is in the way"))
                else:
                    reasons.append(self._landing_reason(state, c, occ.get(t, -1)))
        key, reason = reasons[0]
        return self._against(key, reason)

    def _landing_reason(self, state: ManipulationState, c: int, o: int) -> tuple[str, str]:
        if o == c:
            return ("MANIP-4.2", "a token may not land on its own colour")
        if o >= 0 and self.rel[c][o] == ALLY:
            return (
                "MANIP-4.3",
                f"a token may not land on the player's other colour ({COLOURS[o]})",
            )
        if o >= 0 and self.rel[c][o] == PARTNER:
            return (
                "MANIP-5.2",
                f"landing on partner {COLOURS[o]} is allowed only when no other move can be made",
            )
        return ("MANIP-2.5", "another move is required")

    def outcome(self, state: ManipulationState) -> Outcome | None:
        if state.phase != "over":
            return None
        colours = self.colours_of[state.actor]
        done = next(
            c for c in colours if all(self._all_home(x, state.pieces) for x in self.side[c])
        )
        winners = tuple(sorted({self.seat_of[x] for x in self.side[done]}))
        return Outcome(winners, self.clause(self._win_clause()), self._win_text(done))

    # What the camera should see ---------------------------------------------------------------
    def placement(self, state: ManipulationState) -> dict[str, str]:
        ids = self._ids
        seen: dict[str, str] = {}
        for c, tokens in enumerate(state.pieces):
            colour = COLOURS[c]
            held = 0
            for s in tokens:
                if s == HOLD:
                    seen[self._hold_ids[c][held]] = colour
                    held += 1
                else:
                    seen[ids[s]] = colour
        return seen

    def groups(self) -> tuple[tuple[str, ...], ...]:
        return self._hold_ids

    # Inference: a tournament player moves two colours ------------------------------------------
    def _illegal_attempt(self, state: Any, expected: tuple, seen: tuple) -> Inference:
        groups = self.groups()
        for c in self.colours_of[state.actor]:
            lost, gained = _moves_of(expected, seen, COLOURS[c], groups)
            if gained == ["world"] and len(lost) == 1:
                for option in self._options(state):
                    step = option[0]
                    if step.route == "world" and step.frm == lost[0] and option[1] == c:
                        return Inference(
                            "unclear",
                            reason=f"the {COLOURS[c]} token on The World goes on at once to "
                            f"{step.to} (MANIP-7.5)",
                            spaces=("world", step.to),
                        )
        if len(self.colours_of[state.actor]) == 1:
            return super()._illegal_attempt(state, expected, seen)
        for c in self.colours_of[state.actor]:
            lost, gained = _moves_of(expected, seen, COLOURS[c], groups)
            if len(lost) == 1 and len(gained) == 1:
                others = [
                    _moves_of(expected, seen, COLOURS[o], groups)
                    for o in self.colours_of[state.actor]
                    if o != c
                ]
                if all(not a and not b for a, b in others):
                    verdict = self.explain_attempt(state, lost[0], gained[0])
                    return Inference(
                        "illegal", None, verdict, reason=verdict.reason, spaces=(lost[0], gained[0])
                    )
        for o in range(4):
            if self.seat_of[o] == state.actor:
                continue
            lost, gained = _moves_of(expected, seen, COLOURS[o], groups)
            if len(lost) == 1 and len(gained) == 1:
                verdict = self._against(
                    "MANIP-1.5", f"a {COLOURS[o]} token moved, but it is not that player's turn"
                )
                return Inference(
                    "illegal", None, verdict, reason=verdict.reason, spaces=(lost[0], gained[0])
                )
        changed = _changed(expected, seen)
        return Inference(
            "unclear",
            reason="the board does not match any single move; changed: " + ", ".join(changed),
            spaces=changed,
        )
