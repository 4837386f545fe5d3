"""An app served by waitress in a thread, for the tests that talk to it over HTTP."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from webui.serve import make_server


def run_until_closed(server) -> None:
    """Serve until the test closes the server: the loop then meets the closed socket, which
    is the end, not an error (left to raise, it warns in whichever test runs next)."""
    try:
        server.run()
    except (OSError, ValueError):
        pass


def start(server) -> None:
    """Serve in a daemon thread."""
    threading.Thread(target=run_until_closed, args=(server,), daemon=True).start()


@contextmanager
def served(app, threads: int = 12) -> Iterator[str]:
    """The app on a free loopback port, served by waitress in a thread; yields its URL."""
    server = make_server(app, port=0, threads=threads)
    start(server)
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        server.close()
