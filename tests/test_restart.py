"""A restart keeps the players' phones in their seats.

The appliance is built from a database file, phones claim their seats through the web app, and
then the appliance is built again from the same database and key file (what a power cut or
`systemctl restart` does). Each phone is a Flask test client whose cookie jar is carried over to
the new app, as a phone keeps its cookies while the Pi restarts.
"""

from __future__ import annotations

import json
import logging
import re
import stat
from pathlib import Path

import pytest
import segno
from flask import Flask
from flask.testing import FlaskClient

from device import cli
from device.appliance import Appliance, build
from device.config import Config
from device.session_key import KEY_FILE, SessionKeyError
from device.store import Store

PIN = "2468"
RED_KINDS = ["rock", "paper", "scissors"] * 3 + ["rock"]
RED_SETUP = {f"{c}1": k for c, k in zip("abcdefghij", RED_KINDS, strict=True)}


@pytest.fixture(autouse=True)
def no_key_from_the_environment(monkeypatch):
    monkeypatch.delenv("BOARDREF_SECRET_KEY", raising=False)


@pytest.fixture
def config(tmp_path: Path) -> Config:
    database = tmp_path / "data" / "boardref.sqlite3"
    return Config(game="playground-battles", camera="", pin=PIN, database=str(database))


def start(config: Config) -> Appliance:
    """The appliance as `boardref serve` builds it (no camera, no GPIO panel)."""
    return build(config, store=Store(config.database), with_panel=False)


def stop(appliance: Appliance) -> None:
    """The process ends: the database connection goes with it."""
    appliance.close()
    appliance.referee._store.close()


def same_phone(phone: FlaskClient, app: Flask) -> FlaskClient:
    """The phone after the restart: a client of the new app with the phone's cookies."""
    again = app.test_client()
    cookie = phone.get_cookie("session")
    assert cookie is not None, "the phone has no session cookie"
    again.set_cookie(cookie.key, cookie.value, domain=cookie.domain, path=cookie.path)
    return again


def csrf(phone: FlaskClient) -> str:
    return phone.get("/api/csrf").get_json()["csrf_token"]


def boot_data(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="boot">(.*?)</script>', page, re.S)
    assert found, "the page has no boot data"
    return json.loads(found.group(1))


def qr_of(url: str) -> str:
    svg = segno.make(url, error="m").svg_inline(scale=5, dark="#10161c", light="#ffffff")
    return svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)


def test_a_restart_keeps_each_phone_in_its_seat(config: Config):
    first = start(config)
    red_link, blue_link = (first.referee.join_token(n) for n in (0, 1))
    red = first.app.test_client()
    assert red.get(f"/play/{red_link}").status_code == 200
    token = csrf(red)
    setup = red.post(
        f"/api/play/{red_link}/setup",
        json={"identities": RED_SETUP},
        headers={"X-CSRF-Token": token},
    )
    assert setup.status_code == 200, setup.get_json()
    stop(first)

    second = start(config)
    assert second.referee.resumed
    red = same_phone(red, second.app)
    page = red.get(f"/play/{red_link}")
    assert page.status_code == 200
    assert boot_data(page.get_data(as_text=True))["seat"]["seat"] == 0
    mine = red.get(f"/api/play/{red_link}/state").get_json()["view"]["pieces"]
    assert {p["space"]: p["identity"] for p in mine if p["seat"] == 0} == RED_SETUP
    # the session (and its CSRF token) is the one from before the restart
    hand = red.post(
        f"/api/play/{red_link}/hand", json={"hand": "rock"}, headers={"X-CSRF-Token": token}
    )
    assert hand.status_code == 409  # understood, and refused by the rules: blue is not set up
    assert "not being played" in hand.get_json()["error"]
    # the other seat's link is still not this phone's; the red link is nobody else's
    assert red.get(f"/api/play/{blue_link}/state").status_code == 403
    stranger = second.app.test_client()
    assert stranger.get(f"/play/{red_link}").status_code == 403
    # blue never joined: its QR code is still served, with the same link
    assert stranger.get("/seat-qr/0.svg").status_code == 404
    qr = stranger.get("/seat-qr/1.svg")
    assert qr.status_code == 200
    assert qr.get_data(as_text=True) == qr_of(f"http://localhost/play/{blue_link}")
    blue = second.app.test_client()
    assert blue.get(f"/play/{blue_link}").status_code == 200
    stop(second)

    third = start(config)
    blue = same_phone(blue, third.app)
    assert blue.get(f"/api/play/{blue_link}/state").get_json()["seat"] == 1
    assert blue.get(f"/api/play/{red_link}/state").status_code == 403
    assert third.app.test_client().get("/seat-qr/1.svg").status_code == 404


