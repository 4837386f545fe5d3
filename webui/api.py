"""The JSON API under /api: state, roll, moves, undo, new game, history, teach, board, status.

Every view checks its input before it touches the table, so bad input gets a 4xx with
{"error": "..."} and leaves the game as it was. Views that change the game need the table PIN
(see security.py); every POST needs the session's CSRF token.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from flask import Blueprint, Response, abort, current_app, has_app_context, jsonify, request
from flask.json.provider import DefaultJSONProvider

import rules
from rules.wording import space_names

from .security import PinGuard, check_pin, csrf_token
from .table import Table

bp = Blueprint("api", __name__, url_prefix="/api")

SPACE_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,40}$")
PROFILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,59}$")
WHOLE_NUMBER = re.compile(r"[0-9]{1,9}")  # ASCII digits only: "²".isdigit() is True
JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')  # strings (skipped), brackets
MAX_JSON_DEPTH = 32  # no request of ours nests deeper; deeper bodies are refused, not parsed


# --- helpers shared with the pages and events blueprints -------------------------------------


def get_table() -> Table:
    table = current_app.extensions.get("boardref.table")
    if table is None:
        abort(503, description="no referee is running on this table")
    return table


def board_id(game: rules.Game) -> str:
    """Changes whenever the diagram must be redrawn (another game, player count or board)."""
    board = game.board
    return f"{game.name}:{game.players}:{board.name}:{len(board.spaces)}"


def enrich(table: Table, snapshot: dict[str, Any], guard: PinGuard | None = None) -> dict[str, Any]:
    """The table's snapshot plus what the page needs to draw it, and the PIN lock-out
    (`guard`: the app's PinGuard; looked up when called within a request)."""
    data = dict(snapshot)
    try:
        game = table.game
        data.setdefault("board_id", board_id(game))
        data.setdefault("title", game.title)
        data.setdefault("colours", list(game.colours))
    except Exception:  # noqa: BLE001  (a half-started referee still shows its snapshot)
        pass
    data["pin_required"] = bool(getattr(table, "pin", ""))
    if guard is None and has_app_context():
        guard = current_app.extensions.get("boardref.pin_guard")
    if guard is not None:
        data["pin_lock"] = guard.table_lock().to_json()
    return data


def current_state(table: Table, game: rules.Game, snapshot: dict[str, Any]) -> Any:
    """The rules state behind a snapshot: the referee's own state, or the snapshot's "state"
    key if the referee sends one, else a replay of the game record (exact, since chance is an
    explicit move). The state never leaves the server (it may hold secret identities)."""
    own = getattr(table, "state", None)
    if own is not None and not isinstance(own, dict) and hasattr(own, "phase"):
        return own
    if isinstance(snapshot.get("state"), dict):
        return game.state_from_json(snapshot["state"])
    record = table.record()
    return game.replay(record.get("moves", []))


def palette_json() -> dict[str, Any]:
    return {
        name: {"rgb": "#{:02x}{:02x}{:02x}".format(*c.rgb), "letter": c.letter}
        for name, c in rules.PALETTE.items()
    }


def json_body() -> dict[str, Any]:
    """The request's JSON object, or its form fields; 400 naming the fault for anything else."""
    if request.is_json:
        body = request.get_json(silent=True)
        if body is None and request.get_data(cache=True):
            abort(400, description=f"the body is not usable JSON: {json_problem()}")
        if not isinstance(body, dict):
            abort(400, description="send a JSON object as the request body")
        return body
    if request.form:
        return {k: v for k, v in request.form.items() if k not in ("csrf_token", "pin")}
    if request.get_data(cache=True):
        abort(400, description="send a JSON object (Content-Type: application/json) or a form")
    return {}


class BoundedJSON(DefaultJSONProvider):
    """Flask's JSON, refusing bodies nested deeper than MAX_JSON_DEPTH before parsing them
    (1,000 "[" made json.loads raise RecursionError, a 500). A refusal is a ValueError, so
    `get_json(silent=True)` answers None and `json_body` a 400 naming the fault."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        text = s.decode("utf-8", "replace") if isinstance(s, bytes | bytearray) else s
        if json_depth(text) > MAX_JSON_DEPTH:
            raise ValueError(f"JSON nested more than {MAX_JSON_DEPTH} levels deep")
        return super().loads(s, **kwargs)


def json_depth(text: str) -> int:
    """The deepest nesting of [ and { in JSON text, strings skipped (a cheap scan)."""
    depth = deepest = 0
    for match in JSON_TOKENS.finditer(text):
        char = match.group()
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def json_problem() -> str:
    """Why the request body does not parse as JSON, in a few words (for a 400)."""
    try:
        current_app.json.loads(request.get_data(cache=True))
    except ValueError as exc:
        return str(exc)[:160]
    return "unreadable"


def space_arg(game: rules.Game, value: Any, name: str) -> str:
    if not isinstance(value, str) or not SPACE_ID.match(value):
        abort(400, description=f"{name} must be a space id such as {game.board.spaces[0].id!r}")
    if value not in game.board.index:
        abort(400, description=f"{name}: there is no space {value!r} on the {game.title} board")
    return value


def group_of(game: rules.Game, space: str) -> tuple[str, ...]:
    """The interchangeable spaces (a BASE row) that `space` belongs to, or just itself."""
    for group in game.groups():
        if space in group:
            return tuple(group)
    return (space,)


def move_summary(game: rules.Game, state: Any, move: rules.Move) -> dict[str, Any]:
    verdict = game.explain(state, move)
    return {
        "move": move.to_json(),
        "text": str(move),
        "from": getattr(move, "frm", None),
        "to": getattr(move, "to", None),
        "route": getattr(move, "route", ""),
        "verdict": verdict.to_json(),
    }


def mover_colour(game: rules.Game, state: Any) -> str:
    return game.colour_of(getattr(state, "actor", state.to_move))


# --- reading -------------------------------------------------------------------------------


@bp.get("/csrf")
def csrf():
    """This session's CSRF token (scripts: keep the session cookie and send X-CSRF-Token)."""
    return jsonify(csrf_token=csrf_token())


@bp.get("/state")
def state():
    table = get_table()
    return jsonify(enrich(table, table.snapshot()))


def board_json(game: rules.Game) -> dict:
    """The board geometry of a game, with its seats, palette and token noun, for the diagram."""
    data = game.board.to_json()
    data.update(
        game=game.name,
        title=game.title,
        players=game.players,
        colours=list(game.colours),
        groups=[list(g) for g in game.groups()],
        palette=palette_json(),
        board_id=board_id(game),
        token=game.token_name,
        names=space_names(game.board, game.name).as_dict(),  # each space in players' words
        dice=any(r.name.startswith("tray") for r in game.board.regions),  # a die to roll
    )
    return data


@bp.get("/board")
def board():
    """The board geometry of the game in progress, for the diagram."""
    return jsonify(board_json(get_table().game))


@bp.get("/game")
def game_in_progress():
    """The game in progress: name, players, options, option specs and clauses."""
    game = get_table().game
    data = game.describe()
    data["board_id"] = board_id(game)
    return jsonify(data)


@bp.get("/games")
def games():
    """Every game the referee knows, with player counts, house-rule options and clauses."""
    out = []
    for name in rules.names():
        cls = rules.game_class(name)
        data = cls(cls.default_players).describe()
        data["default_players"] = cls.default_players
        out.append(data)
    return jsonify(games=out)


@bp.get("/games/<name>")
def game_rules(name: str):
    if name not in rules.names():
        abort(404, description=f"unknown game {name!r}; known games: {', '.join(rules.names())}")
    cls = rules.game_class(name)
    data = cls(cls.default_players).describe()
    data["default_players"] = cls.default_players
    return jsonify(data)


@bp.get("/history")
def history():
    """Moves and rulings; ?since=N only the entries after move N, ?last=N only the last N."""
    table = get_table()
    since, last = int_arg("since"), int_arg("last")
    entries = table.history()
    total = len(entries)
    if since is not None:
        entries = [e for e in entries if e.get("n", 0) > since]
    if last is not None:
        entries = entries[-last:] if last else []
    return jsonify(game=table.game.name, total=total, entries=entries)


def int_arg(name: str) -> int | None:
    value = request.args.get(name)
    if value is None:
        return None
    if not WHOLE_NUMBER.fullmatch(value):
        abort(400, description=f"{name} must be a whole number of moves, not {value!r}")
    return int(value)


@bp.get("/record")
def record():
    """The game record as a JSON download (replays to the same state)."""
    table = get_table()
    body = json.dumps(table.record(), indent=2)
    response = Response(body + "\n", mimetype="application/json")
    if request.args.get("download", "1") != "0":
        name = f"boardref-{table.game.name}-record.json"
        response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@bp.get("/status")
def status():
    table = get_table()
    data = dict(table.status())
    snapshot = table.snapshot()
    data["mode"] = snapshot.get("mode", "camera")
    data["pin_required"] = bool(getattr(table, "pin", ""))
    data["pin_lock"] = current_app.extensions["boardref.pin_guard"].table_lock().to_json()
    data.setdefault("faults", [])  # what stops the table now, in words for the faults line
    data["live_clients"] = current_app.extensions.get("boardref.sse_clients", 0)
    data["can_save_profiles"] = callable(getattr(table, "save_profile", None))
    return jsonify(data)


# --- teach mode ----------------------------------------------------------------------------


@bp.get("/teach/moves")
def teach_moves():
    """Legal moves of the token on ?space=ID, each with the clauses that allow it."""
    table = get_table()
    game = table.game
    space = space_arg(game, request.args.get("space"), "space")
    snapshot = table.snapshot()
    state = current_state(table, game, snapshot)
    placement = game.placement(state)
    token = placement.get(space)
    group = group_of(game, space)
    moves = [
        move_summary(game, state, m)
        for m in game.legal_moves(state)
        if getattr(m, "frm", None) in group
    ]
    note = ""
    mover = mover_colour(game, state)
    if not moves:
        if token is None:
            note = f"there is no token on {space}"
        elif state.phase not in game.move_phases:
            note = f"no token moves now: the table is waiting for '{state.phase}'"
            if state.phase in ("roll", "opening"):
                note = f"no token moves now: {game.colour_of(state.to_move)} rolls the die first"
        elif token != mover:
            note = f"it is {mover}'s turn: this {token} token cannot move now"
        else:
            note = f"this {token} token has no legal move with a {state.dice}"
    if_rolled = what_if_rolled(game, state, group, token) if not moves and token else []
    return jsonify(
        space=space,
        token=token,
        mover=mover,
        phase=state.phase,
        dice=state.dice,
        moves=moves,
        targets=sorted({m["to"] for m in moves if m["to"]}),
        note=note,
        if_rolled=if_rolled,
    )


def what_if_rolled(game: rules.Game, state: Any, group: tuple, token: str) -> list[dict]:
    """Before the roll: the token's legal moves for each value the die could show."""
    out = []
    for roll in game.legal_moves(state):
        if not isinstance(roll, rules.Roll):
            continue
        after = game.apply(state, roll)
        if after.phase not in game.move_phases or mover_colour(game, after) != token:
            continue
        moves = [
            move_summary(game, after, m)
            for m in game.legal_moves(after)
            if getattr(m, "frm", None) in group
        ]
        out.append({"value": roll.value, "moves": moves})
    return out


@bp.get("/teach/explain")
def teach_explain():
    """Why moving the token on ?from=A to ?to=B is or is not allowed now."""
    table = get_table()
    game = table.game
    frm = space_arg(game, request.args.get("from"), "from")
    to = space_arg(game, request.args.get("to"), "to")
    state = current_state(table, game, table.snapshot())
    group = group_of(game, frm)
    matching = [
        move_summary(game, state, m)
        for m in game.legal_moves(state)
        if getattr(m, "frm", None) in group and getattr(m, "to", None) == to
    ]
    if matching:
        return jsonify(
            **{
                "from": frm,
                "to": to,
                "legal": True,
                "moves": matching,
                "verdict": matching[0]["verdict"],
            }
        )
    verdict = _explain_illegal(game, state, frm, to)
    return jsonify(
        **{"from": frm, "to": to, "legal": False, "moves": [], "verdict": verdict.to_json()}
    )


def _explain_illegal(game: rules.Game, state: Any, frm: str, to: str) -> rules.Verdict:
    token = game.placement(state).get(frm)
    mover = mover_colour(game, state)
    if token is None:
        clause = game.clauses[0]
        return rules.Verdict(False, (clause,), reason=f"there is no token on {frm} to move")
    if token != mover and game.turn_clause and state.phase in game.move_phases:
        clause = game.clause(game.turn_clause)
        return rules.Verdict(
            False, (clause,), reason=f"it is {mover}'s turn: a {token} token cannot move now"
        )
    if state.phase not in game.move_phases and game.roll_first_clause:
        clause = game.clause(game.roll_first_clause)
        return rules.Verdict(False, (clause,), reason="no token moves now: roll the die first")
    return game.explain_attempt(state, frm, to)


# --- changing the game ----------------------------------------------------------------------


@bp.post("/roll")
def roll():
    """Roll the die exactly as the physical button does (open to everyone at the table)."""
    table = get_table()
    return jsonify(enrich(table, table.roll("web")))


@bp.post("/pin")
def pin_check():
    """Check a PIN before the page remembers it: {"ok": true} or 403."""
    check_pin(getattr(get_table(), "pin", "") or "")
    return jsonify(ok=True)


@bp.post("/move")
def move():
    """A move tapped on the diagram: {"move": move json} or {"from", "to"[, "route"]}.

    Needs the table PIN unless the table is in manual mode (camera off). The referee checks
    it exactly like a camera move; an illegal attempt comes back as an "illegal" ruling.
    """
    table = get_table()
    snapshot = table.snapshot()
    if snapshot.get("mode", "camera") != "manual":
        check_pin(getattr(table, "pin", "") or "")
    body = json_body()
    game = table.game
    if "move" in body:
        data = body["move"]
        if not isinstance(data, dict):
            abort(400, description="move must be a JSON object as written by Move.to_json")
    elif "from" in body or "to" in body:
        data = _step_from_taps(table, game, snapshot, body)
    else:
        abort(400, description='send {"move": {...}} or {"from": space, "to": space}')
    try:
        parsed = game.move_from_json(data)
    except rules.RecordError as exc:
        abort(400, description=f"bad move: {exc}")
    check_field_types(parsed)
    if getattr(table, "secret", False) and parsed.kind == "pb-assign":
        abort(
            400,
            description="a secret set-up is entered on the player's phone, or in the table "
            "page's private entry, never as a move",
        )
    if isinstance(parsed, rules.Roll):
        abort(400, description="the die is rolled with POST /api/roll, not chosen as a move")
    for name in ("frm", "to"):
        value = getattr(parsed, name, None)
        if value is not None:
            space_arg(game, value, "from" if name == "frm" else "to")
    if not 0 <= parsed.player < game.players or parsed.colour != game.colour_of(parsed.player):
        abort(400, description=f"player {parsed.player} of this game is not {parsed.colour!r}")
    ruling = table.manual_move(parsed.to_json())
    return jsonify(ruling=ruling, state=enrich(table, table.snapshot()))


def check_field_types(move: rules.Move) -> None:
    """400 unless each field of the move has its declared type (int, str or bool)."""
    simple = {"int": int, "str": str, "bool": bool}
    for f in dataclasses.fields(move):
        want = simple.get(f.type if isinstance(f.type, str) else getattr(f.type, "__name__", ""))
        value = getattr(move, f.name)
        if want is not None and type(value) is not want:
            abort(
                400,
                description=f"{move.kind} move field {f.name!r} must be {want.__name__}, "
                f"not {value!r}",
            )


def _step_from_taps(table: Table, game: rules.Game, snapshot: dict, body: dict) -> dict:
    frm = space_arg(game, body.get("from"), "from")
    to = space_arg(game, body.get("to"), "to")
    route = body.get("route")
    if route is not None and not isinstance(route, str):
        abort(400, description="route must be a string")
    state = current_state(table, game, snapshot)
    group = group_of(game, frm)
    matching = [
        m
        for m in game.legal_moves(state)
        if getattr(m, "frm", None) in group and getattr(m, "to", None) == to
    ]
    if route is not None:
        matching = [m for m in matching if getattr(m, "route", "") == route]
    if len(matching) > 1:
        routes = ", ".join(repr(getattr(m, "route", "")) for m in matching)
        abort(400, description=f"{frm}->{to} can be made more than one way; send route: {routes}")
    if matching:
        return matching[0].to_json()
    actor = getattr(state, "actor", state.to_move)
    token = game.placement(state).get(frm)
    if token is None:
        abort(400, description=f"there is no token on {frm}")
    # Not a legal move: hand the attempt to the referee, which rules it illegal with the clause.
    player = game.colours.index(token) if token in game.colours else actor
    return {
        "kind": "step",
        "player": player,
        "colour": token,
        "frm": frm,
        "to": to,
        "route": route or "",
    }


@bp.post("/undo")
def undo():
    table = get_table()
    check_pin(getattr(table, "pin", "") or "")
    return jsonify(enrich(table, table.undo()))


@bp.post("/settings")
def settings():
    """{"mode": "camera" | "manual"}: whether the camera or taps on the page make the moves."""
    table = get_table()
    check_pin(getattr(table, "pin", "") or "")
    body = json_body()
    unknown = sorted(set(body) - {"mode"})
    if unknown:
        abort(400, description=f"unknown setting {unknown[0]!r}; settings: mode")
    mode = body.get("mode")
    if mode not in ("camera", "manual"):
        abort(400, description=f"mode must be 'camera' or 'manual', not {mode!r}")
    setter = getattr(table, "set_mode", None)
    if not callable(setter):
        abort(409, description="this referee cannot change its mode")
    return jsonify(enrich(table, setter(mode)))


@bp.post("/new-game")
def new_game():
    """{"game", "players", "options"}: checked against the rules before the table is touched."""
    table = get_table()
    check_pin(getattr(table, "pin", "") or "")
    body = json_body()
    name = body.get("game", table.game.name)
    if not isinstance(name, str) or name not in rules.names():
        abort(400, description=f"unknown game {name!r}; known games: {', '.join(rules.names())}")
    players = body.get("players", rules.game_class(name).default_players)
    if isinstance(players, str) and WHOLE_NUMBER.fullmatch(players):
        players = int(players)
    if type(players) is not int:
        abort(400, description=f"players must be a whole number, not {players!r}")
    options = body.get("options", {})
    if isinstance(options, str):  # from a form: a JSON object in one field
        try:
            options = current_app.json.loads(options) if options.strip() else {}
        except ValueError as exc:  # BoundedJSON refuses deep nesting as a ValueError too
            abort(400, description=f"options must be a JSON object: {str(exc)[:120]}")
    if not isinstance(options, dict):
        abort(400, description="options must be a JSON object of house-rule names to values")
    rules.get(name, players=players, options=options)  # RulesError -> 400 naming the problem
    return jsonify(enrich(table, table.new_game(name, players, options)))


@bp.post("/backup")
def backup():
    """The game database as a file to keep (SQLite's online backup). It holds the players'
    secret set-ups and links, so it needs the table PIN; a POST, so a form can send the PIN."""
    table = get_table()
    check_pin(getattr(table, "pin", "") or "")
    maker = getattr(table, "backup_download", None)
    if not callable(maker):
        abort(409, description="this table keeps no game database to download")
    name, data = maker()
    response = Response(data, mimetype="application/vnd.sqlite3")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/calibration/profile")
def save_profile():
    """Save a board profile: the holes of a commercial board clicked on a snapshot.

    {"name", "game", "players"?, "image": {"width", "height"}, "points": [{"space", "x", "y"}]}
    with x, y in snapshot pixels; at least four points, each a space of that game's board.
    """
    table = get_table()
    check_pin(getattr(table, "pin", "") or "")
    body = json_body()
    saver = getattr(table, "save_profile", None)
    name = body.get("name")
    if not isinstance(name, str) or not PROFILE_NAME.match(name):
        abort(400, description="name: 1-60 letters, digits, spaces, '.', '_' or '-'")
    game_name = body.get("game", table.game.name)
    if not isinstance(game_name, str) or game_name not in rules.names():
        abort(400, description=f"unknown game {game_name!r}")
    if game_name == table.game.name:
        game = table.game
    else:
        game = rules.get(game_name)
    image = body.get("image")
    if not isinstance(image, dict) or not all(
        type(image.get(k)) is int and 0 < image[k] <= 10000 for k in ("width", "height")
    ):
        abort(400, description='image must be {"width": px, "height": px}')
    points = body.get("points")
    if not isinstance(points, list) or len(points) < 4:
        abort(400, description="points: click at least four holes")
    seen = set()
    clean = []
    for i, point in enumerate(points):
        if not isinstance(point, dict):
            abort(400, description=f'points[{i}] must be {{"space", "x", "y"}}')
        space = space_arg(game, point.get("space"), f"points[{i}].space")
        x, y = point.get("x"), point.get("y")
        if not all(type(v) in (int, float) for v in (x, y)):
            abort(400, description=f"points[{i}]: x and y must be numbers")
        if not (0 <= x <= image["width"] and 0 <= y <= image["height"]):
            abort(400, description=f"points[{i}] ({x}, {y}) is outside the snapshot")
        if space in seen:
            abort(400, description=f"points[{i}]: {space} was clicked twice")
        seen.add(space)
        clean.append({"space": space, "x": float(x), "y": float(y)})
    if not callable(saver):
        abort(409, description="this referee cannot save board profiles")
    profile = {
        "name": name,
        "game": game.name,
        "board": game.board.name,
        "image": {"width": image["width"], "height": image["height"]},
        "points": clean,
    }
    return jsonify(saved=saver(profile), profile=profile)
