"""What a seat may know, filled in by chance: the coach never looks at a hidden piece.

Playground Battles hides each piece's kind from the other side. Before every playout the coach
rebuilds the position from `game.view(state, viewer)` alone (what the viewer was shown) and
draws every kind the viewer has not seen, consistent with what it was shown: a revealed piece
keeps its kind, and a piece in a stalemate has the kind of the viewer's own piece facing it
(PB-5.1: a stalemate is two pieces of one kind). Other kinds are drawn uniformly. The state's
own identities are never read, so two positions that differ only in what the viewer cannot
see give the same rankings (tests/test_coach.py checks this).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Sampler = Callable[[Any, Any, "int | None", random.Random], Any]


def sampler_for(game: Any) -> Sampler | None:
    """The sampler of a game with hidden information, None for a game without."""
    return _SAMPLERS.get(game.name)


def _playground(game: Any, state: Any, viewer: int | None, rng: random.Random) -> Any:
    view = game.view(state, viewer)
    index = game.board.index
    kinds = ("rock", "paper", "scissors")
    known: dict[int, int] = {}  # square -> kind of a piece the viewer knows there
    for piece in view["pieces"]:
        if piece["identity"] is not None:
            known.setdefault(index[piece["space"]], kinds.index(piece["identity"]))
    pieces: list[list[tuple[int, int, int]]] = [[], []]
    for piece in view["pieces"]:
        square = index[piece["space"]]
        if piece["identity"] is not None:
            kind = kinds.index(piece["identity"])
        elif piece["stalemate"]:  # both pieces of a stalemate are of one kind
            kind = known.setdefault(square, int(rng.random() * 3))
        else:
            kind = int(rng.random() * 3)
        pieces[piece["seat"]].append((square, kind, int(piece["revealed"])))
    return state._replace(pieces=(tuple(sorted(pieces[0])), tuple(sorted(pieces[1]))))


_SAMPLERS: dict[str, Sampler] = {"playground-battles": _playground}
