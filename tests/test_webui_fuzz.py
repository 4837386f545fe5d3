"""Property test: whatever JSON a phone posts, the answer is a 2xx or a 4xx with a message,
never a 500, and a refused request never changes the game."""

import json
import re
from urllib.parse import quote, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import PIN
from tests.fake_table import FakeTable
from webui import create_app
from webui.security import PinGuard

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 100),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["t01", "t09", "red-b1", "ctr", "red", "step", "roll", "aggravation", ""]),
    st.text(max_size=8),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
move_like = st.fixed_dictionaries(
    {},
    optional={
        "kind": st.sampled_from(["step", "pass", "roll", "declare", "x"]) | values,
        "player": st.integers(-1, 5) | values,
        "colour": st.sampled_from(["red", "blue", "pink"]) | values,
        "frm": st.sampled_from(["red-b1", "t01", "t09", "nope"]) | values,
        "to": st.sampled_from(["t09", "t10", "ctr", "nope"]) | values,
        "route": st.sampled_from(["", "star", "centre"]) | values,
        "value": values,
        "teammate": values,
    },
)
bodies = st.one_of(
    values,
    st.fixed_dictionaries({"move": move_like | values}),
    st.fixed_dictionaries(
        {}, optional={"from": values | st.just("red-b1"), "to": values, "route": values}
    ),
    st.fixed_dictionaries(
        {},
        optional={
            "game": st.just("aggravation") | values,
            "players": st.integers(0, 8) | values,
            "options": st.dictionaries(
                st.sampled_from(["play", "lane", "board", "opening", "x"]), values, max_size=3
            )
            | values,
        },
    ),
)

TABLE = FakeTable(pin=PIN, seed=5, options={"opening": "first-seat"})
for _ in range(40):  # into the middle of a game, with a move expected
    if TABLE.snapshot()["phase"] == "move":
        break
    TABLE.roll("button")
APP = create_app({"SECRET_KEY": "fuzz"}, table=TABLE)


def fingerprint():
    snap = TABLE.snapshot()
    return (
        snap["game"],
        snap["players"],
        snap["moves"],
        json.dumps(snap["placement"], sort_keys=True),
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(url=st.sampled_from(["/api/move", "/api/new-game", "/api/calibration/profile"]), body=bodies)
def test_any_body_is_answered_without_a_500(url, body):
    client = APP.test_client()
    token = client.get("/api/csrf").get_json()["csrf_token"]
    before = fingerprint()
    r = client.post(url, json=body, headers={"X-CSRF-Token": token, "X-Table-PIN": PIN})
    assert r.status_code < 500, (r.status_code, r.get_json())
    if r.status_code >= 400:
        assert r.get_json()["error"]
        assert fingerprint() == before
    elif url == "/api/new-game" or (
        url == "/api/move" and r.get_json()["ruling"]["kind"] == "legal"
    ):
        # a real change: put the table back in a game with a move expected for the next example
        TABLE.new_game("aggravation", 4, {"opening": "first-seat"})
        for _ in range(40):
            if TABLE.snapshot()["phase"] == "move":
                break
            TABLE.roll("button")


@settings(max_examples=100, deadline=None)
@given(space=st.text(max_size=12), to=st.text(max_size=12))
def test_teach_queries_never_500(space, to):
    client = APP.test_client()
    for url, params in (
        ("/api/teach/moves", {"space": space}),
        ("/api/teach/explain", {"from": space, "to": to}),
    ):
        r = client.get(url, query_string=params)
        assert r.status_code in (200, 400), (r.status_code, r.get_json())


# --- every route: any path value, query, header and body ----------------------------------------

PB_TABLE = FakeTable(game="playground-battles", players=2, seed=5, pin=PIN, mode="manual")
FUZZ_APPS = {
    "aggravation": create_app({"SECRET_KEY": "fuzz"}, table=TABLE),
    "playground-battles": create_app({"SECRET_KEY": "fuzz"}, table=PB_TABLE),
}
for _app in FUZZ_APPS.values():  # no lock-out: the fuzz must reach past the PIN check
    _app.extensions["boardref.pin_guard"] = PinGuard(per_address=10**9, free_failures=10**9)
ROUTES = sorted(
    (rule.rule, method)
    for rule in FUZZ_APPS["aggravation"].url_map.iter_rules()
    for method in sorted(rule.methods - {"HEAD", "OPTIONS"})
)
STREAMS = ("/api/events", "/stream.mjpg", "/events")

header_text = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=50).map(
    lambda s: s.encode("utf-8").decode("latin-1")
)  # what arrives when a phone sends UTF-8
path_text = st.text(max_size=20).map(lambda s: quote(s, safe="") or "x")
nested = st.builds(  # just past our limit (32) and past Python's recursion limit (~1000)
    lambda opener, n: opener * n,
    st.sampled_from(["[", "{", '{"a":']),
    st.sampled_from([1, 33, 1200, 3000]) | st.integers(1, 3000),
)
form_bodies = st.dictionaries(  # what a page's form sends: fields of text, JSON in some
    st.sampled_from(["game", "players", "options", "mode", "name", "hand", "csrf_token", "pin"]),
    st.text(max_size=12) | nested | bodies.map(json.dumps),
    max_size=4,
).map(lambda form: urlencode(form).encode())
raw_bodies = st.one_of(
    form_bodies,
    st.binary(max_size=200),
    nested,
    st.just(""),
    values.map(lambda v: json.dumps(v)),
    bodies.map(lambda v: json.dumps(v)),
)


