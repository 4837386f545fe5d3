"""One module per game, each registering itself with `rules.registry` on import."""

from . import aggravation, manipulation, manji, the_right_moves  # noqa: F401
