"""`boardref bench reliability`: the faults a table meets, each tried a bounded number of times.

- kills: a referee in a child process plays a seeded game of Aggravation onto a database file
  and is killed with SIGKILL after a random number of acknowledged moves; the database is
  reopened: survived when the game resumes, and every move acknowledged before the kill counts
  as lost when it is not there.
- storage faults: a referee plays a seeded game while the store's write seam fails now and then
  with `sqlite3.OperationalError('database or disk is full')`; survived when the refused move
  was not applied, the game went on once writes worked again, and a restart from the file
  shows exactly the moves the table showed.
- malformed requests: the web app served by waitress on 127.0.0.1 gets a bounded list of
  malformed requests (bad numbers, non-ASCII tokens, deep JSON, junk bodies, bad path values)
  over real sockets; every 5xx answer is counted.
- PIN guesses: wrong PINs from 50 loopback addresses (127.0.0.2 ...) until the table locks.
- live reconnects: 20 phones on the live events (fewer than the 24 slots) each drop their
  connection and reconnect 1.5 s later, three times; a refused reconnect (503) means a dropped
  phone still held its slot.

Every figure comes from games and requests this bench makes itself (seeded), on this machine,
on loopback only; nothing here was tuned on them.
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

import rules
from webui.table import TableError

from .referee import Referee
from .store import StorageFault, Store

PLAYER = textwrap.dedent(
    """
    import random, sys
    import rules
    from device.referee import Referee
    from device.store import Store

    rng = random.Random(int(sys.argv[2]))
    game = rules.get("aggravation", players=4, options={"opening": "first-seat"})
    ref = Referee(game, store=Store(sys.argv[1]), roll_die=lambda: rng.randint(1, 6))
    while ref.game.outcome(ref.state) is None:
        if ref.state.phase == "roll":
            ref.roll()
        else:
            ref.manual_move(rng.choice(ref.game.legal_moves(ref.state)).to_json())
        print(ref.snapshot()["moves"], flush=True)
    """
)


def run(kills: int = 10, requests: int = 400, seed: int = 0) -> dict[str, Any]:
    """Every part of the bench; bounded by its counts (a few tens of seconds in all)."""
    for name in ("device", "waitress"):  # the faults and the crowding are on purpose here
        logging.getLogger(name).setLevel(logging.CRITICAL)
    with tempfile.TemporaryDirectory(prefix="boardref-bench-") as folder:
        killed = bench_kills(Path(folder), kills, seed)
        storage = bench_storage_faults(Path(folder) / "faults.sqlite3", seed)
    web = bench_malformed_requests(requests, seed)
    pin = bench_pin_guesses()
    live = bench_live_reconnects()
    return {
        "kills_survived": killed["survived"],
        "kills_tried": killed["tried"],
        "moves_lost": killed["moves_lost"] + storage["moves_lost"],
        "storage_faults_survived": storage["survived"],
        "storage_faults_injected": storage["injected"],
        "malformed_requests_tried": web["tried"],
        "responses_5xx": web["5xx"],
        "pin_guesses_before_lockout": pin["guesses_before_lockout"],
        "live_reconnects_refused": live["reconnects_refused"],
        "details": {"kills": killed, "storage": storage, "web": web, "pin": pin, "live": live},
        "data": "seeded games of Aggravation and requests made by this bench, on loopback",
    }


# --- kill -9 ---------------------------------------------------------------------------------


def bench_kills(folder: Path, kills: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root))
    survived = lost = acknowledged_total = 0
    for n in range(kills):
        db = folder / f"kill-{n}.sqlite3"
        proc = subprocess.Popen(
            [sys.executable, "-c", PLAYER, str(db), str(seed * 1000 + n)],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        stop_after, acknowledged = rng.randint(5, 150), 0
        for line in proc.stdout:
            acknowledged = int(line)
            if acknowledged >= stop_after:
                break
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stdout.close()
        try:
            ref = Referee(rules.get("aggravation"), store=Store(db))
        except Exception:  # noqa: BLE001  (a kill that stops the table is what we count)
            lost += acknowledged
            continue
        resumed = ref.snapshot()["moves"]
        lost += max(0, acknowledged - resumed)
        acknowledged_total += acknowledged
        survived += 1
    return {
        "tried": kills,
        "survived": survived,
        "moves_acknowledged": acknowledged_total,
        "moves_lost": lost,
    }


# --- storage faults ----------------------------------------------------------------------------


class FlakyDisk:
    """The store's write seam: fails the next `failing` writes, as a full disk would."""

    def __init__(self) -> None:
        self.failing = 0
        self.refused = 0

    def __call__(self, sql: str) -> None:
        if self.failing > 0:
            self.failing -= 1
            self.refused += 1
            raise sqlite3.OperationalError("database or disk is full")


