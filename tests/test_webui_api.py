"""The JSON API and the pages through Flask's test client, on the fake table."""

import json
from itertools import pairwise

import pytest

import rules
from tests.conftest import PIN
from tests.fake_table import FakeTable
from webui import create_app

STEP = {"kind": "step", "player": 0, "colour": "red", "frm": "t01", "to": "t02"}
STATE_KEYS = {"game", "players", "to_move", "phase", "dice", "placement", "ruling", "moves"}


def roll_until_move(table):
    """Roll (through the table, as the button) until a marble has a legal move."""
    for _ in range(200):
        if table.snapshot()["phase"] == "move":
            return table.snapshot()
        table.roll("button")
    raise AssertionError("no move phase reached")


def fingerprint(table):
    snap = table.snapshot()
    return (
        snap["moves"],
        snap["phase"],
        snap["dice"],
        json.dumps(snap["placement"], sort_keys=True),
    )


# --- pages -----------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["/", "/history", "/camera", "/setup", "/teach/aggravation"])
def test_pages_render(client, url):
    r = client.get(url, headers={"Accept": "text/html"})
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert 'name="csrf-token"' in html
    assert "boardref" in html


def test_table_page_embeds_board_and_state(client):
    html = client.get("/").get_data(as_text=True)
    start = html.index('<script type="application/json" id="boot">') + len(
        '<script type="application/json" id="boot">'
    )
    boot = json.loads(html[start : html.index("</script>", start)])
    assert boot["page"] == "table"
    assert len(boot["board"]["spaces"]) == 89
    assert boot["board"]["palette"]["red"]["letter"] == "R"
    assert STATE_KEYS <= set(boot["state"])


def test_teach_page_lists_clauses_interpretations_and_options(client):
    html = client.get("/teach/aggravation").get_data(as_text=True)
    assert "AGG-3.1" in html and "Start on 1 or 6" in html
    assert "Our interpretations" in html and "AGG-I.2" in html
    assert "extra_turn_after_pass" in html


def test_teach_redirects_to_current_game(client):
    r = client.get("/teach")
    assert r.status_code == 302 and r.headers["Location"].endswith("/teach/aggravation")


def test_unknown_game_page_is_404_html(client):
    r = client.get("/teach/chess", headers={"Accept": "text/html"})
    assert r.status_code == 404
    assert "unknown game" in r.get_data(as_text=True)


def test_unknown_api_path_is_json_404(client):
    r = client.get("/api/nope")
    assert r.status_code == 404 and "error" in r.get_json()


# --- reading ---------------------------------------------------------------------------------


def test_state_has_the_contract_keys(client, table):
    data = client.get("/api/state").get_json()
    assert STATE_KEYS <= set(data)
    assert data["game"] == "aggravation" and data["players"] == 4
    assert data["moves"] == 0 and data["pin_required"] is True
    assert data["placement"] == table.snapshot()["placement"]


def test_board_geometry(client):
    data = client.get("/api/board").get_json()
    assert data["game"] == "aggravation"
    assert {"spaces", "links", "regions", "palette", "groups", "seat_colours"} <= set(data)
    assert all(p["letter"] for p in data["palette"].values())
    ids = {s["id"] for s in data["spaces"]}
    assert all(a in ids and b in ids for a, b in data["links"])


def test_games_and_game(client):
    games = client.get("/api/games").get_json()["games"]
    assert [g["name"] for g in games] == rules.names()
    assert client.get("/api/games/aggravation").get_json()["name"] == "aggravation"
    assert client.get("/api/games/chess").status_code == 404
    game = client.get("/api/game").get_json()
    assert game["players"] == 4 and game["clauses"]


def test_status(client):
    data = client.get("/api/status").get_json()
    assert {"camera", "panel", "mode", "pin_required"} <= set(data)


def test_no_table_answers_503_json():
    client = create_app({"SECRET_KEY": "x"}).test_client()
    r = client.get("/api/state")
    assert r.status_code == 503 and "no referee" in r.get_json()["error"]


# --- CSRF and PIN ----------------------------------------------------------------------------


def test_post_without_csrf_is_refused(client, table):
    before = fingerprint(table)
    assert client.post("/api/roll").status_code == 403
    client.get("/api/csrf")
    r = client.post("/api/roll", headers={"X-CSRF-Token": "forged"})
    assert r.status_code == 403 and "CSRF" in r.get_json()["error"]
    assert fingerprint(table) == before


def test_csrf_as_form_field(client, csrf, table):
    r = client.post("/api/roll", data={"csrf_token": csrf})
    assert r.status_code == 200
    assert table.rolls_from == ["web"]


