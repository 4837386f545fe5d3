"""What the referee says and shows: ruling texts for the page and light patterns for the panel.

Every ruling is a plain dict (it goes to the page as JSON and into the event log as it is):
kind, text, clauses, effects, spaces, fix, and for moves the move and its source. These
builders are pure; the referee stamps a ruling with its time and move count when it stands.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import rules
from rules import Move, Pass, Verdict
from rules.wording import fix_sentence, fix_steps, space_names

from .seats import has_secrets

NOTHING_CHANGED = "nothing was changed: make a legal move instead"


def notice(kind: str, text: str) -> dict[str, Any]:
    """A ruling that only tells the table something (undo, restored, new game...)."""
    return {"kind": kind, "text": text, "clauses": [], "effects": [], "spaces": [], "fix": ""}


def ignored_effect(seat: int, text: str, clause: str = "") -> dict[str, Any]:
    """An effect of the referee's own: a die seen in `seat`'s tray that is not entered."""
    return {"kind": "ignored", "clause": clause, "text": text, "space": None, "player": seat}


def sentence(verdict: Verdict, move: Move) -> str:
    """The one line announcing a move: its reason (or the move itself), then its effects."""
    parts = [verdict.reason or str(move)]
    parts += [e.text for e in verdict.effects]
    return "; ".join(parts)


def move_spaces(move: Move) -> tuple[str, ...]:
    """The spaces a move touches (to highlight on the page)."""
    frm, to = getattr(move, "frm", None), getattr(move, "to", None)
    return tuple(s for s in (frm, to) if s)


def battle_of(
    game: rules.Game, before: Any, after: Any, effect_kinds: set[str]
) -> dict[str, Any] | None:
    """The battle a move just decided, as the public table may know it, or None."""
    if not has_secrets(game) or not effect_kinds & {"capture", "stalemate"}:
        return None
    if getattr(before, "phase", "") != "move":
        return None
    battle = game.view(after, None).get("battle")
    if not battle:
        return None
    colours = game.colours
    battle = dict(battle)
    battle["attacker_colour"] = colours[battle["attacker"]]
    battle["defender_colour"] = colours[1 - battle["attacker"]]
    return battle


def captures_fix(game: rules.Game, verdict: Verdict) -> str:
    """What to do with the tokens a move captured: put each back where it starts again."""
    return "; ".join(
        f"put the captured {game.colours[e.player]} {game.token_name} back in its base"
        for e in verdict.effects
        if e.kind == "capture" and e.player is not None
    )


def board_fix(
    game: rules.Game, state: Any, seen: Mapping[str, str] | None
) -> tuple[str, list[dict[str, str]]]:
    """How to put the board back to the referee's position, in players' words ("move your
    marble from the 3rd hole after red's START back to red's START"), and the same as steps
    ("take off here" / "put back here") for the page to mark on the board."""
    steps = fix_steps(game.placement(state), seen or {})
    if not steps:
        return "put the board back as it was, then make a legal move", []
    mover = game.colours[getattr(state, "actor", state.to_move)]
    names = space_names(game.board, game.name)
    text = fix_sentence(steps, names, token=game.token_name, mover=mover)
    return f"{text}, then make a legal move", [step.to_json() for step in steps]


def move_ruling(
    game: rules.Game,
    before: Any,
    after: Any,
    move: Move,
    verdict: Verdict,
    source: str,
    kind: str | None = None,
    text: str | None = None,
    notes: list[dict[str, Any]] | tuple = (),
) -> dict[str, Any]:
    """The ruling on a legal move just applied (`before` -> `after`, announced by `verdict`);
    `notes`: the referee's own effects to add. A battle it decided replaces "the referee
    decides" with its result."""
    effects = [e.to_json() for e in verdict.effects] + list(notes)
    kinds = {e["kind"] for e in effects}
    ruling_kind = kind or (
        "win" if "win" in kinds else "pass" if isinstance(move, Pass) else "legal"
    )
    ruling = {
        "kind": ruling_kind,
        "text": text or sentence(verdict, move),
        "move": game.public_move(move, None),
        "move_text": str(move),
        "clauses": [c.to_json() for c in verdict.clauses],
        "effects": effects,
        "spaces": list(move_spaces(move)),
        "fix": captures_fix(game, verdict),
        "source": source,
    }
    battle = battle_of(game, before, after, kinds)
    if battle is not None:
        ruling["battle"] = battle
        ruling["effects"] = [e for e in effects if e["kind"] != "battle"]
        ruling["text"] = text or verdict.reason
    return ruling


def replayed_ruling(verdict: Verdict, move: Move) -> dict[str, Any]:
    """The history's ruling on a stored move replayed after a restart."""
    return {
        "kind": "legal",
        "text": sentence(verdict, move),
        "clauses": [c.to_json() for c in verdict.clauses],
        "effects": [e.to_json() for e in verdict.effects],
    }


def illegal_ruling(
    verdict: Verdict | None,
    spaces: tuple[str, ...],
    source: str,
    fix: str,
    fix_steps: list[dict[str, str]] | tuple = (),
) -> dict[str, Any]:
    """The ruling on an illegal move: the rule it breaks (its clauses) and how to put it right
    (`fix` in words, `fix_steps` as "off"/"back" marks for the board diagram)."""
    return {
        "kind": "illegal",
        "text": verdict.reason if verdict else "that move is not allowed",
        "clauses": [c.to_json() for c in verdict.clauses] if verdict else [],
        "effects": [],
        "spaces": list(spaces),
        "fix": fix,
        "fix_steps": list(fix_steps),
        "source": source,
    }


def unclear_ruling(reason: str, spaces: tuple[str, ...]) -> dict[str, Any]:
    """The ruling while the board cannot be read: which spaces, and that the referee waits."""
    return {
        "kind": "unclear",
        "text": reason,
        "clauses": [],
        "effects": [],
        "spaces": list(spaces),
        "fix": "waiting for a clear view of the board",
    }


def same_ruling(standing: dict[str, Any] | None, ruling: dict[str, Any]) -> bool:
    """Whether `ruling` is the one standing (ignoring when that was made)."""
    current = standing or {}
    return {k: v for k, v in current.items() if k not in ("at", "moves")} == ruling


def move_signal(ruling: dict[str, Any]) -> str | None:
    """The panel pattern for a move's ruling, or None to leave the panel as it is."""
    kinds = {e["kind"] for e in ruling["effects"]}
    battle = ruling.get("battle")
    if ruling["kind"] == "win":
        return "show_win"
    if battle is not None and battle.get("result") in ("won", "lost", "rescued"):
        return "show_extra_turn"  # a battle decided and revealed: the fanfare
    if "extra_turn" in kinds:
        return "show_extra_turn"
    if ruling["kind"] in ("legal", "pass"):
        return "show_legal"
    return None


def why_no_roll(game: rules.Game, state: Any) -> str:
    """Why the die may not be rolled now: whose turn it is and what they are to do."""
    phase = state.phase
    if phase == "over":
        return "the game is over; start a new game to roll again"
    colour = game.colours[getattr(state, "actor", state.to_move)]
    return f"not the time to roll: waiting for {colour} to {phase}"