def path_value(name: str, table: FakeTable):
    tokens = [s.token for s in table.seats] or ["x" * 32]
    choices = {
        "token": st.sampled_from(tokens) | path_text,
        "seat": st.integers(0, 4).map(str) | path_text,
        "game": st.sampled_from(["aggravation", "manji"]) | path_text,
        "name": st.sampled_from(["aggravation", "the-right-moves"]) | path_text,
        "filename": st.sampled_from(["app.js", "style.css", "../x", "nope"]) | path_text,
    }
    return choices.get(name, path_text)


@st.composite
def requests(draw):
    game = draw(st.sampled_from(sorted(FUZZ_APPS)))
    table = TABLE if game == "aggravation" else PB_TABLE
    rule, method = draw(st.sampled_from(ROUTES))
    path = rule
    for name in re.findall(r"<(?:[a-z]+:)?([a-z]+)>", rule):
        value = draw(path_value(name, table))
        path = re.sub(rf"<(?:[a-z]+:)?{name}>", value, path)
    query = draw(
        st.dictionaries(
            st.sampled_from(["since", "last", "space", "from", "to", "download", "t", "x"]),
            st.sampled_from(["0", "1", "²", "-1", "t01", "red-b1", ""]) | st.text(max_size=8),
            max_size=3,
        )
    )
    headers = {}
    if draw(st.booleans()):
        headers["X-Table-PIN"] = draw(st.just(PIN) | header_text)
    headers["Content-Type"] = draw(
        st.sampled_from(
            ["application/json", "text/plain", "application/x-www-form-urlencoded",
             "multipart/form-data; boundary=x", "application/json; charset=latin-1"]
        )
    )  # fmt: skip
    accept = draw(st.sampled_from(["application/json", "text/html", "*/*", "image/*"]))
    headers["Accept"] = accept
    csrf = draw(st.sampled_from(["real", "none", "junk"]))
    junk = draw(header_text)
    body = draw(raw_bodies) if method == "POST" else None
    return game, method, path, query, headers, csrf, junk, body


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(req=requests())
def test_every_route_answers_anything_without_a_500(req):
    game, method, path, query, headers, csrf, junk, body = req
    app = FUZZ_APPS[game]
    table = TABLE if game == "aggravation" else PB_TABLE
    client = app.test_client()
    token = client.get("/api/csrf").get_json()["csrf_token"]
    if csrf == "real":
        headers["X-CSRF-Token"] = token
    elif csrf == "junk":
        headers["X-CSRF-Token"] = junk
    before = (table.snapshot()["moves"], table.snapshot()["game"])
    r = client.open(
        path, method=method, query_string=query, headers=headers, data=body, buffered=False
    )
    try:
        # 503 is an honest "no camera frame" from the camera routes, never a crash
        allowed = r.status_code == 503 and path in ("/snapshot.jpg", "/stream.mjpg")
        assert r.status_code < 500 or allowed, (method, path, r.status_code, r.get_data()[:300])
        if r.status_code >= 400 and r.mimetype == "application/json":
            assert json.loads(r.get_data())["error"]
        if r.status_code >= 400:
            assert (table.snapshot()["moves"], table.snapshot()["game"]) == before
    finally:
        r.close()
    if table.game.outcome(table.state) is not None or table.game.name != game:
        table.new_game(game, 4 if game == "aggravation" else 2, {})