def test_csrf_token_is_per_session(app, csrf, table):
    other = app.test_client()
    other.get("/api/csrf")
    assert other.post("/api/roll", headers={"X-CSRF-Token": csrf}).status_code == 403


def test_undo_needs_the_pin(post, table):
    table.roll("button")
    before = fingerprint(table)
    r = post("/api/undo")
    assert r.status_code == 403 and "PIN" in r.get_json()["error"]
    assert post("/api/undo", pin="0000").status_code == 403
    assert fingerprint(table) == before
    r = post("/api/undo", pin=PIN)
    assert r.status_code == 200 and r.get_json()["moves"] < before[0]


def test_pin_check_endpoint_and_lockout(post):
    assert post("/api/pin", pin=PIN).get_json() == {"ok": True}
    for _ in range(5):
        assert post("/api/pin", pin="1111").status_code == 403
    r = post("/api/pin", pin=PIN)
    assert r.status_code == 429 and "too many" in r.get_json()["error"]


def test_pin_as_form_field(client, csrf, table):
    table.roll("button")
    r = client.post("/api/undo", data={"csrf_token": csrf, "pin": PIN})
    assert r.status_code == 200


def test_no_pin_set_means_changes_are_open(csrf, client, table):
    table.pin = ""
    table.roll("button")
    assert client.post("/api/undo", headers={"X-CSRF-Token": csrf}).status_code == 200


# --- roll, undo ------------------------------------------------------------------------------


def test_roll_changes_die_and_ruling(post, table):
    r = post("/api/roll")
    assert r.status_code == 200
    data = r.get_json()
    assert data["moves"] >= 1
    assert data["ruling"]["kind"] in ("roll", "pass")
    assert table.rolls_from == ["web"]


def test_roll_when_a_move_is_expected_is_409_and_changes_nothing(post, table):
    roll_until_move(table)
    before = fingerprint(table)
    r = post("/api/roll")
    assert r.status_code == 409 and "not the time to roll" in r.get_json()["error"]
    assert fingerprint(table) == before


def test_undo_with_nothing_to_undo(post, table):
    r = post("/api/undo", pin=PIN)
    assert r.status_code == 409 and "nothing to undo" in r.get_json()["error"]


def test_every_state_told_has_the_next_number_through_undo(post, table):
    """The answer to a request and the live events of the same change can reach a page in
    either order: each state told carries the next number (`seq`, never the move count,
    which an undo takes back down), each ruling the number of the state told with it, and
    an answer the number of the last state its change told."""
    snap = roll_until_move(table)
    move = next(m for m in snap["legal"] if m["kind"] == "step")
    news = table.subscribe()
    requests = [
        lambda: post("/api/move", json={"move": move}, pin=PIN).get_json()["state"],
        lambda: post("/api/undo", pin=PIN).get_json(),
        lambda: post("/api/undo", pin=PIN).get_json(),  # the roll itself
        lambda: post("/api/roll").get_json(),
    ]
    told = []
    for request in requests:
        answer = request()
        told_since = [news.get_nowait() for _ in range(news.qsize())]
        states = [payload for kind, payload in told_since if kind == "state"]
        assert states and answer["seq"] == states[-1]["seq"]
        assert answer["epoch"] == snap["epoch"]
        told += told_since
    table.unsubscribe(news)
    states = [payload for kind, payload in told if kind == "state"]
    seqs = [s["seq"] for s in states]
    assert seqs == list(range(snap["seq"] + 1, snap["seq"] + 1 + len(seqs)))
    assert [s["moves"] for s in states][:3] == [snap["moves"] + 1, snap["moves"], snap["moves"] - 1]
    for (kind, ruling), (then, state) in pairwise(told):
        if kind == "ruling":
            assert then == "state" and ruling["seq"] == state["seq"]


def test_a_restarted_table_numbers_its_states_afresh_under_another_epoch(table):
    """The count lives as long as the process: after a restart a page meets lower numbers,
    and knows them for newer by the epoch."""
    table.roll("button")
    again = FakeTable(pin=PIN, seed=7, options={"opening": "first-seat"})
    assert again.snapshot()["seq"] < table.snapshot()["seq"]
    assert again.snapshot()["epoch"] != table.snapshot()["epoch"]


# --- manual moves ----------------------------------------------------------------------------


def test_legal_move_as_move_json(post, table):
    snap = roll_until_move(table)
    move = next(m for m in snap["legal"] if m["kind"] == "step")
    r = post("/api/move", json={"move": move}, pin=PIN)
    assert r.status_code == 200, r.get_json()
    data = r.get_json()
    assert data["ruling"]["kind"] == "legal"
    assert data["state"]["moves"] == snap["moves"] + 1
    assert data["state"]["placement"].get(move["to"]) == move["colour"]


