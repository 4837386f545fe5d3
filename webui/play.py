"""The players' own phones, for games with hidden identities (Playground Battles).

At each new game the referee makes one unguessable link per seat. The table page shows each
seat's link as a QR code until a phone opens it: the first browser to open /play/<token>
claims the seat (bound to a random id in its Flask session cookie); afterwards the QR code is
gone and the link works only for that browser, until a new game or a PIN-guarded reset.

A restart changes none of that: the referee keeps the links and claims with the game, and the
appliance hands `create_app` the same SECRET_KEY every start (its key file; webui never reads
it), so each phone's cookie, and with it its claimant id, stays valid. With a random key (the
app factory alone, tests) a restart logs every phone out of its seat.

A seat's page shows only what that seat may know (`game.view(state, seat)`): its own pieces'
identities, never the opponent's. Everything else the web layer sends is public (the
referee's snapshot, rulings and history go through `view(state, None)` and `public_move`).

Routes:
  GET  /play/<token>                    the seat's phone page (claims the seat on first open)
  GET  /api/play/<token>/state          the seat's view
  GET  /api/play/<token>/events         server-sent events: "seat" (the seat's view), "ruling"
  POST /api/play/<token>/setup          {"identities": {square: kind}}  the secret set-up
  POST /api/play/<token>/hand           {"hand": kind}                  opening rock-paper-scissors
  POST /api/play/<token>/keep           {"stay": "rescuer"|"stalemated"} after a rescue
  GET  /seat-qr/<seat>.svg              an unclaimed seat's link as a QR code (404 once claimed)
  POST /api/seats/<seat>/reset          free a seat: a new link               (table PIN)
  POST /api/seats/<seat>/setup          the set-up entered on the table page  (table PIN)
  POST /api/opening                     {"winner": seat} or {"hands": [h, h]} (table PIN)
"""

from __future__ import annotations

import secrets
from typing import Any

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    render_template,
    request,
    session,
)

from .api import get_table, json_body
from .events import live_stream, sse
from .security import check_pin

bp = Blueprint("play", __name__)

CLAIM_KEY = "player_id"
KINDS = ("rock", "paper", "scissors")


def _seat_table():
    table = get_table()
    if not getattr(table, "secret", False) or not callable(getattr(table, "seat_of", None)):
        abort(404, description="the game in progress has no player links")
    return table


def _claimant() -> str:
    value = session.get(CLAIM_KEY)
    if not isinstance(value, str) or len(value) < 20:
        value = secrets.token_urlsafe(24)
        session[CLAIM_KEY] = value
    return value


def _seat(token: str) -> int:
    """The seat this browser holds through `token`; 404/403 otherwise."""
    table = _seat_table()
    return table.seat_claimed_by(token, session.get(CLAIM_KEY))


def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/play/<token>")
def play_page(token: str):
    table = _seat_table()
    seat = table.claim_seat(token, _claimant())
    boot = {"page": "play", "token": token, "seat": table.seat_state(seat)}
    colour = table.game.colours[seat]
    html = render_template("play.html", boot=boot, title=f"{colour.title()}'s pieces", seat=seat)
    return _no_store(Response(html, mimetype="text/html"))


@bp.get("/api/play/<token>/state")
def play_state(token: str):
    seat = _seat(token)
    return _no_store(jsonify(get_table().seat_state(seat)))


@bp.post("/api/play/<token>/setup")
def play_setup(token: str):
    seat = _seat(token)
    body = json_body()
    return _no_store(jsonify(get_table().seat_assign(seat, body.get("identities"), "phone")))


@bp.post("/api/play/<token>/hand")
def play_hand(token: str):
    seat = _seat(token)
    return _no_store(jsonify(get_table().seat_hand(seat, json_body().get("hand"))))


@bp.post("/api/play/<token>/keep")
def play_keep(token: str):
    seat = _seat(token)
    return _no_store(jsonify(get_table().seat_keep(seat, json_body().get("stay"))))


@bp.get("/api/play/<token>/events")
def play_events(token: str):
    """The seat's live view: a "seat" event after every change, and the public "ruling"."""
    seat = _seat(token)
    table = get_table()

    def on_event(kind: str, payload: Any) -> tuple[str | None, bool]:
        if table.seat_of(token) != seat:  # a new game or a reset: this link is over
            return sse("gone", {"error": "this player link is no longer valid"}), True
        if kind == "state":
            return sse("seat", table.seat_state(seat)), False
        if kind == "ruling":
            return sse("ruling", payload), False
        return None, False

    response = live_stream(
        ": boardref player\nretry: 3000\n\n", lambda: sse("seat", table.seat_state(seat)), on_event
    )
    return _no_store(response)


# --- the table page's side: QR codes, fallback entry, opening result, reset -------------------


@bp.get("/seat-qr/<int:seat>.svg")
def seat_qr(seat: int):
    table = _seat_table()
    token = table.join_token(seat)
    if token is None:
        abort(404, description="this seat has joined already (or there is no such seat)")
    root = current_app.config.get("PUBLIC_URL") or request.host_url
    url = root.rstrip("/") + f"/play/{token}"
    body = segno.make(url, error="m").svg_inline(scale=5, dark="#10161c", light="#ffffff")
    body = body.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    return _no_store(Response(body, mimetype="image/svg+xml"))


def _seat_number(table: Any, seat: int) -> int:
    if not 0 <= seat < len(table.game.colours):
        abort(404, description=f"there is no seat {seat} in this game")
    return seat


@bp.post("/api/seats/<int:seat>/reset")
def seat_reset(seat: int):
    table = _seat_table()
    check_pin(getattr(table, "pin", "") or "")
    table.reset_seat(_seat_number(table, seat))
    return jsonify(ok=True, seats=table.snapshot().get("seats", []))


@bp.post("/api/seats/<int:seat>/setup")
def seat_setup(seat: int):
    """The set-up of a player without a phone, entered on the table page (the other looks
    away). Answers only whether it was accepted: the identities are never sent back."""
    table = _seat_table()
    check_pin(getattr(table, "pin", "") or "")
    table.seat_assign(_seat_number(table, seat), json_body().get("identities"), "table")
    return jsonify(ok=True, seats=table.snapshot().get("seats", []))


@bp.post("/api/opening")
def opening():
    """The opening rock-paper-scissors entered on the table page: who won, or both hands."""
    table = _seat_table()
    check_pin(getattr(table, "pin", "") or "")
    body = json_body()
    game = table.game
    if "winner" in body:
        winner = body["winner"]
        if isinstance(winner, str) and winner in game.colours:
            winner = game.colours.index(winner)
        if type(winner) is not int or not 0 <= winner < len(game.colours):
            abort(400, description="winner must be a seat number or a colour")
        move = {"kind": "pb-first", "player": winner, "colour": game.colours[winner]}
    elif "hands" in body:
        hands = body["hands"]
        if not isinstance(hands, list) or len(hands) != 2 or not all(h in KINDS for h in hands):
            abort(400, description="hands must be [red's hand, blue's hand], each a kind")
        a, b = (KINDS.index(h) for h in hands)
        winner = 0 if a == b or (a - b) % 3 == 1 else 1
        move = {
            "kind": "pb-opening",
            "player": winner,
            "colour": game.colours[winner],
            "hands": hands,
        }
    else:
        abort(400, description='send {"winner": seat} or {"hands": [hand, hand]}')
    if table.snapshot().get("phase") != "opening":
        abort(409, description="the opening rock-paper-scissors is not being played now")
    ruling = table.manual_move(move)
    return jsonify(ruling=ruling)
