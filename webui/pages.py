"""HTML pages: the live table, teach pages, history, camera and setup.

Pages are plain server-rendered HTML with the data they start from embedded as JSON; the
little JavaScript in static/app.js draws the board and keeps it live from /api/events.
"""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, url_for

import rules

from .api import board_json, enrich, get_table

bp = Blueprint("pages", __name__)


def _boot(page: str) -> dict:
    table = get_table()
    return {
        "page": page,
        "board": board_json(table.game),
        "state": enrich(table, table.snapshot()),
    }


@bp.get("/")
def live_table():
    boot = _boot("table")
    return render_template("table.html", boot=boot, title=boot["board"]["title"])


@bp.get("/history")
def history():
    boot = _boot("history")
    table = get_table()
    boot["history"] = table.history()
    game = table.game
    start = game.initial_state()
    boot["initial"] = {
        "placement": game.placement(start),
        "to_move": start.to_move,
        "phase": start.phase,
    }
    return render_template("history.html", boot=boot, title="History")


@bp.get("/camera")
def camera():
    table = get_table()
    return render_template(
        "camera.html", boot={"page": "camera", "status": table.status()}, title="Camera"
    )


@bp.get("/setup")
def setup():
    table = get_table()
    games = []
    for name in rules.names():
        cls = rules.game_class(name)
        data = cls(cls.default_players).describe()
        data["default_players"] = cls.default_players
        games.append(data)
    current = table.game
    boot = {
        "page": "setup",
        "games": games,
        "current": {
            "game": current.name,
            "players": current.players,
            "options": dict(current.options),
        },
        "status": table.status(),
        "board": board_json(current),
        "pin_required": bool(getattr(table, "pin", "")),
        "mode": table.snapshot().get("mode", "camera"),
        "can_save_profiles": callable(getattr(table, "save_profile", None)),
    }
    return render_template("setup.html", boot=boot, title="Setup")


@bp.get("/teach")
def teach_current():
    return redirect(url_for("pages.teach", game=get_table().game.name))


@bp.get("/teach/<game>")
def teach(game: str):
    """A game's clauses, interpretations and house-rule options in plain words."""
    if game not in rules.names():
        abort(404, description=f"unknown game {game!r}; known games: {', '.join(rules.names())}")
    cls = rules.game_class(game)
    table = get_table() if _has_table() else None
    if table is not None and table.game.name == game:
        described = table.game.describe()
    else:
        described = cls(cls.default_players).describe()
    by_option = {o["name"]: o for o in described["option_specs"]}
    return render_template(
        "teach.html",
        game=described,
        rules_clauses=[c for c in described["clauses"] if not c["interpretation"]],
        interpretations=[c for c in described["clauses"] if c["interpretation"]],
        options=by_option,
        games=[(n, rules.game_class(n).title) for n in rules.names()],
        title=f"{described['title']}: the rules",
    )


def _has_table() -> bool:
    from flask import current_app

    return current_app.extensions.get("boardref.table") is not None
