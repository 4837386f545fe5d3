"""Playground Battles' secrets on the web: one player must never read the other's identities.

Both players join through their own secret links (two sessions), enter known set-ups and play
the opening on their phones; the game is then played (attacks preferred) until battles have
been decided, one of them a stalemate that is still standing. Then every public endpoint
(pages, JSON API, teach, record, errors, the live stream) and each seat's own link are read,
and none may let the opponent's hidden identities be reconstructed. Served by waitress (the
live streams are read from a real socket).
"""

from __future__ import annotations

import http.client
import json
import random
import re
import threading
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from typing import Any

import pytest
import segno

from device.store import Store
from rules import Step
from rules.games.playground_battles import KINDS, UNSET
from tests.fake_table import FakeTable
from tests.waiting import wait_until
from webui import create_app
from webui.serve import make_server

PIN = "2468"
RED_KINDS = ["rock", "paper", "scissors", "rock", "paper"] * 2
BLUE_KINDS = ["scissors", "scissors", "rock", "paper", "rock"] * 2
RED_SETUP = dict(zip("abcdefghij", RED_KINDS, strict=True))
BLUE_SETUP = dict(zip("abcdefghij", BLUE_KINDS, strict=True))


SLOW = 60.0  # seconds: a generous bound for one request on a busy machine, never a speed test


class Phone:
    """A browser: its own cookie jar (its Flask session), CSRF token and requests."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf = ""

    def get(self, path: str, accept: str = "text/html,application/json") -> tuple[int, str]:
        req = urllib.request.Request(self.base + path, headers={"Accept": accept})
        try:
            with self.opener.open(req, timeout=SLOW) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    def post(self, path: str, body: Any = None, pin: str | None = None) -> tuple[int, str]:
        if not self.csrf:
            self.csrf = json.loads(self.get("/api/csrf")[1])["csrf_token"]
        headers = {"X-CSRF-Token": self.csrf, "Content-Type": "application/json"}
        if pin:
            headers["X-Table-PIN"] = pin
        data = json.dumps(body if body is not None else {}).encode()
        req = urllib.request.Request(self.base + path, data=data, headers=headers, method="POST")
        try:
            with self.opener.open(req, timeout=SLOW) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


class Stream(threading.Thread):
    """Reads a server-sent event stream from a socket into `text` until stopped."""

    def __init__(self, base: str, path: str, cookie: str = "") -> None:
        super().__init__(daemon=True)
        host, port = base.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=SLOW)
        self.path, self.cookie = path, cookie
        self.text = ""
        self.status = 0
        self._halt = threading.Event()

    def run(self) -> None:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        self.conn.request("GET", self.path, headers=headers)
        r = self.conn.getresponse()
        self.status = r.status
        r.fp.raw._sock.settimeout(1.0)  # now read in short waits, so stop() ends the thread
        while not self._halt.is_set():
            try:
                line = r.readline()
            except (TimeoutError, OSError):
                continue
            if not line:
                break
            self.text += line.decode()

    def stop(self) -> str:
        self._halt.set()
        self.conn.close()
        self.join(timeout=SLOW)
        return self.text

    def wait_for(self, text: str) -> bool:
        """Wait until `text` arrived on the stream (generous: the machine may be busy)."""
        return wait_until(lambda: text in self.text)


def _serve(server) -> None:
    try:
        server.run()
    except (OSError, ValueError):  # the loop notices the closed socket as the test ends
        pass


def pb_table(store: Store | None = None) -> FakeTable:
    return FakeTable(
        game="playground-battles", players=2, seed=5, pin=PIN, mode="manual", store=store
    )


def start_server(table: FakeTable):
    """The table's web app served by waitress; the same SECRET_KEY every time (a restart)."""
    app = create_app(
        {"SECRET_KEY": "secrets", "SSE_KEEPALIVE": 0.3, "SSE_MAX_AGE": 20.0}, table=table
    )
    server = make_server(app, port=0, threads=16)
    threading.Thread(target=_serve, args=(server,), daemon=True).start()
    return server, f"http://127.0.0.1:{server.effective_port}"


