"""`serve --host` (issue 45, item 9): an IPv4-mapped IPv6 address is bound as the IPv4 address
it maps (::ffff:0.0.0.0 printed "serving on" and then uvicorn's raw "[Errno 22] ... invalid
argument"), and a bind that fails is one line, said before "serving on"."""

from __future__ import annotations

import socket

import pytest
from click.testing import CliRunner

from handformer.cli import main

pytest.importorskip("uvicorn", reason="needs uvicorn (pip install 'handformer[serve]')")


@pytest.fixture
def bound(monkeypatch):
    """What serve would hand uvicorn, without serving."""
    import uvicorn

    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    return calls


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(*args):
    return CliRunner().invoke(main, ["serve", *args])


def test_the_mapped_every_interface_address_warns_and_binds_ipv4(bound):
    port = free_port()
    result = serve("--host", "::ffff:0.0.0.0", "--port", str(port))
    assert result.exit_code == 0, result.output
    assert "warning: listening on all interfaces (::ffff:0.0.0.0)" in result.stderr
    assert f"serving on http://127.0.0.1:{port}/" in result.stderr
    assert bound == [{"host": "0.0.0.0", "port": port, "log_level": "warning"}]


def test_a_mapped_loopback_address_binds_the_loopback_without_a_warning(bound):
    port = free_port()
    result = serve("--host", "::ffff:127.0.0.1", "--port", str(port))
    assert result.exit_code == 0 and "warning" not in result.stderr
    assert bound[0]["host"] == "127.0.0.1"


def test_a_port_in_use_is_one_line_before_serving_on(bound):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = serve("--port", str(port))
    assert result.exit_code == 2
    assert result.stderr == (f"error: cannot listen on 127.0.0.1 port {port}: "
                             f"Address already in use\n")
    assert bound == []  # uvicorn never started


def test_an_address_this_machine_lacks_is_one_line(bound):
    result = serve("--host", "192.0.2.1", "--port", str(free_port()))  # TEST-NET-1: nobody's
    assert result.exit_code == 2 and bound == []
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot listen on 192.0.2.1 port")
