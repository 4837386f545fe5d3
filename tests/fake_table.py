"""The web tests' table: the real referee (device.referee.Referee) with seeded dice.

It keeps a few notes for the tests (where rolls came from, saved board profiles) and serves a
fixed JPEG as its camera frame when given one. Given a store on a file, a second FakeTable on
the same file is the table after a restart.
"""

from __future__ import annotations

import random
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

import rules
from device.referee import Referee
from device.store import Store
from hardware.panel import Panel, PanelConfig


class FakeTable(Referee):
    def __init__(
        self,
        game: str = "aggravation",
        players: int = 4,
        options: dict | None = None,
        seed: int = 7,
        pin: str = "2468",
        mode: str = "camera",
        frame: bytes | None = None,
        store: Store | None = None,
    ) -> None:
        rng = random.Random(seed)
        self.pin_factory = MockFactory(pin_class=MockPWMPin)
        super().__init__(
            rules.get(game, players=players, options=options or {}),
            store=store or Store(":memory:"),
            roll_die=lambda: rng.randrange(6) + 1,
            pin=pin,
            frame_source=lambda: self._frame,
            status_source=lambda: {
                "camera": {"ok": self._frame is not None, "source": "test frame", "error": None}
            },
            panel=Panel(PanelConfig(tempo=0.2), pin_factory=self.pin_factory),
        )
        self._frame = frame
        self.mode = mode
        self.profiles: list[dict] = []
        self.rolls_from: list[str] = []
        self.profile_saver = self._save_profile

    @property
    def subscribers(self) -> int:
        return self._announcer.listeners

    def roll(self, source: str = "web", value: int | None = None) -> dict[str, Any]:
        # Noted before the roll: the page hears the ruling over SSE while super().roll is still
        # returning, and a test that saw the ruling must find the source already noted.
        self.rolls_from.append(source)
        try:
            return super().roll(source, value)
        except Exception:
            self.rolls_from.pop()
            raise

    def _save_profile(self, profile: dict[str, Any]) -> str:
        self.profiles.append(profile)
        return f"profiles/{profile['name']}.json"