def test_legal_move_from_taps(post, table):
    snap = roll_until_move(table)
    move = next(m for m in snap["legal"] if m["kind"] == "step")
    frm = move["frm"].replace("-b1", "-b3")  # any marble of the BASE row will do
    r = post("/api/move", json={"from": frm, "to": move["to"]}, pin=PIN)
    assert r.status_code == 200 and r.get_json()["ruling"]["kind"] == "legal"


def test_illegal_move_is_ruled_with_clause_and_fix(post, table):
    snap = roll_until_move(table)
    colour = snap["colours"][snap["actor"]]
    base = f"{colour}-b1"
    legal_targets = {m.get("to") for m in snap["legal"]}
    target = next(s for s in ("t30", "t31", "t32") if s not in legal_targets)
    before = fingerprint(table)
    r = post("/api/move", json={"from": base, "to": target}, pin=PIN)
    assert r.status_code == 200
    ruling = r.get_json()["ruling"]
    assert ruling["kind"] == "illegal"
    assert ruling["clauses"] and ruling["clauses"][0]["id"].startswith("AGG-")
    assert "legal move" in ruling["fix"]
    assert fingerprint(table) == before


def test_move_needs_pin_in_camera_mode_but_not_in_manual_mode(post, table):
    snap = roll_until_move(table)
    move = next(m for m in snap["legal"] if m["kind"] == "step")
    assert post("/api/move", json={"move": move}).status_code == 403
    table.mode = "manual"
    assert post("/api/move", json={"move": move}).status_code == 200


@pytest.mark.parametrize(
    "body, message",
    [
        ([1, 2], "JSON object"),
        ({"nothing": 1}, 'send {"move"'),
        ({"move": "red t01->t02"}, "JSON object"),
        ({"move": {"kind": "teleport"}}, "unknown move kind"),
        ({"move": {"kind": "step", "player": 0}}, "missing"),
        (
            {"move": {"kind": "step", "player": 9, "colour": "red", "frm": "t01", "to": "t02"}},
            "player",
        ),
        (
            {"move": {"kind": "step", "player": 0, "colour": "red", "frm": "t01", "to": "x9"}},
            "no space",
        ),
        ({"from": "t01"}, "to must be"),
        ({"from": "nowhere", "to": "t02"}, "no space"),
        ({"from": "<script>", "to": "t02"}, "space id"),
        ({"from": "t40", "to": "t41"}, "no token on t40"),
        ({"from": "t01", "to": "t02", "route": 5}, "route"),
        ({"move": dict(STEP, player="0")}, "int"),
        ({"move": dict(STEP, colour=1)}, "str"),
        ({"move": dict(STEP, frm=3)}, "str"),
        ({"move": {"kind": "roll", "player": 0, "colour": "red", "value": 6}}, "POST /api/roll"),
        ({"move": {"kind": "pass", "player": True, "colour": "red"}}, "int"),
    ],
)
def test_bad_moves_are_400_and_change_nothing(post, table, body, message):
    roll_until_move(table)
    before = fingerprint(table)
    r = post("/api/move", json=body, pin=PIN)
    assert r.status_code == 400, r.get_json()
    assert message in r.get_json()["error"]
    assert fingerprint(table) == before


def test_non_json_body_is_400(client, csrf, table):
    roll_until_move(table)
    before = fingerprint(table)
    r = client.post(
        "/api/move",
        data=b"{not json",
        headers={"X-CSRF-Token": csrf, "X-Table-PIN": PIN, "Content-Type": "application/json"},
    )
    assert r.status_code == 400 and "error" in r.get_json()
    r = client.post(
        "/api/move",
        data=b"garbage",
        headers={"X-CSRF-Token": csrf, "X-Table-PIN": PIN, "Content-Type": "text/plain"},
    )
    assert r.status_code == 400
    assert fingerprint(table) == before


# --- new game --------------------------------------------------------------------------------


def test_new_game(post, table):
    table.roll("button")
    body = {"game": "aggravation", "players": 6, "options": {"play": "partners"}}
    r = post("/api/new-game", json=body, pin=PIN)
    assert r.status_code == 200, r.get_json()
    data = r.get_json()
    assert data["players"] == 6 and data["moves"] == 0
    assert table.game.options["play"] == "partners"
    assert data["board_id"].startswith("aggravation:6:aggravation-6")


