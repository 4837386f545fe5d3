"""The table's web page: a Flask app factory with blueprints (pages, JSON API, live events).

`create_app(table=...)` is handed the running referee (anything implementing
`webui.table.Table`); webui never imports device. Serve it with `webui.serve.serve`.
"""

from __future__ import annotations

import logging
import os
import secrets
from typing import Any

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

import rules

from .security import PinGuard, check_csrf, csrf_token
from .table import Table, TableError

log = logging.getLogger(__name__)

JSON_PREFIXES = ("/api/", "/stream.mjpg", "/snapshot.jpg")


def create_app(
    test_config: dict[str, Any] | None = None, table: Table | None = None, coach: Any = None
) -> Flask:
    """The web app for one table. `test_config` overrides settings (SECRET_KEY, ...); `coach`
    (optional) answers /api/coach (see webui.coach)."""
    app = Flask(__name__, instance_relative_config=False)
    from .api import BoundedJSON

    app.json = BoundedJSON(app)
    app.config.from_mapping(
        SECRET_KEY=os.environ.get("BOARDREF_SECRET_KEY") or secrets.token_hex(32),
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        MAX_CONTENT_LENGTH=256 * 1024,
        SSE_KEEPALIVE=15.0,  # seconds between keep-alive comments on /api/events
        SSE_MAX_AGE=600.0,  # a stream ends after this long; the browser reconnects
        SSE_MAX_CLIENTS=24,  # more live streams than this get 503 + retry (threads are finite)
        MJPEG_INTERVAL=0.2,  # seconds between frames of /stream.mjpg
        MJPEG_MAX_AGE=300.0,
        # The address phones use for the players' links (QR codes), e.g. "http://boardref.local:8000";
        # empty: the address the table page was opened at.
        PUBLIC_URL=os.environ.get("BOARDREF_PUBLIC_URL", ""),
    )
    if test_config is not None:
        app.config.from_mapping(test_config)

    app.extensions["boardref.table"] = table
    app.extensions["boardref.coach"] = coach
    app.extensions["boardref.pin_guard"] = PinGuard()

    from . import api, coach, events, pages, play

    app.register_blueprint(pages.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(events.bp)
    app.register_blueprint(coach.bp)

    app.before_request(check_csrf)
    app.jinja_env.globals["csrf_token"] = csrf_token

    @app.after_request
    def security_headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
            "script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
        )
        return response

    def wants_json() -> bool:
        path = request.path
        return (
            path.startswith(JSON_PREFIXES)
            or path == "/api"
            or not request.accept_mimetypes.accept_html
        )

    def error_response(status: int, message: str):
        if wants_json():
            return jsonify(error=message), status
        return render_template("error.html", status=status, message=message), status

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        return error_response(exc.code or 500, exc.description or exc.name)

    @app.errorhandler(TableError)
    def table_error(exc: TableError):
        status = getattr(exc, "status", 409)  # a player link: 404 unknown, 403 not yours
        return error_response(status, str(exc) or "the table refused the request")

    @app.errorhandler(rules.RulesError)
    def rules_error(exc: rules.RulesError):
        return error_response(400, str(exc))

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):  # a bug: say so plainly, never a stack trace
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(500, f"internal error: {type(exc).__name__}")

    return app
