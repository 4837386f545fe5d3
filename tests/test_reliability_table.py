"""Fault injection on the running table: storage that cannot save (through the store's write
seam), a bad row or a damaged page at start, a camera that stops giving pictures, and the
rotating backup download. The game in progress is never lost and never moves on unsaved."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

import rules
from device.faults import STORAGE_TEXT, StoragePaused
from device.pipeline import Pipeline
from device.store import Store
from tests.conftest import PIN
from tests.fake_table import FakeTable
from tests.waiting import wait_until
from webui import create_app

FULL = sqlite3.OperationalError("database or disk is full")


class Disk:
    """The store's write seam: `full` makes every write fail, `fail_in` fails the nth next."""

    def __init__(self) -> None:
        self.full = False
        self.fail_in = 0

    def __call__(self, sql: str) -> None:
        if self.fail_in:
            self.fail_in -= 1
            if self.fail_in == 0:
                raise FULL
        if self.full:
            raise FULL


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "game.sqlite3"


def table_on(db: Path, disk: Disk | None = None, **kw) -> FakeTable:
    store = Store(db)
    store.write_fault = disk
    return FakeTable(store=store, seed=4, options={"opening": "first-seat"}, **kw)


# --- storage full: store first, then apply and announce ---------------------------------------


def test_a_move_that_cannot_be_stored_is_not_applied_and_the_table_says_so(db):
    disk = Disk()
    table = table_on(db, disk)
    table.roll("button", value=6)  # a marble may come out: a move is awaited
    before = table.snapshot()
    disk.full = True
    with pytest.raises(StoragePaused) as info:
        table.manual_move(table.game.legal_moves(table.state)[0].to_json())
    assert info.value.status == 503 and str(info.value) == STORAGE_TEXT
    after = table.snapshot()
    assert after["moves"] == before["moves"] and after["placement"] == before["placement"]
    assert after["paused"] and after["faults"] == [STORAGE_TEXT]
    assert after["ruling"]["text"] == STORAGE_TEXT
    assert table.panel.status()["amber"] is True
    assert table.status()["faults"] == [STORAGE_TEXT]
    table.check_faults()  # still full: still paused
    assert table.snapshot()["paused"]
    disk.full = False
    table.check_faults()  # the watchdog's probe: storage works again
    resumed = table.snapshot()
    assert not resumed["paused"] and resumed["faults"] == []
    assert "storage works again" in resumed["ruling"]["text"]
    table.manual_move(table.game.legal_moves(table.state)[0].to_json())
    shown = table.snapshot()["moves"]
    assert shown == before["moves"] + 1
    table._store.close()
    assert FakeTable(store=Store(db)).snapshot()["moves"] == shown  # nothing lost on restart


def test_the_web_answers_503_with_the_words_and_the_game_stays(db):
    disk = Disk()
    table = table_on(db, disk)
    client = create_app({"SECRET_KEY": "t", "TESTING": True}, table=table).test_client()
    csrf = client.get("/api/csrf").get_json()["csrf_token"]
    disk.full = True
    r = client.post("/api/roll", headers={"X-CSRF-Token": csrf})
    assert r.status_code == 503 and r.get_json()["error"] == STORAGE_TEXT
    assert client.get("/api/status").get_json()["faults"] == [STORAGE_TEXT]
    assert client.get("/api/state").get_json()["moves"] == 0
    for url in ("/api/undo", "/api/new-game"):
        r = client.post(url, json={}, headers={"X-CSRF-Token": csrf, "X-Table-PIN": PIN})
        assert r.status_code in (409, 503)  # nothing to undo / the new game is not stored
    assert table.snapshot()["game"] == "aggravation" and table.snapshot()["moves"] == 0
    disk.full = False
    assert client.post("/api/roll", headers={"X-CSRF-Token": csrf}).status_code == 200
    assert client.get("/api/status").get_json()["faults"] == []  # a good write ends the pause


def test_a_full_disk_during_the_storage_of_a_forced_pass_keeps_the_roll(db):
    disk = Disk()
    table = table_on(db, disk)
    disk.fail_in = 2  # the roll is stored, the forced pass after it is not
    table.roll("button", value=3)  # no marble may leave the base on a 3: a pass follows
    snap = table.snapshot()
    assert snap["moves"] == 1 and snap["paused"]
    table.check_faults()  # storage works: the pass follows
    snap = table.snapshot()
    assert snap["moves"] == 2 and not snap["paused"] and snap["to_move"] == 1
    table._store.close()
    assert FakeTable(store=Store(db)).snapshot()["moves"] == 2


