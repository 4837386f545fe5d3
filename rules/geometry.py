"""Board geometry as data.

One geometry drives everything that needs to know where a space is: the rules (paths), the
printable board, the web diagram, the simulated camera and the vision sampling. Positions are in
millimetres on the printed board, origin at the board's top-left corner, x to the right, y down
(image convention), so "clockwise" means clockwise as seen from above the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class Space:
    """One hole or square a token can stand on."""

    id: str
    kind: str  # base, start, track, star, centre, home, ... (game specific vocabulary)
    x: float  # millimetres from the board's left edge
    y: float  # millimetres from the board's top edge
    owner: int | None = None  # seat index that owns the space (base, home, start), if any
    label: str = ""  # short text printed beside the space, if any


@dataclass(frozen=True, slots=True)
class Region:
    """A rectangle on the board with a purpose (a dice tray, a title panel)."""

    name: str
    x: float
    y: float
    w: float
    h: float
    owner: int | None = None


@dataclass(frozen=True)
class Board:
    """A game's printed board: spaces, the lines printed between them, and its size.

    `links` are pairs of space ids drawn as connecting lines (paths players follow);
    `regions` are areas such as dice trays. `hole_radius` is the printed hole/space radius and
    `token_radius` the radius of a token standing on it, both in millimetres.
    """

    name: str
    width: float
    height: float
    spaces: tuple[Space, ...]
    links: tuple[tuple[str, str], ...] = ()
    regions: tuple[Region, ...] = ()
    hole_radius: float = 5.0
    token_radius: float = 6.0
    seat_colours: tuple[str, ...] = ()
    marker_ids: tuple[int, int, int, int] = (0, 1, 2, 3)  # ArUco ids: TL, TR, BR, BL corners
    marker_size: float = 28.0  # side of each printed ArUco marker (black border included), mm
    marker_margin: float = 6.0  # gap between the board edge and each marker, mm
    # Two tokens of different colours may stand side by side on one space (a battle waiting
    # for its reveal); the reader then reports "red+blue" instead of calling it unclear.
    shared_spaces: bool = False
    # How far off its space's centre a token may come to rest (mm). None: up to a quarter of
    # the spacing, as a hand puts a pawn, checker or stand down; a marble rolls into its hole.
    token_settle: float | None = None
    index: Mapping[str, int] = field(init=False, repr=False, compare=False)
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {space.id: i for i, space in enumerate(self.spaces)}
        if len(index) != len(self.spaces):
            raise ValueError(f"board {self.name!r} has duplicate space ids")
        object.__setattr__(self, "index", MappingProxyType(index))

    def __hash__(self) -> int:
        # Vision looks its per-board plans up in caches keyed by the board on every frame;
        # hashing every space each time cost about 0.1 ms a lookup. A Board never changes,
        # so its hash is worked out once.
        if self._hash is None:
            key = tuple(getattr(self, f.name) for f in fields(self) if f.compare)
            object.__setattr__(self, "_hash", hash(key))
        return self._hash

    def space(self, space_id: str) -> Space:
        """The space with this id (KeyError naming the id when unknown)."""
        try:
            return self.spaces[self.index[space_id]]
        except KeyError:
            raise KeyError(f"board {self.name!r} has no space {space_id!r}") from None

    def ids(self) -> tuple[str, ...]:
        return tuple(space.id for space in self.spaces)

    def marker_squares(self) -> dict[int, tuple[tuple[float, float], ...]]:
        """Each corner marker's id -> its four corners in board mm (TL, TR, BR, BL order).

        The order matches OpenCV's ArUco corner order, so the pairs feed a homography directly.
        """
        m, s = self.marker_margin, self.marker_size
        origins = (
            (m, m),
            (self.width - m - s, m),
            (self.width - m - s, self.height - m - s),
            (m, self.height - m - s),
        )
        return {
            marker_id: ((x, y), (x + s, y), (x + s, y + s), (x, y + s))
            for marker_id, (x, y) in zip(self.marker_ids, origins, strict=True)
        }

    def to_json(self) -> dict:
        """A plain description for the web diagram, the printable board and board profiles."""
        return {
            "name": self.name,
            "width": self.width,
            "height": self.height,
            "hole_radius": self.hole_radius,
            "token_radius": self.token_radius,
            "seat_colours": list(self.seat_colours),
            "marker_ids": list(self.marker_ids),
            "marker_size": self.marker_size,
            "marker_margin": self.marker_margin,
            "spaces": [
                {
                    "id": s.id,
                    "kind": s.kind,
                    "x": round(s.x, 2),
                    "y": round(s.y, 2),
                    "owner": s.owner,
                    "label": s.label,
                }
                for s in self.spaces
            ],
            "links": [list(pair) for pair in self.links],
            "regions": [
                {"name": r.name, "x": r.x, "y": r.y, "w": r.w, "h": r.h, "owner": r.owner}
                for r in self.regions
            ],
        }
