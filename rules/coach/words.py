"""A move in a few words, from what the rules say it does: "captures blue", "on the star".

Built from `game.explain` (safe to show before a move is chosen, even with hidden pieces), the
kind and owner of the space the token lands on, and, in games without hidden pieces, whether
the next player could hit the token there with some roll.
"""

from __future__ import annotations

from typing import Any

from ..moves import Move, Pass, Roll

_PLAIN_KINDS = {"track", "field", "outer", "third", "second", "lane", "diamond", "home", "base"}
_ENTRANCE_KINDS = {"start", "entrance", "exit"}
_KIND_PHRASES = {"inner": "on an inner space", "centre": "in the centre", "ring": "on the ring"}
_QUIET_EFFECTS = {"pass", "again", "first", "reveal", "choose", "turn"}


def describe(game: Any, state: Any, move: Move, hidden: bool = False) -> str:
    """What `move` does, in words ("captures blue; on the star; out of reach")."""
    if isinstance(move, Pass):
        return "no move can use the roll"
    phrases: list[str] = []
    for effect in game.explain(state, move).effects:
        phrase = _effect_phrase(game, effect, move)
        if phrase and phrase not in phrases:
            phrases.append(phrase)
    dest = _destination(move)
    space = game.board.spaces[game.board.index[dest]] if dest in game.board.index else None
    if space is not None:
        phrases.extend(_space_phrases(game, space, move.player))
    if not hidden and space is not None and not {"reaches home", "wins the game"} & set(phrases):
        phrases.extend(_exposure(game, state, move, space.id))
    return "; ".join(phrases) or "a quiet move"


def _destination(move: Move) -> str | None:
    to = getattr(move, "to", None)
    if to is not None:
        return to
    path = getattr(move, "path", None)
    return path[-1] if path else None


def _effect_phrase(game: Any, effect: Any, move: Move) -> str | None:
    kind = effect.kind
    victim = _colour(game, effect.player)
    if kind in _QUIET_EFFECTS:
        return None
    if kind == "capture" and victim and effect.player != move.player:
        return f"captures {victim}"
    if kind == "battle":
        return "attacks " + effect.text.split(" attacks ", 1)[-1].split(" ", 1)[0]
    if kind == "start":
        return f"brings a {game.token_name} out"
    if kind == "home":
        return "reaches home"
    if kind == "extra_turn":
        return "rolls again"
    if kind == "promote":
        return "promotes the piece"
    if kind == "win":
        return "wins the game"
    return effect.text


def _space_phrases(game: Any, space: Any, player: int) -> list[str]:
    kind = space.kind
    owner = _owner_colour(game, space.owner)
    if kind in _ENTRANCE_KINDS and owner is not None and owner != game.colour_of(player):
        return [f"blocks {owner}'s {kind}"]
    if kind in _PLAIN_KINDS or kind in _ENTRANCE_KINDS:
        return []
    return [_KIND_PHRASES.get(kind, f"on the {kind}")]


def _exposure(game: Any, state: Any, move: Move, dest: str) -> list[str]:
    """Whether the next player (when it is another's turn next) could hit the token on `dest`
    with some roll: ["blue could hit it next turn"] or ["safe from blue next turn"]."""
    after = game.apply(state, move)
    if game.outcome(after) is not None or after.to_move == move.player:
        return []
    nxt = game.colour_of(after.to_move)
    if _hit_by_next(game, after, move.colour, dest):
        return [f"{nxt} could hit it next turn"]
    return [f"safe from {nxt} next turn"]


def _hit_by_next(game: Any, after: Any, colour: str, dest: str) -> bool:
    choices = game.legal_moves(after)
    rolls = [m for m in choices if isinstance(m, Roll)]
    replies = [r for roll in rolls for r in game.legal_moves(game.apply(after, roll))]
    for reply in replies or choices:
        if reply.colour == colour or isinstance(reply, Roll):
            continue
        if getattr(reply, "to", None) == dest or dest in getattr(reply, "captured", ()):
            return True
    return False


def _owner_colour(game: Any, owner: int | None) -> str | None:
    """The colour of a space's owner (boards number owners by their printed arms)."""
    colours = game.board.seat_colours or game.colours
    if owner is None or not 0 <= owner < len(colours):
        return None
    return colours[owner]


def _colour(game: Any, seat: int | None) -> str | None:
    if seat is None:
        return None
    try:
        return game.colour_of(seat)
    except (IndexError, TypeError):
        return None
