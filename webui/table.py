"""What the web page needs from the running referee (handed in through `create_app(table=...)`).

webui never imports device: the appliance's referee implements this protocol, and tests hand
in a fake. Every method is safe to call from any request thread and never blocks for long.
Rulings, states and events are plain JSON-able dicts.
"""

from __future__ import annotations

import queue
from typing import Any, Protocol

import rules


class TableError(Exception):
    """A request the table refuses (bad move text, unknown game, bad option...).

    The message names what was wrong; the web layer answers it with a 4xx and the game in
    progress is untouched.
    """


class Table(Protocol):
    pin: str  # the table PIN that guards changes ("" means no PIN is set: changes are open)

    @property
    def game(self) -> rules.Game: ...  # the game being refereed (board, clauses, colours)

    def snapshot(self) -> dict[str, Any]:
        """{"game", "players", "to_move", "phase", "dice", "placement", "ruling", "moves",
        "colours", "actor", "legal": [move json...], "outcome", "mode": "camera"|"manual"}.
        `ruling` is the latest ruling dict or None:
        {"kind": "legal"|"illegal"|"unclear"|"pass"|"roll"|"win"|..., "text", "clauses": [...],
         "effects": [...], "spaces": [...], "fix": "what to do"}
        Optional: "seq", the number of the last state published (rising with each one), and
        "epoch", naming the run that counts them; the page shows no state older than one it
        has shown (docs/web-api.md)."""
        ...

    def roll(self, source: str = "web") -> dict[str, Any]:
        """Roll the die exactly as the physical button does; returns the new snapshot."""
        ...

    def manual_move(self, move: dict[str, Any]) -> dict[str, Any]:
        """A move tapped on the diagram (move JSON as in rules.Move.to_json); checked exactly
        like a camera move. Returns the ruling dict. Raises TableError on malformed input."""
        ...

    def undo(self) -> dict[str, Any]:
        """Undo the last applied move/ruling; returns the new snapshot. TableError if nothing."""
        ...

    def new_game(self, game: str, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """Start a new game (TableError naming a bad game/players/option); returns snapshot."""
        ...

    def history(self) -> list[dict[str, Any]]:
        """Every entry so far: {"n", "move": move json, "text", "ruling": ruling dict,
        "placement": placement after it, "to_move", "phase", "dice"}."""
        ...

    def record(self) -> dict[str, Any]:
        """The game record (rules.Game.record) for download; replays to the same state."""
        ...

    def subscribe(self) -> queue.Queue:
        """A queue that receives ("state", snapshot) and ("ruling", ruling) tuples."""
        ...

    def unsubscribe(self, q: queue.Queue) -> None: ...

    def status(self) -> dict[str, Any]:
        """{"camera": {"ok": bool, "source": str, "error": str|None},
        "panel": {"green": bool, "amber": bool, "red": bool, "buzzer": str|None,
                  "pattern": str|None}}"""
        ...

    def frame_jpeg(self) -> bytes | None:
        """The newest annotated camera frame as JPEG bytes (None when no camera)."""
        ...


class SecretSeats(Protocol):
    """Optional, for games with hidden identities (webui/play.py): one secret link per seat.

    Every method raises TableError; one with a `status` attribute (404 unknown link, 403 held
    by another browser) is answered with that status. Only `seat_state` shows identities, and
    only the seat's own (`game.view(state, seat)`); everything else is public.
    """

    secret: bool  # the game in progress hides information: players join on their phones

    def seat_of(self, token: str) -> int | None: ...  # the seat of a link token, or None

    def claim_seat(self, token: str, claimant: str) -> int: ...  # first opener holds it

    def seat_claimed_by(self, token: str, claimant: str | None) -> int: ...

    def join_token(self, seat: int) -> str | None: ...  # an unclaimed seat's token (QR code)

    def reset_seat(self, seat: int) -> dict[str, Any]: ...  # a new link; the old one is dead

    def seat_state(self, seat: int) -> dict[str, Any]: ...  # what that seat may know

    def seat_assign(self, seat: int, identities: Any, source: str = "phone") -> dict: ...

    def seat_hand(self, seat: int, hand: str) -> dict[str, Any]: ...  # opening hand

    def seat_keep(self, seat: int, stay: str) -> dict[str, Any]: ...  # after a rescue
