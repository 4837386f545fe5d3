"""The appliance's one TOML config file: camera, pins, game, players, house rules, web, PIN.

Defaults work with no file at all. Every bad value gets a message naming the key and what is
allowed; the appliance refuses to start on a bad file rather than guess.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rules


class ConfigError(ValueError):
    """A config file that cannot be used; the message names the file, the key and the fix."""


@dataclass(frozen=True)
class Config:
    game: str = "aggravation"
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    camera: str = "auto"  # auto | sim | picamera2 | usb:0 | file:/path | folder:/path
    frames_required: int = 3
    camera_dice: bool = True
    pins: dict[str, Any] = field(default_factory=dict)  # hardware.panel.PanelConfig fields
    host: str = "0.0.0.0"
    port: int = 8080
    threads: int = 16
    pin: str = ""  # the table PIN guarding undo / new game / settings ("" = no PIN)
    database: str = "boardref-data/boardref.sqlite3"
    coach: dict[str, Any] = field(default_factory=dict)  # device.coach_runner.CoachSettings
    voice: dict[str, Any] = field(default_factory=dict)  # device.voice.VoiceSettings


SECTIONS: dict[str, dict[str, tuple[type, ...]]] = {
    "game": {"name": (str,), "players": (int,), "options": (dict,)},
    "camera": {"source": (str,), "frames_required": (int,), "dice": (bool,)},
    "pins": {
        "green": (int,),
        "amber": (int,),
        "red": (int,),
        "rgb": (list,),
        "buzzer": (int,),
        "buzzer_kind": (str,),
        "roll_button": (int,),
        "second_button": (int,),
        "bounce_time": (float, int),
        "muted": (bool,),
    },
    "web": {"host": (str,), "port": (int,), "threads": (int,), "pin": (str,)},
    "data": {"database": (str,)},
    "coach": {"enabled": (bool,), "budget_s": (float, int)},
    "voice": {
        "enabled": (bool,),
        "voice": (str,),
        "speed": (int,),
        "amplitude": (int,),
        "device": (str,),
        "max_age_s": (float, int),
    },
}


def load(path: str | Path | None) -> Config:
    """Read and validate a config file; None (or no file given) means all defaults."""
    if path is None:
        return Config()
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"config file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config file {path}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}") from None
    return from_mapping(data, str(path))


def from_mapping(data: dict[str, Any], where: str = "config") -> Config:
    for section, body in data.items():
        if section not in SECTIONS:
            raise ConfigError(
                f"{where}: unknown section [{section}]; allowed: {', '.join(SECTIONS)}"
            )
        if not isinstance(body, dict):
            raise ConfigError(f"{where}: [{section}] must be a table of keys")
        for key, value in body.items():
            allowed = SECTIONS[section].get(key)
            if allowed is None:
                raise ConfigError(
                    f"{where}: unknown key {section}.{key}; allowed: "
                    + ", ".join(SECTIONS[section])
                )
            if not isinstance(value, allowed) or (isinstance(value, bool) and bool not in allowed):
                names = " or ".join(t.__name__ for t in allowed)
                raise ConfigError(f"{where}: {section}.{key} must be {names}, not {value!r}")
    game = data.get("game", {})
    camera = data.get("camera", {})
    web = data.get("web", {})
    config = Config(
        game=game.get("name", "aggravation"),
        players=game.get("players"),
        options=game.get("options", {}),
        camera=camera.get("source", "auto"),
        frames_required=camera.get("frames_required", 3),
        camera_dice=camera.get("dice", True),
        pins=data.get("pins", {}),
        host=web.get("host", "0.0.0.0"),
        port=web.get("port", 8080),
        threads=web.get("threads", 16),
        pin=web.get("pin", ""),
        database=data.get("data", {}).get("database", Config.database),
        coach=data.get("coach", {}),
        voice=data.get("voice", {}),
    )
    _check(config, where)
    return config


def _check(config: Config, where: str) -> None:
    try:
        rules.get(config.game, players=config.players, options=config.options)
    except rules.RulesError as exc:
        raise ConfigError(f"{where}: [game] {exc}") from None
    if not 1 <= config.port <= 65535:
        raise ConfigError(f"{where}: web.port must be 1..65535, not {config.port}")
    if not 1 <= config.threads <= 256:
        raise ConfigError(f"{where}: web.threads must be 1..256, not {config.threads}")
    if not 1 <= config.frames_required <= 60:
        raise ConfigError(
            f"{where}: camera.frames_required must be 1..60, not {config.frames_required}"
        )
    source = config.camera
    if not (
        source in ("auto", "sim", "picamera2")
        or source.split(":", 1)[0]
        in ("sim", "picamera2", "usb", "file", "folder", "rtsp", "http", "https")
    ):
        raise ConfigError(
            f"{where}: camera.source {source!r} is not a camera; allowed: auto, sim, picamera2, "
            "usb:N, file:/path, folder:/path, rtsp://..., http://..."
        )
    if config.pin and not 4 <= len(config.pin) <= 64:
        raise ConfigError(
            f"{where}: web.pin must be 4 to 64 characters (digits, letters, spaces), "
            f"not {len(config.pin)}"
        )
    budget = config.coach.get("budget_s", 1.0)
    if not 0.05 <= budget <= 30:
        raise ConfigError(f"{where}: coach.budget_s must be 0.05..30 seconds, not {budget}")
    if config.voice:
        from .voice import VoiceSettings

        try:
            VoiceSettings.from_mapping(config.voice)
        except ValueError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    if config.pins:
        from hardware.panel import PanelConfig

        try:
            PanelConfig.from_mapping(config.pins)
        except (TypeError, ValueError) as exc:
            text = str(exc)  # a bad pin's message names its key (pins.green) already
            named = text if text.startswith("pins.") else f"[pins] {text}"
            raise ConfigError(f"{where}: {named}") from None
