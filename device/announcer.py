"""How the table is told: the standing ruling, the web page's subscribers and the panel's lights.

Nothing here ever waits: subscribers get news through bounded queues (a stalled one loses its
oldest news), and the GPIO panel's patterns run on their own threads (a failing panel is logged,
never stops the referee). Not locked: the referee holds its lock around every call.
"""

from __future__ import annotations

import logging
import queue
import secrets
import time
from collections.abc import Callable
from typing import Any

from .rulings import same_ruling

log = logging.getLogger(__name__)

MAX_SUBSCRIBERS_QUEUE = 100


class Announcer:
    """The standing ruling and everyone told of it. `snapshot` gives the table's state as the
    page shows it, published after every ruling.

    Every state told gets the next number (`seq`), so a page that hears the same change twice,
    as the answer to its own request and as live events queued before it, can tell which is
    newer. The count is kept here, not taken from the moves (an undo takes those back), and
    only while the process runs: `epoch` names this run, so a page knows a lower number after
    a restart is not an older state."""

    def __init__(self, panel: Any, snapshot: Callable[[], dict[str, Any]]) -> None:
        self.panel = panel
        self.ruling: dict[str, Any] | None = None
        self._snapshot = snapshot
        self._queues: list[queue.Queue] = []
        self.seq = 0  # the number of the last state told
        self.epoch = secrets.token_hex(4)

    def stamp(self) -> dict[str, Any]:
        """The number of the last state told and this run's name, for a state or a ruling."""
        return {"seq": self.seq, "epoch": self.epoch}

    @property
    def listeners(self) -> int:
        """How many subscribers are listening (web pages open on the live events)."""
        return len(self._queues)

    def subscribe(self) -> queue.Queue:
        q: queue.Queue = queue.Queue(MAX_SUBSCRIBERS_QUEUE)
        self._queues.append(q)
        return q

    def unsubscribe(self, q: queue.Queue) -> None:
        if q in self._queues:
            self._queues.remove(q)

    def publish(self, kind: str, payload: dict[str, Any]) -> None:
        for q in list(self._queues):
            try:
                q.put_nowait((kind, payload))
            except queue.Full:  # a stalled client: drop its oldest news, never block
                try:
                    q.get_nowait()
                    q.put_nowait((kind, payload))
                except (queue.Empty, queue.Full):
                    pass

    def publish_state(self) -> dict[str, Any]:
        """Tell the subscribers the table's state, under the next number; returns it as it
        stands now."""
        self.seq += 1
        self.publish("state", self._snapshot())
        return self._snapshot()

    def stand(self, ruling: dict[str, Any], moves: int) -> None:
        """Make `ruling` the standing one (stamped with its time and the move count), and tell
        the subscribers the ruling, then the state; both carry the number of that state."""
        ruling = dict(ruling, at=time.time(), moves=moves)
        self.ruling = ruling
        self.seq += 1
        self.publish("ruling", ruling | self.stamp())
        self.publish("state", self._snapshot())

    def is_standing(self, ruling: dict[str, Any]) -> bool:
        """Whether `ruling` is the one standing (ignoring when that was made)."""
        return same_ruling(self.ruling, ruling)

    def light(self, pattern: str | None) -> None:
        """Show a pattern on the GPIO panel (None: leave it as it is)."""
        if self.panel is None or pattern is None:
            return
        try:
            getattr(self.panel, pattern)()
        except Exception as exc:  # a closed or broken panel: the page still shows the ruling
            log.warning("panel %s failed: %s", pattern, exc)
