"""Playground Battles twins: two tables that differ only in what the public table cannot know.

`twin(state, rng)` gives the same position with every hidden kind drawn again (a stalemate's two
pieces stay equal, as PB-5.1 tells the table; revealed pieces keep their kind). `pictures`
lists what a camera may plausibly see around each attack a mover could make: the contest mark,
either stand taken off, both taken off, the defender lifted with no attack. The property test
(tests/test_pb_hidden_kinds.py) checks that the rules answer every one of them the same on both
tables; run as a script it counts the differing inferences over many random games:

    .venv/bin/python -m tests.pb_twins [games]
"""

from __future__ import annotations

import json
import random
import sys

import rules
from rules import Step
from rules.games.playground_battles import PlaygroundState

GAME = "playground-battles"


def twin(
    state: PlaygroundState,
    rng: random.Random,
    seats: tuple[int, ...] = (0, 1),
    keep: frozenset[int] = frozenset(),
) -> PlaygroundState:
    """`state` with the kinds the public table does not know drawn again at random: those of
    `seats`, except on the squares (indices) in `keep`. Revealed pieces keep their kind; a
    stalemate's two pieces stay equal (PB-5.1 tells the table that much)."""
    squares: dict[int, list[tuple[int, int]]] = {}
    for p, side in enumerate(state.pieces):
        for i, (s, _k, _r) in enumerate(side):
            squares.setdefault(s, []).append((p, i))
    pieces = [list(side) for side in state.pieces]
    for square, holders in squares.items():
        if square in keep or any(p not in seats for p, _i in holders):
            continue
        if any(state.pieces[p][i][2] or state.pieces[p][i][1] < 0 for p, i in holders):
            continue  # revealed (which tells its stalemate partner too), or not entered yet
        kind = rng.randrange(3)
        for p, i in holders:
            s, _k, r = pieces[p][i]
            pieces[p][i] = (s, kind if len(holders) > 1 else rng.randrange(3), r)
    return state._replace(pieces=tuple(tuple(sorted(side)) for side in pieces))


def attacks(game: rules.Game, state: PlaygroundState) -> list[Step]:
    """The mover's legal steps that end on an opponent's stand (a battle or a rescue)."""
    placement = game.placement(state)
    mine = game.colours[state.actor]
    return [
        m
        for m in game.legal_moves(state)
        if isinstance(m, Step) and placement.get(m.to) not in (None, mine)
    ]


def pictures(game: rules.Game, state: PlaygroundState) -> list[dict[str, str]]:
    """Camera pictures around every attack the mover could make now."""
    before = game.placement(state)
    mine = game.colours[state.actor]
    out = []
    for move in attacks(game, state):
        moved = {s: c for s, c in before.items() if s != move.frm}
        out.append(dict(moved, **{move.to: game.contest_mark}))  # the contest picture
        out.append(dict(moved, **{move.to: mine}))  # the defender taken off
        out.append(moved)  # the attacker taken off
        out.append({s: c for s, c in moved.items() if s != move.to})  # both taken off
        out.append({s: c for s, c in before.items() if s != move.to})  # defender lifted only
    return out


def same(a: object, b: object) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def count(games: int, seed: int = 0) -> tuple[int, int]:
    """(pictures shown, pictures inferred differently) over `games` random games."""
    game = rules.get(GAME)
    rng = random.Random(seed)
    shown = differ = 0
    for n in range(games):
        _final, moves = rules.playout(game, seed=seed * 100_003 + n, max_moves=400)
        state = game.initial_state()
        for move in moves:
            if state.phase == "move":
                other = twin(state, rng)
                for seen in pictures(game, state):
                    shown += 1
                    a = game.infer(state, seen).to_json()
                    b = game.infer(other, seen).to_json()
                    differ += not same(a, b)
            state = game.apply(state, move)
    return shown, differ


if __name__ == "__main__":
    total = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    shown, differ = count(total)
    print(json.dumps({"games": total, "pictures": shown, "inferred_differently": differ}))
