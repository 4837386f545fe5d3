"""The table page at a family's table, in Chromium: rulings drawn on the board in players'
words, ruling and board on one screen (phone and laptop), the live camera inset, the die box.

Screenshots go to test-output/screenshots/ (look at them).
"""

from __future__ import annotations

import pytest

from rules.wording import space_names
from tests.browser_support import PHONE, SHOTS, launched, require_browser
from tests.fake_table import FakeTable
from tests.live_server import served
from tests.test_webui_browser import camera_frame, roll_until_move
from webui import create_app

sync_api = require_browser()

LAPTOP = {"width": 1280, "height": 800}
TV = {"width": 1920, "height": 1080}


@pytest.fixture(scope="module")
def browser():
    yield from launched(sync_api)


def site(game: str = "aggravation", players: int = 4, **options):
    table = FakeTable(game, players=players, seed=11, options=options)
    table._frame = camera_frame(table)
    app = create_app({"SECRET_KEY": "t", "SSE_KEEPALIVE": 0.5, "SSE_MAX_AGE": 30.0}, table=table)
    return table, served(app, threads=12)


def open_page(browser, url: str, viewport: dict, errors: list[str]):
    context = browser.new_context(viewport=viewport, has_touch=viewport is PHONE, bypass_csp=True)
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url + "/")
    page.wait_for_selector('#live[data-state="up"]')
    return context, page


def illegal_from_base(table: FakeTable) -> tuple[str, str, str]:
    """The camera sees a marble taken out of BASE onto a hole it may not go to."""
    snap = roll_until_move(table)
    colour = snap["colours"][snap["actor"]]
    targets = {m.get("to") for m in snap["legal"]}
    bad = next(s for s in ("t30", "t31", "t32", "t33") if s not in targets)
    seen = table.game.placement(table.state)
    base = next(s for s in sorted(seen) if s.startswith(f"{colour}-b"))
    del seen[base]
    seen[bad] = colour
    table.observe(seen)
    return colour, base, bad


def inside(inner: dict, outer: dict) -> bool:
    return (
        inner["y"] >= outer["y"] - 1
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1
        and inner["x"] >= outer["x"] - 1
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1
    )


def whole_board_and_ruling_on_screen(page, viewport: dict) -> None:
    screen = {"x": 0, "y": 0, **viewport}
    banner = page.locator("#banner").bounding_box()
    # every space of the board, not just the svg box: the drawing itself must be visible
    spaces = page.locator("#board circle.space").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {x: r.x, y: r.y, width: r.width, height: r.height}; })"
    )
    assert inside(banner, screen), (banner, viewport)
    lowest = max(s["y"] + s["height"] for s in spaces)
    assert all(inside(s, screen) for s in spaces), (lowest, viewport)


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP, TV], ids=["phone", "laptop", "tv"])
def test_an_illegal_ruling_is_drawn_on_the_board_in_players_words(browser, viewport):
    table, serving = site(opening="first-seat")
    errors: list[str] = []
    with serving as url:
        context, page = open_page(browser, url, viewport, errors)
        colour, base, bad = illegal_from_base(table)
        page.wait_for_function("document.querySelector('#banner').dataset.kind === 'illegal'")
        names = space_names(table.game.board, "aggravation")
        # the attempted move as a red arrow from BASE to where the marble went
        arrow = page.locator("#board .ruling-arrow.illegal")
        assert arrow.get_attribute("data-from") == base and arrow.get_attribute("data-to") == bad
        # the fix on the spaces: take it off where it went, put it back where it came from
        off = page.locator('#board .fix-mark[data-action="off"]')
        back = page.locator('#board .fix-mark[data-action="back"]')
        assert off.get_attribute("data-space") == bad and back.get_attribute("data-space") == base
        assert off.text_content() == "take off" and back.text_content() == "put back"
        # in words players use, not space ids
        assert "hole" in names[bad] and "t3" not in names[bad]
        fix = page.inner_text("#banner .fix")
        assert f"Move your marble from {names[bad]} back to {names[base]}" in fix
        # the rule is folded: its id and title show, its text opens with one tap
        rule = page.locator("#banner details.rule").first
        assert rule.get_attribute("open") is None
        clause = table.snapshot()["ruling"]["clauses"][0]
        assert not page.locator("#banner details.rule p").first.is_visible()
        whole_board_and_ruling_on_screen(page, viewport)
        name = f"30-illegal-on-board-{viewport['width']}x{viewport['height']}"
        page.screenshot(path=str(SHOTS / f"{name}.png"))
        rule.locator("summary").click()
        assert page.locator("#banner details.rule p").first.inner_text() == clause["text"]
        context.close()
    assert not errors, errors


def test_a_legal_move_shows_as_an_arrow_and_labels_name_the_spaces(browser):
    table, serving = site(opening="first-seat")
    errors: list[str] = []
    with serving as url:
        context, page = open_page(browser, url, PHONE, errors)
        snap = roll_until_move(table)
        move = next(m for m in snap["legal"] if m["kind"] == "step")
        table.manual_move(move)
        page.wait_for_function("document.querySelector('#banner').dataset.kind === 'legal'")
        arrow = page.locator("#board .ruling-arrow.legal")
        assert arrow.get_attribute("data-from") == move["frm"]
        assert arrow.get_attribute("data-to") == move["to"]
        names = space_names(table.game.board, "aggravation")
        where = page.inner_text("#banner .where")
        assert where == f"From {names[move['frm']]} to {names[move['to']]}"
        assert page.locator("#board .id-label").count() == 0
        page.click("#labels")
        assert page.locator("#board .id-label").count() == len(table.game.board.spaces)
        page.screenshot(path=str(SHOTS / "31-legal-arrow-labels-phone.png"))
        context.close()
    assert not errors, errors


