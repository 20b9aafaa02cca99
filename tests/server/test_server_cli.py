"""`handformer serve`: loopback by default, a warning for all interfaces, --open, and one clear
line when the serve extra is missing."""

from __future__ import annotations

import sys

from click.testing import CliRunner

from handformer.cli import main


def test_defaults_to_loopback_and_prints_the_address(monkeypatch):
    import uvicorn

    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code == 0, result.output
    assert calls == [{"host": "127.0.0.1", "port": 8000, "log_level": "warning"}]
    assert "http://127.0.0.1:8000/" in result.stderr and "warning" not in result.stderr


def test_all_interfaces_warn_and_open_opens(monkeypatch):
    import webbrowser

    import uvicorn

    opened, calls = [], []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    monkeypatch.setattr(webbrowser, "open", opened.append)
    result = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0", "--port", "8123", "--open"])
    assert result.exit_code == 0, result.output
    assert calls[0]["host"] == "0.0.0.0" and calls[0]["port"] == 8123
    assert "warning: listening on all interfaces" in result.stderr
    assert opened == ["http://127.0.0.1:8123/"]


def test_missing_extra_is_one_line_naming_pip(monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn now fails
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install -e '.[serve]'" in lines[0]
    assert "Traceback" not in result.output