def _red_phone_claimed_then_stopped(config: Config):
    """Start the table, let red's phone claim its seat, stop: (red's client, red's link)."""
    first = start(config)
    red_link = first.referee.join_token(0)
    red = first.app.test_client()
    assert red.get(f"/play/{red_link}").status_code == 200
    stop(first)
    return red, red_link


def test_a_reset_after_a_restart_makes_a_new_link_that_is_kept(config: Config):
    red, red_link = _red_phone_claimed_then_stopped(config)

    second = start(config)
    table = second.app.test_client()
    reset = table.post(
        "/api/seats/0/reset", headers={"X-CSRF-Token": csrf(table), "X-Table-PIN": PIN}
    )
    assert reset.status_code == 200
    new_link = second.referee.join_token(0)
    assert new_link not in (None, red_link)
    stop(second)

    third = start(config)
    assert third.referee.join_token(0) == new_link
    red = same_phone(red, third.app)
    assert red.get(f"/api/play/{red_link}/state").status_code == 404  # the old link is dead
    assert red.get(f"/play/{new_link}").status_code == 200  # the new one, scanned again
    assert third.app.test_client().get("/seat-qr/0.svg").status_code == 404


def test_the_key_file_is_made_once_for_its_owner_only(config: Config):
    first = start(config)
    path = Path(config.database).parent / KEY_FILE
    key = path.read_text().strip()
    assert re.fullmatch(r"[0-9a-f]{64}", key)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert first.app.config["SECRET_KEY"] == key
    stop(first)
    second = start(config)
    assert second.app.config["SECRET_KEY"] == key
    assert path.read_text().strip() == key


def test_without_the_key_file_the_phone_loses_its_seat(config: Config):
    """The control: what keeps the phone in its seat is the key file."""
    red, red_link = _red_phone_claimed_then_stopped(config)
    (Path(config.database).parent / KEY_FILE).unlink()
    second = start(config)
    red = same_phone(red, second.app)
    assert red.get(f"/api/play/{red_link}/state").status_code == 403
    assert red.get(f"/play/{red_link}").status_code == 403  # its claim is kept for nobody


def test_the_environment_key_wins_and_no_file_is_made(config: Config, monkeypatch):
    monkeypatch.setenv("BOARDREF_SECRET_KEY", "from-the-environment")
    appliance = start(config)
    assert appliance.app.config["SECRET_KEY"] == "from-the-environment"
    assert not (Path(config.database).parent / KEY_FILE).exists()


def test_an_in_memory_database_gets_a_random_key_and_no_file(config: Config, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    keys = {
        build(config, store=Store(":memory:"), with_panel=False).app.config["SECRET_KEY"]
        for _ in range(2)
    }
    assert len(keys) == 2
    assert not list(tmp_path.rglob(KEY_FILE))


JUNK = {
    "empty": b"",
    "newline": b"\n",
    "cut short": b"0123abc\n",
    "binary": b"\x00\xff" * 40,
    "not hex": b"not a key " * 8,
}


@pytest.mark.parametrize("junk", JUNK.values(), ids=JUNK.keys())
def test_a_corrupt_key_file_is_replaced_and_the_game_goes_on(config: Config, junk, caplog):
    first = start(config)
    first.referee.seat_assign(0, RED_SETUP)
    state, links = first.referee.state, [first.referee.join_token(n) for n in (0, 1)]
    stop(first)
    path = Path(config.database).parent / KEY_FILE
    path.write_bytes(junk)
    with caplog.at_level(logging.WARNING, logger="device.session_key"):
        second = start(config)
    assert str(path) in caplog.text and "replacing" in caplog.text
    assert second.referee.resumed and second.referee.state == state
    assert [second.referee.join_token(n) for n in (0, 1)] == links
    key = path.read_text().strip()
    assert re.fullmatch(r"[0-9a-f]{64}", key) and second.app.config["SECRET_KEY"] == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_an_unreadable_key_file_is_a_clear_error_and_the_game_is_kept(config: Config):
    first = start(config)
    first.referee.seat_assign(0, RED_SETUP)
    state, link = first.referee.state, first.referee.join_token(0)
    stop(first)
    path = Path(config.database).parent / KEY_FILE
    path.unlink()
    path.mkdir()  # something in its place that cannot be read as a file (also as root)
    with pytest.raises(SessionKeyError, match=re.escape(str(path))):
        start(config)
    path.rmdir()
    again = start(config)
    assert again.referee.resumed and again.referee.state == state
    assert again.referee.join_token(0) == link


def test_serve_says_which_key_file_it_cannot_read(config: Config, tmp_path, capsys):
    toml = tmp_path / "boardref.toml"
    toml.write_text(
        f'[game]\nname = "playground-battles"\n[data]\ndatabase = {json.dumps(config.database)}\n'
    )
    key = Path(config.database).parent / KEY_FILE
    key.mkdir(parents=True)
    assert cli.main(["serve", "--config", str(toml)]) == 2
    err = capsys.readouterr().err
    assert str(key) in err and "session key" in err
