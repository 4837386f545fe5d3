"""device/install.sh: it finds out which Raspberry Pi OS release it is on and says what that
release's apt brings (the part of the script that runs without root)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "device" / "install.sh"


def release(tmp_path: Path, codename: str, pretty: str) -> subprocess.CompletedProcess:
    os_release = tmp_path / "os-release"
    os_release.write_text(
        f'PRETTY_NAME="{pretty}"\nNAME="Debian GNU/Linux"\nVERSION_CODENAME={codename}\n'
    )
    return subprocess.run(
        ["bash", str(SCRIPT), "--release", str(os_release)], capture_output=True, text=True
    )


@pytest.mark.parametrize(
    ("codename", "says"),
    [
        ("bookworm", "Debian 12 Bookworm: Python 3.11, OpenCV 4.6, numpy 1.24 from apt"),
        ("trixie", "Debian 13 Trixie: Python 3.13, OpenCV 4.10, numpy 2 from apt"),
    ],
)
def test_both_releases_are_recognised_with_what_they_bring(tmp_path, codename, says):
    done = release(tmp_path, codename, f"Debian ({codename})")
    assert done.returncode == 0 and done.stdout.strip() == says


def test_another_system_is_named_and_not_taken_for_a_known_one(tmp_path):
    done = release(tmp_path, "noble", "Ubuntu 24.04 LTS")
    assert done.returncode == 1
    assert done.stdout.startswith("Ubuntu 24.04 LTS is neither Bookworm nor Trixie")


def test_the_service_may_serve_the_page_on_port_80_without_root():
    unit = (SCRIPT.parent / "boardref.service").read_text()
    assert "AmbientCapabilities=CAP_NET_BIND_SERVICE" in unit and "User=boardref" in unit
