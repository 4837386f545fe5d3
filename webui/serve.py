"""Serve the app with waitress: enough threads for several phones holding live connections."""

from __future__ import annotations

from typing import Any

from flask import Flask


def serve(
    app: Flask, host: str = "0.0.0.0", port: int = 8000, threads: int = 32, **kw: Any
) -> None:
    """Block serving `app` on host:port. Each live page holds one thread for its event stream
    (and one more while the camera view is open), so `threads` bounds the phones served at
    once; the app refuses live streams beyond SSE_MAX_CLIENTS so plain requests still get a
    thread."""
    from waitress import serve as waitress_serve

    app.config["SSE_MAX_CLIENTS"] = min(app.config.get("SSE_MAX_CLIENTS", 24), max(threads - 4, 1))
    kw.setdefault("channel_request_lookahead", 1)  # lets a stream see its client hang up
    waitress_serve(app, host=host, port=port, threads=threads, ident="boardref", **kw)


def make_server(app: Flask, host: str = "127.0.0.1", port: int = 0, threads: int = 16):
    """A waitress server object (not yet running): call `.run()` in a thread, `.close()` to
    stop. `port=0` picks a free port; read it from `server.effective_port`."""
    from waitress.server import create_server

    app.config["SSE_MAX_CLIENTS"] = min(app.config.get("SSE_MAX_CLIENTS", 24), max(threads - 4, 1))
    return create_server(
        app,
        host=host,
        port=port,
        threads=threads,
        ident="boardref",
        channel_request_lookahead=1,  # lets a stream see its client hang up (events.py)
    )
