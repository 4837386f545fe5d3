"""Fault injection on the web API: every malformed request reported in issue 16 gets a 4xx
JSON error naming what was wrong (never a 500), the table PIN locks for the whole table after a
few wrong guesses, and a live-events client that hangs up frees its slot at once."""

from __future__ import annotations

import socket

import pytest

from tests.conftest import PIN
from tests.fake_table import FakeTable
from tests.live_server import start
from tests.waiting import wait_until
from webui import create_app
from webui.security import PinGuard
from webui.serve import make_server


def fingerprint(table):
    snap = table.snapshot()
    return snap["game"], snap["players"], snap["moves"]


# --- the 500s of the issue, each a 400 naming the fault --------------------------------------


@pytest.mark.parametrize("name", ["since", "last"])
@pytest.mark.parametrize("value", ["%C2%B2", "%D9%A3", "-1", "1e3", "9999999999"])
def test_history_numbers_must_be_ascii_digits(client, name, value):
    r = client.get(f"/api/history?{name}={value}")
    assert r.status_code == 400
    assert name in r.get_json()["error"]


def test_history_numbers_still_work(client, table):
    table.roll("button")
    assert client.get("/api/history?since=0").status_code == 200
    assert client.get("/api/history?last=1").get_json()["entries"]


def test_a_non_ascii_csrf_token_is_a_403(client, csrf):
    for token in ("ñ", "\u00e9" * 40, "x" * 43 + "ü"):
        r = client.post("/api/roll", headers={"X-CSRF-Token": token.encode().decode("latin-1")})
        assert r.status_code == 403 and "CSRF" in r.get_json()["error"]


@pytest.mark.parametrize(
    "url",
    ["/api/pin", "/api/undo", "/api/move", "/api/settings", "/api/new-game",
     "/api/calibration/profile", "/api/opening", "/api/seats/0/setup"],
)  # fmt: skip
def test_deeply_nested_json_is_never_a_500(post, table, url):
    table.roll("button")
    before = fingerprint(table)
    for body in ("[" * 1000, "{" * 1000, '{"a":' * 40 + "1" + "}" * 40):
        r = post.raw(url, body, pin=PIN)
        assert r.status_code < 500, (url, r.status_code)
        if url in ("/api/move", "/api/settings", "/api/new-game", "/api/calibration/profile"):
            assert r.status_code == 400 and r.get_json()["error"]  # these read the body
    if url != "/api/undo":  # undo reads no body: the PIN in the header is enough
        assert fingerprint(table) == before


def test_the_nesting_error_names_the_fault(post):
    r = post.raw("/api/move", "[" * 1000, pin=PIN)
    assert r.status_code == 400 and "nested" in r.get_json()["error"]
    r = post.raw("/api/move", '{"move": ', pin=PIN)
    assert r.status_code == 400 and "not usable JSON" in r.get_json()["error"]


def test_deep_options_in_a_form_are_a_400(client, csrf, table):
    form = {"csrf_token": csrf, "pin": PIN, "game": "aggravation", "options": "[" * 2000}
    r = client.post("/api/new-game", data=form)
    assert r.status_code == 400 and "options" in r.get_json()["error"]


@pytest.mark.parametrize("players", ["²", "٣", "3.0", "", " 4", True, 2.0, None, [4]])
def test_new_game_players_must_be_a_whole_number(post, table, players):
    before = fingerprint(table)
    r = post("/api/new-game", json={"game": "aggravation", "players": players}, pin=PIN)
    assert r.status_code == 400 and "players" in r.get_json()["error"]
    assert fingerprint(table) == before


@pytest.fixture
def raw_post(client, csrf):
    def do(url, body, pin=None):
        headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
        if pin:
            headers["X-Table-PIN"] = pin
        return client.post(url, data=body, headers=headers)

    return do


@pytest.fixture
def post(post, raw_post):  # noqa: F811  (the conftest fixture, with a raw variant)
    post.raw = raw_post
    return post


# --- the table PIN: a lock-out for the whole table ----------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_wrong_pins_from_many_addresses_lock_the_whole_table():
    clock = Clock()
    guard = PinGuard(clock=clock)
    for n in range(5):
        assert guard.table_lock().seconds_left == 0
        guard.failed(f"10.0.0.{n}")  # one guess each: no address is locked on its own
    assert not any(guard.locked(f"10.0.0.{n}") for n in range(5))
    lock = guard.table_lock()
    assert lock.seconds_left == 60 and "locked for 1 min" in lock.message()
    clock.now += 61
    assert guard.table_lock().seconds_left == 0
    for n in range(5):
        guard.failed(f"10.0.1.{n}")
    assert guard.table_lock().seconds_left == 120  # the delay grows with every lock-out
    clock.now += 121
    for n in range(5):
        guard.failed(f"10.0.2.{n}")
    assert guard.table_lock().seconds_left == 240
    clock.now += 241
    guard.reset("10.0.3.1")  # the right PIN starts afresh
    for n in range(4):
        guard.failed(f"10.0.4.{n}")
    assert guard.table_lock().seconds_left == 0