@pytest.fixture
def site():
    table = pb_table()
    server, base = start_server(table)
    yield table, base
    server.close()


def tokens(table: FakeTable) -> list[str]:
    return [seat.token for seat in table.seats]


def setup_of(letters: dict[str, str]) -> dict[str, str]:
    return {f"{col}1" if letters is RED_SETUP else f"{col}8": k for col, k in letters.items()}


# --- what counts as a leak --------------------------------------------------------------------


def json_docs(text: str) -> list[Any]:
    """Every JSON document in a response: the body, a page's boot data, each SSE data line."""
    docs = []
    try:
        docs.append(json.loads(text))
    except ValueError:
        pass
    for m in re.finditer(r'<script type="application/json" id="boot">(.*?)</script>', text, re.S):
        docs.append(json.loads(m.group(1)))
    for line in text.splitlines():
        if line.startswith("data: "):
            docs.append(json.loads(line[6:]))
    return docs


def walk(node: Any, path: tuple = ()):
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            if k not in ("clauses", "option_specs"):  # the rulebook's own words
                yield from walk(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, (*path, i))


def assert_no_leak(text: str, victim: int, table: FakeTable, where: str) -> None:
    """`text` (a response someone other than `victim` can read) reveals none of the victim's
    hidden identities: not the set-up, not a piece's kind, not a stalemate's kind."""
    setup = setup_of(RED_SETUP if victim == 0 else BLUE_SETUP)
    for sq, kind in setup.items():  # the set-up entry, in any JSON or Python spelling
        pattern = rf"""["']{sq}["']\s*[,:]\s*["']{kind}["']"""
        assert not re.search(pattern, text), f"{where}: {victim}'s set-up {sq}={kind} leaks"
    for doc in json_docs(text):
        for path, node in walk(doc):
            if isinstance(node, dict):
                if node.get("seat") == victim and "identity" in node:
                    on = node.get("space")
                    assert node["identity"] is None or node.get("revealed"), (
                        f"{where}: {path} shows the identity of {victim}'s piece on {on}"
                    )
                if "identities" in node and node.get("player") == victim:
                    kinds = [p[1] for p in node["identities"]]
                    assert set(kinds) == {None}, f"{where}: {path} holds {victim}'s set-up"
                if node.get("result") == "stalemate":
                    assert node.get("attacker_identity") is None, f"{where}: stalemate kind"
                    assert node.get("defender_identity") is None, f"{where}: stalemate kind"
                pieces = node.get("pieces")
                assert not (
                    isinstance(pieces, list)
                    and pieces
                    and isinstance(pieces[0], list)
                    and pieces[0]
                    and isinstance(pieces[0][0], list)
                ), f"{where}: {path} is the raw rules state (every identity)"
                assert "hold" not in node, f"{where}: {path} is the raw rules state"
            if isinstance(node, str):
                low = node.lower()
                if "stalemate" in low and "breaks the stalemate" not in low:
                    assert not re.search(r"\b(rock|paper|scissors)\b", low), (
                        f"{where}: a stalemate's kind is told: {node!r}"
                    )


# --- driving the game ---------------------------------------------------------------------------


