"""`serve --host`: every spelling of "all interfaces" warns, and the printed URL connects."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request

import pytest
from click.testing import CliRunner

from handformer.cli import main

from .conftest import free_port

EVERYWHERE = ["0", "0.0.0.0", "0x0", "0.0", "::", "::0", "[::]", "0:0:0:0:0:0:0:0", ""]


@pytest.mark.parametrize("host", EVERYWHERE)
def test_every_all_interfaces_spelling_warns(monkeypatch, host):
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: None)
    result = CliRunner().invoke(main, ["serve", "--host", host, "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert "warning: listening on all interfaces" in result.stderr


@pytest.mark.parametrize("host, url", [("127.0.0.1", "http://127.0.0.1:8123/"),
                                       ("::1", "http://[::1]:8123/")])
def test_one_address_does_not_warn_and_is_printed_as_a_url(monkeypatch, host, url):
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: None)
    result = CliRunner().invoke(main, ["serve", "--host", host, "--port", "8123"])
    assert "warning" not in result.stderr and url in result.stderr


@pytest.mark.parametrize("host", ["::", "0"])
def test_the_printed_url_connects(tmp_path, host):
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "handformer", "serve", "--host", host,
                             "--port", str(port)], stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path, env=os.environ.copy())
    try:
        line = ""
        while "serving on" not in line:
            line = proc.stderr.readline()
            assert line, "the server said nothing"
        url = re.search(r"(http://\S+/)", line).group(1)
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "favicon.ico", timeout=5) as r:
                    assert r.status == 204
                break
            except OSError:
                assert time.monotonic() < deadline, f"{url} refuses connections"
                time.sleep(0.2)
    finally:
        proc.terminate()
        proc.wait(10)
