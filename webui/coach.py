"""The coach's JSON for the teach and history pages (GET only; the coach runs elsewhere).

The coach object is handed in through `create_app(coach=...)`: anything with `latest()` and
`chances()` returning JSON-able dicts (device.coach_runner.CoachRunner). Without one the
answers say the coach is off.
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


@bp.get("/api/coach/chances")
def coach_chances():
    """Each seat's winning chance over the game: {"colours", "points": [{"n", "chances"}]}."""
    coach = _coach()
    if coach is None:
        return jsonify(status="off", colours=[], points=[], pending=0)
    return jsonify(status="on", **coach.chances())