def test_the_camera_inset_is_live_enlarges_and_says_what_is_circled(browser):
    table, serving = site(opening="first-seat")
    errors: list[str] = []
    with serving as url:
        context, page = open_page(browser, url, LAPTOP, errors)
        page.wait_for_function("document.querySelector('#inset-img').naturalWidth > 0")
        assert page.locator("#inset-img").is_visible()
        first = page.get_attribute("#inset-img", "src")
        page.wait_for_function(  # a fresh snapshot follows by itself
            "s => document.querySelector('#inset-img').getAttribute('src') !== s", arg=first
        )
        table._set_ruling(
            {
                "kind": "unclear",
                "text": "cannot see what is on t05",
                "clauses": [],
                "effects": [],
                "spaces": ["t05"],
                "fix": "",
            }
        )
        page.wait_for_selector("#camera-inset.unsure")
        assert "circled" in page.inner_text("#inset-caption")
        assert page.locator("#board .unclear-mark").count() == 1
        page.click("#inset-open")
        page.wait_for_selector("#camera-big[open]")
        page.wait_for_function("document.querySelector('#camera-big-img').naturalWidth > 0")
        page.screenshot(path=str(SHOTS / "32-camera-enlarged-laptop.png"))
        page.click("#camera-close")
        page.wait_for_selector("#camera-big:not([open])", state="hidden")
        assert page.get_attribute("#camera-big-img", "src") is None  # no more fetching
        context.close()
        # a table with no camera frame says so instead of a broken picture
        table._frame = None
        context, page = open_page(browser, url, PHONE, errors)
        page.wait_for_function(
            "document.querySelector('#inset-off').textContent.includes('No camera image')"
        )
        assert not page.locator("#inset-img").is_visible()
        context.close()
    assert not errors, errors


def test_the_die_box_one_roll_button_and_the_roll_off(browser):
    errors: list[str] = []
    table, serving = site()  # Aggravation's roll-off: everybody rolls once to start
    with serving as url:
        context, page = open_page(browser, url, LAPTOP, errors)
        assert page.locator("#roll:visible").count() == 1  # one roll button on a laptop
        assert page.locator("button:visible", has_text="Roll").count() == 1
        page.click("#roll")
        page.wait_for_function("document.querySelector('#banner').dataset.kind === 'roll'")
        ruling = table.snapshot()["ruling"]
        value = ruling["move"]["value"]
        assert f"rolled {value}" in page.inner_text("#banner")
        assert page.get_attribute("#die", "data-value") == str(value)  # not "–" in a roll-off
        context.close()
    table, serving = site("the-right-moves", players=2)
    with serving as url:
        context, page = open_page(browser, url, LAPTOP, errors)
        assert not page.locator("#die").is_visible()  # no die in The Right Moves
        assert not page.locator("#roll").is_visible()
        page.screenshot(path=str(SHOTS / "33-no-die-the-right-moves.png"))
        context.close()
    assert not errors, errors


def test_a_players_phone_has_a_roll_button_on_its_turn(browser):
    """Playground Battles: "Your turn: roll the die" on blue's phone comes with the button."""
    table = FakeTable("playground-battles", players=2, seed=5, mode="manual")
    app = create_app({"SECRET_KEY": "t", "SSE_KEEPALIVE": 0.5, "SSE_MAX_AGE": 30.0}, table=table)
    errors: list[str] = []
    kinds = ["rock", "paper", "scissors", "rock", "paper", "scissors", "rock", "paper", "rock"]
    with served(app, threads=12) as url:
        red_link, blue_link = table.join_token(0), table.join_token(1)
        for seat, row in ((0, 1), (1, 8)):
            table.seat_assign(
                seat, {f"{c}{row}": k for c, k in zip("abcdefghij", [*kinds, "rock"], strict=True)}
            )
        table.seat_hand(0, "rock")
        table.seat_hand(1, "paper")  # paper beats rock: blue starts
        assert table.state.phase == "roll" and table.state.to_move == 1
        pages = {}
        for colour, link in (("red", red_link), ("blue", blue_link)):
            context = browser.new_context(viewport=PHONE, has_touch=True, bypass_csp=True)
            page = context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{url}/play/{link}")
            page.wait_for_selector('#live[data-state="up"]')
            pages[colour] = (context, page)
        blue, red = pages["blue"][1], pages["red"][1]
        assert "roll the die" in blue.inner_text("#play-status").lower()
        assert blue.locator("#play-roll").is_visible()
        assert not red.locator("#play-roll").is_visible()  # not red's turn
        blue.screenshot(path=str(SHOTS / "34-phone-your-turn-roll.png"))
        blue.click("#play-roll")
        blue.wait_for_function("document.querySelector('#play-roll').hidden")
        assert table.state.phase == "move" and table.rolls_from == ["web"]
        for context, _ in pages.values():
            context.close()
    assert not errors, errors
