"""Live data: server-sent events (/api/events) and the camera (/stream.mjpg, /snapshot.jpg).

Each live connection holds one of waitress's threads, so streams are capped
(SSE_MAX_CLIENTS), end after SSE_MAX_AGE seconds (the browser reconnects by itself after the
`retry` delay) and send a keep-alive comment every SSE_KEEPALIVE seconds so a dropped phone is
noticed and its thread freed.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Blueprint, Response, abort, current_app, request

from .api import enrich, get_table

bp = Blueprint("events", __name__)

_lock = threading.Lock()


def _count(app: Any, delta: int) -> int:
    with _lock:
        value = app.extensions.get("boardref.sse_clients", 0) + delta
        app.extensions["boardref.sse_clients"] = value
        return value


def sse(event: str, data: Any) -> str:
    """One server-sent event; the JSON goes on one data line."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


class Slot:
    """One of the SSE_MAX_CLIENTS live-connection slots, given back exactly once: when the
    stream ends, when the server closes the response (a stream never started), or when the
    client is seen gone."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._held = _count(app, +1) <= app.config["SSE_MAX_CLIENTS"]
        if not self._held:
            _count(app, -1)

    @property
    def held(self) -> bool:
        return self._held

    def release(self) -> None:
        with _lock:
            held, self._held = self._held, False
        if held:
            _count(self.app, -1)


def client_gone() -> Callable[[], bool]:
    """A check whether the client hung up. waitress (channel_request_lookahead > 0) tells
    us at once; elsewhere (the test client) the next write tells."""
    check = request.environ.get("waitress.client_disconnected")
    return check if callable(check) else (lambda: False)


def live_stream(
    hello: str,
    first: Callable[[], str],
    on_event: Callable[[str, Any], tuple[str | None, bool]],
) -> Response:
    """A server-sent event stream fed by the table's subscriber queue.

    `hello` goes out at once (so proxies open the pipe), then `first()`, taken before the
    hello is sent; every queued (kind, payload) goes through `on_event`, which returns the
    text to send (or None) and whether the stream is over. Keep-alive comments fill
    silences; the stream ends after SSE_MAX_AGE (the browser reconnects), and no more than
    SSE_MAX_CLIENTS run at once. A client that hangs up frees its slot within SSE_POLL
    seconds, not at the next keep-alive.
    """
    table = get_table()
    app = current_app._get_current_object()
    config = app.config
    slot = Slot(app)
    if not slot.held:
        response = Response(
            json.dumps({"error": "too many live connections; retrying shortly"}) + "\n",
            status=503,
            mimetype="application/json",
        )
        response.headers["Retry-After"] = "10"
        return response
    try:
        q = table.subscribe()
    except Exception:
        slot.release()
        raise
    keepalive, max_age = config["SSE_KEEPALIVE"], config["SSE_MAX_AGE"]
    poll = min(config.get("SSE_POLL", 1.0), keepalive)
    gone = client_gone()

    def release() -> None:
        table.unsubscribe(q)
        slot.release()

    def stream() -> Iterator[str]:
        try:
            # the first state is taken before the client hears anything: every change it
            # makes once it sees the stream open comes after, as events, in order (taken
            # later, the first state showed those changes and the queued events took the
            # page back to older states)
            opening = first()
            yield hello
            yield opening
            now = time.monotonic()
            ends, quiet_since = now + max_age, now
            while time.monotonic() < ends and not gone():
                try:
                    kind, payload = q.get(timeout=poll)
                except queue.Empty:
                    if time.monotonic() - quiet_since >= keepalive:
                        quiet_since = time.monotonic()
                        yield ": keep-alive\n\n"
                    continue
                text, over = on_event(kind, payload)
                if text:
                    quiet_since = time.monotonic()
                    yield text
                if over:
                    return
        finally:
            release()

    response = Response(stream(), mimetype="text/event-stream")
    response.call_on_close(release)  # also when the stream was never started
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.get("/api/events")
def events():
    """Server-sent events: "state" (a snapshot) and "ruling" (the latest ruling)."""
    table = get_table()
    guard = current_app.extensions.get("boardref.pin_guard")

    def on_event(kind: str, payload: Any) -> tuple[str | None, bool]:
        if kind == "state":
            return sse(kind, enrich(table, payload, guard)), False
        if kind == "ruling":
            return sse(kind, payload), False
        return None, False

    return live_stream(
        ": boardref live table\nretry: 3000\n\n",
        lambda: sse("state", enrich(table, table.snapshot(), guard)),
        on_event,
    )


def camera_fault(table: Any) -> str | None:
    """The camera's fault as the table says it ("camera gives no picture since ..."), if any."""
    try:
        camera = table.status().get("camera") or {}
    except Exception:  # noqa: BLE001  (a fake or half-started table: no word on the camera)
        return None
    return camera.get("fault") or None


@bp.get("/snapshot.jpg")
def snapshot():
    """One annotated camera frame (board outline, every space's reading, the dice boxes);
    503 when the camera gives no picture (an old frame is never passed off as the board now)."""
    table = get_table()
    fault = camera_fault(table)
    if fault:
        abort(503, description=fault)
    frame = table.frame_jpeg()
    if not frame:
        abort(503, description="no camera frame yet: the camera is off or starting")
    response = Response(frame, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/stream.mjpg")
def stream_mjpg():
    """The annotated camera view as an MJPEG stream (multipart/x-mixed-replace)."""
    table = get_table()
    fault = camera_fault(table)
    if fault:
        abort(503, description=fault)
    first = table.frame_jpeg()
    if not first:
        abort(503, description="no camera frame yet: the camera is off or starting")
    app = current_app._get_current_object()
    slot = Slot(app)
    if not slot.held:
        abort(503, description="too many live connections; try again shortly")
    interval, max_age = app.config["MJPEG_INTERVAL"], app.config["MJPEG_MAX_AGE"]
    gone = client_gone()

    def frames() -> Iterator[bytes]:
        try:
            last = None
            frame = first
            ends = time.monotonic() + max_age
            while time.monotonic() < ends and not gone():
                if frame and frame is not last:
                    last = frame
                    yield (
                        b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                        + str(len(frame)).encode()
                        + b"\r\n\r\n"
                        + frame
                        + b"\r\n"
                    )
                time.sleep(interval)
                frame = table.frame_jpeg()
        finally:
            slot.release()

    response = Response(frames(), mimetype="multipart/x-mixed-replace; boundary=frame")
    response.call_on_close(slot.release)
    response.headers["Cache-Control"] = "no-store"
    return response