def join_and_set_up(table: FakeTable, base: str) -> tuple[Phone, Phone, list[str]]:
    red, blue = Phone(base), Phone(base)
    links = tokens(table)
    assert red.get(f"/play/{links[0]}")[0] == 200
    assert blue.get(f"/play/{links[1]}")[0] == 200
    status, body = red.post(f"/api/play/{links[0]}/setup", {"identities": setup_of(RED_SETUP)})
    assert status == 200, body
    # blue first makes a mistake: the rules core's message comes back to blue only
    bad = dict(setup_of(BLUE_SETUP), a8="rock", b8="rock", c8="rock", d8="rock", e8="rock")
    bad = {sq: "rock" for sq in bad}
    status, body = blue.post(f"/api/play/{links[1]}/setup", {"identities": bad})
    assert status == 409 and "at least one of each kind" in json.loads(body)["error"]
    status, body = blue.post(f"/api/play/{links[1]}/setup", {"identities": setup_of(BLUE_SETUP)})
    assert status == 200, body
    assert table.state.phase == "opening"
    # the opening on the phones: a tie is thrown again, then red's rock beats blue's scissors
    assert red.post(f"/api/play/{links[0]}/hand", {"hand": "paper"})[0] == 200
    assert table.snapshot()["seats"][0]["hand_in"] is True
    mid = json.loads(red.get("/api/state")[1])
    assert "my_hand" not in json.dumps(mid) and mid["seats"][1]["hand_in"] is False
    blue_sees = json.loads(blue.get(f"/api/play/{links[1]}/state")[1])
    assert blue_sees["my_hand"] is None and blue_sees["hands_in"] == [True, False]
    assert blue.post(f"/api/play/{links[1]}/hand", {"hand": "paper"})[0] == 200
    assert table.state.phase == "opening" and "tie" in table.snapshot()["ruling"]["text"]
    assert red.post(f"/api/play/{links[0]}/hand", {"hand": "rock"})[0] == 200
    assert blue.post(f"/api/play/{links[1]}/hand", {"hand": "scissors"})[0] == 200
    assert table.state.phase == "roll" and table.state.to_move == 0
    return red, blue, links


def play_until_stalemate(table: FakeTable, phones: list[Phone], links: list[str]) -> None:
    """Play (attacks first) until a battle was decided and a stalemate is standing."""
    game = table.game
    rng = random.Random(3)
    decided = False
    for _ in range(1500):
        state = table.state
        stalemates = [
            p for p in game.view(state, None)["pieces"] if p["stalemate"] and not p["revealed"]
        ]
        if decided and len(stalemates) >= 2 and state.phase == "roll":
            return
        if state.phase == "over":
            pytest.fail("the game ended before a stalemate stood")
        if state.phase == "roll":
            table.roll("button")
            continue
        if state.phase == "keep":
            p = state.actor
            status, body = phones[p].post(f"/api/play/{links[p]}/keep", {"stay": "rescuer"})
            assert status == 200, body
            continue
        legal = [m for m in game.legal_moves(state) if isinstance(m, Step)]
        if not legal:
            pytest.fail(f"nothing to play in phase {state.phase}")
        placement = game.placement(state)
        mover = game.colours[state.actor]
        attacks = [m for m in legal if placement.get(m.to) not in (None, mover)]
        quiet = [m for m in legal if not m.to.endswith("base")] or legal
        move = rng.choice(attacks or quiet)
        ruling = table.manual_move(move.to_json())
        battle = ruling.get("battle")
        if battle and battle["result"] in ("won", "lost"):
            decided = True
    pytest.fail("no stalemate in 1500 moves")


# --- the tests ----------------------------------------------------------------------------------


def test_links_are_unguessable_per_seat_and_per_game(site):
    table, base = site
    first = tokens(table)
    assert len(set(first)) == 2 and all(len(t) >= 32 for t in first)
    assert all(re.fullmatch(r"[A-Za-z0-9_-]+", t) for t in first)
    public = Phone(base)
    for path in ("/", "/api/state", "/api/history", "/history", "/api/record"):
        text = public.get(path)[1]
        assert not any(t in text for t in first), f"{path} shows a player link"
    svg = public.get("/seat-qr/0.svg")[1]
    assert svg.startswith("<svg") and first[0] not in svg  # the link only as a QR code
    qr = segno.make(f"{base}/play/{first[0]}", error="m")
    assert svg.replace(' xmlns="http://www.w3.org/2000/svg"', "") == qr.svg_inline(
        scale=5, dark="#10161c", light="#ffffff"
    )
    assert public.get("/play/" + "A" * 32)[0] == 404
    assert public.get("/api/play/" + first[0][:-1] + "x/state")[0] in (403, 404)
    assert public.get(f"/api/play/{first[0]}/state")[0] == 403  # not claimed by this browser
    status, _ = public.post("/api/new-game", {"game": "playground-battles"}, pin=PIN)
    assert status == 200
    second = tokens(table)
    assert not set(first) & set(second)
    assert public.get(f"/play/{first[0]}")[0] == 404