FIELDS = ["game", "players", "options", "mode", "move", "from", "to", "route", "name", "image",
          "points", "identities", "hand", "stay", "winner", "hands"]  # fmt: skip
POSTS = sorted({rule for rule, method in ROUTES if method == "POST"})


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    game=st.sampled_from(sorted(FUZZ_APPS)),
    rule=st.sampled_from(POSTS),
    fields=st.dictionaries(st.sampled_from(FIELDS), values | nested | st.text(max_size=10)),
    as_form=st.booleans(),
)
def test_every_post_route_takes_any_fields_as_json_or_a_form(game, rule, fields, as_form):
    """Past the CSRF and PIN checks, with the field names the views read: any values, sent
    as JSON or as a form (a form's values are text, JSON inside some), are never a 5xx."""
    app, table = FUZZ_APPS[game], TABLE if game == "aggravation" else PB_TABLE
    tokens = [s.token for s in table.seats] or ["x"]
    path = rule.replace("<token>", tokens[0]).replace("<int:seat>", "0")
    client = app.test_client()
    csrf = client.get("/api/csrf").get_json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "X-Table-PIN": PIN}
    if as_form:
        form = {k: v if isinstance(v, str) else json.dumps(v) for k, v in fields.items()}
        r = client.post(path, data=form, headers=headers)
    else:
        r = client.post(path, json=fields, headers=headers)
    assert r.status_code < 500, (path, fields, r.get_data()[:300])
    if table.game.outcome(table.state) is not None or table.game.name != game:
        table.new_game(game, 4 if game == "aggravation" else 2, {})


@pytest.mark.parametrize("game", sorted(FUZZ_APPS))
def test_every_post_route_and_field_takes_deep_nesting(game):
    """Every POST route, every field a view reads, nested past every limit, as a form field
    and in a JSON body: a 4xx or a 2xx, never a 5xx (a form's "options" once was a 500)."""
    app, table = FUZZ_APPS[game], TABLE if game == "aggravation" else PB_TABLE
    client = app.test_client()
    csrf = client.get("/api/csrf").get_json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "X-Table-PIN": PIN}
    seen = []
    for rule in POSTS:
        tokens = [s.token for s in table.seats] or ["x"]
        path = rule.replace("<token>", tokens[0]).replace("<int:seat>", "0")
        for field in FIELDS:
            deep = "[" * 1200  # past our limit of 32 and past Python's recursion limit
            form = client.post(path, data={field: deep}, headers=headers)
            body = client.post(path, json={field: deep}, headers=headers)
            seen += [(path, field, form.status_code), (path, field, body.status_code)]
        if table.game.outcome(table.state) is not None or table.game.name != game:
            table.new_game(game, 4 if game == "aggravation" else 2, {})
    assert [s for s in seen if s[2] >= 500] == []
