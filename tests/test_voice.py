"""Spoken rulings: the phrases, the queue that never holds the referee up, and espeak-ng."""

from __future__ import annotations

import array
import shutil
import threading
import time
import wave

import pytest

from device import cli
from device.config import ConfigError, from_mapping
from device.voice import VoiceSettings, phrase, start_voice
from hardware.voice import EspeakSpeaker, VoiceQueue
from tests.fake_table import FakeTable


class FakeSpeaker:
    """Says nothing aloud: records the phrases; `hold` keeps it speaking until released."""

    def __init__(self, fail_on: str = "") -> None:
        self.said: list[str] = []
        self.started = threading.Event()
        self.hold = threading.Event()
        self.hold.set()
        self.fail_on = fail_on

    def speak(self, text: str) -> None:
        self.started.set()
        self.hold.wait(30)
        if text == self.fail_on:
            raise OSError("the speaker is unplugged")
        self.said.append(text)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _wait(predicate, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("the voice did not get there in time")
        time.sleep(0.01)


# --- phrases ------------------------------------------------------------------------------------


def _clause(title: str) -> dict:
    return {"id": "X-1", "title": title, "text": "", "section": "", "interpretation": False}


def test_the_phrases_say_the_ruling_in_a_few_words():
    roll = {"kind": "roll", "text": "red rolled 6", "move": {"colour": "red", "value": 6}}
    assert phrase(roll) == "Red: six"
    illegal = {
        "kind": "illegal",
        "text": "t03 is 4 away",
        "clauses": [_clause("Move the full count")],
    }
    assert phrase(illegal) == "Illegal: move the full count"
    capture = {
        "kind": "legal",
        "move": {"colour": "blue"},
        "effects": [
            {
                "kind": "capture",
                "text": "yellow marble on t12 aggravated back to BASE",
                "player": 2,
            },
            {"kind": "extra_turn", "text": "blue rolled a 6 and rolls again", "player": 1},
        ],
    }
    assert phrase(capture) == "Blue captures yellow. Blue: roll again"
    assert phrase({"kind": "pass", "text": "green passes", "move": {"colour": "green"}}) == (
        "Green passes"
    )
    win = {"kind": "win", "effects": [{"kind": "win", "text": "red wins; all home"}]}
    assert phrase(win) == "Red wins"


def test_plain_moves_and_waits_are_left_to_the_lights_and_the_page():
    assert phrase({"kind": "legal", "text": "red moves t01 to t03", "effects": []}) is None
    assert phrase({"kind": "unclear", "text": "cannot see t03", "effects": []}) is None


def test_a_battle_is_spoken_as_the_table_may_know_it():
    ruling = {
        "kind": "legal",
        "move": {"colour": "red"},
        "effects": [],
        "battle": {"attacker_colour": "red", "defender_colour": "blue", "result": "lost"},
    }
    assert phrase(ruling) == "Blue wins the battle"


# --- the queue ----------------------------------------------------------------------------------


def test_phrases_are_spoken_in_order():
    speaker = FakeSpeaker()
    with VoiceQueue(speaker) as voice:
        for text in ("Red: six", "Red: roll again", "Red captures blue"):
            voice.say(text)
        _wait(lambda: len(speaker.said) == 3)
    assert speaker.said == ["Red: six", "Red: roll again", "Red captures blue"]


def test_saying_never_waits_for_the_speaker_and_surplus_phrases_drop_oldest_first():
    speaker = FakeSpeaker()
    speaker.hold.clear()  # the speaker is busy with the first phrase until released
    voice = VoiceQueue(speaker, max_pending=2)
    voice.say("first")
    assert speaker.started.wait(30)
    for n in range(10):  # every call returns while the speaker is still busy
        voice.say(f"phrase {n}")
    assert voice.pending() == ["phrase 8", "phrase 9"] and voice.dropped == 8
    speaker.hold.set()
    _wait(lambda: len(speaker.said) == 3)
    assert speaker.said == ["first", "phrase 8", "phrase 9"]
    voice.close()
    voice.close()  # idempotent
    voice.say("after closing")  # ignored, never raises
    assert speaker.said == ["first", "phrase 8", "phrase 9"]


def test_stale_announcements_are_dropped_unspoken():
    speaker = FakeSpeaker()
    speaker.hold.clear()
    clock = Clock()
    voice = VoiceQueue(speaker, max_age_s=5.0, clock=clock)
    voice.say("Red: six")
    assert speaker.started.wait(30)
    voice.say("Red: roll again")  # queued at 100 s
    clock.now += 4.0
    voice.say("Blue: two")  # queued at 104 s
    clock.now += 2.0  # 106 s: the first is 6 s old, the second 2 s
    speaker.hold.set()
    _wait(lambda: len(speaker.said) == 2)
    voice.close()
    assert speaker.said == ["Red: six", "Blue: two"] and voice.dropped == 1


def test_a_failing_speaker_does_not_stop_the_voice():
    speaker = FakeSpeaker(fail_on="boom")
    with VoiceQueue(speaker) as voice:
        voice.say("boom")
        voice.say("Red: five")
        _wait(lambda: speaker.said == ["Red: five"])


def test_the_referee_s_rulings_reach_the_speaker():
    table = FakeTable(game="aggravation", players=2, options={"opening": "first-seat"})
    speaker = FakeSpeaker()
    voice = start_voice(table, VoiceSettings(enabled=True), speaker=speaker)
    try:
        table.roll()
        value = table.history()[0]["move"]["value"]
        words = ("zero", "one", "two", "three", "four", "five", "six")
        _wait(lambda: f"Red: {words[value]}" in speaker.said)
    finally:
        voice.close()
    assert table.subscribers == 0  # closing let go of the referee


# --- config and command line --------------------------------------------------------------------


def test_voice_is_off_unless_the_config_turns_it_on():
    assert VoiceSettings.from_mapping(from_mapping({}).voice).enabled is False
    config = from_mapping({"voice": {"enabled": True, "speed": 140, "voice": "en-gb"}})
    settings = VoiceSettings.from_mapping(config.voice)
    assert settings.enabled and settings.speed == 140 and settings.voice == "en-gb"
    with pytest.raises(ConfigError, match="voice.speed must be 80..450"):
        from_mapping({"voice": {"speed": 20}})
    with pytest.raises(ConfigError, match="unknown key voice.loud"):
        from_mapping({"voice": {"loud": True}})


def test_demo_voice_flag_turns_the_voice_on(monkeypatch):
    seen = {}
    monkeypatch.setattr("device.demo.run_demo", lambda **kw: seen.update(kw) or 0)
    assert cli.main(["demo", "--voice", "--duration", "1", "--port", "0"]) == 0
    assert seen["voice"] is True


# --- espeak-ng ---------------------------------------------------------------------------------


@pytest.mark.skipif(
    shutil.which("espeak-ng") is None,
    reason="espeak-ng is not installed (apt-get install espeak-ng; .ci/run installs it)",
)
def test_espeak_writes_a_wav_that_is_not_silent(tmp_path):
    path = EspeakSpeaker().write_wav("Blue captures yellow", tmp_path / "ruling.wav")
    with wave.open(str(path)) as wav:
        assert wav.getsampwidth() == 2 and wav.getnchannels() == 1
        seconds = wav.getnframes() / wav.getframerate()
        samples = array.array("h", wav.readframes(wav.getnframes()))
    assert 0.5 < seconds < 5.0
    loud = sum(1 for s in samples if abs(s) > 1000)
    assert loud > len(samples) // 10  # speech, not silence
