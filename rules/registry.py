"""Games by name."""

from __future__ import annotations

from .errors import UnknownGameError
from .game import Game

_GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game available to `get` under its `name`."""
    _GAMES[cls.name] = cls
    return cls


def names() -> list[str]:
    _load()
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    _load()
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        raise UnknownGameError(str(name), sorted(_GAMES)) from None


def get(name: str, players: int | None = None, options: dict | None = None) -> Game:
    """A configured game: `players` defaults to the game's usual count; options are validated."""
    cls = game_class(name)
    if players is None:
        players = cls.default_players
    return cls(players, options)


def _load() -> None:
    from . import games  # noqa: F401  (registers every game module on import)
