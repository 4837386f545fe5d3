#!/usr/bin/env bash
# Install boardref as a service on Raspberry Pi OS Bookworm (run as root from a clone:
#   sudo bash device/install.sh).
# picamera2, OpenCV and numpy come from apt (python3-picamera2, python3-opencv 4.6,
# python3-numpy 1.24) and are seen by the venv through --system-site-packages: picamera2's
# compiled parts are built against apt's numpy, so pip must not put a numpy 2 beside it.
# boardref's other, pure-Python dependencies come from pyproject.toml.
set -euo pipefail

SRC="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX=/opt/boardref
DATA=/var/lib/boardref
CONF=/etc/boardref

if [ "$(id -u)" != "0" ]; then
    echo "install.sh: run as root (sudo bash device/install.sh)" >&2
    exit 1
fi

apt-get update
apt-get install -y python3-venv python3-picamera2 python3-lgpio python3-opencv python3-numpy

id boardref >/dev/null 2>&1 || useradd --system --home "$DATA" --shell /usr/sbin/nologin boardref
usermod -a -G gpio,video boardref || true

mkdir -p "$PREFIX" "$DATA" "$CONF"
rsync -a --delete --exclude .venv --exclude .git "$SRC/" "$PREFIX/src/"
python3 -m venv --system-site-packages "$PREFIX/.venv"
"$PREFIX/.venv/bin/pip" install --upgrade pip
# the project itself without its dependencies, then every dependency but numpy and OpenCV
"$PREFIX/.venv/bin/pip" install --no-deps "$PREFIX/src"
"$PREFIX/.venv/bin/python" - "$PREFIX/src/pyproject.toml" > "$PREFIX/requirements.txt" <<'PY'
import sys
import tomllib

with open(sys.argv[1], "rb") as f:
    deps = tomllib.load(f)["project"]["dependencies"]
print("\n".join(d for d in deps if not d.startswith(("numpy", "opencv"))))
PY
"$PREFIX/.venv/bin/pip" install -r "$PREFIX/requirements.txt"
"$PREFIX/.venv/bin/python" -c "import cv2, numpy, picamera2; print('OpenCV', cv2.__version__, 'numpy', numpy.__version__)"

if [ ! -f "$CONF/boardref.toml" ]; then
    cat > "$CONF/boardref.toml" <<'TOML'
# boardref appliance settings; see docs/configuration.md.
[game]
name = "aggravation"
players = 4

[camera]
source = "picamera2"

[web]
port = 8080
pin = "0000"    # change me: the table PIN guards undo, new game and settings

[data]
database = "/var/lib/boardref/boardref.sqlite3"
TOML
fi
chown -R boardref:boardref "$DATA"

install -m 0644 "$SRC/device/boardref.service" /etc/systemd/system/boardref.service
systemctl daemon-reload
systemctl enable --now boardref.service
echo "boardref installed: open http://$(hostname).local:8080/ on a phone at the table"
