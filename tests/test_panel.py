"""The GPIO panel on gpiozero's MockFactory: LED and buzzer pins, buttons, patterns, lifetime."""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections import Counter

import pytest
from gpiozero import LED, Device
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hypothesis import given
from hypothesis import strategies as st

from hardware.dice_rng import roll_die
from hardware.panel import PATTERNS, Panel, PanelClosed, PanelConfig, default_pin_factory

TEMPO = 0.05  # every pattern runs at 1/20 speed-up


def wait_until(predicate, timeout=2.0, interval=0.002):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()


def sounded(pin) -> list[float]:
    """Non-zero states the buzzer pin went through (its recorded history)."""
    return [s.state for s in pin.states if s.state]


@pytest.fixture
def factory():
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.close()


@pytest.fixture
def panel(factory):
    p = Panel(PanelConfig(tempo=TEMPO, bounce_time=0.02), pin_factory=factory)
    yield p
    p.close()


def lit(factory, pin) -> bool:
    return bool(factory.pin(pin).state)


# -- pin factory choice --------------------------------------------------------------------------


def test_default_pin_factory_falls_back_to_mock_off_the_pi(monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(
        Device, "_default_pin_factory", staticmethod(lambda: (_ for _ in ()).throw(OSError("x")))
    )
    f, reason = default_pin_factory()
    try:
        assert isinstance(f, MockFactory)
        assert f.pin_class is MockPWMPin
        assert "no real GPIO" in reason
    finally:
        f.close()


def test_default_pin_factory_honours_env_mock(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.delenv("GPIOZERO_MOCK_PIN_CLASS", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    f, reason = default_pin_factory()
    try:
        assert isinstance(f, MockFactory) and f.pin_class is MockPWMPin
        assert "GPIOZERO_PIN_FACTORY=mock" in reason
    finally:
        f.close()


def test_default_pin_factory_prefers_one_already_set(monkeypatch, factory):
    monkeypatch.setattr(Device, "pin_factory", factory)
    f, reason = default_pin_factory()
    assert f is factory
    assert "already set" in reason


def test_panel_without_factory_runs_simulated(monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    with Panel(PanelConfig(tempo=TEMPO)) as p:
        assert p.simulated
        assert p.status()["simulated"] is True
        p.show_illegal()
        assert p.pin_factory.pin(22).state


# -- LEDs and buzzer -----------------------------------------------------------------------------


def test_legal_lights_green_chirps_then_goes_out(panel, factory):
    panel.show_legal()
    assert lit(factory, 17) and not lit(factory, 27) and not lit(factory, 22)
    st_ = panel.status()
    assert st_["green"] and not st_["amber"] and not st_["red"] and st_["pattern"] == "legal"
    assert wait_until(lambda: len(sounded(factory.pin(18))) >= 2)  # two chirp notes
    assert wait_until(lambda: panel.status()["pattern"] is None)
    assert not lit(factory, 17)
    assert factory.pin(18).state == 0
    assert panel.status()["buzzer"] is None


def test_illegal_is_held_until_clear(panel, factory):
    panel.show_illegal()
    assert lit(factory, 22) and not lit(factory, 17)
    buzzer = factory.pin(18)
    # The low pattern is three tones; wait until all played and the buzzer fell silent.
    assert wait_until(lambda: len(sounded(buzzer)) == 3 and buzzer.state == 0)
    time.sleep(0.1)  # well past the pattern's length at this tempo: still held
    assert lit(factory, 22)
    assert panel.status()["red"] and panel.status()["pattern"] == "illegal"
    panel.clear()
    assert not lit(factory, 22)
    assert panel.status() == {
        "green": False,
        "amber": False,
        "red": False,
        "buzzer": None,
        "pattern": None,
        "muted": False,
        "simulated": True,
    }


def test_low_tone_is_low_and_chirp_is_high(factory):
    with Panel(PanelConfig(tempo=1.0), pin_factory=factory) as p:
        buzzer = factory.pin(18)
        p.show_illegal()
        assert wait_until(lambda: buzzer.frequency is not None)
        low = buzzer.frequency
        assert p.status()["buzzer"] == "low"
        p.show_legal()  # interrupts the illegal pattern at once
        assert wait_until(lambda: buzzer.frequency not in (None, low))
        assert p.status()["buzzer"] == "chirp"
        assert buzzer.frequency > 1000 > 300 > low


def test_another_show_replaces_held_illegal(panel, factory):
    panel.show_illegal()
    panel.show_unclear()
    assert not lit(factory, 22)
    assert panel.status()["pattern"] == "unclear"


def test_unclear_blinks_amber_until_cleared(panel, factory):
    amber = factory.pin(27)
    panel.show_unclear()
    assert wait_until(lambda: len(amber.states) >= 6)  # on/off several times
    assert panel.status()["pattern"] == "unclear"
    assert sounded(factory.pin(18)) == []  # silent
    panel.clear()
    assert not lit(factory, 27)
    n = len(amber.states)
    time.sleep(0.08)
    assert len(amber.states) == n  # the blinking stopped


def test_win_plays_a_tune_and_holds_green(panel, factory):
    panel.show_win()
    assert wait_until(lambda: len(sounded(factory.pin(18))) >= 5)
    assert wait_until(lambda: factory.pin(18).state == 0 and lit(factory, 17))
    time.sleep(0.05)
    assert panel.status()["pattern"] == "win"
    assert lit(factory, 17) and not lit(factory, 22)


def test_rolling_animation_visits_every_led_and_ends_dark(panel, factory):
    panel.show_rolling()
    assert wait_until(lambda: panel.status()["pattern"] is None)
    for pin in (17, 27, 22):
        assert any(s.state for s in factory.pin(pin).states), pin
        assert not lit(factory, pin)


def test_extra_turn_blinks_green(panel, factory):
    panel.show_extra_turn()
    assert wait_until(lambda: panel.status()["pattern"] is None)
    assert sum(1 for s in factory.pin(17).states if s.state) >= 3
    assert sounded(factory.pin(18))


def test_show_by_name_and_unknown_name(panel, factory):
    panel.show("illegal")
    assert lit(factory, 22)
    with pytest.raises(ValueError, match="bogus"):
        panel.show("bogus")
    assert set(PATTERNS) == {"legal", "illegal", "unclear", "extra_turn", "win", "rolling"}


def returns_promptly(call, timeout=5.0) -> bool:
    """Run call() on a thread; True when it returned within timeout (False: it blocked)."""
    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    thread.join(timeout)
    return not thread.is_alive()


def test_show_never_blocks(factory):
    # At this tempo the tune would play for half an hour: show_win() must not wait for it.
    with Panel(PanelConfig(tempo=1000.0), pin_factory=factory) as p:
        assert returns_promptly(p.show_win)
        assert p.status()["pattern"] == "win"
        assert wait_until(lambda: p.status()["buzzer"] == "tune")
        assert returns_promptly(p.show_illegal)  # interrupts the tune at once
        assert p.status()["pattern"] == "illegal"
        assert wait_until(lambda: p.status()["buzzer"] == "low")


def test_muted_buzzer_stays_silent(factory):
    with Panel(PanelConfig(tempo=TEMPO, muted=True), pin_factory=factory) as p:
        p.show_win()
        assert wait_until(lambda: p.status()["pattern"] == "win" and lit(factory, 17))
        assert wait_until(lambda: factory.pin(22).states and len(factory.pin(17).states) >= 3)
        assert sounded(factory.pin(18)) == []
        assert p.status()["muted"] is True and p.status()["buzzer"] is None
        p.muted = False
        p.show_legal()
        assert wait_until(lambda: sounded(factory.pin(18)))


def test_active_buzzer_beeps(factory):
    with Panel(PanelConfig(tempo=TEMPO, buzzer_kind="active"), pin_factory=factory) as p:
        p.show_illegal()
        assert wait_until(lambda: len([s for s in factory.pin(18).states if s.state]) == 3)
        assert wait_until(lambda: factory.pin(18).state == 0)


def test_no_buzzer_configured(factory):
    with Panel(PanelConfig(tempo=TEMPO, buzzer=None), pin_factory=factory) as p:
        p.show_win()
        assert wait_until(lambda: p.status()["pattern"] == "win" and lit(factory, 17))
        assert p.status()["buzzer"] is None


def test_rgb_led_shows_one_colour(factory):
    cfg = PanelConfig(tempo=TEMPO, rgb=(5, 6, 13))
    with Panel(cfg, pin_factory=factory) as p:
        r, g, b = (factory.pin(n) for n in (5, 6, 13))
        p.show_illegal()
        assert (r.state, g.state, b.state) == (1, 0, 0)
        p.show_unclear()
        assert r.state == 1 and 0 < g.state < 1 and b.state == 0  # amber
        assert p.status()["amber"] and not p.status()["red"]
        p.show_legal()
        assert (r.state, g.state, b.state) == (0, 1, 0)
        p.clear()
        assert (r.state, g.state, b.state) == (0, 0, 0)


def test_status_is_json(panel):
    panel.show_win()
    data = json.loads(json.dumps(panel.status()))
    assert set(data) == {"green", "amber", "red", "buzzer", "pattern", "muted", "simulated"}


# -- buttons -------------------------------------------------------------------------------------


def test_bouncy_press_calls_on_roll_once(panel, factory):
    calls = []
    panel.on_roll = lambda: calls.append("roll")
    pin = factory.pin(23)
    for _ in range(3):  # press with contact chatter, then a bouncy release
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    time.sleep(0.03)  # held longer than bounce_time
    pin.drive_high()
    pin.drive_low()  # release chatter must not count as a press
    pin.drive_high()
    assert wait_until(lambda: calls == ["roll"])
    time.sleep(0.03)  # quiet for longer than bounce_time: a new press counts
    pin.drive_low()
    pin.drive_high()
    # Callbacks run in order, so a spurious call from the bounces would show up first.
    assert wait_until(lambda: len(calls) >= 2)
    assert calls == ["roll", "roll"]


def test_second_button_calls_on_second(panel, factory):
    calls = []
    panel.on_roll = lambda: calls.append("roll")
    panel.on_second = lambda: calls.append("second")
    factory.pin(24).drive_low()
    assert wait_until(lambda: calls == ["second"])
    factory.pin(24).drive_high()  # a button held at close() costs gpiozero's hold_time


def test_no_second_button(factory):
    with Panel(PanelConfig(second_button=None), pin_factory=factory) as p:
        assert p.second_button is None
        assert 24 not in [info.number for info in factory.pins]


def test_slow_callback_does_not_block_the_button(panel, factory):
    release = threading.Event()
    started = threading.Event()

    def slow():
        started.set()
        release.wait(5)

    panel.on_roll = slow
    assert returns_promptly(factory.pin(23).drive_low)  # the GPIO event is not held up
    assert started.wait(2)
    panel.show_rolling()  # the panel still works while the callback runs
    assert panel.status()["pattern"] == "rolling"
    release.set()
    factory.pin(23).drive_high()


def test_failing_callback_is_logged_and_next_press_still_works(panel, factory, caplog):
    calls = []

    def boom():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("referee fell over")

    panel.on_roll = boom
    pin = factory.pin(23)
    with caplog.at_level(logging.ERROR, logger="hardware.panel"):
        pin.drive_low()
        assert wait_until(lambda: len(calls) == 1)
        pin.drive_high()
        time.sleep(0.03)
        pin.drive_low()
        assert wait_until(lambda: len(calls) == 2)
        pin.drive_high()
    assert "callback failed" in caplog.text


def test_virtual_press_is_debounced_too(panel):
    calls = []
    panel.on_roll = lambda: calls.append(1)
    assert panel.press("roll") is True
    assert panel.press("roll") is False
    assert wait_until(lambda: calls == [1])
    with pytest.raises(ValueError, match="unknown button"):
        panel.press("third")


# -- lifetime ------------------------------------------------------------------------------------


def test_close_twice_and_pins_are_released(factory):
    p = Panel(PanelConfig(tempo=TEMPO), pin_factory=factory)
    p.show_illegal()
    p.close()
    p.close()
    assert p.closed
    assert not lit(factory, 22)
    assert p.status()["pattern"] is None and not p.status()["red"]
    with pytest.raises(PanelClosed):
        p.show_legal()
    assert p.press() is False
    with Panel(PanelConfig(tempo=TEMPO), pin_factory=factory) as again:  # pins free again
        again.show_legal()
        assert lit(factory, 17)


def test_context_manager_closes(factory):
    with Panel(pin_factory=factory) as p:
        p.show_unclear()
    assert p.closed
    assert not lit(factory, 27)


def test_failed_construction_releases_pins(factory):
    holder = LED(24, pin_factory=factory)  # the second button's pin is taken
    with pytest.raises(GPIOPinInUse):
        Panel(PanelConfig(), pin_factory=factory)
    holder.close()
    with Panel(PanelConfig(), pin_factory=factory):  # nothing left reserved by the failure
        pass


# -- config --------------------------------------------------------------------------------------


def test_config_defaults_and_validation():
    cfg = PanelConfig()
    assert cfg.pins() == {
        "green": 17,
        "amber": 27,
        "red": 22,
        "buzzer": 18,
        "roll_button": 23,
        "second_button": 24,
    }
    with pytest.raises(ValueError, match="used twice"):
        PanelConfig(red=17)
    with pytest.raises(ValueError, match="buzzer_kind"):
        PanelConfig(buzzer_kind="loud")
    with pytest.raises(ValueError, match="rgb"):
        PanelConfig(rgb=(1, 2))


def test_config_from_mapping():
    cfg = PanelConfig.from_mapping({"rgb": [5, 6, 13], "buzzer_kind": "active"})
    assert cfg.rgb == (5, 6, 13) and cfg.buzzer_kind == "active"
    with pytest.raises(ValueError, match="gren"):
        PanelConfig.from_mapping({"gren": 4})


# -- dice ----------------------------------------------------------------------------------------


def test_roll_die_default_is_in_range():
    assert {roll_die() for _ in range(300)} <= set(range(1, 7))


@given(st.integers(min_value=0, max_value=2**32))
def test_roll_die_with_any_seed_is_a_face(seed):
    assert 1 <= roll_die(random.Random(seed)) <= 6


def test_roll_die_is_reproducible_and_fair_with_seeded_rng():
    a = [roll_die(random.Random(7)) for _ in range(5)]
    assert a == [roll_die(random.Random(7)) for _ in range(5)]
    rng = random.Random(1234)
    counts = Counter(roll_die(rng) for _ in range(6000))
    assert set(counts) == set(range(1, 7))
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    assert chi2 < 20.5  # p ~ 0.001 for 5 degrees of freedom


def test_roll_die_rejects_a_broken_rng():
    class Broken:
        def randrange(self, a, b):
            return 7

    with pytest.raises(ValueError, match="outside"):
        roll_die(Broken())
