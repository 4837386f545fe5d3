"""House-rule options: named, typed, with allowed values, validated when a game is made."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import OptionError


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    default: Any
    choices: tuple[Any, ...]
    help: str
    clause: str | None = None  # the interpretation clause the option switches

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "default": self.default,
            "choices": list(self.choices),
            "help": self.help,
            "clause": self.clause,
        }


def resolve_options(game: str, declared: tuple[Option, ...], given: dict | None) -> dict:
    """Defaults overlaid with `given`; OptionError names the bad key or value and the allowed."""
    values = {o.name: o.default for o in declared}
    if given is None:
        return values
    if not isinstance(given, dict):
        raise OptionError(f"{game} options must be a mapping, not {type(given).__name__}")
    by_name = {o.name: o for o in declared}
    for key, value in given.items():
        option = by_name.get(key)
        if option is None:
            known = ", ".join(sorted(by_name)) or "none"
            raise OptionError(f"{game} has no option {key!r}; options: {known}")
        if value not in option.choices or type(value) is not type(option.default):
            allowed = ", ".join(repr(c) for c in option.choices)
            raise OptionError(f"{game} option {key!r} cannot be {value!r}; allowed: {allowed}")
        values[key] = value
    return values
