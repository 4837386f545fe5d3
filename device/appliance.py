"""Wire the appliance together: config -> game, store, GPIO panel, camera, pipeline, web app.

The same wiring runs on the Pi (`boardref serve`) and on any machine (`boardref demo`, where
the camera is the simulated table and the GPIO is gpiozero's MockFactory).
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rules
from hardware.cameras import open_camera
from hardware.dice_rng import roll_die
from hardware.panel import Panel, PanelConfig
from hardware.voice import VoiceError
from webui import create_app
from webui.table import TableError

from .coach_runner import CoachRunner, CoachSettings
from .config import Config
from .pipeline import Pipeline
from .referee import Referee
from .session_key import key_file_for, load_or_create
from .store import Store
from .voice import RulingVoice, VoiceSettings, start_voice

log = logging.getLogger(__name__)

WATCHDOG_SECONDS = 2.0


@dataclass
class Appliance:
    config: Config
    referee: Referee
    panel: Panel | None
    pipeline: Pipeline | None
    app: Any
    coach: CoachRunner | None = None
    voice: RulingVoice | None = None

    _watchdog_stop: threading.Event = field(default_factory=threading.Event)

    def start_watchdog(self, every: float = WATCHDOG_SECONDS) -> threading.Thread:
        """Every few seconds: the referee retries a paused store and keeps the amber light on
        while a fault stands (`Referee.check_faults`)."""

        def watch() -> None:
            while not self._watchdog_stop.wait(every):
                try:
                    self.referee.check_faults()
                except Exception:  # the watchdog must outlive any one failure
                    log.exception("fault check failed")

        thread = threading.Thread(target=watch, name="boardref-watchdog", daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        self._watchdog_stop.set()
        if self.voice is not None:
            self.voice.close()
        if self.coach is not None:
            self.coach.close()
        if self.pipeline is not None:
            self.pipeline.stop()
        if self.panel is not None:
            self.panel.close()


def build(
    config: Config,
    *,
    camera: Any = None,
    store: Store | None = None,
    pin_factory: Any = None,
    with_panel: bool = True,
) -> Appliance:
    """Everything but the HTTP server. `camera` overrides the config's camera source."""
    game = rules.get(config.game, players=config.players, options=config.options)
    if store is None:
        store = Store(config.database)
    secret_key = session_secret(store)
    panel = None
    if with_panel:
        panel = Panel(PanelConfig.from_mapping(config.pins), pin_factory=pin_factory)
    pipeline: Pipeline | None = None
    holder: dict[str, Pipeline] = {}
    referee = Referee(
        game,
        store=store,
        panel=panel,
        roll_die=roll_die,
        pin=config.pin,
        camera_dice=config.camera_dice,
        frame_source=lambda: holder["p"].jpeg() if "p" in holder else None,
        status_source=lambda: holder["p"].status_json() if "p" in holder else {},
    )
    referee.profile_saver = _profile_saver(Path(config.database).parent / "profiles")
    source = resolve_camera(config.camera)
    if camera is None and source:
        if source.split(":", 1)[0] == "sim":
            from hardware.simcamera import SimulatedCamera, TableWorld

            world = TableWorld(placement=game.placement(referee.state))
            camera = SimulatedCamera(referee.game.board, world)
        else:
            camera = open_camera(source, retry=True)
    if camera is not None:
        pipeline = Pipeline(
            referee, camera, source_name=source, frames_required=config.frames_required
        )
        holder["p"] = pipeline
    if panel is not None:
        panel.on_roll = lambda: _safe_roll(referee, "button")
        panel.on_second = lambda: _safe_undo(referee)
    coach = None
    if config.coach.get("enabled", True):
        coach = CoachRunner(referee, CoachSettings(budget_s=config.coach.get("budget_s", 1.0)))
    app = create_app({"SECRET_KEY": secret_key} if secret_key else None, table=referee, coach=coach)
    voice_settings = VoiceSettings.from_mapping(config.voice)
    voice = None
    if voice_settings.enabled:
        try:
            voice = start_voice(referee, voice_settings)
        except VoiceError as exc:  # the table still rules on the page and the lights
            log.error("voice is off: %s", exc)
    return Appliance(config, referee, panel, pipeline, app, coach, voice)


def session_secret(store: Store) -> str | None:
    """The key signing the phones' session cookies (which hold their seats), kept beside the
    database so a restart keeps every phone in its seat. None when BOARDREF_SECRET_KEY is set
    (create_app takes it, it wins) or the database is in memory (a random key per process)."""
    if os.environ.get("BOARDREF_SECRET_KEY"):
        return None
    path = key_file_for(store.path)
    return None if path is None else load_or_create(path)


def resolve_camera(source: str) -> str:
    """ "auto": the Pi camera when picamera2 is installed (from apt, on the Pi), else the
    simulated table, so `boardref serve` with no config runs anywhere."""
    if source != "auto":
        return source
    try:
        import picamera2  # noqa: F401
    except ImportError:
        log.warning("camera: picamera2 is not installed; using the simulated table")
        return "sim"
    return "picamera2"


def _safe_roll(referee: Referee, source: str) -> None:
    try:
        referee.roll(source)
    except TableError as exc:  # a press at the wrong time: say why, keep the game
        log.info("roll button: %s", exc)


def _safe_undo(referee: Referee) -> None:
    try:
        referee.undo()
    except TableError as exc:
        log.info("second button: %s", exc)


def _profile_saver(folder: Path):
    def save(profile: dict[str, Any]) -> str:
        name = re.sub(r"[^A-Za-z0-9_-]+", "-", str(profile.get("name") or "board")).strip("-")
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name or 'board'}-{int(time.time())}.json"
        path.write_text(json.dumps(profile, indent=2))
        return str(path)

    return save


def serve(
    appliance: Appliance,
    host: str,
    port: int,
    threads: int,
    ready: Callable[[], None] | None = None,
) -> None:
    """Serve the page until stopped. The port is taken before the camera loop starts, so a
    taken port (PortInUse) stops nothing that was running; `ready` runs once it listens."""
    from .network import bind_server

    try:
        server = bind_server(appliance.app, host, port, threads)
        if appliance.pipeline is not None:
            appliance.pipeline.start()
        if ready is not None:
            ready()
        server.run()
    except KeyboardInterrupt:  # Ctrl-C in a terminal: a normal stop
        pass
    finally:
        appliance.close()
