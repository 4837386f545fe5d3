"""A small but real referee for the web tests: webui.table.Table on top of the rules core.

Rolls come from a seeded random.Random; manual moves go through `game.infer` on the placement
the move would leave, exactly as a camera reading would; every change is published to the
subscribers' queues as ("ruling", ruling) and ("state", snapshot).
"""

from __future__ import annotations

import queue
import random
import threading
from typing import Any

import rules
from webui.table import TableError


class FakeTable:
    def __init__(
        self,
        game: str = "aggravation",
        players: int = 4,
        options: dict | None = None,
        seed: int = 7,
        pin: str = "2468",
        mode: str = "camera",
        frame: bytes | None = None,
    ) -> None:
        self.pin = pin
        self.mode = mode
        self._rng = random.Random(seed)
        self._lock = threading.RLock()
        self._subscribers: list[queue.Queue] = []
        self._frame = frame
        self.profiles: list[dict] = []
        self.rolls_from: list[str] = []
        self._start(game, players, options or {})

    # --- the protocol ----------------------------------------------------------------------
    @property
    def game(self) -> rules.Game:
        return self._game

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            game, state = self._game, self._state
            outcome = game.outcome(state)
            return {
                "game": game.name,
                "players": game.players,
                "to_move": state.to_move,
                "phase": state.phase,
                "dice": state.dice,
                "placement": game.placement(state),
                "ruling": self._ruling,
                "moves": len(self._moves),
                "colours": list(game.colours),
                "actor": getattr(state, "actor", state.to_move),
                "legal": [m.to_json() for m in game.legal_moves(state)],
                "outcome": outcome.to_json() if outcome else None,
                "mode": self.mode,
                "options": dict(game.options),
            }

    def roll(self, source: str = "web") -> dict[str, Any]:
        with self._lock:
            state = self._state
            rolls = [m for m in self._game.legal_moves(state) if isinstance(m, rules.Roll)]
            if not rolls:
                raise TableError(f"no roll now: the table is waiting for '{state.phase}'")
            self.rolls_from.append(source)
            move = rolls[self._rng.randrange(len(rolls))]
            self._apply(move, self._ruling_for(move, "roll"))
            self._auto_pass()
            self._publish_state()
            return self.snapshot()

    def manual_move(self, move: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            game, state = self._game, self._state
            try:
                parsed = game.move_from_json(move)
            except rules.RecordError as exc:
                raise TableError(str(exc)) from None
            if isinstance(parsed, rules.Step):
                ruling = self._as_camera(parsed)
            elif game.is_legal(state, parsed):
                ruling = self._ruling_for(parsed, "legal")
                self._apply(parsed, ruling)
            else:
                ruling = self._illegal(game.explain(state, parsed), parsed)
                self._set_ruling(ruling)
            self._auto_pass()
            self._publish_state()
            return ruling

    def undo(self) -> dict[str, Any]:
        with self._lock:
            if not self._moves:
                raise TableError("nothing to undo: no move has been made yet")
            undone = self._moves.pop()
            self._state = self._game.replay(self._moves)
            while self._history and self._history[-1]["n"] > len(self._moves):
                self._history.pop()
            ruling = {
                "kind": "undo",
                "text": f"undone: {undone}",
                "clauses": [],
                "effects": [],
                "spaces": [],
                "fix": "",
            }
            self._set_ruling(ruling)
            self._publish_state()
            return self.snapshot()

    def new_game(self, game: str, players: int, options: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            try:
                self._start(game, players, options)
            except rules.RulesError as exc:
                raise TableError(str(exc)) from None
            self._publish_state()
            return self.snapshot()

    def history(self) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(e) for e in self._history]

    def record(self) -> dict[str, Any]:
        with self._lock:
            return self._game.record(self._moves)

    def subscribe(self) -> queue.Queue:
        q: queue.Queue = queue.Queue(maxsize=100)
        with self._lock:
            self._subscribers.append(q)
        return q

    def unsubscribe(self, q: queue.Queue) -> None:
        with self._lock:
            if q in self._subscribers:
                self._subscribers.remove(q)

    def status(self) -> dict[str, Any]:
        kind = (self._ruling or {}).get("kind")
        return {
            "camera": {
                "ok": self._frame is not None,
                "source": "test frames" if self._frame else "none",
                "error": None if self._frame else "no camera in this test",
            },
            "panel": {
                "green": kind in ("legal", "roll", "pass", "win"),
                "amber": kind == "unclear",
                "red": kind == "illegal",
                "buzzer": "error" if kind == "illegal" else None,
                "pattern": None,
            },
            "gpio": {"ok": True, "factory": "MockFactory"},
        }

    def frame_jpeg(self) -> bytes | None:
        return self._frame

    def set_mode(self, mode: str) -> dict[str, Any]:
        with self._lock:
            self.mode = mode
            self._publish_state()
            return self.snapshot()

    def save_profile(self, profile: dict) -> str:
        self.profiles.append(profile)
        return f"profiles/{profile['name']}.json"

    # --- helpers -----------------------------------------------------------------------------
    @property
    def subscribers(self) -> int:
        return len(self._subscribers)

    def _start(self, name: str, players: int, options: dict) -> None:
        self._game = rules.get(name, players=players, options=options)
        self._state = self._game.initial_state()
        self._moves: list[rules.Move] = []
        self._history: list[dict] = []
        self._ruling: dict | None = {
            "kind": "new",
            "text": f"new game of {self._game.title} for {players} players",
            "clauses": [],
            "effects": [],
            "spaces": [],
            "fix": "",
        }

    def _as_camera(self, move: rules.Step) -> dict:
        """What the camera would see after the move, through the referee's inference."""
        game, state = self._game, self._state
        seen = dict(game.placement(state))
        colour = seen.get(move.frm)
        if colour is None:
            ruling = {
                "kind": "unclear",
                "text": f"there is no token on {move.frm}",
                "clauses": [],
                "effects": [],
                "spaces": [move.frm],
                "fix": "",
            }
            self._set_ruling(ruling)
            return ruling
        del seen[move.frm]
        seen[move.to] = colour
        inference = game.infer(state, seen)
        if inference.kind == "legal":
            ruling = self._ruling_for(inference.move, "legal")
            self._apply(inference.move, ruling)
            return ruling
        if inference.kind == "illegal":
            ruling = self._illegal(inference.verdict, move, inference.spaces)
        else:
            ruling = {
                "kind": "unclear",
                "text": inference.reason,
                "clauses": [],
                "effects": [],
                "spaces": list(inference.spaces),
                "fix": "",
            }
        self._set_ruling(ruling)
        return ruling

    def _ruling_for(self, move: rules.Move, kind: str) -> dict:
        verdict = self._game.explain(self._state, move)
        data = verdict.to_json()
        return {
            "kind": kind,
            "text": verdict.reason or str(move),
            "clauses": data["clauses"],
            "effects": data["effects"],
            "spaces": [s for s in (getattr(move, "frm", None), getattr(move, "to", None)) if s],
            "fix": "",
            "move": move.to_json(),
            "dice": getattr(move, "value", None),
        }

    def _illegal(self, verdict: rules.Verdict, move: rules.Move, spaces=()) -> dict:
        frm, to = getattr(move, "frm", None), getattr(move, "to", None)
        fix = f"put the {move.colour} marble back on {frm}" if frm else "undo that"
        data = verdict.to_json()
        return {
            "kind": "illegal",
            "text": verdict.reason,
            "clauses": data["clauses"],
            "effects": [],
            "spaces": list(spaces) or [s for s in (frm, to) if s],
            "fix": fix,
            "move": move.to_json(),
        }

    def _apply(self, move: rules.Move, ruling: dict) -> None:
        self._state = self._game.apply(self._state, move)
        self._moves.append(move)
        state = self._state
        self._history.append(
            {
                "n": len(self._moves),
                "move": move.to_json(),
                "text": str(move),
                "ruling": ruling,
                "placement": self._game.placement(state),
                "to_move": state.to_move,
                "phase": state.phase,
                "dice": state.dice,
            }
        )
        outcome = self._game.outcome(state)
        if outcome is not None:
            ruling = {
                "kind": "win",
                "text": outcome.text,
                "clauses": [outcome.clause.to_json()],
                "effects": [],
                "spaces": [],
                "fix": "",
            }
        self._set_ruling(ruling)

    def _auto_pass(self) -> None:
        legal = self._game.legal_moves(self._state)
        if len(legal) == 1 and isinstance(legal[0], rules.Pass):
            ruling = self._ruling_for(legal[0], "pass")
            colour, dice = legal[0].colour, self._state.dice
            ruling["text"] = f"{colour} rolled {dice}: no marble can move, the turn passes"
            ruling["dice"] = dice
            self._apply(legal[0], ruling)

    def _set_ruling(self, ruling: dict) -> None:
        self._ruling = ruling
        self._publish("ruling", ruling)

    def _publish_state(self) -> None:
        self._publish("state", self.snapshot())

    def _publish(self, kind: str, payload: dict) -> None:
        for q in list(self._subscribers):
            try:
                q.put_nowait((kind, payload))
            except queue.Full:
                pass
