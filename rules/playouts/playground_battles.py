"""Playground Battles playouts: the turns of roll and move played on bit masks and one dict of
pieces per side, changed in place; the rules core's state is built only at the end.

Listing every step (about 65 per roll, 180 path masks checked) was 80% of a playout, so a step
is drawn instead: every piece gets as many slots as the most walk ends any square has for the
roll, its own walk ends (every legal step is one of them) fill the first of them, and a slot
is drawn uniformly; it is kept when it holds a walk end whose walk is open, and drawn again
when not (rejection sampling); the steps are listed in full only after `TRIES` misses (so a
pass is certain). The step played is uniform among the
legal steps, as the rules core's would be, but the random numbers are drawn differently, so
this routine plays other games than `public_playout` from the same seed;
tests/test_playouts.py replays its games through the rules core move by move instead.
A battle on a stalemate square (a rescue) and what follows it (keep, place) go through the
rules core, and so does every phase before the first roll (a set-up drawn from the game's own
samples is applied without a second check).
"""

from __future__ import annotations

import functools
from typing import Any

from ..games.playground_battles import LOST, STALEMATE, WON, PlaygroundState, beats
from ..moves import Roll
from . import Playout

TRIES = 24  # draws before the steps are listed in full (then a pass is known for sure)


def run(game: Any, state: Any, rand: Any, limit: int, record: list | None) -> Playout:
    moves = rolls = 0
    while moves < limit and state.phase != "over":
        phase = state.phase
        if phase in ("roll", "move") and state.actor == state.to_move:
            state, made, rolled = _turns(game, state, rand, limit - moves, record)
            moves += made
            rolls += rolled
            continue
        choices = game.legal_moves(state)
        if not choices:
            break
        move = choices[int(rand() * len(choices))]
        if record is not None:
            record.append(move)
        if move.__class__ is Roll:
            rolls += 1
        # a set-up drawn from the game's own samples is valid: no need to check it again
        state = game._apply_assign(state, move) if phase == "setup" else game.apply(state, move)
        moves += 1
    return Playout(state, moves, rolls)


@functools.lru_cache(maxsize=16)
def _draws(game: Any) -> tuple[tuple, tuple]:
    """(draws, widest): draws[p][d][s] is how many steps seat p's piece on s may draw with
    roll d (walk ends, and the opponent's base when a walk leads there); widest[p][d] the
    most any square has, the slots every piece gets."""
    table, base_paths = game._step_table, game._base_paths
    draws = tuple(
        tuple(
            tuple(
                len(table[p][s][d]) + (1 if base_paths[1 - p][s][d] else 0) if d else 0
                for s in range(len(table[p]))
            )
            for d in range(7)
        )
        for p in (0, 1)
    )
    return draws, tuple(tuple(max(counts) for counts in by_die) for by_die in draws)