def test_an_undo_that_cannot_be_stored_undoes_nothing(db):
    disk = Disk()
    table = table_on(db, disk)
    table.roll("button", value=6)
    disk.full = True
    with pytest.raises(StoragePaused):
        table.undo()
    assert table.snapshot()["moves"] == 1
    disk.full = False
    table.undo()
    table._store.close()
    assert FakeTable(store=Store(db)).snapshot()["moves"] == 0


def test_a_camera_move_waits_for_storage_and_is_taken_when_it_works(db):
    disk = Disk()
    table = table_on(db, disk)
    table.roll("button", value=6)
    game, state = table.game, table.state
    move = next(m for m in game.legal_moves(state) if getattr(m, "to", None))
    seen = game.placement(game.apply(state, move))
    disk.full = True
    assert table.observe(seen) is None  # not applied; no exception for the camera loop
    assert table.snapshot()["moves"] == 1 and table.snapshot()["paused"]
    disk.full = False
    ruling = table.observe(seen)  # the same board, the next frame
    assert ruling is not None and table.snapshot()["moves"] >= 2


def test_a_new_game_that_cannot_be_stored_keeps_the_old_one(db):
    disk = Disk()
    table = table_on(db, disk)
    table.roll("button", value=6)
    disk.full = True
    with pytest.raises(StoragePaused):
        table.new_game("manji", 2, {})
    assert table.snapshot()["game"] == "aggravation" and table.snapshot()["moves"] == 1


def test_a_read_only_disk_at_start_still_starts_and_stores_once_it_works(db):
    disk = Disk()
    disk.full = True
    table = table_on(db, disk)
    assert table.snapshot()["paused"] and table.snapshot()["moves"] == 0
    disk.full = False
    table.roll("button", value=6)
    table._store.close()
    again = FakeTable(store=Store(db))
    assert again.snapshot()["moves"] >= 1 and again.game.name == "aggravation"


# --- bad rows and damage at start --------------------------------------------------------------


def played(db: Path, moves: int) -> FakeTable:
    table = table_on(db)
    for _ in range(moves):
        legal = table.game.legal_moves(table.state)
        if any(isinstance(m, rules.Roll) for m in legal):
            table.roll("button")
        else:
            table.manual_move(legal[0].to_json())
    table._store.close()
    return table


def test_a_bad_row_at_start_names_the_row_and_the_copy_and_the_game_goes_on(db):
    first = played(db, 30)
    conn = sqlite3.connect(db)
    row = conn.execute("SELECT id FROM events WHERE kind = 'move' LIMIT 1 OFFSET 12").fetchone()[0]
    conn.execute("UPDATE events SET payload = '{oops' WHERE id = ?", (row,))
    conn.commit()
    conn.close()
    table = FakeTable(store=Store(db))
    text = table.resume_text()
    assert f"row {row} of the events table" in text and "kept as" in text
    assert table.snapshot()["moves"] == 12
    assert [e["text"] for e in table.history()] == [e["text"] for e in first.history()[:12]]
    copy = next(db.parent.glob("game.sqlite3.bad-row-*"))
    assert str(copy) in text
    table._store.close()
    assert "row" not in FakeTable(store=Store(db)).resume_text()  # the next start is clean


def test_a_damaged_database_resumes_what_can_be_read_and_says_so(db):
    played(db, 300)
    data = bytearray(db.read_bytes())
    page = len(data) // 4096 - 2
    data[page * 4096 : (page + 1) * 4096] = b"\xa5" * 4096
    db.write_bytes(bytes(data))
    table = FakeTable(store=Store(db))
    assert "damaged" in table.resume_text() and "rebuilt" in table.resume_text()
    assert table.snapshot()["moves"] > 0


def test_the_last_good_database_is_kept_and_downloadable(db):
    played(db, 5)
    table = FakeTable(store=Store(db), pin=PIN)
    assert (db.parent / "game.sqlite3.backup-1").exists()  # taken at start
    client = create_app({"SECRET_KEY": "t", "TESTING": True}, table=table).test_client()
    csrf = client.get("/api/csrf").get_json()["csrf_token"]
    assert client.post("/api/backup", headers={"X-CSRF-Token": csrf}).status_code == 403
    r = client.post("/api/backup", data={"csrf_token": csrf, "pin": PIN})
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    assert r.data.startswith(b"SQLite format 3\x00")
    copy = db.parent / "download.sqlite3"
    copy.write_bytes(r.data)
    assert len(Store(copy).latest().moves) == table.snapshot()["moves"]
    assert "Download the database" in client.get("/setup").get_data(as_text=True)


