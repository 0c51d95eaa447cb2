"""A free TCP port on the loopback interface, chosen by the operating system.

Tests never bind a fixed port. A test that starts the bot passes it one of these as
``WEB_PORT`` (``WEB_PORT=0`` turns the web pages off, so 0 cannot ask for any port);
a test that serves by itself binds port 0. ``.ci/run`` holds port 8080 of 127.0.0.1,
``WEB_PORT``'s default, while the tests run, so a test that lets the bot take the
default port fails in CI.
"""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port nothing listens on now (the operating system's choice for port 0)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
