"""What stops the table now, in words the players read: storage that cannot save, a camera
that gives no picture. The referee keeps one `Faults`; the page shows `lines()` on every
screen (phones too) and the amber LED is lit while any fault stands."""

from __future__ import annotations

import time
from dataclasses import dataclass

from webui.table import TableError

STORAGE_TEXT = "cannot save: storage full (or read-only) — the game is paused, nothing is lost"
STORAGE_BACK = "storage works again: the game goes on"
CAMERA_BACK = "the camera gives a picture again"


class StoragePaused(TableError):
    """A change refused because storage cannot save it: nothing changed (HTTP 503)."""

    status = 503

    def __init__(self) -> None:
        super().__init__(STORAGE_TEXT)


def camera_text(since: float) -> str:
    """The camera fault as the table shows it (`since`: wall-clock time of the last frame)."""
    clock = time.strftime("%H:%M:%S", time.localtime(since))
    return f"camera gives no picture since {clock} — enter moves by hand or check the cable"


@dataclass
class Faults:
    """The standing faults: when storage failed (and why), since when the camera is silent."""

    storage_since: float | None = None  # wall-clock time of the first failed write
    storage_detail: str = ""  # SQLite's words, for the log and /api/status
    camera_since: float | None = None  # wall-clock time of the camera's last frame

    @property
    def paused(self) -> bool:
        """Storage cannot save: no move may be applied until it can."""
        return self.storage_since is not None

    def any(self) -> bool:
        return self.storage_since is not None or self.camera_since is not None

    def lines(self) -> list[str]:
        out = []
        if self.storage_since is not None:
            out.append(STORAGE_TEXT)
        if self.camera_since is not None:
            out.append(camera_text(self.camera_since))
        return out