def test_a_claimed_link_refuses_another_session_until_reset(site):
    table, base = site
    red, thief = Phone(base), Phone(base)
    link = tokens(table)[0]
    assert red.get(f"/play/{link}")[0] == 200
    assert red.get(f"/play/{link}")[0] == 200  # the same phone comes back
    assert table.snapshot()["seats"][0]["claimed"] is True
    assert thief.get("/seat-qr/0.svg")[0] == 404  # the QR code is gone once claimed
    status, page = thief.get(f"/play/{link}")
    assert status == 403 and "another phone" in page
    assert thief.get(f"/api/play/{link}/state")[0] == 403
    assert thief.post(f"/api/play/{link}/hand", {"hand": "rock"})[0] == 403
    assert thief.post("/api/seats/0/reset")[0] == 403  # needs the table PIN
    assert thief.post("/api/seats/0/reset", pin=PIN)[0] == 200
    assert red.get(f"/api/play/{link}/state")[0] == 404  # the old link is dead
    fresh = tokens(table)[0]
    assert fresh != link and thief.get(f"/play/{fresh}")[0] == 200


def read_public(table: FakeTable, base: str, links: list[str]) -> dict[str, str]:
    """Every public page and API answer, and refusals (with the PIN) that could echo a set-up."""
    public = Phone(base)
    occupied = sorted(table.game.placement(table.state))
    paths = [
        "/",
        "/history",
        "/setup",
        "/teach",
        "/teach/playground-battles",
        "/api/state",
        "/api/history",
        "/api/history?last=3",
        "/api/record",
        "/api/record?download=0",
        "/api/board",
        "/api/game",
        "/api/games/playground-battles",
        "/api/status",
        "/play/not-a-link",
        "/api/play/not-a-link/state",
        "/seat-qr/0.svg",
        "/api/nothing-here",
    ]
    paths += [f"/api/teach/moves?space={sq}" for sq in occupied]
    paths += [f"/api/teach/explain?from={a}&to={b}" for a in occupied[:6] for b in occupied[-6:]]
    texts: dict[str, str] = {}
    for path in paths:
        status, text = public.get(path)
        assert status < 500, f"{path}: {status}"
        texts[path] = text
    errors = [
        public.post("/api/seats/0/setup", {"identities": setup_of(RED_SETUP)}, pin=PIN),
        public.post(
            "/api/move",
            {
                "move": {
                    "kind": "pb-assign",
                    "player": 1,
                    "colour": "blue",
                    "identities": [["a8", "rock"]],
                }
            },
            pin=PIN,
        ),
        public.post("/api/opening", {"winner": 1}, pin=PIN),
        public.post(f"/api/play/{links[0]}/setup", {"identities": setup_of(RED_SETUP)}),
    ]
    for n, (status, text) in enumerate(errors):
        assert 400 <= status < 500
        texts[f"error {n}"] = text
    assert "rock" not in texts["error 1"]  # the refusal does not echo the attempted set-up
    return texts


def assert_public_hides_every_secret(table: FakeTable, texts: dict[str, str]) -> None:
    """No identity, no player link, no phone's claimant id in anything the public reads."""
    stalemates = [
        p
        for p in table.game.view(table.state, None)["pieces"]
        if p["stalemate"] and not p["revealed"]
    ]
    assert stalemates, "the test needs a standing stalemate of two hidden pieces"
    theirs = json.loads(texts["/api/state"])["state"]["pieces"]
    for p in stalemates:  # nobody was told the kind: not the table, not the other seat
        assert all(q["identity"] is None for q in theirs if q["space"] == p["space"])
    claims = [seat.claim for seat in table.seats]
    assert all(claims), "the test needs both seats claimed"
    for where, text in texts.items():
        for seat in (0, 1):
            assert_no_leak(text, seat, table, where)
        assert not any(t in text for t in tokens(table)), f"{where} shows a player link"
        assert not any(c in text for c in claims), f"{where} shows a phone's claimant id"
    record = json.loads(texts["/api/record?download=0"])
    assert record["redacted"] is True  # public and redacted while the game goes on
    assert all(
        kind is None
        for m in record["moves"]
        if m["kind"] == "pb-assign"
        for _sq, kind in m["identities"]
    )