def test_the_delay_stops_growing_at_an_hour():
    clock = Clock()
    guard = PinGuard(clock=clock)
    for _ in range(12):
        for n in range(5):
            guard.failed(str(n))
        left = guard.table_lock().seconds_left
        clock.now += left + 1
    assert left == 3600


def test_an_hour_without_a_wrong_pin_forgets_the_old_ones():
    clock = Clock()
    guard = PinGuard(clock=clock)
    for n in range(4):
        guard.failed(str(n))
    clock.now += 3601
    guard.failed("x")  # the fifth, but an hour after the others
    assert guard.table_lock().seconds_left == 0
    for n in range(3):
        guard.failed(str(n))
    assert guard.table_lock().seconds_left == 0
    guard.failed("y")  # five in a row again
    assert guard.table_lock().seconds_left == 60


def pin_app(table, clock):
    app = create_app({"SECRET_KEY": "t", "TESTING": True}, table=table)
    app.extensions["boardref.pin_guard"] = PinGuard(clock=clock)
    return app


def test_a_locked_table_refuses_even_the_right_pin_and_says_until_when(table):
    clock = Clock()
    app = pin_app(table, clock)
    phones = []
    for n in range(6):  # six phones, one guess each
        phone = app.test_client()
        csrf = phone.get("/api/csrf").get_json()["csrf_token"]
        phones.append((phone, csrf))
        r = phone.post(
            "/api/pin",
            headers={"X-CSRF-Token": csrf, "X-Table-PIN": f"{n:04d}"},
            environ_base={"REMOTE_ADDR": f"192.0.2.{n}"},
        )
        assert r.status_code == (403 if n < 5 else 429)
    phone, csrf = phones[0]
    r = phone.post("/api/undo", headers={"X-CSRF-Token": csrf, "X-Table-PIN": PIN})
    assert r.status_code == 429
    assert "changes are locked" in r.get_json()["error"] and "until" in r.get_json()["error"]
    state = phone.get("/api/state").get_json()
    assert state["pin_lock"]["locked"] is True and state["pin_lock"]["seconds"] == 60
    assert phone.get("/api/status").get_json()["pin_lock"]["locked"] is True
    clock.now += 61
    table.roll("button")
    r = phone.post("/api/undo", headers={"X-CSRF-Token": csrf, "X-Table-PIN": PIN})
    assert r.status_code == 200
    assert phone.get("/api/state").get_json()["pin_lock"]["locked"] is False


def test_a_long_pin_with_letters_works(client, csrf, table):
    table.pin = "correct horse battery staple 42"
    table.roll("button")
    r = client.post("/api/undo", headers={"X-CSRF-Token": csrf, "X-Table-PIN": table.pin})
    assert r.status_code == 200


# --- live events: a client that hangs up frees its slot --------------------------------------


@pytest.fixture
def waitress_site():
    table = FakeTable(seed=3, options={"opening": "first-seat"})
    # keep-alives a minute apart: only the hang-up check can free the slot in this test
    app = create_app(
        {"SECRET_KEY": "x", "SSE_KEEPALIVE": 60.0, "SSE_POLL": 0.2, "SSE_MAX_CLIENTS": 2},
        table=table,
    )
    server = make_server(app, port=0, threads=6)
    start(server)
    yield app, table, server.effective_port
    server.close()


def open_stream(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    seen = b""
    while b"event: state" not in seen:
        chunk = sock.recv(65536)
        assert chunk, "the stream closed before its first state"
        seen += chunk
    return sock


def test_a_dropped_client_frees_its_slot_long_before_the_keep_alive(waitress_site):
    app, table, port = waitress_site
    first, second = open_stream(port), open_stream(port)
    assert app.extensions["boardref.sse_clients"] == 2
    first.close()
    assert wait_until(lambda: app.extensions["boardref.sse_clients"] == 1)
    assert wait_until(lambda: table.subscribers == 1)
    third = open_stream(port)  # the freed slot is there for a reconnecting phone
    assert app.extensions["boardref.sse_clients"] == 2
    for sock in (second, third):
        sock.close()
    assert wait_until(lambda: app.extensions["boardref.sse_clients"] == 0)


def test_a_stream_never_started_gives_its_slot_back(table):
    app = create_app({"SECRET_KEY": "x", "SSE_MAX_CLIENTS": 1}, table=table)
    client = app.test_client()
    r = client.get("/api/events", buffered=False)
    r.close()  # closed before a single byte was read
    assert app.extensions["boardref.sse_clients"] == 0
    assert table.subscribers == 0
    assert client.get("/api/events", buffered=False).status_code == 200
