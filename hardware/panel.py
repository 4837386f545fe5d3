"""The table's GPIO panel: three LEDs (or one RGB LED), a buzzer, the roll button and an optional
second button (confirm/undo), driven through gpiozero.

Every device is built on one pin factory. ``Panel(config, pin_factory=None)`` picks gpiozero's
default from the environment (lgpio on a Pi) and, off the Pi, falls back to gpiozero's
``MockFactory`` with ``MockPWMPin`` so the tonal buzzer's PWM works; ``default_pin_factory()``
makes that choice and says why.

Patterns (``show_legal()`` ...) never block the caller: the first LED state is set at once and
one background thread plays the rest (tones, blinks), so a new pattern or ``clear()`` interrupts
the running one immediately. Button callbacks run on a separate worker thread, so a slow
``on_roll`` never stalls gpiozero's event thread, and a failing one is logged, not raised.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import queue
import threading
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gpiozero import LED, RGBLED, Button, Buzzer, Device, TonalBuzzer
from gpiozero.pins.mock import MockFactory, MockPWMPin

__all__ = [
    "PanelConfig",
    "Panel",
    "PanelClosed",
    "default_pin_factory",
    "PATTERNS",
]

log = logging.getLogger(__name__)

Lights = tuple[bool, bool, bool]  # (green, amber, red)
OFF: Lights = (False, False, False)
G: Lights = (True, False, False)
A: Lights = (False, True, False)
R: Lights = (False, False, True)
ALL: Lights = (True, True, True)

# One RGB LED stands in for the three: the colour shown for each logical light.
RGB_COLOURS = {
    "green": (0.0, 1.0, 0.0),
    "amber": (1.0, 0.45, 0.0),
    "red": (1.0, 0.0, 0.0),
}

BUZZER_KINDS = ("passive", "active")
GPIO_PINS = range(0, 28)  # BCM numbers of the GPIO pins on the Pi's 40-pin header


def _check_pin(role: str, pin: Any) -> None:
    """ValueError naming the config key (pins.green, pins.rgb[1]...) unless `pin` is a GPIO."""
    key = (
        f"pins.rgb[{('rgb_red', 'rgb_green', 'rgb_blue').index(role)}]"
        if role.startswith("rgb_")
        else f"pins.{role}"
    )
    if isinstance(pin, bool) or not isinstance(pin, int) or pin not in GPIO_PINS:
        raise ValueError(
            f"{key} = {pin!r} is not a GPIO pin: use a BCM number from {GPIO_PINS.start} to "
            f"{GPIO_PINS.stop - 1} (GPIO17, header pin 11, is 17)"
        )


class PanelClosed(RuntimeError):
    """A pattern was requested from a panel that has been closed."""


@dataclass(frozen=True)
class PanelConfig:
    """Wiring of the panel. Pins are BCM numbers.

    ``rgb`` (red, green, blue pins of one common-cathode RGB LED) replaces the three separate
    LEDs when set. ``buzzer_kind`` is "passive" (a piezo driven with PWM tones, tunes possible)
    or "active" (a buzzer with its own oscillator: on/off rhythm only); ``buzzer=None`` means no
    buzzer. ``tempo`` scales every pattern duration (tests use a small value).
    """

    green: int = 17
    amber: int = 27
    red: int = 22
    rgb: tuple[int, int, int] | None = None
    buzzer: int | None = 18
    buzzer_kind: str = "passive"
    roll_button: int = 23
    second_button: int | None = 24
    bounce_time: float = 0.05
    muted: bool = False
    tempo: float = 1.0

    def __post_init__(self) -> None:
        if self.buzzer_kind not in BUZZER_KINDS:
            raise ValueError(f"buzzer_kind must be one of {BUZZER_KINDS}, not {self.buzzer_kind!r}")
        if self.rgb is not None:
            if len(self.rgb) != 3:
                raise ValueError(f"rgb needs three pins (red, green, blue), got {self.rgb!r}")
            object.__setattr__(self, "rgb", tuple(self.rgb))
        if self.bounce_time < 0:
            raise ValueError(f"bounce_time must be >= 0, not {self.bounce_time!r}")
        if self.tempo <= 0:
            raise ValueError(f"tempo must be > 0, not {self.tempo!r}")
        used: dict[int, str] = {}
        for name, pin in self.pins().items():
            _check_pin(name, pin)
            if pin in used:
                raise ValueError(f"pin {pin} is used twice: by {used[pin]} and by {name}")
            used[pin] = name

    def pins(self) -> dict[str, int]:
        """Every pin in use, by role."""
        roles: dict[str, int | None] = {}
        if self.rgb is None:
            roles.update(green=self.green, amber=self.amber, red=self.red)
        else:
            roles.update(rgb_red=self.rgb[0], rgb_green=self.rgb[1], rgb_blue=self.rgb[2])
        roles.update(
            buzzer=self.buzzer, roll_button=self.roll_button, second_button=self.second_button
        )
        return {k: v for k, v in roles.items() if v is not None}

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> PanelConfig:
        """Build from a config-file table (e.g. ``[panel]`` in boardref.toml).

        Unknown keys raise ValueError naming them, so a typo does not silently use a default.
        """
        fields = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - fields)
        if unknown:
            raise ValueError(f"unknown panel setting(s): {', '.join(unknown)}")
        values = dict(data)
        if values.get("rgb") is not None:
            values["rgb"] = tuple(values["rgb"])
        return cls(**values)


def default_pin_factory() -> tuple[Any, str]:
    """Choose the pin factory for the panel; return ``(factory, reason)``.

    In order: a factory already set on ``gpiozero.Device.pin_factory``; the one named by
    ``GPIOZERO_PIN_FACTORY`` (an explicit choice, so failure raises; "mock" gets ``MockPWMPin``
    unless ``GPIOZERO_MOCK_PIN_CLASS`` says otherwise); gpiozero's own default search (lgpio,
    rpigpio, pigpio, native); and when no real GPIO is available, ``MockFactory`` with
    ``MockPWMPin``.
    """
    if Device.pin_factory is not None:
        factory = Device.pin_factory
        return factory, f"using {type(factory).__name__} already set on gpiozero.Device"
    name = os.environ.get("GPIOZERO_PIN_FACTORY")
    if name:
        if name.lower() == "mock" and not os.environ.get("GPIOZERO_MOCK_PIN_CLASS"):
            return (
                MockFactory(pin_class=MockPWMPin),
                "GPIOZERO_PIN_FACTORY=mock: simulated pins (MockPWMPin)",
            )
        factory = Device._default_pin_factory()  # honours the variable; raises if unusable
        return factory, f"GPIOZERO_PIN_FACTORY={name}: {type(factory).__name__}"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            factory = Device._default_pin_factory()
        except Exception as exc:  # gpiozero raises BadPinFactory when nothing loads
            tried = "; ".join(str(w.message) for w in caught) or str(exc)
            return (
                MockFactory(pin_class=MockPWMPin),
                f"no real GPIO available ({tried}); using simulated pins (MockFactory)",
            )
    return factory, f"real GPIO: {type(factory).__name__}"


@dataclass(frozen=True)
class Step:
    """One moment of a pattern: which lights are on, which note sounds (None: silent)."""

    lights: Lights
    note: str | None
    duration: float


@dataclass(frozen=True)
class Pattern:
    """A named LED/buzzer pattern.

    ``steps`` play once (or forever when ``loop``); then ``end`` lights stay on, silent. A
    ``held`` pattern keeps its name in ``status()`` until ``clear()`` or another pattern.
    """

    name: str
    sound: str | None  # what status() reports while the buzzer sounds: chirp | low | tune
    steps: tuple[Step, ...]
    loop: bool = False
    end: Lights = OFF
    held: bool = False


def _chase(n: int, dt: float) -> tuple[Step, ...]:
    order = (G, A, R)
    return tuple(Step(order[i % 3], None, dt) for i in range(n))


PATTERNS: dict[str, Pattern] = {
    "legal": Pattern(
        "legal",
        "chirp",
        (Step(G, "C6", 0.07), Step(G, None, 0.03), Step(G, "E6", 0.09), Step(G, None, 2.8)),
    ),
    "illegal": Pattern(
        "illegal",
        "low",
        (
            Step(R, "A3", 0.25),
            Step(R, None, 0.12),
            Step(R, "A3", 0.25),
            Step(R, None, 0.12),
            Step(R, "E3", 0.5),
        ),
        end=R,
        held=True,
    ),
    "unclear": Pattern("unclear", None, (Step(A, None, 0.5), Step(OFF, None, 0.5)), loop=True),
    "extra_turn": Pattern(
        "extra_turn",
        "chirp",
        (
            Step(G, "C6", 0.1),
            Step(OFF, None, 0.1),
            Step(G, "E6", 0.1),
            Step(OFF, None, 0.1),
            Step(G, "G6", 0.1),
            Step(OFF, None, 0.1),
            Step(G, None, 0.1),
            Step(OFF, None, 0.1),
            Step(G, None, 1.5),
        ),
    ),
    "win": Pattern(
        "win",
        "tune",
        (
            Step(G, "C5", 0.15),
            Step(A, None, 0.04),
            Step(A, "E5", 0.15),
            Step(R, None, 0.04),
            Step(R, "G5", 0.15),
            Step(G, None, 0.04),
            Step(ALL, "C6", 0.45),
            Step(OFF, None, 0.1),
            Step(ALL, "G5", 0.15),
            Step(ALL, "C6", 0.6),
        ),
        end=G,
        held=True,
    ),
    "rolling": Pattern("rolling", None, _chase(9, 0.08)),
}


class _Lights:
    """Three LEDs, or one RGB LED showing the highest-priority colour (red > amber > green)."""

    def __init__(self, config: PanelConfig, factory: Any) -> None:
        self.rgb: RGBLED | None = None
        self.leds: tuple[LED, LED, LED] | None = None
        if config.rgb is None:
            made: list[LED] = []
            try:
                for pin in (config.green, config.amber, config.red):
                    made.append(LED(pin, pin_factory=factory))
            except Exception:
                for led in made:
                    led.close()
                raise
            self.leds = (made[0], made[1], made[2])
        else:
            r, g, b = config.rgb
            self.rgb = RGBLED(r, g, b, pwm=True, pin_factory=factory)
        self.state: Lights = OFF

    def set(self, lights: Lights) -> None:
        if self.leds is not None:
            for led, on in zip(self.leds, lights, strict=True):
                if on:
                    led.on()
                else:
                    led.off()
            self.state = lights
        elif self.rgb is not None:
            green, amber, red = lights
            name = "red" if red else "amber" if amber else "green" if green else None
            self.rgb.color = RGB_COLOURS[name] if name else (0.0, 0.0, 0.0)
            self.state = (name == "green", name == "amber", name == "red")

    def close(self) -> None:
        for dev in self.leds or (self.rgb,):
            if dev is not None:
                dev.close()


class _Sound:
    """A passive (tonal) or active buzzer, or none at all."""

    def __init__(self, config: PanelConfig, factory: Any) -> None:
        self.device: TonalBuzzer | Buzzer | None = None
        if config.buzzer is None:
            return
        if config.buzzer_kind == "passive":
            # Two octaves around A4: A2 (110 Hz) .. A6 (1760 Hz) covers every pattern's notes.
            self.device = TonalBuzzer(config.buzzer, mid_tone="A4", octaves=2, pin_factory=factory)
        else:
            self.device = Buzzer(config.buzzer, pin_factory=factory)

    def play(self, note: str | None) -> None:
        dev = self.device
        if dev is None:
            return
        if isinstance(dev, TonalBuzzer):
            if note is None:
                dev.stop()
            else:
                dev.play(note)
        elif note is None:
            dev.off()
        else:
            dev.on()

    def close(self) -> None:
        if self.device is not None:
            self.device.close()


class Panel:
    """LEDs, buzzer and buttons of one table. See the module docstring.

    Set ``on_roll`` / ``on_second`` to zero-argument callables; they run on a worker thread,
    once per debounced press.
    """

    def __init__(self, config: PanelConfig | None = None, pin_factory: Any = None) -> None:
        self.config = config or PanelConfig()
        if pin_factory is None:
            pin_factory, reason = default_pin_factory()
            self._owns_factory = pin_factory is not Device.pin_factory
        else:
            reason = f"pin factory given by the caller: {type(pin_factory).__name__}"
            self._owns_factory = False
        self.pin_factory = pin_factory
        self.pin_factory_reason = reason
        self.simulated = isinstance(pin_factory, MockFactory)
        log.info("panel GPIO: %s", reason)

        self.on_roll: Callable[[], Any] | None = None
        self.on_second: Callable[[], Any] | None = None
        self._muted = bool(self.config.muted)
        self._closed = False
        self._cond = threading.Condition()
        self._gen = 0
        self._queued: tuple[Pattern, int] | None = None
        self._pattern: str | None = None
        self._sounding: str | None = None
        self._last_edge: dict[str, float] = {}
        self._calls: queue.SimpleQueue[Callable[[], Any] | None] = queue.SimpleQueue()

        self._devices: list[Any] = []
        try:
            self._lights = _Lights(self.config, pin_factory)
            self._devices.append(self._lights)
            self._sound = _Sound(self.config, pin_factory)
            self._devices.append(self._sound)
            self.roll_button = self._button(self.config.roll_button, "roll")
            self.second_button = (
                None
                if self.config.second_button is None
                else self._button(self.config.second_button, "second")
            )
        except Exception:
            self._close_devices()
            raise

        self._pattern_thread = threading.Thread(
            target=self._pattern_worker, name="panel-patterns", daemon=True
        )
        self._call_thread = threading.Thread(
            target=self._call_worker, name="panel-callbacks", daemon=True
        )
        self._pattern_thread.start()
        self._call_thread.start()

    # -- buttons -------------------------------------------------------------------------------

    def _button(self, pin: int, which: str) -> Button:
        button = Button(
            pin,
            pull_up=True,
            bounce_time=self.config.bounce_time or None,
            pin_factory=self.pin_factory,
        )
        self._devices.append(button)
        button.when_pressed = lambda: self._edge(which, pressed=True)
        button.when_released = lambda: self._edge(which, pressed=False)
        return button

    def press(self, which: str = "roll") -> bool:
        """Press ``which`` ("roll" or "second") as the physical button does.

        The web page's virtual button calls this. Returns True when the press was accepted and
        its callback queued, False when it was taken for contact bounce.
        """
        if which not in ("roll", "second"):
            raise ValueError(f"unknown button {which!r}; expected 'roll' or 'second'")
        return self._edge(which, pressed=True)

    def _edge(self, which: str, pressed: bool) -> bool:
        # Software debounce on top of gpiozero's bounce_time (which not every pin factory
        # honours; MockFactory ignores it): a press counts only when the button's previous edge,
        # press or release, is at least bounce_time old. That drops the chatter of a press and
        # also the false presses a bouncing release makes.
        now = time.monotonic()
        with self._cond:
            if self._closed:
                return False
            last = self._last_edge.get(which)
            self._last_edge[which] = now
            if not pressed or (last is not None and now - last < self.config.bounce_time):
                return False
        self._calls.put(lambda: self._fire(which))
        return True

    def _fire(self, which: str) -> None:
        callback = self.on_roll if which == "roll" else self.on_second
        if callback is not None:
            callback()

    def _call_worker(self) -> None:
        while True:
            call = self._calls.get()
            if call is None:
                return
            try:
                call()
            except Exception:
                log.exception("panel button callback failed")

    # -- patterns ------------------------------------------------------------------------------

    def show_legal(self) -> None:
        """Green LED and a short chirp; the green goes out after a few seconds."""
        self._show(PATTERNS["legal"])

    def show_illegal(self) -> None:
        """Red LED and a low tone pattern; red stays lit until ``clear()`` or another pattern."""
        self._show(PATTERNS["illegal"])

    def show_unclear(self) -> None:
        """Amber LED blinking slowly (vision is unsure and waits), until cleared or replaced."""
        self._show(PATTERNS["unclear"])

    def show_extra_turn(self) -> None:
        """Green blinking with a rising chirp: the same player goes again."""
        self._show(PATTERNS["extra_turn"])

    def show_win(self) -> None:
        """A short tune with all LEDs; green stays lit until cleared."""
        self._show(PATTERNS["win"])

    def show_rolling(self) -> None:
        """A short green-amber-red chase while the button's die is rolled."""
        self._show(PATTERNS["rolling"])

    def clear(self) -> None:
        """All LEDs off, buzzer silent, any pattern stopped."""
        with self._cond:
            self._check_open()
            self._gen += 1
            self._queued = None
            self._pattern = None
            self._write(OFF, None, None)
            self._cond.notify_all()

    def show(self, name: str) -> None:
        """Show a pattern by name (one of ``PATTERNS``)."""
        try:
            pattern = PATTERNS[name]
        except KeyError:
            raise ValueError(f"unknown pattern {name!r}; known: {', '.join(PATTERNS)}") from None
        self._show(pattern)

    def _show(self, pattern: Pattern) -> None:
        with self._cond:
            self._check_open()
            self._gen += 1
            self._pattern = pattern.name
            # The first lights at once (status() is right immediately), the old sound stops.
            self._write(pattern.steps[0].lights, None, None)
            self._queued = (pattern, self._gen)
            self._cond.notify_all()

    def _check_open(self) -> None:
        if self._closed:
            raise PanelClosed("the panel is closed")

    def _write(self, lights: Lights, note: str | None, sound: str | None) -> None:
        # Called with self._cond held.
        self._lights.set(lights)
        if self._muted or self._sound.device is None:
            note = None
        self._sound.play(note)
        self._sounding = sound if note is not None else None

    def _pattern_worker(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._closed or self._queued is not None)
                if self._closed:
                    return
                assert self._queued is not None
                pattern, gen = self._queued
                self._queued = None
            try:
                self._play(pattern, gen)
            except Exception:
                log.exception("panel pattern %r failed", pattern.name)

    def _play(self, pattern: Pattern, gen: int) -> None:
        tempo = self.config.tempo
        while True:
            for step in pattern.steps:
                with self._cond:
                    if self._gen != gen or self._closed:
                        return
                    self._write(step.lights, step.note, pattern.sound)
                    interrupted = self._cond.wait_for(
                        lambda: self._gen != gen or self._closed, timeout=step.duration * tempo
                    )
                if interrupted:
                    return
            if not pattern.loop:
                break
        with self._cond:
            if self._gen != gen or self._closed:
                return
            self._write(pattern.end, None, None)
            if not pattern.held:
                self._pattern = None

    # -- state ---------------------------------------------------------------------------------

    @property
    def muted(self) -> bool:
        return self._muted

    @muted.setter
    def muted(self, value: bool) -> None:
        with self._cond:
            self._muted = bool(value)
            if self._muted and not self._closed:
                self._sound.play(None)
                self._sounding = None

    @property
    def closed(self) -> bool:
        return self._closed

    def status(self) -> dict[str, Any]:
        """JSON-able snapshot for the web page's virtual panel.

        ``{"green": bool, "amber": bool, "red": bool, "buzzer": "chirp"|"low"|"tune"|None,
        "pattern": str|None, "muted": bool, "simulated": bool}``; ``buzzer`` names the sound
        playing right now (None when silent or muted).
        """
        with self._cond:
            green, amber, red = self._lights.state if not self._closed else OFF
            return {
                "green": green,
                "amber": amber,
                "red": red,
                "buzzer": None if self._closed else self._sounding,
                "pattern": None if self._closed else self._pattern,
                "muted": self._muted,
                "simulated": self.simulated,
            }

    # -- lifetime ------------------------------------------------------------------------------

    def close(self) -> None:
        """Turn everything off and release the pins. Safe to call more than once."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._gen += 1
            self._cond.notify_all()
        self._calls.put(None)
        for thread in (self._pattern_thread, self._call_thread):
            if thread is not threading.current_thread():
                thread.join(timeout=1.0)
        with self._cond:
            try:
                self._lights.set(OFF)
                self._sound.play(None)
            except Exception:
                log.debug("could not switch the panel off before closing", exc_info=True)
            self._sounding = None
        self._close_devices()

    def _close_devices(self) -> None:
        for dev in reversed(self._devices):
            try:
                dev.close()
            except Exception:
                log.debug("closing %r failed", dev, exc_info=True)
        self._devices.clear()
        if self._owns_factory and self.pin_factory is not None:
            try:
                self.pin_factory.close()
            except Exception:
                log.debug("closing the pin factory failed", exc_info=True)

    def __enter__(self) -> Panel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"pattern={self._pattern!r}"
        return f"<Panel {state} gpio={type(self.pin_factory).__name__}>"