# --- a camera that gives no picture ------------------------------------------------------------


class StoppingCamera:
    """Gives `frames` frames, then nothing until `resume` is set (a pulled cable)."""

    def __init__(self, board, frames: int = 3) -> None:
        from hardware.simcamera import SimulatedCamera, TableWorld

        self.sim = SimulatedCamera(board, TableWorld())
        self.frames_left = frames
        self.resume = threading.Event()
        self.closed = threading.Event()

    def frames(self):
        for frame in self.sim.frames():
            if self.frames_left <= 0:
                while not (self.resume.is_set() or self.closed.is_set()):
                    time.sleep(0.05)
                if self.closed.is_set():
                    return
            self.frames_left -= 1
            yield frame

    def close(self) -> None:
        self.closed.set()


def test_a_silent_camera_is_shown_with_its_time_lit_amber_and_its_return_announced():
    table = FakeTable(frame=b"\xff\xd8old frame")
    pipeline = Pipeline(table, camera=None, silent_after=5.0)
    table._status_source = pipeline.status_json
    table.mode = "camera"
    pipeline.frame_arrived()
    last = pipeline._last_frame
    assert pipeline.check_camera(now=last + 4.0) is False
    assert pipeline.check_camera(now=last + 6.0) is True
    since = time.strftime("%H:%M:%S", time.localtime(pipeline.silent_since))
    text = f"camera gives no picture since {since} — enter moves by hand or check the cable"
    assert table.snapshot()["faults"] == [text]
    assert table.panel.status()["amber"] is True
    client = create_app({"SECRET_KEY": "t", "TESTING": True}, table=table).test_client()
    r = client.get("/snapshot.jpg")
    assert r.status_code == 503 and r.get_json()["error"] == text  # never the old frame
    assert client.get("/stream.mjpg").status_code == 503
    assert client.get("/api/status").get_json()["faults"] == [text]
    pipeline.frame_arrived()
    assert table.snapshot()["faults"] == []
    assert table.snapshot()["ruling"]["text"] == "the camera gives a picture again"
    assert client.get("/snapshot.jpg").status_code == 200


def test_the_camera_watchdog_notices_a_pulled_cable_by_itself():
    table = FakeTable()
    camera = StoppingCamera(table.game.board, frames=2)
    pipeline = Pipeline(table, camera, silent_after=0.5)
    pipeline.start()
    try:
        assert wait_until(lambda: table.faults.camera_since is not None)
        assert "camera gives no picture since" in pipeline.status_json()["camera"]["fault"]
        camera.resume.set()
        assert wait_until(lambda: table.faults.camera_since is None)
        assert table.snapshot()["ruling"]["text"] == "the camera gives a picture again"
    finally:
        pipeline.stop()


def test_the_reliability_bench_counts_no_loss_and_no_500():
    from device.bench_reliability import run

    report = run(kills=2, requests=60, seed=1)
    assert report["kills_survived"] == report["kills_tried"] == 2
    assert report["moves_lost"] == 0 and report["responses_5xx"] == 0
    assert report["storage_faults_survived"] == report["storage_faults_injected"] > 0
    assert report["malformed_requests_tried"] == 60
    assert report["pin_guesses_before_lockout"] == 5
    assert report["live_reconnects_refused"] == 0  # dropped phones give their slots back


def test_the_appliance_watchdog_resumes_a_paused_table_by_itself(db):
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from device.appliance import build
    from device.config import Config

    config = Config(game="aggravation", players=2, camera="", pins={"tempo": 0.05})
    store = Store(db)
    appliance = build(config, store=store, pin_factory=MockFactory(pin_class=MockPWMPin))
    referee = appliance.referee
    disk = Disk()
    store.write_fault = disk
    disk.full = True
    with pytest.raises(StoragePaused):
        referee.roll("web")
    appliance.start_watchdog(every=0.05)
    try:
        assert referee.snapshot()["paused"]
        disk.full = False  # space freed: nobody touches the table
        assert wait_until(lambda: not referee.snapshot()["paused"])
        assert "storage works again" in referee.snapshot()["ruling"]["text"]
    finally:
        appliance.close()
