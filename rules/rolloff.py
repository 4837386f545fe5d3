"""The opening roll-off several games share: everyone rolls once; ties for the best roll again.

`rolls[seat]` is 0 while that seat still has to roll in this round, -1 once it is out of the
roll-off, else the value it rolled. Games keep the tuple in their state.
"""

from __future__ import annotations

from typing import NamedTuple


class RollOff(NamedTuple):
    rolls: tuple[int, ...]  # the roll-off after this roll (all zeros again for a re-roll)
    seat: int  # who rolls next, or the winner once decided
    decided: bool


def start(players: int) -> tuple[int, ...]:
    return (0,) * players


def record_roll(rolls: tuple[int, ...], seat: int, value: int, lowest: bool = False) -> RollOff:
    """Record `seat`'s roll; the best roll (highest, or lowest) wins, tied seats roll again."""
    new = list(rolls)
    new[seat] = value
    waiting = [s for s, r in enumerate(new) if r == 0]
    if waiting:
        return RollOff(tuple(new), waiting[0], False)
    rolled = [r for r in new if r > 0]
    best = min(rolled) if lowest else max(rolled)
    leaders = [s for s, r in enumerate(new) if r == best]
    if len(leaders) > 1:
        return RollOff(tuple(0 if r == best else -1 for r in new), leaders[0], False)
    return RollOff(tuple(new), leaders[0], True)
