"""One module per game, each registering itself with `rules.registry` on import."""

from . import aggravation  # noqa: F401
