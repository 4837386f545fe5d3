"""The referee's rulings spoken at the table: short phrases from each ruling and its clauses.

"Red: six", "Blue captures yellow", "Red: roll again", "Illegal: move the full count". Off by
default; on with a [voice] table in the config or `boardref demo --voice`. A thread of its own
reads the referee's rulings from a subscriber queue (the referee never waits for it: a full
queue loses its oldest news) and hands the phrases to hardware.voice.VoiceQueue, which drops
the stale ones.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hardware.voice import EspeakSpeaker, Speaker, VoiceQueue

log = logging.getLogger(__name__)

NUMBERS = ("zero", "one", "two", "three", "four", "five", "six")


@dataclass(frozen=True)
class VoiceSettings:
    """The [voice] config table."""

    enabled: bool = False
    voice: str = "en"
    speed: int = 165
    amplitude: int = 120
    device: str = ""
    max_age_s: float = 6.0

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> VoiceSettings:
        """Settings from the config table; ValueError names a bad key."""
        settings = cls(**dict(data))
        if not 80 <= settings.speed <= 450:
            raise ValueError(f"voice.speed must be 80..450 words a minute, not {settings.speed}")
        if not 0 <= settings.amplitude <= 200:
            raise ValueError(f"voice.amplitude must be 0..200, not {settings.amplitude}")
        if not 0.5 <= settings.max_age_s <= 60:
            raise ValueError(f"voice.max_age_s must be 0.5..60 seconds, not {settings.max_age_s}")
        return settings

    def speaker(self) -> EspeakSpeaker:
        return EspeakSpeaker(self.voice, self.speed, self.amplitude, self.device)


def phrase(ruling: Mapping[str, Any]) -> str | None:
    """What to say for a ruling, or None for one the table need not hear (a plain move, a
    wait for a clear view: the lights and the page show those)."""
    kind = ruling.get("kind")
    colour = _colour(ruling)
    effects = list(ruling.get("effects") or ())
    if kind == "roll":
        value = (ruling.get("move") or {}).get("value")
        if isinstance(value, int) and 0 <= value < len(NUMBERS):
            return f"{colour}: {NUMBERS[value]}" if colour else NUMBERS[value]
        return _first_sentence(ruling.get("text"))
    if kind == "illegal":
        clauses = ruling.get("clauses") or ()
        title = clauses[0].get("title") if clauses else None
        return f"Illegal: {(title or _first_sentence(ruling.get('text')) or 'not allowed').lower()}"
    if kind == "win":
        win = next((e for e in effects if e.get("kind") == "win"), None)
        return _first_sentence(win["text"] if win else ruling.get("text"))
    if kind == "pass":
        return f"{colour} passes" if colour else "pass"
    if kind in ("legal", "ignored"):
        return _move_phrase(colour, effects, ruling)
    if kind in ("undo", "new", "restored", "resumed"):
        return _first_sentence(ruling.get("text"))
    return None


def _move_phrase(colour: str, effects: list, ruling: Mapping[str, Any]) -> str | None:
    parts = []
    battle = ruling.get("battle")
    if battle:
        parts.append(_battle_phrase(battle))
    for effect in effects:
        victim = effect.get("player")
        text = effect.get("text") or ""
        if effect.get("kind") in ("capture", "send_home") and not battle:
            captured = text.split(" ", 1)[0] if text else ""
            if captured and captured != colour.lower():
                parts.append(f"{colour} captures {captured}")
            elif victim is None and text:
                parts.append(_first_sentence(text))
        elif effect.get("kind") == "extra_turn":
            parts.append(f"{colour}: roll again")
        elif effect.get("kind") in ("home", "promote"):
            parts.append(_first_sentence(text))
    return ". ".join(p for p in parts if p) or None


def _battle_phrase(battle: Mapping[str, Any]) -> str:
    attacker = battle.get("attacker_colour", "")
    defender = battle.get("defender_colour", "")
    result = battle.get("result", "")
    words = {
        "won": f"{attacker} wins the battle",
        "lost": f"{defender} wins the battle",
        "stalemate": "stalemate",
        "rescued": f"{attacker} breaks the stalemate",
        "failed": "the rescue fails",
    }
    return words.get(result, f"{attacker} attacks {defender}").capitalize()


def _colour(ruling: Mapping[str, Any]) -> str:
    move = ruling.get("move") or {}
    colour = move.get("colour") if isinstance(move, Mapping) else None
    if not colour:
        text = str(ruling.get("text") or "")
        colour = text.split(" ", 1)[0] if text else ""
    return colour.capitalize()


def _first_sentence(text: Any) -> str | None:
    if not text:
        return None
    return str(text).split(";", 1)[0].strip().capitalize() or None


class RulingVoice:
    """Speaks a referee's rulings (anything with subscribe/unsubscribe) until closed."""

    def __init__(self, table: Any, voice: VoiceQueue) -> None:
        self.table = table
        self.voice = voice
        self._feed = table.subscribe()
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._run, name="voice-rulings", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._closing.is_set():
            try:
                kind, payload = self._feed.get(timeout=0.2)
            except queue.Empty:
                continue
            if kind != "ruling":
                continue
            try:
                said = phrase(payload)
            except Exception:  # a ruling of a shape not foreseen: stay quiet, keep going
                log.exception("voice: no phrase for a ruling")
                continue
            if said:
                self.voice.say(said)

    def close(self) -> None:
        """Stop speaking (idempotent)."""
        self._closing.set()
        self.table.unsubscribe(self._feed)
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        self.voice.close()


def start_voice(table: Any, settings: VoiceSettings, speaker: Speaker | None = None) -> RulingVoice:
    """Speak `table`'s rulings through `speaker` (default: espeak-ng with the settings).
    VoiceError when espeak-ng is not installed."""
    if speaker is None:
        speaker = settings.speaker()
        speaker.command("")  # raises VoiceError naming the fix when espeak-ng is missing
    queue_ = VoiceQueue(speaker, max_age_s=settings.max_age_s)
    return RulingVoice(table, queue_)
