"""Playground Battles in Chromium: two phones (two browser contexts) join through their own
links, enter their set-ups and the opening, and each sees only its own pieces; the table page
shows the QR codes, the private fallback entry and the battle reveal.

Screenshots go to test-output/screenshots/pb-*.png.
"""

from __future__ import annotations

import random
import re

import pytest

from rules import Step
from tests.browser_support import (
    PHONE,
    SHOTS,
    animations_done,
    count_handled_answers,
    handled,
    launched,
    require_browser,
)
from tests.conftest import PIN
from tests.fake_table import FakeTable
from tests.live_server import served
from webui import create_app

KINDS = ("rock", "paper", "scissors")
RED = ["rock", "paper", "scissors", "rock", "paper", "scissors", "rock", "paper", "rock", "rock"]
BLUE = ["scissors", "scissors", "rock", "paper", "rock", "paper", "paper", "rock", "rock", "paper"]


sync_api = require_browser()


@pytest.fixture
def site():
    table = FakeTable(game="playground-battles", players=2, seed=5, pin=PIN, mode="manual")
    app = create_app(
        {"SECRET_KEY": "pb-browser", "SSE_KEEPALIVE": 0.5, "SSE_MAX_AGE": 30.0}, table=table
    )
    with served(app, threads=16) as url:
        yield table, url


@pytest.fixture(scope="module")
def browser():
    yield from launched(sync_api)


def new_page(browser, viewport, errors):
    context = browser.new_context(
        viewport=viewport, device_scale_factor=2, has_touch=True, bypass_csp=True
    )
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page


def shot(page, name: str, full: bool = True) -> None:
    page.screenshot(path=str(SHOTS / f"pb-{name}.png"), full_page=full)


def choose(page, row: int, kinds: list[str], start: str | None = None) -> None:
    """Tap each back-row square until it shows the wanted kind (taps cycle R -> P -> S)."""
    for col, kind in zip("abcdefghij", kinds, strict=True):
        now = page.locator(f'.setup-piece[data-square="{col}{row}"]').get_attribute("data-kind")
        taps = (KINDS.index(kind) - (KINDS.index(now) if now else -1)) % 3 or (0 if now else 3)
        for _ in range(taps):
            page.click(f'.setup-piece[data-square="{col}{row}"]')