def assert_each_phone_sees_only_its_own(
    table: FakeTable, phones: list[Phone], links: list[str], events: list[str]
) -> None:
    """Each seat's phone: its own pieces' kinds, never the other's, nor the other's link."""
    for seat, phone in enumerate(phones):
        other = 1 - seat
        own = {
            "own state": phone.get(f"/api/play/{links[seat]}/state")[1],
            "own page": phone.get(f"/play/{links[seat]}")[1],
            "own events": events[seat],
            "other link page": phone.get(f"/play/{links[other]}")[1],
            "other link state": phone.get(f"/api/play/{links[other]}/state")[1],
        }
        assert phone.get(f"/api/play/{links[other]}/state")[0] == 403
        for where, text in own.items():
            assert_no_leak(text, other, table, f"seat {seat} {where}")
            assert links[other] not in text.replace(f"/play/{links[other]}", "")
        mine = json.loads(own["own state"])["view"]["pieces"]
        assert all(p["identity"] in KINDS for p in mine if p["seat"] == seat)
        # the stalemate's other kind stays hidden from the seat too
        for p in mine:
            if p["seat"] == other and p["stalemate"]:
                assert p["identity"] is None


def test_no_public_response_or_other_seat_reveals_hidden_identities(site):
    table, base = site
    live = Stream(base, "/api/events")
    live.start()
    red, blue, links = join_and_set_up(table, base)
    red_live = Stream(base, f"/api/play/{links[0]}/events", red.cookie_header())
    blue_live = Stream(base, f"/api/play/{links[1]}/events", blue.cookie_header())
    red_live.start(), blue_live.start()
    play_until_stalemate(table, [red, blue], links)
    assert live.wait_for("event: ruling") and red_live.wait_for("event: seat")
    public_events = live.stop()
    red_events, blue_events = red_live.stop(), blue_live.stop()
    assert live.status == red_live.status == blue_live.status == 200
    assert "event: seat" in red_events and "event: ruling" in public_events
    texts = read_public(table, base, links)
    texts["public events"] = public_events
    assert_public_hides_every_secret(table, texts)
    assert_each_phone_sees_only_its_own(table, [red, blue], links, [red_events, blue_events])


def test_a_restarted_table_keeps_the_phones_and_still_reveals_nothing(tmp_path):
    """The same game resumed from its database after a restart (same secret key): the phones
    keep their seats, and the replayed history, the links and the claims stay private."""
    db = tmp_path / "game.sqlite3"
    table = pb_table(Store(db))
    server, base = start_server(table)
    red, blue, links = join_and_set_up(table, base)
    play_until_stalemate(table, [red, blue], links)
    before = table.state
    server.close()
    table._store.close()

    resumed = pb_table(Store(db))
    server, base = start_server(resumed)
    try:
        assert resumed.resumed and resumed.state == before
        assert tokens(resumed) == links
        red.base = blue.base = base  # the phones' cookie jars are the ones from before
        live = Stream(base, "/api/events")
        red_live = Stream(base, f"/api/play/{links[0]}/events", red.cookie_header())
        blue_live = Stream(base, f"/api/play/{links[1]}/events", blue.cookie_header())
        for stream in (live, red_live, blue_live):
            stream.start()
        assert all(s.wait_for("data: ") for s in (live, red_live, blue_live))
        resumed.roll("button")  # something to announce on every stream
        assert live.wait_for("event: ruling")
        assert red_live.wait_for("event: seat") and blue_live.wait_for("event: seat")
        public_events = live.stop()
        red_events, blue_events = red_live.stop(), blue_live.stop()
        assert live.status == red_live.status == blue_live.status == 200
        assert "event: seat" in red_events and "event: seat" in blue_events
        assert "event: ruling" in public_events
        texts = read_public(resumed, base, links)
        texts["public events"] = public_events
        replayed = json.loads(texts["/api/history"])["entries"]  # rebuilt from the log
        assert len(replayed) == len(resumed.history()) > 10
        assert_public_hides_every_secret(resumed, texts)
        assert_each_phone_sees_only_its_own(resumed, [red, blue], links, [red_events, blue_events])
    finally:
        server.close()


