"""The coach in Chromium: the teach page lists the moves by winning chance, the history page
draws each player's winning chance as an SVG chart (static/coach.js, nothing from the web)."""

from __future__ import annotations

import re

import pytest

from device.coach_runner import CoachRunner, CoachSettings
from tests.browser_support import (
    SHOTS,
    count_handled_answers,
    handled,
    launched,
    require_browser,
)
from tests.fake_table import FakeTable
from tests.live_server import served
from tests.test_coach import _to_choice
from webui import create_app

sync_api = require_browser()


@pytest.fixture(scope="module")
def browser():
    yield from launched(sync_api)


def test_teach_page_ranks_the_moves_and_history_plots_the_chances(browser):
    table = FakeTable(game="manji", players=2, options={"opening": "first-seat"}, mode="manual")
    _to_choice(table)
    runner = CoachRunner(table, CoachSettings(budget_s=0.3, seed=2, poll_s=0.02))
    app = create_app({"SECRET_KEY": "coach-browser"}, table=table, coach=runner)
    errors: list[str] = []
    requests: list[str] = []
    try:
        with served(app) as url:
            page = browser.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("request", lambda r: requests.append(r.url))
            page.goto(f"{url}/teach/manji")
            page.wait_for_selector("#coach-moves li", timeout=60_000)
            items = page.locator("#coach-moves li")
            assert items.count() == len(runner.latest()["ranking"]["moves"]) >= 2
            assert "%" in items.first.inner_text() and page.locator(".coach-best").count() == 1
            assert "to move" in page.locator("#coach-status").inner_text()
            page.screenshot(path=str(SHOTS / "coach-teach.png"), full_page=True)
            page.goto(f"{url}/history")
            # one line per player, through the positions since the start (locators, not a
            # JavaScript string: the page's policy forbids evaluating one, and waiting for
            # a string predicate that is not true at once evaluates it again)
            lines = page.locator("#win-chart polyline")
            sync_api.expect(lines).to_have_count(2, timeout=60_000)
            three_points = re.compile(r"^\S+( \S+){2,}$")
            sync_api.expect(lines.first).to_have_attribute("points", three_points, timeout=60_000)
            assert "Winning chance now" in page.locator("#win-chart figcaption").inner_text()
            page.screenshot(path=str(SHOTS / "coach-history.png"), full_page=True)
            page.close()
    finally:
        runner.close()
    assert errors == []
    assert all(r.startswith(url) for r in requests)  # nothing loaded from elsewhere


def test_a_slow_thinking_answer_does_not_replace_the_ranking_shown(browser):
    """The teach page asks the coach every 1.5 s; on a busy table an early answer ("thinking")
    can come after a later one (the ranking). The ranking shown must stay."""
    table = FakeTable(game="manji", players=2, options={"opening": "first-seat"}, mode="manual")
    _to_choice(table)
    runner = CoachRunner(table, CoachSettings(budget_s=0.3, seed=2, poll_s=0.02))
    app = create_app({"SECRET_KEY": "coach-browser"}, table=table, coach=runner)
    errors: list[str] = []
    held: list = []  # the first question, answered last
    passed = [0]  # the questions let through while the first is held
    letting_through = [True]

    def on_coach(route) -> None:
        if held and letting_through[0]:
            passed[0] += 1
            route.continue_()
        else:
            held.append(route)

    try:
        with served(app) as url:
            context = browser.new_context(bypass_csp=True)  # to wait on the page's counts
            page = context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            count_handled_answers(page)
            page.route(re.compile(r"/api/coach$"), on_coach)
            page.goto(f"{url}/teach/manji")
            page.wait_for_selector("#coach-moves li", timeout=60_000)
            letting_through[0] = False  # from now on every question waits, unanswered
            handled(page, "/api/coach", passed[0])  # the answers let through are all shown
            ranking = page.locator("#coach-moves li").all_inner_texts()
            assert "to move" in page.locator("#coach-status").inner_text()
            thinking = {"game": "manji", "judgement": None, "status": "thinking"}
            held[0].fulfill(json=thinking | {"ranking": None, "moves": None})
            handled(page, "/api/coach", passed[0] + 1)  # the late answer has been dealt with
            assert "to move" in page.locator("#coach-status").inner_text()
            assert page.locator("#coach-moves li").all_inner_texts() == ranking
            page.unroute(re.compile(r"/api/coach$"))
            context.close()
    finally:
        runner.close()
    assert errors == []
