"""What the browser tests share: Debian's Chromium and how to launch it (the app they talk to
is served by `tests.live_server`).

Playwright's own browser download is never used; without Chromium the browser tests skip
with a written reason (.ci/run installs it with apt).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("BOARDREF_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parent.parent / "test-output" / "screenshots"
PHONE = {"width": 390, "height": 844}


def require_browser():
    """playwright.sync_api, or skip the calling test module with the reason."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not Path(CHROMIUM).exists():
        pytest.skip(
            f"Chromium not found at {CHROMIUM}: install Debian's chromium "
            "(apt-get install chromium); .ci/run does this",
            allow_module_level=True,
        )
    return sync_api


def launched(sync_api) -> Iterator:
    """A headless Chromium for a module's tests (use as a generator fixture body)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


def count_handled_answers(page) -> None:
    """From the next page load on, `window.__handled[path]` counts the JSON answers from `path`
    that the page has read and acted on: the count goes up in a timer set when the answer's
    JSON is read, and so after every step the page takes on it without asking the server again.
    A test that holds an answer back waits for this count to see that a late answer was dealt
    with (and, say, ignored), instead of waiting for a while."""
    page.add_init_script(
        """(() => {
  const json = Response.prototype.json;
  window.__handled = {};
  Response.prototype.json = function () {
    const read = json.call(this);
    const path = new URL(this.url).pathname;
    const count = () => { window.__handled[path] = (window.__handled[path] || 0) + 1; };
    read.then(() => setTimeout(count), () => setTimeout(count));
    return read;
  };
})();"""
    )


def handled(page, path: str, at_least: int = 1) -> None:
    """Wait until the page has dealt with `at_least` answers from `path` (see above)."""
    page.wait_for_function(
        "([path, n]) => (window.__handled[path] || 0) >= n", arg=[path, at_least]
    )


def note_live_events(page) -> None:
    """From the next page load on, `window.__lastEvent[type]` is the data of the last live
    event of that type the page has received (and begun to handle): a test can wait until the
    page has been told of a change whose effects it does not show yet."""
    page.add_init_script(
        """(() => {
  const add = EventSource.prototype.addEventListener;
  window.__lastEvent = {};
  EventSource.prototype.addEventListener = function (type, listener, options) {
    const noted = function (ev) {
      try { return listener.call(this, ev); } finally { window.__lastEvent[type] = ev.data; }
    };
    return add.call(this, type, noted, options);
  };
})();"""
    )


def animations_done(page, selector: str) -> None:
    """Wait until the CSS animations in `selector` (a card's flip) have run, for a screenshot
    that shows the end of them; checks nothing."""
    page.locator(selector).first.evaluate(
        "e => Promise.all(e.getAnimations({ subtree: true })"
        ".map((a) => a.finished.catch(() => null)))"
    )


def hold_live_events(page) -> None:
    """From the next page load on, while `window.__holdEvents` is true the live events the
    page receives wait, in order, in `window.__heldEvents` ([listener, source, event]) until
    `window.__releaseEvents()` hands them all to the page: a test makes the answer to the
    page's own request arrive before the live events of the same change, as a slow stream
    does, without waiting for a while."""
    page.add_init_script(
        """(() => {
  const add = EventSource.prototype.addEventListener;
  window.__holdEvents = false;
  window.__heldEvents = [];
  window.__releaseEvents = () => {
    window.__holdEvents = false;
    for (const [listener, source, ev] of window.__heldEvents.splice(0)) listener.call(source, ev);
  };
  EventSource.prototype.addEventListener = function (type, listener, options) {
    const held = function (ev) {
      const live = type === "open" || type === "error";
      if (!window.__holdEvents || live) return listener.call(this, ev);
      window.__heldEvents.push([listener, this, ev]);
    };
    return add.call(this, type, held, options);
  };
})();"""
    )


def record_turn_lines(page) -> None:
    """From the next page load on, `window.__turnLines` lists the text of every turn line the
    table page draws after it loaded ("Blue" + "to roll the die"), in order: taken from the
    mutation records, so a line replaced at once by the next is listed too."""
    page.add_init_script(
        """(() => {
  window.__turnLines = [];
  document.addEventListener("DOMContentLoaded", () => {
    const turn = document.getElementById("turn");
    if (!turn) return;
    new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.addedNodes) {
          if (n instanceof HTMLElement) window.__turnLines.push(n.textContent);  // not the chip
        }
      }
    }).observe(turn, { childList: true });
  });
})();"""
    )
