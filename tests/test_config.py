"""The TOML config: defaults with no file, and a message naming the key for every bad value."""

from __future__ import annotations

import pytest

from device.config import Config, ConfigError, load


def write(tmp_path, text: str):
    path = tmp_path / "boardref.toml"
    path.write_text(text)
    return path


def test_no_file_means_defaults():
    assert load(None) == Config()


def test_a_full_config_is_read(tmp_path):
    config = load(
        write(
            tmp_path,
            """
[game]
name = "aggravation"
players = 6
options = { play = "teams" }
[camera]
source = "usb:0"
frames_required = 4
[pins]
green = 5
roll_button = 6
[web]
port = 9000
pin = "2468"
""",
        )
    )
    assert config.players == 6 and config.options == {"play": "teams"}
    assert config.camera == "usb:0" and config.frames_required == 4
    assert config.pins == {"green": 5, "roll_button": 6}
    assert config.port == 9000 and config.pin == "2468"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("[game]\nname = 'chess'", "unknown game 'chess'"),
        ("[game]\nplayers = 9", "9"),
        ("[game]\noptions = { opening = 'dice' }", "opening"),
        ("[web]\nport = 'eighty'", "web.port must be int"),
        ("[web]\nport = 70000", "web.port must be 1..65535"),
        ("[web]\ncolour = 'red'", "unknown key web.colour"),
        ("[lights]\non = true", "unknown section [lights]"),
        ("[camera]\nsource = 'webcam'", "camera.source 'webcam'"),
        ("[pins]\ngreen = 5\nred = 5", "[pins]"),
        ("[pins]\ngreen = 99", "pins.green = 99 is not a GPIO pin: use a BCM number from 0 to 27"),
        ("[pins]\nrgb = [5, 6, 28]", "pins.rgb[2] = 28 is not a GPIO pin"),
        ("[pins]\nrgb = [5, 'x', 7]", "pins.rgb[1] = 'x' is not a GPIO pin"),
        ("[pins]\nroll_button = -3", "pins.roll_button = -3 is not a GPIO pin"),
        ("[web]\npin = '12'", "web.pin must be 4 to 64 characters"),
        ("[camera]\ndice = 1", "camera.dice must be bool"),
        ("this is = = not toml", "not valid TOML"),
    ],
)
def test_bad_values_name_the_key(tmp_path, text, named):
    with pytest.raises(ConfigError) as info:
        load(write(tmp_path, text))
    assert named in str(info.value)


def test_a_long_pin_is_allowed(tmp_path):
    config = load(write(tmp_path, "[web]\npin = 'correct horse battery staple 42'"))
    assert config.pin == "correct horse battery staple 42"


def test_missing_file_is_named(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load(tmp_path / "nope.toml")
