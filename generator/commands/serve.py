"""``rulebook serve``: the site of an edition, served and built again when a source changes."""

from __future__ import annotations

import socket
from pathlib import Path

from ..errors import RulebookError, echo
from ..render.site.engine import serve


def address(addr: str) -> str:
    """``addr`` (HOST:PORT) checked before anything is served: a port from 1 to 65535 and a host this machine can
    listen on, or RulebookError in one line naming --addr. Port 0 is refused: the system would pick a port, and the
    address printed would name one that opens nothing."""
    host, colon, port = addr.rpartition(":")
    example = "such as 127.0.0.1:8000"
    if not colon or not host:
        raise RulebookError(f"--addr {echo(addr)} is not HOST:PORT: give one, {example}")
    if port.strip("0") == "" and port:
        raise RulebookError(f"--addr {echo(addr)}: port 0 lets the system pick a port, and the address printed would "
                            f"open nothing: give a port from 1 to 65535, {example}")
    if not (port.isascii() and port.isdigit()) or len(port) > 5 or not 0 < int(port) <= 65535:
        raise RulebookError(f"--addr {echo(addr)}: the port must be a whole number from 1 to 65535, {example}")
    try:
        socket.getaddrinfo(host.strip("[]"), int(port), type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise RulebookError(f"--addr {echo(addr)}: this machine cannot listen at {echo(host)} "
                            f"({getattr(exc, 'strerror', None) or exc}): give a host it has, {example}") from None
    return addr


def run(root: Path, addr: str = "127.0.0.1:8000", edition: str | None = None) -> int:
    """Serve until stopped (only the site package knows the site engine: it does the serving)."""
    serve(root, address(addr), edition)
    return 0