def bench_storage_faults(db: Path, seed: int, moves: int = 300) -> dict[str, Any]:
    rng = random.Random(seed)
    game = rules.get("aggravation", players=4, options={"opening": "first-seat"})
    store = Store(db)
    disk = FlakyDisk()
    store.write_fault = disk
    ref = Referee(game, store=store, roll_die=lambda: rng.randint(1, 6))
    injected = survived = 0
    for _ in range(moves):
        if ref.game.outcome(ref.state) is not None:
            break
        fault = rng.random() < 0.1
        if fault:
            disk.failing = rng.randint(1, 3)
            injected += 1
        before = ref.snapshot()["moves"]
        applied_unsaved = False
        for _attempt in range(5):  # the table tries again, as the camera does each frame
            try:
                play_one(ref, rng)
                break
            except (StorageFault, TableError):
                # refused: nothing may have changed (a move shown but not stored is lost)
                applied_unsaved = applied_unsaved or ref.snapshot()["moves"] != before
        moved = ref.snapshot()["moves"] > before
        if fault and moved and not applied_unsaved and not ref.snapshot().get("faults"):
            survived += 1
    shown = ref.snapshot()["moves"]
    store.close()
    try:
        restarted = Referee(rules.get("aggravation"), store=Store(db))
        stored, refused = restarted.snapshot()["moves"], ""
    except Exception as exc:  # noqa: BLE001  (a table that will not start loses everything)
        stored, refused = 0, str(exc)[:200]
    return {
        "restart_refused": refused,
        "injected": injected,
        "survived": survived,
        "writes_refused": disk.refused,
        "moves_shown": shown,
        "moves_after_restart": stored,
        "moves_lost": max(0, shown - stored),
        "moves_stored_but_not_shown": max(0, stored - shown),
    }


def play_one(ref: Referee, rng: random.Random) -> None:
    """One seeded move of the game in progress: the die when it is to be rolled."""
    legal = ref.game.legal_moves(ref.state)
    if any(isinstance(m, rules.Roll) for m in legal):
        ref.roll("bench")
    else:
        ref.manual_move(rng.choice(legal).to_json())


# --- malformed requests ------------------------------------------------------------------------

TINY_JPEG = bytes.fromhex(
    "ffd8ffe000104a46494600010100000100010000ffdb004300080606070605080707070909080a0c140d0c0b0b0c"
    "1912130f141d1a1f1e1d1a1c1c20242e2720222c231c1c2837292c30313434341f27393d38323c2e333432ffc0"
    "000b080001000101011100ffc4001f0000010501010101010100000000000000000102030405060708090a0bffc4"
    "00b5100002010303020403050504040000017d01020300041105122131410613516107227114328191a1082342"
    "b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748494a535455565758"
    "595a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2"
    "b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9"
    "faffda0008010100003f00fbd3ffd9"
)


