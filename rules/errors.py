"""Specific exceptions: each names the bad input and what would have been allowed."""

from __future__ import annotations


class RulesError(Exception):
    """Base class for every error raised by the rules core."""


class UnknownGameError(RulesError, KeyError):
    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(f"unknown game {name!r}; known games: {', '.join(known)}")
        self.name = name
        self.known = known

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return self.args[0]


class PlayerCountError(RulesError, ValueError):
    def __init__(self, game: str, players: object, allowed: tuple[int, ...]) -> None:
        super().__init__(
            f"{game} cannot be played by {players!r} players; allowed: "
            + ", ".join(str(n) for n in allowed)
        )
        self.players = players
        self.allowed = allowed


class OptionError(RulesError, ValueError):
    """A house-rule option that does not exist or has a value it does not accept."""


class IllegalMoveError(RulesError, ValueError):
    """`apply` was given a move that is not legal in the position; names both and the clause."""

    def __init__(self, move: object, state: object, reason: str) -> None:
        super().__init__(f"illegal move {move} in position {state}: {reason}")
        self.move = move
        self.state = state
        self.reason = reason


class RecordError(RulesError, ValueError):
    """A move, state or game record that cannot be read back from JSON."""
