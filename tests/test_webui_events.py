"""Server-sent events: a first comment at once, the state, then rulings as they happen."""

import http.client
import json
import time

import pytest

from tests.fake_table import FakeTable
from tests.live_server import start
from webui import create_app
from webui.serve import make_server


def parse_events(text):
    events = []
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith(":")]
        fields = dict(line.split(": ", 1) for line in lines if ": " in line)
        if "event" in fields:
            events.append((fields["event"], json.loads(fields["data"])))
    return events


def test_sse_sends_comment_state_then_ruling(client, table):
    r = client.get("/api/events", buffered=False)
    assert r.status_code == 200
    assert r.mimetype == "text/event-stream"
    assert r.headers["Cache-Control"] == "no-cache"
    chunks = iter(r.response)
    first = next(chunks)
    first = first.decode() if isinstance(first, bytes) else first
    assert first.startswith(": ") and "retry: 3000" in first
    state = parse_events(_text(next(chunks)))
    assert state[0][0] == "state" and state[0][1]["moves"] == 0
    assert table.subscribers == 1

    table.roll("button")
    seen = []
    for _ in range(20):
        seen += parse_events(_text(next(chunks)))
        if any(kind == "state" for kind, _ in seen):
            break
    kinds = [kind for kind, _ in seen]
    assert "ruling" in kinds
    ruling = next(data for kind, data in seen if kind == "ruling")
    assert ruling["kind"] in ("roll", "pass") and ruling["clauses"]
    latest = [data for kind, data in seen if kind == "state"][-1]
    assert latest["moves"] >= 1 and "board_id" in latest
    assert state[0][1]["seq"] < ruling["seq"] <= latest["seq"]  # numbered, as the answers are
    r.close()
    assert table.subscribers == 0


def test_sse_states_never_go_back_after_the_stream_opens(client, table):
    """What changes once a client has seen the stream open (the first comment: the page's
    live dot turns on) arrives as events after the first state, never inside it: otherwise
    the first state already shows the last change and the queued events that follow take the
    page back to earlier ones (a browser test waiting for the last change saw it, then read
    an older state)."""
    r = client.get("/api/events", buffered=False)
    chunks = iter(r.response)
    assert _text(next(chunks)).startswith(": ")  # open
    for _ in range(3):
        table.roll("button")
    last = table.snapshot()["moves"]
    moves = []
    while not moves or moves[-1] != last:
        moves += [
            data["moves"] for kind, data in parse_events(_text(next(chunks))) if kind == "state"
        ]
    assert moves[0] == 0 and moves == sorted(moves), moves
    r.close()


def test_sse_keepalive_comment(client):
    r = client.get("/api/events", buffered=False)
    chunks = iter(r.response)
    next(chunks), next(chunks)
    assert _text(next(chunks)).startswith(": keep-alive")  # SSE_KEEPALIVE is 0.2 s in tests
    r.close()


def test_sse_refuses_beyond_the_limit(table):
    app = create_app({"SECRET_KEY": "x", "SSE_MAX_CLIENTS": 1}, table=table)
    client = app.test_client()
    r1 = client.get("/api/events", buffered=False)
    next(iter(r1.response))
    r2 = client.get("/api/events")
    assert r2.status_code == 503 and r2.headers["Retry-After"] == "10"
    assert "too many" in r2.get_json()["error"]
    r1.close()


def _text(chunk):
    return chunk.decode() if isinstance(chunk, bytes) else chunk


@pytest.fixture
def live_server():
    table = FakeTable(seed=3, options={"opening": "first-seat"})
    app = create_app({"SECRET_KEY": "x", "SSE_KEEPALIVE": 0.2, "SSE_MAX_AGE": 10.0}, table=table)
    server = make_server(app, port=0, threads=8)
    start(server)
    yield table, server.effective_port
    server.close()


def test_sse_over_waitress_sees_a_ruling_arrive(live_server):
    table, port = live_server
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
    response = conn.getresponse()
    assert response.status == 200
    buffer = ""
    deadline = time.monotonic() + 5
    rolled = False
    while time.monotonic() < deadline:
        buffer += response.fp.read1(65536).decode()
        if not rolled and "event: state" in buffer:
            table.roll("button")
            rolled = True
        if rolled and "event: ruling" in buffer:
            break
    assert ": boardref live table" in buffer.split("event:")[0]  # the comment comes first
    rulings = [data for kind, data in parse_events(buffer) if kind == "ruling"]
    assert rulings and rulings[0]["kind"] in ("roll", "pass")
    response.close()
    conn.close()
    for _ in range(50):  # the keep-alive write fails and the server lets go of the queue
        if table.subscribers == 0:
            break
        time.sleep(0.1)
    assert table.subscribers == 0
