"""The coach's JSON for the teach and history pages (GET only; the coach runs elsewhere).

The coach object is handed in through `create_app(coach=...)`: anything with `latest(seat)`
and `chances()` returning JSON-able dicts (device.coach_runner.CoachRunner). Without one the
answers say the coach is off. A player's phone (Playground Battles' secret links) gets its own
ranking, made from what that player may know; the public one hides every hidden piece.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

bp = Blueprint("coach", __name__)


def _coach():
    return current_app.extensions.get("boardref.coach")


@bp.get("/api/coach")
def coach_latest():
    """The ranking of the position now: {"status": "off"|"thinking"|"ready"|"nothing",
    "ranking": {...} or null, "judgement": the last move played against the ranking}."""
    coach = _coach()
    if coach is None:
        return jsonify(status="off", ranking=None, judgement=None)
    return jsonify(coach.latest())


@bp.get("/api/play/<token>/coach")
def coach_for_seat(token: str):
    """The ranking for one player's own phone (its secret link, claimed by this browser):
    from what that player may know, their own hidden pieces included; only on their turn."""
    from .play import _no_store, _seat

    seat = _seat(token)  # 404 for an unknown link, 403 for another browser's
    coach = _coach()
    if coach is None:
        return _no_store(jsonify(status="off", ranking=None, judgement=None))
    return _no_store(jsonify(coach.latest(seat)))


@bp.get("/api/coach/chances")
def coach_chances():
    """Each seat's winning chance over the game: {"colours", "points": [{"n", "chances"}]}."""
    coach = _coach()
    if coach is None:
        return jsonify(status="off", colours=[], points=[], pending=0)
    return jsonify(status="on", **coach.chances())
