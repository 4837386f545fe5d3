"""Spoken rulings: a speaker (espeak-ng, from apt) and a queue that never holds the referee up.

The referee only ever calls `VoiceQueue.say`, which returns at once. One worker thread speaks
the phrases in order; a phrase that waited longer than `max_age_s` is dropped unspoken (the
table has moved on), and when more than `max_pending` wait, the oldest go first. espeak-ng
speaks through the default audio output (the Pi's jack, HDMI, or a USB/Bluetooth speaker),
or the one named by `device`.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

log = logging.getLogger(__name__)


class Speaker(Protocol):
    def speak(self, text: str) -> None:
        """Say `text` aloud; returns when it has been said."""
        ...


class VoiceError(RuntimeError):
    """The speech engine is missing or failed; the message says which and how to fix it."""


@dataclass(frozen=True)
class EspeakSpeaker:
    """espeak-ng run once per phrase (`apt install espeak-ng`)."""

    voice: str = "en"
    speed: int = 165  # words per minute
    amplitude: int = 120  # 0..200
    device: str = ""  # audio device name for espeak-ng -d ("": the default output)
    executable: str = "espeak-ng"
    timeout_s: float = 20.0

    def command(self, text: str, wav: Path | None = None) -> list[str]:
        exe = shutil.which(self.executable)
        if exe is None:
            raise VoiceError(
                f"{self.executable} is not installed: apt-get install espeak-ng "
                "(or turn [voice] off)"
            )
        cmd = [exe, "-v", self.voice, "-s", str(self.speed), "-a", str(self.amplitude)]
        if self.device and wav is None:
            cmd += ["-d", self.device]
        if wav is not None:
            cmd += ["-w", str(wav)]
        return [*cmd, "--", text]

    def speak(self, text: str) -> None:
        self._run(self.command(text))

    def write_wav(self, text: str, path: str | Path) -> Path:
        """Say `text` into a WAV file instead of the speaker (for tests and checks)."""
        path = Path(path)
        self._run(self.command(text, wav=path))
        return path

    def _run(self, cmd: list[str]) -> None:
        try:
            done = subprocess.run(cmd, capture_output=True, timeout=self.timeout_s, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise VoiceError(f"espeak-ng failed: {exc}") from None
        if done.returncode != 0:
            message = done.stderr.decode(errors="replace").strip() or f"exit {done.returncode}"
            raise VoiceError(f"espeak-ng failed: {message}")


class VoiceQueue:
    """Phrases to speak, in order, on one worker thread; stale and surplus ones are dropped."""

    def __init__(
        self,
        speaker: Speaker,
        max_age_s: float = 6.0,
        max_pending: int = 3,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.speaker = speaker
        self.max_age_s = max_age_s
        self.max_pending = max_pending
        self.clock = clock
        self.spoken: list[str] = []  # the last phrases said (for the page and tests)
        self.dropped = 0
        self._pending: deque[tuple[float, str]] = deque()
        self._wake = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()

    def say(self, text: str) -> None:
        """Queue `text`; never blocks and never raises (a closed queue ignores it)."""
        if not text:
            return
        with self._wake:
            if self._closed:
                return
            self._pending.append((self.clock(), text))
            while len(self._pending) > self.max_pending:
                self._pending.popleft()
                self.dropped += 1
            self._wake.notify()

    def pending(self) -> list[str]:
        with self._wake:
            return [text for _t, text in self._pending]

    def close(self) -> None:
        """Stop after the phrase being said (idempotent); waiting phrases are dropped."""
        with self._wake:
            self._closed = True
            self._pending.clear()
            self._wake.notify()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=30)

    def __enter__(self) -> VoiceQueue:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _next(self) -> str | None:
        with self._wake:
            while not self._pending and not self._closed:
                self._wake.wait()
            while self._pending:
                queued, text = self._pending.popleft()
                if self.clock() - queued <= self.max_age_s:
                    return text
                self.dropped += 1  # the table has moved on since
            return None

    def _run(self) -> None:
        while True:
            text = self._next()
            if text is None:
                with self._wake:
                    if self._closed:
                        return
                continue
            try:
                self.speaker.speak(text)
            except Exception as exc:  # a broken speaker: the page and lights still rule
                log.warning("voice: %s", exc)
                continue
            self.spoken = [*self.spoken[-19:], text]
