"""The shape every game shares, and the parts that are the same for all of them.

A game is data (board, clauses, options) plus pure functions over immutable states. Subclasses
provide `initial_state`, `legal_moves`, `apply`, `explain`, `outcome`, `placement` and
`explain_attempt`; this base class turns those into JSON round trips, replay from a record and
`infer`, the camera referee's question: "which move gives exactly the placement I see?".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, NamedTuple

from .clauses import Clause, Inference, Outcome, Verdict
from .errors import IllegalMoveError, PlayerCountError, RecordError
from .geometry import Board
from .moves import Move, Pass, Roll, move_from_json
from .options import Option, resolve_options
from .palette import UNKNOWN

Placement = Mapping[str, str]


class Game:
    """Base class. Class attributes describe the game; an instance is one configured table."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    player_counts: ClassVar[tuple[int, ...]] = ()
    default_players: ClassVar[int] = 2
    token_name: ClassVar[str] = "token"  # what players call a token: marble, pawn, piece...
    option_specs: ClassVar[tuple[Option, ...]] = ()
    clause_list: ClassVar[tuple[Clause, ...]] = ()
    state_type: ClassVar[type] = tuple
    # Phases in which a token move (not a roll) is expected from the table.
    move_phases: ClassVar[frozenset[str]] = frozenset({"move"})
    turn_clause: ClassVar[str] = ""  # cited when a token of the wrong colour moves
    roll_first_clause: ClassVar[str] = ""  # cited when a token moves before the die is rolled

    def __init__(self, players: int, options: dict | None = None) -> None:
        if type(players) is not int or players not in self.player_counts:
            raise PlayerCountError(self.name, players, self.player_counts)
        self.players = players
        self.options = resolve_options(self.name, self.option_specs, options)
        self._clauses = {c.id: c for c in self.clause_list}
        self.board: Board = self.build_board()
        self.colours: tuple[str, ...] = self.seat_colours()

    # --- what a game must provide -------------------------------------------------------
    def build_board(self) -> Board:
        raise NotImplementedError

    def seat_colours(self) -> tuple[str, ...]:
        raise NotImplementedError

    def initial_state(self) -> Any:
        raise NotImplementedError

    def legal_moves(self, state: Any) -> list[Move]:
        raise NotImplementedError

    def apply(self, state: Any, move: Move) -> Any:
        raise NotImplementedError

    def explain(self, state: Any, move: Move) -> Verdict:
        raise NotImplementedError

    def outcome(self, state: Any) -> Outcome | None:
        raise NotImplementedError

    def placement(self, state: Any) -> dict[str, str]:
        raise NotImplementedError

    def explain_attempt(self, state: Any, frm: str, to: str) -> Verdict:
        """Why moving the mover's token from `frm` to `to` is not legal now."""
        raise NotImplementedError

    def camera_picture(self, state: Any, move: Move) -> dict[str, str]:
        """What the camera must see for `infer` to take `move` (a player's hands, a demo's
        script): by default the board after it. A game may ask for another picture first
        (Playground Battles: an attacker beside the defender until the referee rules)."""
        return self.placement(self.apply(state, move))

    def groups(self) -> tuple[tuple[str, ...], ...]:
        """Sets of spaces whose tokens are interchangeable (a BASE row): compared by count."""
        return ()

    # --- hidden information (games without any keep these defaults) ------------------------
    def announce(self, state: Any, move: Move) -> Verdict:
        """The ruling for `move` as it is being played. `explain` must be safe to show before
        a move is chosen (teach mode); a game with hidden information adds here what playing
        the move reveals (a battle's result). Default: `explain`."""
        return self.explain(state, move)

    def view(self, state: Any, viewer: int | None = None) -> dict[str, Any]:
        """What seat `viewer` (None: the public table) may know of `state`, as JSON data."""
        return {
            "viewer": viewer,
            "phase": state.phase,
            "to_move": state.to_move,
            "dice": getattr(state, "dice", 0),
            "placement": self.placement(state),
        }

    def public_move(self, move: Move, viewer: int | None = None) -> dict[str, Any]:
        """A move's JSON as seat `viewer` (None: the public table) may see it."""
        return move.to_json()

    # --- shared ---------------------------------------------------------------------------
    @property
    def clauses(self) -> tuple[Clause, ...]:
        return self.clause_list

    def clause(self, clause_id: str) -> Clause:
        return self._clauses[clause_id]

    def describe(self) -> dict[str, Any]:
        """Name, players, options and clauses as plain data (CLI `games`, web teach page)."""
        return {
            "name": self.name,
            "title": self.title,
            "players": self.players,
            "player_counts": list(self.player_counts),
            "options": self.options,
            "option_specs": [o.to_json() for o in self.option_specs],
            "colours": list(self.colours),
            "token": self.token_name,
            "clauses": [c.to_json() for c in self.clause_list],
        }

    def colour_of(self, player: int) -> str:
        return self.colours[player]

    def is_legal(self, state: Any, move: Move) -> bool:
        return move in self.legal_moves(state)

    def check(self, state: Any, move: Move) -> None:
        """Raise IllegalMoveError naming the clause when `move` is not legal in `state`."""
        if move not in self.legal_moves(state):
            verdict = self.explain(state, move)
            cited = ", ".join(c.id for c in verdict.clauses)
            raise IllegalMoveError(move, state, f"{verdict.reason} [{cited}]")

    # JSON -----------------------------------------------------------------------------------
    def state_to_json(self, state: NamedTuple) -> dict[str, Any]:
        return {k: _listify(v) for k, v in state._asdict().items()}

    def state_from_json(self, data: Mapping[str, Any]) -> Any:
        fields = self.state_type._fields
        if not isinstance(data, Mapping) or set(data) != set(fields):
            raise RecordError(f"a {self.name} state needs exactly the keys {', '.join(fields)}")
        return self.state_type(**{k: _tuplify(data[k]) for k in fields})

    def move_from_json(self, data: Mapping[str, Any]) -> Move:
        return move_from_json(dict(data))

    def record(self, moves: Iterable[Move]) -> dict[str, Any]:
        """A game record: enough to replay the game exactly."""
        return {
            "game": self.name,
            "players": self.players,
            "options": dict(self.options),
            "moves": [m.to_json() for m in moves],
        }

    def replay(self, moves: Iterable[Move | Mapping[str, Any]]) -> Any:
        """The state after applying every move from the start; each one is checked."""
        state = self.initial_state()
        for number, move in enumerate(moves, 1):
            if not isinstance(move, Move):
                move = self.move_from_json(move)
            try:
                self.check(state, move)
            except IllegalMoveError as exc:
                raise RecordError(f"move {number} ({move}) of the record: {exc.reason}") from None
            state = self.apply(state, move)
        return state

    # Inference --------------------------------------------------------------------------------
    def canonical(self, placement: Placement) -> tuple[dict[str, str], dict[tuple, int]]:
        """Placement with each interchangeable group reduced to counts per colour."""
        singles = dict(placement)
        counts: dict[tuple, int] = {}
        for number, group in enumerate(self.groups()):
            for space in group:
                colour = singles.pop(space, None)
                if colour is not None:
                    key = (number, colour)
                    counts[key] = counts.get(key, 0) + 1
        return singles, counts

    def infer(self, state: Any, placement: Placement) -> Inference:
        """The move that explains `placement` (what the camera sees once the hand has left)."""
        if not isinstance(placement, Mapping):
            return Inference("unclear", reason="the reading is not a placement of spaces")
        off_board = tuple(s for s in placement if s not in self.board.index)
        if off_board:
            return Inference(
                "unclear",
                reason="spaces not on this board: " + ", ".join(off_board),
                spaces=off_board,
            )
        unknown = tuple(s for s, c in placement.items() if c == UNKNOWN)
        if unknown:
            return Inference(
                "unclear", reason="cannot see what is on " + ", ".join(unknown), spaces=unknown
            )
        seen = self.canonical(placement)
        expected = self.canonical(self.placement(state))
        if seen == expected:
            return Inference("unclear", reason="nothing has moved yet")
        if state.phase not in self.move_phases:
            return self._moved_out_of_phase(state, expected, seen)
        for move in self.legal_moves(state):
            if isinstance(move, Roll | Pass):
                continue
            after = self.canonical(self.placement(self.apply(state, move)))
            if _same(after, seen, expected):
                return Inference("legal", move, self.explain(state, move), reason=str(move))
        return self._illegal_attempt(state, expected, seen)

    def _moved_out_of_phase(self, state: Any, expected: tuple, seen: tuple) -> Inference:
        clause = self._clauses.get(self.roll_first_clause)
        changed = _changed(expected, seen)
        if clause is None:
            return Inference(
                "unclear", reason="tokens moved while no move was expected", spaces=changed
            )
        verdict = Verdict(False, (clause,), reason=f"tokens moved before the roll: {clause.title}")
        return Inference("illegal", None, verdict, reason=verdict.reason, spaces=changed)

    def _illegal_attempt(self, state: Any, expected: tuple, seen: tuple) -> Inference:
        mover = self.colour_of(getattr(state, "actor", state.to_move))
        lost, gained = _moves_of(expected, seen, mover, self.groups())
        others = [c for c in self.colours if c != mover]
        changed = _changed(expected, seen)
        if len(lost) == 1 and len(gained) == 1:
            verdict = self.explain_attempt(state, lost[0], gained[0])
            return Inference(
                "illegal", None, verdict, reason=verdict.reason, spaces=(lost[0], gained[0])
            )
        if not lost and not gained and self.turn_clause:
            for colour in others:
                o_lost, o_gained = _moves_of(expected, seen, colour, self.groups())
                if len(o_lost) == 1 and len(o_gained) == 1:
                    clause = self.clause(self.turn_clause)
                    verdict = Verdict(
                        False, (clause,), reason=f"a {colour} token moved, but it is {mover}'s turn"
                    )
                    return Inference(
                        "illegal",
                        None,
                        verdict,
                        reason=verdict.reason,
                        spaces=(o_lost[0], o_gained[0]),
                    )
        if len(lost) > len(gained):
            reason = f"a {mover} token is missing from " + ", ".join(lost[len(gained) :])
        else:
            reason = "the board does not match any single move; changed: " + ", ".join(changed)
        return Inference("unclear", reason=reason, spaces=changed)