def test_new_game_from_a_form(client, csrf, table):
    form = {
        "csrf_token": csrf,
        "pin": PIN,
        "game": "aggravation",
        "players": "2",
        "options": '{"lane": 3}',
    }
    r = client.post("/api/new-game", data=form)
    assert r.status_code == 200, r.get_json()
    assert table.game.players == 2 and table.game.options["lane"] == 3


@pytest.mark.parametrize(
    "body, message",
    [
        ({"game": "chess"}, "unknown game"),
        ({"game": 5}, "unknown game"),
        ({"game": "aggravation", "players": 9}, "cannot be played by 9"),
        ({"game": "aggravation", "players": "four"}, "whole number"),
        ({"game": "aggravation", "players": 4, "options": {"speed": 1}}, "no option 'speed'"),
        ({"game": "aggravation", "players": 4, "options": {"lane": 99}}, "cannot be 99"),
        ({"game": "aggravation", "players": 3, "options": {"play": "partners"}}, "partners"),
        ({"game": "aggravation", "players": 4, "options": [1]}, "JSON object"),
    ],
)
def test_bad_new_game_is_400_and_keeps_the_game(post, table, body, message):
    table.roll("button")
    before = fingerprint(table)
    r = post("/api/new-game", json=body, pin=PIN)
    assert r.status_code == 400, r.get_json()
    assert message in r.get_json()["error"]
    assert fingerprint(table) == before


def test_new_game_needs_pin(post, table):
    r = post("/api/new-game", json={"game": "aggravation", "players": 2})
    assert r.status_code == 403
    assert table.game.players == 4


# --- history and record ----------------------------------------------------------------------


def test_history_and_record_replay(client, table):
    snap = roll_until_move(table)
    table.manual_move(next(m for m in snap["legal"] if m["kind"] == "step"))
    entries = client.get("/api/history").get_json()["entries"]
    assert len(entries) == table.snapshot()["moves"]
    assert {"n", "move", "text", "ruling", "placement"} <= set(entries[-1])
    last = client.get("/api/history?last=1").get_json()
    assert last["entries"] == entries[-1:] and last["total"] == len(entries)
    assert client.get("/api/history?since=1").get_json()["entries"] == entries[1:]
    for bad in ("?last=-1", "?since=x", "?last=1e3"):
        assert client.get("/api/history" + bad).status_code == 400
    r = client.get("/api/record")
    assert r.status_code == 200
    assert "attachment" in r.headers["Content-Disposition"]
    record = json.loads(r.data)
    game = rules.get(record["game"], record["players"], record["options"])
    state = game.replay(record["moves"])
    assert game.placement(state) == table.snapshot()["placement"]
    assert "Content-Disposition" not in client.get("/api/record?download=0").headers


# --- teach -----------------------------------------------------------------------------------


def test_teach_moves_for_the_movers_token(client, table):
    snap = roll_until_move(table)
    move = next(m for m in snap["legal"] if m["kind"] == "step")
    data = client.get(f"/api/teach/moves?space={move['frm']}").get_json()
    assert data["moves"], data
    assert move["to"] in data["targets"]
    first = data["moves"][0]
    assert first["verdict"]["legal"] is True and first["verdict"]["clauses"]


def test_teach_moves_explains_why_nothing(client, table):
    data = client.get("/api/teach/moves?space=blue-b1").get_json()
    assert data["moves"] == [] and "rolls the die first" in data["note"]
    data = client.get("/api/teach/moves?space=t40").get_json()
    assert "no token" in data["note"]


def test_teach_explain_legal_and_illegal(client, table):
    snap = roll_until_move(table)
    move = next(m for m in snap["legal"] if m["kind"] == "step")
    data = client.get(f"/api/teach/explain?from={move['frm']}&to={move['to']}").get_json()
    assert data["legal"] is True and data["verdict"]["clauses"]
    other = next(c for c in snap["colours"] if c != snap["colours"][snap["actor"]])
    data = client.get(f"/api/teach/explain?from={other}-b1&to=t05").get_json()
    assert data["legal"] is False
    assert data["verdict"]["clauses"][0]["id"] == "AGG-1.3"


@pytest.mark.parametrize(
    "url",
    [
        "/api/teach/moves",
        "/api/teach/moves?space=zz",
        "/api/teach/explain?from=t01",
        "/api/teach/explain?from=t01&to=%00",
    ],
)
def test_teach_bad_input(client, url):
    r = client.get(url)
    assert r.status_code == 400 and "error" in r.get_json()


# --- camera ----------------------------------------------------------------------------------


