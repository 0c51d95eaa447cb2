"""A free TCP port on the loopback interface for a server a test starts in another process.

Tests never bind a fixed port. A test that starts the bot passes it one of these as
``WEB_PORT`` (``WEB_PORT=0`` turns the web pages off, so 0 cannot ask for any port);
a test that serves by itself binds port 0. ``.ci/run`` holds port 8080 of 127.0.0.1,
``WEB_PORT``'s default, while the tests run, so a test that lets the bot take the
default port fails in CI.

The port is chosen below the range the system hands out to outgoing connections
(``/proc/sys/net/ipv4/ip_local_port_range``). Port 0's own choice comes from that range:
between the check and the bot's bind, any client on the machine (a database
connection, a browser) could be given the same port for its end of a connection, and
the bot would fail to start. Below the range only another explicit bind can take it.
"""

from __future__ import annotations

import random
import socket
from pathlib import Path

PORT_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")
LOWEST = 10_000  # below this, the ports services are configured on
TRIES = 200


def outgoing_ports() -> range:
    """The ports the system gives the local end of an outgoing connection."""
    try:
        low, high = (int(word) for word in PORT_RANGE.read_text().split())
    except (OSError, ValueError):
        return range(32768, 61000)  # Linux's default
    return range(low, high + 1)


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A port nothing is bound to now, outside the range of :func:`outgoing_ports`."""
    outgoing = outgoing_ports()
    outside = range(LOWEST, outgoing.start) or range(outgoing.stop, 65536)
    chooser = random.SystemRandom()
    for _ in range(TRIES if outside else 0):
        port = chooser.choice(outside)
        if _bindable(port):
            return port
    raise RuntimeError(f"no free port outside {outgoing.start}-{outgoing.stop - 1} after {TRIES} tries")