def test_fallback_set_up_on_the_table_page_needs_the_pin_and_answers_nothing_secret(site):
    table, base = site
    public = Phone(base)
    body = {"identities": setup_of(BLUE_SETUP)}
    assert public.post("/api/seats/1/setup", body)[0] == 403
    status, text = public.post("/api/seats/1/setup", body, pin=PIN)
    assert status == 200
    assert "scissors" not in text and json.loads(text)["seats"][1]["assigned"] is True
    assert table.state.pieces[1][0][1] != UNSET
    status, text = public.post("/api/seats/1/setup", body, pin=PIN)
    assert status == 409 and "already" in json.loads(text)["error"]
    # the opening entered as its result
    assert public.post("/api/opening", {"winner": 1}, pin=PIN)[0] == 409  # red not in yet
    public.post("/api/seats/0/setup", {"identities": setup_of(RED_SETUP)}, pin=PIN)
    status, text = public.post("/api/opening", {"winner": "blue"}, pin=PIN)
    assert status == 200, text
    assert table.state.phase == "roll" and table.state.to_move == 1


def test_setup_samples_are_not_listed_as_legal_moves(site):
    table, base = site
    snap = json.loads(Phone(base).get("/api/state")[1])
    assert snap["phase"] == "setup" and snap["legal"] == []
    assert "pieces" in snap["state"] and all(p["identity"] is None for p in snap["state"]["pieces"])


def test_games_without_secrets_keep_their_json():
    table = FakeTable(seed=7, options={"opening": "first-seat"})
    snap = table.snapshot()
    assert "seats" not in snap
    assert snap["state"] == table.game.state_to_json(table.state)
    assert snap["legal"] == [
        m.to_json() | {"text": str(m)} for m in table.game.legal_moves(table.state)
    ]
    table.roll("button")
    entry = table.history()[-1]
    assert entry["move"] == table._moves[-1].to_json()
    assert table.record() == table.game.record(table._moves)
    assert not table.secret and table.join_token(0) is None


BAD_BODIES = [
    None,
    [],
    "x",
    {"identities": None},
    {"identities": "rock"},
    {"identities": [["a1"]]},
    {"identities": [[1, 2]]},
    {"identities": {"a1": 5}},
    {"identities": {"z9": "rock"}},
    {"identities": [["a1", "rock"]] * 10},
    {"hand": None},
    {"hand": ["rock"]},
    {"stay": 3},
    {"winner": True},
    {"winner": 7},
    {"winner": "green"},
    {"hands": ["rock"]},
    {"hands": "rock"},
]


def test_bad_input_to_every_player_route_is_a_4xx(site):
    table, base = site
    phone = Phone(base)
    link = tokens(table)[0]
    assert phone.get(f"/play/{link}")[0] == 200
    before = table.state
    routes = [
        f"/api/play/{link}/setup",
        f"/api/play/{link}/hand",
        f"/api/play/{link}/keep",
        "/api/seats/0/setup",
        "/api/seats/9/setup",
        "/api/seats/0/reset",
        "/api/opening",
    ]
    for route in routes:
        for body in BAD_BODIES:
            status, text = phone.post(route, body, pin=PIN)
            assert 400 <= status < 500 or route.endswith("reset"), (route, body, status, text)
            assert "error" in json.loads(text) or route.endswith("reset")
    assert phone.get("/seat-qr/5.svg")[0] == 404
    assert phone.get("/seat-qr/-1.svg")[0] == 404
    assert table.state == before
