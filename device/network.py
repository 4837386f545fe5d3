"""Where the table's page can be opened: binding the web port, and the addresses to tell people.

A taken port is the one start-up failure a family meets (a second demo, an old one still
running): it becomes one line naming the port and the option that changes it.
"""

from __future__ import annotations

import errno
import io
import socket
from dataclasses import dataclass
from typing import Any

ALL_ADDRESSES = ("0.0.0.0", "::", "")
MDNS_NAME = "boardref.local"  # the Pi's hostname as install.sh sets it, announced by avahi


class PortInUse(OSError):
    """The web port is taken or not ours to use; the message says which and what to do."""

    def __init__(self, host: str, port: int, reason: str) -> None:
        where = f"{host}:{port}" if host not in ALL_ADDRESSES else f"port {port}"
        super().__init__(f"cannot listen on {where} ({reason}); choose another with --port")
        self.port = port


def bind_server(app: Any, host: str, port: int, threads: int) -> Any:
    """The waitress server for `app`, its socket already listening (PortInUse when taken)."""
    from webui.serve import make_server

    try:
        return make_server(app, host=host, port=port, threads=threads)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise PortInUse(host, port, "another program is using it") from None
        if exc.errno == errno.EACCES:
            raise PortInUse(host, port, "ports below 1024 need root") from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise PortInUse(host, port, f"{host} is not an address of this computer") from None
        raise


def lan_address() -> str | None:
    """This computer's address on the local network, or None when it has none.

    Connecting a UDP socket sends nothing; it only asks the kernel which interface would
    carry traffic outward, and that interface's address is the one phones can reach."""
    for probe in ("192.0.2.1", "10.255.255.255"):  # TEST-NET-1, then a private address
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                address = s.getsockname()[0]
        except OSError:
            continue
        if address and not address.startswith("127."):
            return address
    return None


@dataclass(frozen=True)
class PageAddresses:
    """Where to open the page: here, and from a phone (None when phones cannot reach it)."""

    local: str
    phone: str | None
    why_not_phone: str = ""


def page_addresses(host: str, port: int, lan: str | None = None) -> PageAddresses:
    """The URLs to print for a server listening on host:port."""
    if host in ALL_ADDRESSES:
        local = f"http://localhost:{port}/"
        lan = lan if lan is not None else lan_address()
        if lan is None:
            return PageAddresses(local, None, "this computer is on no network")
        return PageAddresses(local, f"http://{lan}:{port}/")
    if host.startswith("127.") or host in ("localhost", "::1"):
        return PageAddresses(
            f"http://{host}:{port}/",
            None,
            "it listens on this computer only; add --host 0.0.0.0 to let phones open it",
        )
    return PageAddresses(f"http://{host}:{port}/", f"http://{host}:{port}/")


def terminal_qr(url: str) -> str:
    """`url` as a QR code drawn with block characters, for a phone's camera to scan."""
    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def tell_addresses(addresses: PageAddresses, *, qr: bool, out: Any, prefix: str) -> None:
    """Print where to open the page, with a QR code for phones when `qr`."""
    print(f"{prefix}: open {addresses.local} on this computer", file=out)
    if addresses.phone is None:
        print(f"{prefix}: phones cannot open it: {addresses.why_not_phone}", file=out)
        return
    print(f"{prefix}: on a phone on the same Wi-Fi, open {addresses.phone}", file=out)
    if qr:
        print(f"{prefix}: or scan this with the phone's camera:", file=out)
        print(terminal_qr(addresses.phone), end="", file=out)
