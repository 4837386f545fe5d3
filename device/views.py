"""What each audience may see of the game: the table page, one seat's phone, the record.

With hidden identities (Playground Battles) the table page and the public record show only what
every player may know; a seat's phone adds that seat's own secrets. These are pure functions of
the game, its position and the referee's bookkeeping, called under the referee's lock.
"""

from __future__ import annotations

from typing import Any

import rules
from rules import Move
from rules.games.playground_battles import Keep

from .seats import SeatBook, has_secrets

REDACTED_NOTE = (
    "the players' secret set-ups are blanked while the game is in progress; "
    "the full record is here once the game is over"
)


def table_snapshot(
    game: rules.Game,
    state: Any,
    *,
    ruling: dict[str, Any] | None,
    moves: int,
    waiting_fix: bool,
    mode: str,
    seats: SeatBook,
) -> dict[str, Any]:
    """The table page's view: position, legal moves, standing ruling, and the seats' links."""
    outcome = game.outcome(state)
    legal = [] if outcome else game.legal_moves(state)
    secret = has_secrets(game)
    if secret and state.phase == "setup":
        legal = []  # sample set-ups for random playouts, nobody's entry: never shown
    data = {
        "game": game.name,
        "title": game.title,
        "players": game.players,
        "options": dict(game.options),
        "colours": list(game.colours),
        "to_move": state.to_move,
        "to_move_colour": game.colours[state.to_move],
        "actor": getattr(state, "actor", state.to_move),
        "phase": state.phase,
        "dice": getattr(state, "dice", 0),
        "placement": game.placement(state),
        "ruling": ruling,
        "moves": moves,
        "legal": [game.public_move(m, None) | {"text": str(m)} for m in legal],
        "outcome": outcome.to_json() if outcome else None,
        "waiting_fix": waiting_fix,
        "mode": mode,
        "state": game.view(state, None) if secret else game.state_to_json(state),
    }
    if secret:
        data["seats"] = seats.public(game.colours, game.view(state, None).get("assigned"))
    return data


def seat_view(
    game: rules.Game,
    state: Any,
    seat: int,
    hands: dict[int, str],
    ruling: dict[str, Any] | None,
    moves: int,
) -> dict[str, Any]:
    """What seat `seat` may know: its own pieces' identities, the public rest."""
    view = game.view(state, seat)
    legal = game.legal_moves(state) if game.outcome(state) is None else []
    return {
        "seat": seat,
        "colour": game.colours[seat],
        "colours": list(game.colours),
        "game": game.name,
        "title": game.title,
        "view": view,
        "back_row": back_row(game, state, seat),
        "my_hand": hands.get(seat),
        "hands_in": [n in hands for n in range(len(game.colours))],
        "keep": [
            game.public_move(m, seat) for m in legal if isinstance(m, Keep) and m.player == seat
        ],
        "ruling": ruling,
        "moves": moves,
    }


def back_row(game: rules.Game, state: Any, seat: int) -> list[str]:
    """The squares where `seat` sets up its pieces (only while setting up)."""
    if state.phase != "setup":
        return []
    return [p["space"] for p in game.view(state, seat)["pieces"] if p["seat"] == seat]


def public_record(game: rules.Game, state: Any, moves: list[Move]) -> dict[str, Any]:
    """The game record. With hidden identities and the game still going, the public record:
    set-ups blanked (it does not replay until the game is over)."""
    record = game.record(moves)
    if has_secrets(game) and game.outcome(state) is None:
        record["moves"] = [game.public_move(m, None) for m in moves]
        record["redacted"] = True
        record["note"] = REDACTED_NOTE
    return record


def history_entry(
    game: rules.Game, state: Any, n: int, move: Move, ruling: dict[str, Any]
) -> dict[str, Any]:
    """The history row for move number `n` just applied: public move, ruling, position after."""
    return {
        "n": n,
        "move": game.public_move(move, None),
        "text": str(move),
        "ruling": ruling,
        "placement": game.placement(state),
        "to_move": state.to_move,
        "phase": state.phase,
        "dice": getattr(state, "dice", 0),
    }
