#!/usr/bin/env bash
# Install boardref as a service on Raspberry Pi OS (run as root from a clone:
#   sudo bash device/install.sh).
#
# Both current Raspberry Pi OS releases work; the script finds out which one it is on:
#   Bookworm (Debian 12): Python 3.11, python3-opencv 4.6, python3-numpy 1.24
#   Trixie   (Debian 13): Python 3.13, python3-opencv 4.10, python3-numpy 2.x
# picamera2, OpenCV and numpy come from apt and are seen by the venv through
# --system-site-packages: picamera2's compiled parts are built against apt's numpy, so pip
# must never put another numpy beside it. boardref's other, pure-Python dependencies come from
# pyproject.toml. The page is announced on the network as http://boardref.local (mDNS, by the
# avahi daemon Raspberry Pi OS already runs) when the Pi still has the image's default name.
set -euo pipefail

SRC="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX=/opt/boardref
DATA=/var/lib/boardref
CONF=/etc/boardref
PI_NAME="${BOARDREF_HOSTNAME:-boardref}"  # (not NAME: os-release sets that)

release() (
    # Which Raspberry Pi OS (Debian) release, and what its apt brings; from an os-release file
    # (read in a subshell: its NAME, ID... stay out of this script).
    VERSION_CODENAME="" PRETTY_NAME=""
    . "$1"
    case "${VERSION_CODENAME:-}" in
        bookworm) echo "Debian 12 Bookworm: Python 3.11, OpenCV 4.6, numpy 1.24 from apt" ;;
        trixie) echo "Debian 13 Trixie: Python 3.13, OpenCV 4.10, numpy 2 from apt" ;;
        *)
            echo "${PRETTY_NAME:-this system} is neither Bookworm nor Trixie; trying anyway" \
                "(boardref needs Python 3.11+ and OpenCV 4.6+ from apt)"
            exit 1
            ;;
    esac
)

if [ "${1:-}" = "--release" ]; then  # say what this (or a given) system brings, change nothing
    release "${2:-/etc/os-release}"
    exit $?
fi

if [ "$(id -u)" != "0" ]; then
    echo "install.sh: run as root (sudo bash device/install.sh)" >&2
    exit 1
fi

echo "install.sh: $(release /etc/os-release || true)"

apt-get update
apt-get install -y python3-venv python3-picamera2 python3-lgpio python3-opencv python3-numpy \
    avahi-daemon rsync

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
"$PREFIX/.venv/bin/python" -c "import sys, cv2, numpy, picamera2; print('install.sh: Python', sys.version.split()[0], '· OpenCV', cv2.__version__, '· numpy', numpy.__version__)"

if [ ! -f "$CONF/boardref.toml" ]; then
    cat > "$CONF/boardref.toml" <<'TOML'
# boardref appliance settings; see docs/configuration.md.
[game]
name = "aggravation"
players = 4

[camera]
source = "picamera2"

[web]
port = 80       # http://boardref.local with no port to type (the service may bind port 80)
pin = "0000"    # change me: the table PIN guards undo, new game and settings

[data]
database = "/var/lib/boardref/boardref.sqlite3"
TOML
fi
chown -R boardref:boardref "$DATA"

# --- the page's name on the network (mDNS) ---------------------------------------------------
# The image's default name is "raspberrypi"; a Pi that was given its own name keeps it.
current="$(hostname)"
if [ "$current" = "raspberrypi" ] || [ -n "${BOARDREF_HOSTNAME:-}" ]; then
    if [ "$current" != "$PI_NAME" ]; then
        hostnamectl set-hostname "$PI_NAME"
        sed -i "s/^127\.0\.1\.1\s.*/127.0.1.1\t$PI_NAME/" /etc/hosts
        grep -q "^127\.0\.1\.1" /etc/hosts || printf '127.0.1.1\t%s\n' "$PI_NAME" >> /etc/hosts
        current="$PI_NAME"
    fi
fi
systemctl enable --now avahi-daemon.service
systemctl restart avahi-daemon.service  # announce the (new) name

install -m 0644 "$SRC/device/boardref.service" /etc/systemd/system/boardref.service
systemctl daemon-reload
systemctl enable --now boardref.service
systemctl restart boardref.service  # an update: run the new code

port="$("$PREFIX/.venv/bin/python" -c "import tomllib; print(tomllib.load(open('$CONF/boardref.toml', 'rb')).get('web', {}).get('port', 8080))")"
suffix=""
[ "$port" = "80" ] || suffix=":$port"
echo "boardref installed: open http://$current.local$suffix/ on a phone at the table"