def malformed(rng: random.Random, csrf: str, pin: str) -> tuple[str, str, dict, bytes]:
    """One malformed request: (method, path, headers, body)."""
    junk_text = "".join(
        rng.choice("²٣ñ%{}[]\"'\\<>\x00é😀 0123abc") for _ in range(rng.randint(0, 12))
    )
    nested = rng.choice(["[", "{", '{"a":']) * rng.randint(30, 3000)
    body_json = rng.choice(
        [
            nested,
            '{"players": "²"}',
            '{"game": "aggravation", "players": "٣"}',
            '{"move": ' + nested,
            '{"move": {"kind": "step", "player": "x"}}',
            '{"from": 5, "to": []}',
            '{"mode": {"a": 1}}',
            '{"options": "{not json"}',
            '{"identities": [[1, 2, 3]]}',
            '{"hand": null}',
            '"just a string"',
            "null",
            "{" + '"a": 1,' * 5000 + '"b": 2}',
        ]
    )
    choice = rng.randrange(8)
    headers = {"Content-Type": "application/json", "X-CSRF-Token": csrf, "X-Table-PIN": pin}
    if choice == 0:
        value = rng.choice(["%C2%B2", "%D9%A3", "-1", "9" * 30, "1e3", "%FF", ""])
        return "GET", f"/api/history?{rng.choice(['since', 'last'])}={value}", {}, b""
    if choice == 1:
        headers["X-CSRF-Token"] = junk_text.encode("utf-8").decode("latin-1") or "ñ"
        return "POST", "/api/roll", headers, b"{}"
    if choice == 2:
        route = rng.choice(
            ["/api/pin", "/api/undo", "/api/move", "/api/settings", "/api/new-game",
             "/api/calibration/profile", "/api/opening", "/api/seats/0/setup"]
        )  # fmt: skip
        return "POST", route, headers, body_json.encode()
    if choice == 3:
        headers["Content-Type"] = rng.choice(
            ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=z"]
        )
        return "POST", rng.choice(["/api/move", "/api/new-game"]), headers, rng.randbytes(64)
    if choice == 4:
        space = "".join(rng.choice("%²ñ/..x01") for _ in range(rng.randint(1, 10)))
        return "GET", f"/api/teach/moves?space={quote(space, safe='/%')}", {}, b""
    if choice == 5:
        path = rng.choice(["/teach/", "/api/games/", "/play/", "/api/play/", "/seat-qr/"])
        return "GET", path + "%E2%80%AE" + str(rng.randint(0, 10**12)), {}, b""
    if choice == 6:
        headers["X-Table-PIN"] = junk_text.encode("utf-8").decode("latin-1")
        return "POST", "/api/new-game", headers, b'{"game": "manji"}'
    return "GET", "/api/teach/explain?from=%00&to=" + "x" * rng.randint(0, 500), {}, b""


def bench_malformed_requests(count: int, seed: int) -> dict[str, Any]:
    from webui import create_app
    from webui.security import PinGuard

    rng = random.Random(seed)
    game = rules.get("aggravation", players=4, options={"opening": "first-seat"})
    table = Referee(game, store=Store(":memory:"), pin="2468", frame_source=lambda: TINY_JPEG)
    app = create_app({"SECRET_KEY": "bench"}, table=table)
    # no lock-out here: these requests are to reach past the PIN check (the PIN part is below)
    app.extensions["boardref.pin_guard"] = PinGuard(per_address=10**9, free_failures=10**9)
    server, thread, port = start(app)
    statuses: Counter[int] = Counter()
    failures: list[str] = []
    try:
        cookie, csrf = session(port)
        for _ in range(count):
            method, path, headers, body = malformed(rng, csrf, "2468")
            headers = dict(headers, Cookie=cookie)
            status = send(port, method, path, headers, body)
            statuses[status] += 1
            if status >= 500 and len(failures) < 10:
                failures.append(f"{method} {path[:80]} -> {status}")
    finally:
        stop(server, thread)
    return {
        "tried": count,
        "5xx": sum(n for s, n in statuses.items() if s >= 500),
        "by_status": {str(s): n for s, n in sorted(statuses.items())},
        "examples_5xx": failures,
    }