def test_snapshot_without_camera_is_503(client):
    r = client.get("/snapshot.jpg")
    assert r.status_code == 503 and "camera" in r.get_json()["error"]
    assert client.get("/stream.mjpg").status_code == 503


def test_snapshot_and_stream_with_camera():
    jpeg = b"\xff\xd8\xff\xe0fakejpeg\xff\xd9"
    app = create_app({"SECRET_KEY": "x", "MJPEG_MAX_AGE": 0.3}, table=FakeTable(frame=jpeg))
    client = app.test_client()
    r = client.get("/snapshot.jpg")
    assert r.status_code == 200 and r.mimetype == "image/jpeg" and r.data == jpeg
    r = client.get("/stream.mjpg", buffered=False)
    assert r.mimetype == "multipart/x-mixed-replace"
    first = next(iter(r.response))
    assert first.startswith(b"--frame\r\nContent-Type: image/jpeg") and jpeg in first
    r.close()


# --- calibration -----------------------------------------------------------------------------


def profile_body(**changes):
    body = {
        "name": "wooden board",
        "game": "aggravation",
        "image": {"width": 640, "height": 480},
        "points": [
            {"space": s, "x": 10 + 5 * i, "y": 20 + 3 * i}
            for i, s in enumerate(["t01", "t02", "t03", "ctr"])
        ],
    }
    body.update(changes)
    return body


def test_save_board_profile(post, table):
    r = post("/api/calibration/profile", json=profile_body(), pin=PIN)
    assert r.status_code == 200, r.get_json()
    assert table.profiles[0]["points"][3]["space"] == "ctr"
    assert r.get_json()["saved"] == "profiles/wooden board.json"


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"name": "../etc/passwd"}, "name"),
        ({"points": [{"space": "t01", "x": 1, "y": 1}]}, "at least four"),
        ({"points": [{"space": "t01", "x": 1, "y": 1}] * 4}, "twice"),
        ({"points": [{"space": "q", "x": 1, "y": 1}] * 4}, "no space"),
        ({"points": [{"space": f"t0{i}", "x": 9999, "y": 1} for i in range(1, 5)]}, "outside"),
        ({"points": [{"space": f"t0{i}", "x": "a", "y": 1} for i in range(1, 5)]}, "numbers"),
        ({"image": {"width": -1, "height": 4}}, "image"),
        ({"game": "chess"}, "unknown game"),
    ],
)
def test_bad_board_profile(post, table, changes, message):
    r = post("/api/calibration/profile", json=profile_body(**changes), pin=PIN)
    assert r.status_code == 400, r.get_json()
    assert message in r.get_json()["error"]
    assert table.profiles == []


def test_board_profile_needs_pin(post, table):
    assert post("/api/calibration/profile", json=profile_body()).status_code == 403


# --- settings and teach before the roll --------------------------------------------------------


def test_settings_mode(post, table):
    assert post("/api/settings", json={"mode": "manual"}).status_code == 403
    r = post("/api/settings", json={"mode": "manual"}, pin=PIN)
    assert r.status_code == 200 and r.get_json()["mode"] == "manual"
    assert table.mode == "manual"
    for body, message in (
        ({"mode": "video"}, "mode must be"),
        ({"volume": 3}, "unknown setting"),
        ([], "JSON object"),
    ):
        r = post("/api/settings", json=body, pin=PIN)
        assert r.status_code == 400 and message in r.get_json()["error"]
    assert table.mode == "manual"


def test_teach_moves_before_the_roll_shows_each_die_value(client):
    data = client.get("/api/teach/moves?space=red-b2").get_json()
    assert data["moves"] == []
    by_value = {r["value"]: [m["to"] for m in r["moves"]] for r in data["if_rolled"]}
    assert set(by_value) == {1, 2, 3, 4, 5, 6}
    assert by_value[1] and by_value[6] and not by_value[3]  # a marble starts on a 1 or a 6


def test_pages_without_a_referee_say_so():
    client = create_app({"SECRET_KEY": "x"}).test_client()
    r = client.get("/", headers={"Accept": "text/html"})
    assert r.status_code == 503 and "no referee" in r.get_data(as_text=True)


def test_board_names_the_games_token_for_the_page():
    """The page says "move a pawn" in Manji and "move a marble" in Aggravation."""
    for game, noun in (("manji", "pawn"), ("aggravation", "marble"), ("manipulation", "token")):
        table = FakeTable(game=game, players=4, options={"opening": "first-seat"})
        client = create_app({"SECRET_KEY": "t"}, table=table).test_client()
        assert client.get("/api/board").get_json()["token"] == noun
        assert f'"token": "{noun}"' in client.get("/").get_data(as_text=True)