def test_two_phones_join_set_up_and_see_only_their_own_pieces(site, browser):
    table, base = site
    errors: list[str] = []
    tctx, tpage = new_page(browser, {"width": 1280, "height": 900}, errors)
    tpage.goto(base + "/")
    tpage.wait_for_selector("#seats .qr")
    assert tpage.locator("#seats .qr").count() == 2
    assert "Red: scan to join" in tpage.inner_text("#seats")
    shot(tpage, "table-join")
    links = [seat.token for seat in table.seats]

    rctx, red = new_page(browser, PHONE, errors)
    bctx, blue = new_page(browser, PHONE, errors)
    red.goto(f"{base}/play/{links[0]}")
    blue.goto(f"{base}/play/{links[1]}")
    red.wait_for_selector(".setup-piece")
    tpage.wait_for_function("document.querySelectorAll('#seats .qr').length === 0")
    assert "Red's phone" in tpage.inner_text("#seats")

    choose(red, 1, RED)
    assert "10 of 10 chosen" in red.inner_text("#play-setup")
    shot(red, "phone-red-setup")
    red.click("#play-setup .btn.primary")
    red.wait_for_selector("#play-setup", state="hidden")

    blue.wait_for_selector(".setup-piece")
    choose(blue, 8, ["rock"] * 10)  # a mistake: the rules core's message is shown
    blue.click("#play-setup .btn.primary")
    blue.wait_for_selector("#play-setup .form-error:not(:empty)")
    assert "at least one of each kind" in blue.inner_text("#play-setup .form-error")
    shot(blue, "phone-blue-setup-error")
    choose(blue, 8, BLUE)
    blue.click("#play-setup .btn.primary")
    blue.wait_for_selector("#play-opening .hand")

    # the opening: a tie, thrown again, then red's rock beats blue's scissors
    red.wait_for_selector("#play-opening .hand")
    tpage.wait_for_selector("#seats .opening-box")
    shot(tpage, "table-opening")
    red.click('#play-opening [data-hand="paper"]')
    red.wait_for_selector("#play-opening .kind-badge")
    shot(red, "phone-red-waiting-opening")
    blue.click('#play-opening [data-hand="paper"]')
    red.wait_for_selector('#play-opening [data-hand="rock"]')
    red.click('#play-opening [data-hand="rock"]')
    blue.wait_for_selector('#play-opening [data-hand="scissors"]')
    blue.click('#play-opening [data-hand="scissors"]')
    red.wait_for_function("document.getElementById('play-status').textContent.includes('roll')")
    assert table.state.phase == "roll" and table.state.to_move == 0

    # each phone lists its own ten pieces with their kinds, and nothing of the other's
    for page, row, kinds, other in ((red, "1", RED, "8"), (blue, "8", BLUE, "1")):
        items = page.locator("#piece-list li")
        assert items.count() == 10
        shown = {
            items.nth(i).get_attribute("data-space"): items.nth(i).get_attribute("data-identity")
            for i in range(10)
        }
        assert shown == {f"{c}{row}": k for c, k in zip("abcdefghij", kinds, strict=True)}
        html = page.content()
        assert not re.search(rf'"[a-j]{other}"\s*[,:]\s*"(rock|paper|scissors)"', html)
        letters = page.locator(f'.token[data-space$="{other}"] .token-letter')
        assert {letters.nth(i).text_content() for i in range(letters.count())} == {"?"}
    shot(red, "phone-red-play")
    shot(blue, "phone-blue-play")
    tpage.wait_for_function("!document.querySelector('#seats .opening-box')")
    shot(tpage, "table-play")

    # play until a battle is decided: the reveal on the table page and on the phones
    rng = random.Random(2)
    battle = play_until(table, rng, ("won", "lost"))["battle"]
    # that battle's reveal, the first won or lost: a page still behind may show an earlier
    # battle's (a stalemate, a rescue), which must not pass for it
    reveal = f'.banner .reveal[data-result="{battle["result"]}"]'
    tpage.wait_for_selector(reveal)
    animations_done(tpage, ".banner")  # the cards' flip
    assert tpage.inner_text(".banner .verdict") == "Battle"
    assert "beats" in tpage.inner_text(".banner .reveal")
    shot(tpage, "table-battle")
    red.wait_for_selector(reveal)
    animations_done(red, ".banner")
    shot(red, "phone-red-battle")
    ruling = play_until(table, rng, ("stalemate",))
    if ruling.get("battle"):  # a stalemate: announced as such, both kinds stay hidden
        tpage.wait_for_selector('.banner .reveal[data-result="stalemate"]')
        animations_done(tpage, ".banner")
        assert "both stay hidden" in tpage.inner_text(".banner .reveal")
        assert tpage.locator(".banner .reveal .hidden-card").count() == 2
        shot(tpage, "table-stalemate")
        red.wait_for_selector('.banner .reveal[data-result="stalemate"]')
        shot(red, "phone-red-stalemate")
    tpage.goto(base + "/history")
    tpage.wait_for_selector("#board .token")
    html = tpage.content()
    assert not re.search(r'"[a-j][18]"\s*[,:]\s*"(rock|paper|scissors)"', html)
    animations_done(tpage, ".banner")
    shot(tpage, "history")
    for ctx in (tctx, rctx, bctx):
        ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def play_until(table, rng, results: tuple[str, ...]) -> dict:
    """Play on (attacks first) until a battle with one of `results`; its ruling, or {}."""
    game = table.game
    for _ in range(800):
        state = table.state
        if state.phase == "roll":
            table.roll("button")
            continue
        if state.phase == "over":
            return {}
        legal = game.legal_moves(state)
        steps = [m for m in legal if isinstance(m, Step)]
        if not steps:
            table.manual_move(legal[0].to_json())
            continue
        placement = game.placement(state)
        mover = game.colours[state.actor]
        attacks = [m for m in steps if placement.get(m.to) not in (None, mover)]
        quiet = [m for m in steps if not m.to.endswith("base")] or steps
        ruling = table.manual_move(rng.choice(attacks or quiet).to_json())
        if ruling.get("battle") and ruling["battle"]["result"] in results:
            return ruling
    return {}


