"""The Right Moves playouts: the pieces kept as bit masks and lists changed in place, and each
move drawn by rejection; the rules core's state is built only at the end.

Listing every move of a position (about 23: a step for each free neighbour, a promoted
piece's skips, jump series) was nearly all of a playout. Here a move is drawn uniformly from
slots: four step slots per piece that is not promoted (one per neighbour it may step to; the
rest stay empty), a promoted piece's skips along each of its rays, and the jump series
(counted by the rules core's search, run without building the moves, only for pieces beside
an opponent). A slot that is empty, blocked, or a skip to a target an earlier ray already
reaches is drawn again; after `TRIES` misses the rules core lists the moves. So the move
played is uniform among the legal moves, as the rules core's would be, but the random
numbers are drawn differently: tests/test_playouts.py replays these games through the rules
core move by move and checks the draws are uniform.

With the house rules `must_jump` or `skip_turns` (moves this routine does not draw) the moves
are listed by the rules core each time (`listed_run`), and then a seeded playout is move for
move the public API's game.
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from itertools import accumulate
from typing import Any

from ..games.the_right_moves import RightMovesState
from ..moves import Step
from . import Playout

TRIES = 48  # draws before the moves are listed in full
STEP_SLOTS = 4  # slots per piece that is not promoted: it has at most four steps


def run(game: Any, state: Any, rand: Any, limit: int, record: list | None) -> Playout:
    if game.options["must_jump"] or game.options["skip_turns"] or state.phase != "move":
        return listed_run(game, state, rand, limit, record)
    return _drawn_run(game, state, rand, limit, record)


def listed_run(game: Any, state: Any, rand: Any, limit: int, record: list | None) -> Playout:
    """Each position's moves listed once by the rules core (the public API lists them again
    to check the move played, and once more to see whether the game is over)."""
    generate, moved, won = game._generate, game._moved, game._won
    choices = generate(state, state.to_move) if state.phase == "move" else []
    moves = 0
    while moves < limit and choices:
        move = choices[int(rand() * len(choices))]
        if record is not None:
            record.append(move)
        moves += 1
        state = moved(state, move)
        if won(state) is not None:
            return Playout(state._replace(phase="over"), moves, 0)
        choices = generate(state, state.to_move)
        if not choices:  # no move for the player to move (TRM-0.6)
            return Playout(state._replace(phase="over"), moves, 0)
    return Playout(state, moves, 0)


@functools.lru_cache(maxsize=16)
def _slots(game: Any) -> tuple:
    """Per person and space: the plain steps as (target, bit, Step), a promoted piece's skips
    as (target, the squares that must be empty along each ray reaching it, Step): one slot
    per target, however many rays reach it; and how many skip slots each space has."""
    bits, rays, ids = game._bits, game._rays, game._ids
    near = game._neighbours
    plain, crowned = [], []
    for person in range(game.players):
        plain.append(
            tuple(
                tuple((game._ids.index(move.to), bit, move) for bit, move in by_space)
                for by_space in game._plain_steps[person]
            )
        )
        per_space = []
        for s in range(len(ids)):
            ways: dict[int, list[int]] = {}
            for _d, ray in rays[s]:
                path = 0
                for t in ray:
                    if t == s:
                        break
                    path |= bits[t]
                    ways.setdefault(t, []).append(path)
            per_space.append(
                tuple(
                    (t, tuple(paths), game._step(person, s, t, "" if t in near[s] else "skip"))
                    for t, paths in ways.items()
                )
            )
        crowned.append(tuple(per_space))
    counts = tuple(tuple(map(len, by_person)) for by_person in crowned)
    return tuple(plain), tuple(crowned), counts


@functools.lru_cache(maxsize=16)
def _series_counter(game: Any) -> Any:
    """count(start, crowned, occupied, opp): how many jump series the rules core's `_jumps`
    finds from `start` (the same search, without building the moves)."""
    bits, ring = game._bits, game._ring
    hops = tuple(
        tuple(
            (direction, bits[ray[0]], ray[1], bits[ray[1]], ring[ray[1]])
            for direction, ray in game._rays[s]
            if len(ray) > 1
        )
        for s in range(len(bits))
    )
    promotion_ends = game.options["promotion_ends_move"]
    turn_inner = game.options["turn_on_inner_spaces"]

    def onward(pos: int, occ: int, opp_left: int, came: int, free: bool, stop_inner: bool) -> int:
        """Series going on from `pos`, where a jump has just landed."""
        here = ring[pos]
        if here == 0:
            if stop_inner:  # TRM-I.2
                return 0
            free = True  # promoted on arrival: jumps on as a promoted piece (TRM-3.2)
        found = 0
        for direction, over, land, land_bit, land_ring in hops[pos]:
            if not opp_left & over or occ & land_bit:
                continue
            if direction != came and here == 0 and not turn_inner:  # TRM-3.5
                continue
            if not free and land_ring > here:
                continue
            found += 1 + onward(land, occ & ~over, opp_left & ~over, direction, free, stop_inner)
        return found

    def count(start: int, crowned: bool, occupied: int, opp: int) -> int:
        occ = occupied & ~bits[start]
        here = ring[start]
        free = crowned or here == 1
        stop_inner = promotion_ends and not crowned
        found = 0
        for direction, over, land, land_bit, land_ring in hops[start]:
            if not opp & over or occ & land_bit:
                continue
            if not free and land_ring > here:
                continue
            found += 1 + onward(land, occ & ~over, opp & ~over, direction, free, stop_inner)
        return found

    return count


def _drawn_run(
    game: Any, state: RightMovesState, rand: Any, limit: int, record: list | None
) -> Playout:
    bits, ring, index = game._bits, game._ring, game.board.index
    jump_over = game._jump_over
    inner, players = game._inner_mask, game.players
    jumps_from, count_series = game._jumps, _series_counter(game)
    plain_slots, crowned_slots, crowned_counts = _slots(game)
    promoted = sum(bits[s] for s in state.promoted)
    masks = [sum(bits[s] for s in side) for side in state.pieces]
    plain = [[s for s in side if not promoted >> s & 1] for side in state.pieces]
    crowned = [[s for s in side if promoted >> s & 1] for side in state.pieces]
    person = state.to_move

    def now(phase: str = "move") -> RightMovesState:
        pieces = tuple(tuple(sorted(plain[x] + crowned[x])) for x in (0, 1))
        kept = tuple(s for s in range(len(bits)) if promoted >> s & 1)
        return RightMovesState(person, phase, 0, person, pieces, kept)

    def lose(x: int, s: int) -> None:
        nonlocal promoted
        masks[x] &= ~bits[s]
        if promoted >> s & 1:
            crowned[x].remove(s)
            promoted &= ~bits[s]
        else:
            plain[x].remove(s)

    def land(x: int, s: int, t: int, crowning: bool) -> None:
        """Side x's piece goes from s to t (promoted there when `crowning`)."""
        nonlocal promoted
        masks[x] = masks[x] & ~bits[s] | bits[t]
        if promoted >> s & 1:
            row = crowned[x]
            row[row.index(s)] = t
            promoted = promoted & ~bits[s] | bits[t]
        elif crowning:
            plain[x].remove(s)
            crowned[x].append(t)
            promoted |= bits[t]
        else:
            row = plain[x]
            row[row.index(s)] = t

    moves = 0
    while moves < limit:
        side = person % 2
        own, opp = masks[side], masks[1 - side]
        occupied = own | opp
        series = 0
        jumpers = [s for s in plain[side] if jump_over[s] & opp]
        if crowned[side]:
            jumpers += [s for s in crowned[side] if jump_over[s] & opp]
        for s in jumpers:
            series += count_series(s, bool(promoted >> s & 1), occupied, opp)
        walkers, hoppers = plain[side], crowned[side]

        hop_ends = list(accumulate(map(crowned_counts[person].__getitem__, hoppers)))
        walks = STEP_SLOTS * len(walkers)
        hops = hop_ends[-1] if hop_ends else 0
        total = walks + hops + series
        move = target = None
        for _ in range(TRIES if total else 0):
            r = int(rand() * total)
            if r < walks:
                i, k = divmod(r, STEP_SLOTS)
                s = walkers[i]
                steps = plain_slots[person][s]
                if k < len(steps):
                    t, bit, step = steps[k]
                    if not occupied & bit:
                        move, target = step, (s, t)
                        break
            elif r < walks + hops:
                r -= walks
                i = bisect_right(hop_ends, r)
                s = hoppers[i]
                t, paths, step = crowned_slots[person][s][r - hop_ends[i - 1] if i else r]
                if not all(occupied & way for way in paths):  # some ray is open to t
                    move, target = step, (s, t)
                    break
            else:  # a jump series: the rules core lists them, in the same order it counts
                jumps: list = []
                for s in jumpers:
                    is_crowned = bool(promoted >> s & 1)
                    free = is_crowned or ring[s] == 1
                    jumps_from(person, s, is_crowned, free, occupied & ~bits[s], opp, jumps, [])
                move = jumps[r - walks - hops]
                break
        else:
            listed = game._generate(now(), person)
            if not listed:  # no move for the player to move (TRM-0.6)
                return Playout(now("over"), moves, 0)
            move = listed[int(rand() * len(listed))]
        if record is not None:
            record.append(move)
        moves += 1
        taken = False
        if target is not None:
            s, t = target
            land(side, s, t, ring[t] == 0)
        elif move.__class__ is Step:
            s, t = index[move.frm], index[move.to]
            land(side, s, t, ring[t] == 0)
        else:
            path = [index[x] for x in move.path]
            for x in move.captured:
                lose(1 - side, index[x])
            t = path[-1]
            land(side, path[0], t, any(ring[v] == 0 for v in path[1:]))
            taken = True
        person = (person + 1) % players
        # the rules core's `_won`, asked only when a move can change it: the inner circle
        # held (the mover landed on it), or three pieces or fewer left (the mover took some)
        if ring[t] == 0 and masks[side] & inner == inner:
            return Playout(now("over"), moves, 0)
        if taken and len(plain[1 - side]) + len(crowned[1 - side]) <= 3:
            return Playout(now("over"), moves, 0)
    end = now()
    if not game._has_move(end, person):  # TRM-0.6, as the rules core's `apply` would say
        end = end._replace(phase="over")
    return Playout(end, moves, 0)
