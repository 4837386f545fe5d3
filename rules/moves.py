"""Moves: small immutable values with a short text form and a JSON form.

Every game uses these shapes; a game that needs another (a multi-jump, a battle choice) defines
a frozen dataclass with a `kind` and registers it with `move_kind`, so `move_from_json` reads it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from .errors import RecordError

_KINDS: dict[str, type[Move]] = {}


def move_kind(cls: type[Move]) -> type[Move]:
    """Class decorator: register a move class under its `kind` for JSON round trips."""
    _KINDS[cls.kind] = cls
    return cls


@dataclass(frozen=True, slots=True)
class Move:
    """Base of all moves. `player` is the seat whose token or turn the move concerns."""

    kind: ClassVar[str] = "move"
    player: int
    colour: str

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["kind"] = self.kind
        return data


@move_kind
@dataclass(frozen=True, slots=True)
class Roll(Move):
    """A chance outcome: the die shows `value` (the button's RNG, the camera, or a seeded RNG)."""

    kind: ClassVar[str] = "roll"
    value: int

    def __str__(self) -> str:
        return f"{self.colour} rolls {self.value}"


@move_kind
@dataclass(frozen=True, slots=True)
class Pass(Move):
    """No legal move: the turn passes (the referee announces it without waiting)."""

    kind: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return f"{self.colour} passes"


@move_kind
@dataclass(frozen=True, slots=True)
class Decline(Move):
    """A player who may roll again (after a 6) chooses not to: the turn passes on."""

    kind: ClassVar[str] = "decline"

    def __str__(self) -> str:
        return f"{self.colour} does not roll again"


@move_kind
@dataclass(frozen=True, slots=True)
class Step(Move):
    """One token from one space to another; `route` names a shortcut taken (star, centre)."""

    kind: ClassVar[str] = "step"
    frm: str
    to: str
    route: str = ""

    def __str__(self) -> str:
        tail = f" ({self.route})" if self.route else ""
        return f"{self.colour} {self.frm}->{self.to}{tail}"


@move_kind
@dataclass(frozen=True, slots=True)
class Declare(Move):
    """Before rolling, a player whose tokens are all home names the teammate who will move."""

    kind: ClassVar[str] = "declare"
    teammate: int
    teammate_colour: str = ""

    def __str__(self) -> str:
        return f"{self.colour} rolls for {self.teammate_colour or self.teammate}"


def move_from_json(data: dict[str, Any]) -> Move:
    """Read a move written by `Move.to_json`; RecordError names what is wrong."""
    if not isinstance(data, dict):
        raise RecordError(f"a move must be a JSON object, not {type(data).__name__}")
    kind = data.get("kind")
    cls = _KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RecordError(f"unknown move kind {kind!r}; known: {', '.join(sorted(_KINDS))}")
    names = [f.name for f in fields(cls)]
    missing = [n for n in names if n not in data and _required(cls, n)]
    if missing:
        raise RecordError(f"{kind} move is missing {', '.join(missing)}")
    values = {n: _tuplify(data[n]) for n in names if n in data}
    for f in fields(cls):
        want = _FIELD_TYPES.get(f.type if isinstance(f.type, str) else f.type.__name__)
        if f.name in values and want is not None and type(values[f.name]) is not want:
            raise RecordError(
                f"bad {kind} move: {f.name} must be {want.__name__}, not {values[f.name]!r}"
            )
    try:
        return cls(**values)
    except TypeError as exc:
        raise RecordError(f"bad {kind} move {data!r}: {exc}") from None


# Field annotations checked exactly (a bool is not an int here: JSON true is not a seat or a die).
_FIELD_TYPES = {"int": int, "str": str}


def _required(cls: type, name: str) -> bool:
    from dataclasses import MISSING

    f = next(f for f in fields(cls) if f.name == name)
    return f.default is MISSING and f.default_factory is MISSING


def _tuplify(value: Any) -> Any:
    """JSON has lists where moves keep tuples (e.g. a jump's path)."""
    if isinstance(value, list):
        return tuple(_tuplify(v) for v in value)
    return value
