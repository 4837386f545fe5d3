"""The web page's secret key, kept in a file beside the game database.

Flask signs each browser's session cookie with it, and a player's phone holds its seat through
an id in that cookie: with a key that changed at every start, a restart would log every phone
out of its seat. So the appliance makes the key once (`secrets.token_hex(32)`, mode 0600,
written atomically) and reads it back at every start.

A file that holds no key (empty, cut short, garbage) is replaced, with a warning naming it: the
game is safe in the database, and a new key only means the phones open their links again (the
table PIN frees a seat held by a lost phone), whereas refusing to start would stop the whole
table. A file that cannot be read or written at all (permissions, a directory in its place) is
a SessionKeyError naming it, before the game is touched: that needs someone at the Pi anyway,
exactly as an unreadable database does.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
from pathlib import Path

log = logging.getLogger(__name__)

KEY_FILE = "session.key"
KEY_PATTERN = re.compile(r"[0-9a-fA-F]{32,}")  # at least 128 bits, as hex


class SessionKeyError(Exception):
    """The session key file cannot be read or written; the message names the file."""


def key_file_for(database: str | Path) -> Path | None:
    """Where the key of the table using `database` lives: beside it. None for an in-memory
    database (the demo, tests): nothing outlives the process, so a random key is right."""
    if str(database) == ":memory:":
        return None
    return Path(database).parent / KEY_FILE


def load_or_create(path: Path) -> str:
    """The key stored in `path`; a new one, stored there, when there is none (or no key in it)."""
    key = read_key(path)
    if key is None:
        key = secrets.token_hex(32)
        write_key(path, key)
    return key


def read_key(path: Path) -> str | None:
    """The key in `path`, or None when the file is missing or holds no key."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SessionKeyError(
            f"cannot read the session key file {path}: {exc.strerror or exc}; fix its "
            "permissions, or delete it to make a new key (the players' phones then open "
            "their links again)"
        ) from None
    key = data.decode("ascii", errors="replace").strip()
    if KEY_PATTERN.fullmatch(key):
        return key
    log.warning(
        "session key file %s holds no key; replacing it (phones must open their player links "
        "again; the table PIN frees a seat held by a lost phone)",
        path,
    )
    return None


def write_key(path: Path, key: str) -> None:
    """Store `key` in `path` readable by its owner only, all or nothing (a power cut in the
    middle leaves the old file or the new one, never half a key)."""
    part = path.with_name(path.name + ".part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as out:
            os.fchmod(out.fileno(), 0o600)  # a leftover .part may have had another mode
            out.write(key + "\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(part, path)
        _sync_folder(path.parent)
    except OSError as exc:
        raise SessionKeyError(
            f"cannot write the session key file {path}: {exc.strerror or exc}"
        ) from None


def _sync_folder(folder: Path) -> None:
    """Make the rename itself survive a power cut."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
