"""One module per game, each registering itself with `rules.registry` on import."""

from . import aggravation, manipulation, manji, playground_battles, the_right_moves  # noqa: F401