def test_fallback_entry_on_the_table_page_and_the_opening_result(site, browser):
    table, base = site
    errors: list[str] = []
    ctx, page = new_page(browser, PHONE, errors)
    page.goto(base + "/")
    page.click('[data-enter="1"]')
    page.fill("#pin-input", PIN)
    page.click('#pin-form button[type="submit"]')
    page.wait_for_selector("#private-entry .setup-piece")
    choose(page, 8, BLUE)
    shot(page, "table-private-entry", full=False)  # what the screen shows: only the entry
    page.click("#private-entry .btn.primary")
    page.wait_for_selector("#private-entry", state="hidden")
    assert page.locator("#private-entry .setup-piece").count() == 0  # nothing left behind
    assert table.state.pieces[1][0][1] != -1
    page.wait_for_function("document.querySelector('#seats').innerText.includes('entered')")
    assert "scissors" not in page.content()
    table.seat_assign(0, {f"{c}1": k for c, k in zip("abcdefghij", RED, strict=True)})
    page.wait_for_selector('[data-winner="1"]')
    page.click('[data-winner="1"]')
    page.wait_for_function("!document.querySelector('[data-winner]')")
    assert table.state.phase == "roll" and table.state.to_move == 1
    shot(page, "table-after-opening")
    ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_a_phones_late_answer_does_not_take_it_back_to_the_opening(site, browser):
    """Red throws rock; the answer ("waiting for the other player") comes only after blue's
    scissors decided the opening and red's phone was told it is its turn: the phone must stay
    on red's turn, not go back to waiting in the opening."""
    table, base = site
    for seat, row, kinds in ((0, 1, RED), (1, 8, BLUE)):
        table.seat_assign(seat, {f"{c}{row}": k for c, k in zip("abcdefghij", kinds, strict=True)})
    assert table.state.phase == "opening"
    errors: list[str] = []
    links = [seat.token for seat in table.seats]
    phones = {}
    for colour, link in zip(("red", "blue"), links, strict=True):
        ctx, page = new_page(browser, PHONE, errors)
        count_handled_answers(page)
        page.goto(f"{base}/play/{link}")
        page.wait_for_selector('#live[data-state="up"]')
        phones[colour] = (ctx, page)
    red, blue = phones["red"][1], phones["blue"][1]
    held = []  # red's answer, as the server gave it, passed on at the end

    def hold(route) -> None:
        held.append((route, route.fetch()))

    red.route("**/hand", hold)
    red.click('#play-opening [data-hand="rock"]')
    red.wait_for_selector("#play-opening .kind-badge")  # told live: the server has red's rock
    blue.click('#play-opening [data-hand="scissors"]')
    red.locator("#play-status", has_text="Your turn: roll the die.").wait_for()
    assert table.state.phase == "roll" and held
    route, answer = held[0]
    route.fulfill(response=answer)
    handled(red, f"/api/play/{links[0]}/hand")
    assert red.inner_text("#play-status") == "Your turn: roll the die."
    assert red.locator("#play-opening").is_hidden()
    assert red.locator("#play-roll").is_visible()
    for ctx, _ in phones.values():
        ctx.close()
    assert not errors, f"JavaScript errors: {errors}"
