"""Rule clauses and the values that cite them: verdicts, effects, inferences, outcomes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Clause:
    """One rule in our own words, with the rulebook section it comes from.

    `interpretation` marks a reading we chose where the rulebook is silent or ambiguous;
    `option` names the house-rule option that switches it, when players plausibly disagree.
    """

    id: str
    title: str
    text: str
    section: str
    interpretation: bool = False
    option: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "text": self.text,
            "section": self.section,
            "interpretation": self.interpretation,
            "option": self.option,
        }


@dataclass(frozen=True, slots=True)
class Effect:
    """Something a move causes beyond moving a token: a capture, an extra turn, a pass, a win."""

    kind: str  # capture | extra_turn | pass | win | start | home | promote | reveal | ...
    clause: str  # id of the clause that causes it
    text: str  # one line for players, e.g. "blue marble on t12 aggravated back to BASE"
    space: str | None = None
    player: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "clause": self.clause,
            "text": self.text,
            "space": self.space,
            "player": self.player,
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a move is legal, the clauses that decide it, and what it causes."""

    legal: bool
    clauses: tuple[Clause, ...]
    effects: tuple[Effect, ...] = ()
    reason: str = ""  # one sentence for players: what happened, or what was wrong

    def to_json(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "clauses": [c.to_json() for c in self.clauses],
            "effects": [e.to_json() for e in self.effects],
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Inference:
    """What the referee concludes from a placement seen by the camera.

    kind is "legal" (move is the legal move that gives exactly this placement), "illegal"
    (move, when known, is the attempt; verdict cites the broken clause) or "unclear"
    (spaces lists what could not be made sense of; reason says why).
    """

    kind: str
    move: Any = None
    verdict: Verdict | None = None
    reason: str = ""
    spaces: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "move": self.move.to_json() if self.move is not None else None,
            "text": str(self.move) if self.move is not None else None,
            "verdict": self.verdict.to_json() if self.verdict is not None else None,
            "reason": self.reason,
            "spaces": list(self.spaces),
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    winners: tuple[int, ...]
    clause: Clause
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "clause": self.clause.to_json(), "text": self.text}
