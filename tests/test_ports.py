"""The tests' free ports (``tests/ports.py``): outside the range outgoing connections use."""

from __future__ import annotations

import socket

from tests.ports import free_port, outgoing_ports


def test_a_free_port_is_bindable_and_no_client_is_given_it() -> None:
    ports = {free_port() for _ in range(20)}
    assert len(ports) > 1  # chosen at random, not one port every time
    for port in ports:
        assert port not in outgoing_ports()
        with socket.socket() as server:
            server.bind(("127.0.0.1", port))
            server.listen()
            with socket.create_connection(("127.0.0.1", port)) as client:
                assert client.getsockname()[1] in outgoing_ports()  # the client's end: inside