def start(app: Any, threads: int = 4) -> tuple[Any, threading.Thread, int]:
    """The app served by waitress on 127.0.0.1 (a free port), on a thread of its own."""
    from webui.serve import make_server

    server = make_server(app, port=0, threads=threads)

    def serve() -> None:
        try:
            server.run()
        except (OSError, ValueError):  # the loop notices the closed socket at the end
            pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return server, thread, server.effective_port


def stop(server: Any, thread: threading.Thread) -> None:
    """Let waitress's workers finish, then close: no worker touches a closed socket."""
    server.task_dispatcher.shutdown(cancel_pending=True, timeout=10)
    server.close()
    thread.join(timeout=10)


def session(port: int) -> tuple[str, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", "/api/csrf")
    response = conn.getresponse()
    cookie = response.getheader("Set-Cookie", "").split(";", 1)[0]
    csrf = json.loads(response.read())["csrf_token"]
    conn.close()
    return cookie, csrf


def send(port: int, method: str, path: str, headers: dict, body: bytes, source: str = "") -> int:
    """One request over a fresh loopback connection (from `source`, a 127.x address)."""
    conn = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=60, source_address=(source, 0) if source else None
    )
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        for name, value in headers.items():
            conn.putheader(name, value.encode("latin-1") if isinstance(value, str) else value)
        conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


# --- PIN guesses -------------------------------------------------------------------------------


def bench_pin_guesses(addresses: int = 50, limit: int = 200) -> dict[str, Any]:
    """Wrong PINs spread over many loopback addresses until the first refusal (429)."""
    from webui import create_app

    game = rules.get("aggravation", players=4, options={"opening": "first-seat"})
    table = Referee(game, store=Store(":memory:"), pin="27182818")
    app = create_app({"SECRET_KEY": "bench"}, table=table)
    server, thread, port = start(app)
    guesses, started = 0, time.monotonic()
    locked_for = None
    try:
        cookie, csrf = session(port)
        while guesses < limit:
            source = f"127.0.0.{2 + guesses % addresses}"
            headers = {"Cookie": cookie, "X-CSRF-Token": csrf, "X-Table-PIN": f"{guesses:08d}"}
            status = send(port, "POST", "/api/pin", headers, b"", source=source)
            if status == 429:
                locked_for = app.extensions["boardref.pin_guard"].table_lock().seconds_left
                break
            guesses += 1
    finally:
        stop(server, thread)
    return {
        "guesses_before_lockout": guesses,
        "addresses": addresses,
        "lockout_seconds": locked_for,
        "seconds": round(time.monotonic() - started, 2),
    }


# --- live events: dropped phones reconnecting ----------------------------------------------------


def bench_live_reconnects(phones: int = 20, rounds: int = 3) -> dict[str, Any]:
    import socket

    from webui import create_app

    game = rules.get("aggravation", players=4, options={"opening": "first-seat"})
    table = Referee(game, store=Store(":memory:"))
    app = create_app({"SECRET_KEY": "bench"}, table=table)
    server, thread, port = start(app, threads=32)
    reconnects: list[bytes] = []  # the status line's code of every reconnect

    def phone() -> None:
        for n in range(rounds):
            sock = socket.create_connection(("127.0.0.1", port), timeout=60)
            sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: table\r\n\r\n")
            status = sock.recv(200).split(b" ")[1]
            if n:
                reconnects.append(status)
            time.sleep(1.0)
            sock.close()  # the phone drops: screen off, out of the Wi-Fi
            time.sleep(1.5)

    try:
        threads = [threading.Thread(target=phone) for _ in range(phones)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    finally:
        stop(server, thread)
    return {
        "phones": phones,
        "slots": app.config["SSE_MAX_CLIENTS"],
        "reconnects": len(reconnects),
        "reconnects_refused": sum(1 for s in reconnects if s == b"503"),
    }