def _same(after: tuple, seen: tuple, before: tuple) -> bool:
    """Equal placements, allowing a captured token not yet put back in its group (BASE)."""
    if after[0] != seen[0]:
        return False
    if after[1] == seen[1]:
        return True
    for key in set(after[1]) | set(seen[1]):
        want, got = after[1].get(key, 0), seen[1].get(key, 0)
        if got != want and not (got == before[1].get(key, 0) and want == got + 1):
            return False
    return True


def _changed(expected: tuple, seen: tuple) -> tuple[str, ...]:
    a, b = expected[0], seen[0]
    return tuple(sorted(s for s in set(a) | set(b) if a.get(s) != b.get(s)))


def _moves_of(expected: tuple, seen: tuple, colour: str, groups: tuple) -> tuple[list, list]:
    """Spaces (or a group's first space) where `colour` disappeared and where it appeared."""
    a, b = expected[0], seen[0]
    lost = [s for s, c in a.items() if c == colour and b.get(s) != colour]
    gained = [s for s, c in b.items() if c == colour and a.get(s) != colour]
    for number, group in enumerate(groups):
        diff = seen[1].get((number, colour), 0) - expected[1].get((number, colour), 0)
        if diff < 0:
            lost.extend([group[0]] * -diff)
        elif diff > 0:
            gained.extend([group[0]] * diff)
    return sorted(lost), sorted(gained)


def _listify(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_listify(v) for v in value]
    return value


def _tuplify(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuplify(v) for v in value)
    return value