def _turns(
    game: Any, state: PlaygroundState, rand: Any, limit: int, record: list | None
) -> tuple[PlaygroundState, int, int]:
    """Play from a roll or move phase until the game is over, a rescue is tried (handed to the
    rules core) or `limit` moves were made: (state, moves made, rolls made)."""
    step_table, base_paths, base_steps = game._step_table, game._base_paths, game._base_steps
    base, near = game._base, game._near
    roll_moves, passes = game._rolls, game._passes
    any_roll = game.options["no_moves"] == "any-roll"
    draws, widest_of = _draws(game)
    pieces = [{s: (k, r) for s, k, r in side} for side in state.pieces]
    masks = [sum(1 << s for s in side) for side in pieces]

    def can_move(x: int) -> bool:
        own, other = masks[x], masks[1 - x]
        blocked = own & ~other
        own_base = base[x]
        for s in pieces[x]:
            if other >> s & 1:
                continue
            for nb in near[s]:
                if nb != own_base and not blocked >> nb & 1:
                    return True
        return False

    def listed(p: int, d: int, occupied: int, blocked: int, other: int) -> list:
        """Every legal step (s, t, Step), as the rules core's `_steps` finds them."""
        found = []
        table, paths, base_step, target = (
            step_table[p],
            base_paths[1 - p],
            base_steps[p],
            base[1 - p],
        )
        for s in pieces[p]:
            if other >> s & 1:
                continue
            for dest, walks, step in table[s][d]:
                if not blocked >> dest & 1 and any(not m & occupied for m in walks):
                    found.append((s, dest, step))
            if any(not m & occupied for m in paths[s][d]):
                found.append((s, target, base_step[s]))
        return found

    p, phase, d, last = state.to_move, state.phase, state.dice, state.last
    result: tuple = ()
    moves = rolls = 0
    while moves < limit:
        if phase == "roll":
            i = int(rand() * 6)
            if record is not None:
                record.append(roll_moves[p][i])
            d, phase = i + 1, "move"
            moves += 1
            rolls += 1
            if moves == limit:
                break
        q = 1 - p
        mine, theirs = pieces[p], pieces[q]
        own, other = masks[p], masks[q]
        occupied, blocked = own | other, own & ~other
        free = list(mine)
        counts = draws[p][d]
        widest = widest_of[p][d]
        total = len(free) * widest
        chosen = None
        if total:
            table, paths = step_table[p], base_paths[q]
            for _ in range(TRIES):
                i, r = divmod(int(rand() * total), widest)
                s = free[i]
                if r >= counts[s] or other >> s & 1:  # an empty slot, or a stalemated piece
                    continue
                entries = table[s][d]
                if r < len(entries):
                    dest, walks, step = entries[r]
                    if not blocked >> dest & 1:
                        for m in walks:
                            if not m & occupied:
                                chosen = (s, dest, step)
                                break
                else:
                    for m in paths[s][d]:
                        if not m & occupied:
                            chosen = (s, base[q], base_steps[p][s])
                            break
                if chosen is not None:
                    break
            else:
                found = listed(p, d, occupied, blocked, other)
                if found:
                    chosen = found[int(rand() * len(found))]
        moves += 1
        if chosen is None:  # a pass
            if record is not None:
                record.append(passes[p])
            last = ()
            if not any_roll:
                winner = q if can_move(q) else -1
                phase, result = "over", (winner, 2 if winner >= 0 else 3)
                break
        else:
            s, t, step = chosen
            if t in mine:  # a rescue: the rules core plays it and what follows
                before = _state(p, "move", d, pieces, last, ())
                if record is not None:
                    record.append(step)
                return game._apply_step(before, s, t), moves, rolls
            if record is not None:
                record.append(step)
            a, known = mine.pop(s)
            bit = 1 << t
            masks[p] = own = own & ~(1 << s)
            if t == base[q]:
                mine[t] = (a, known)
                masks[p] = own | bit
                phase, last, result = "over", (), (p, 0)
                break
            held = theirs.get(t)
            if held is None:
                mine[t] = (a, known)
                masks[p] = own | bit
                last = ()
            else:
                e, seen = held
                if beats(a, e):
                    del theirs[t]
                    masks[q] = other & ~bit
                    mine[t] = (a, 1)
                    masks[p] = own | bit
                    last = (t, p, WON, a, e)
                elif beats(e, a):
                    theirs[t] = (e, 1)
                    last = (t, p, LOST, a, e)
                else:  # equal kinds: a stalemate (PB-5.1)
                    shown = 1 if known or seen else 0
                    mine[t] = (a, shown)
                    theirs[t] = (e, shown)
                    masks[p] = own | bit
                    last = (t, p, STALEMATE, -1, -1)
        # the end of the turn, as the rules core's `_end_turn`
        if not theirs:
            phase, result = "over", (p, 1)
            break
        if not mine:
            phase, result = "over", (q, 1)
            break
        if any_roll and not can_move(q):
            phase, result = "over", (p, 2) if can_move(p) else (-1, 3)
            break
        p, phase, d = q, "roll", 0
    return _state(p, phase, d, pieces, last, result), moves, rolls


def _state(p: int, phase: str, d: int, pieces: list, last: tuple, result: tuple) -> Any:
    packed = tuple(tuple(sorted((s, k, r) for s, (k, r) in side.items())) for side in pieces)
    return PlaygroundState(p, phase, d, p, packed, (), last, result)
