"""A walk on a terminal goes through a pager; piped, or with --no-pager, it does not. The pager
is HANDFORMER_PAGER set to a small script that records what it reads, and the terminal a
pseudo-terminal (pty), so the command sees a terminal as a reader's shell gives it."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from handformer.files import pager

RECORDER = "import sys, pathlib; pathlib.Path(sys.argv[1]).write_bytes(sys.stdin.buffer.read())\n"


def walk_env(tmp_path: Path) -> tuple[dict, Path]:
    script, record = tmp_path / "record.py", tmp_path / "paged.txt"
    script.write_text(RECORDER)
    env = {**os.environ, "HANDFORMER_PAGER": f"{sys.executable} {script} {record}",
           "COLUMNS": "100", "LINES": "24"}
    return env, record


def on_a_terminal(args: list[str], env: dict) -> str:
    """Run ``handformer ARGS`` with its standard output on a pseudo-terminal; what it showed."""
    main, child = pty.openpty()
    run = subprocess.Popen([sys.executable, "-m", "handformer", *args], stdout=child,
                           stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=env)
    os.close(child)
    shown = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    assert run.wait(timeout=120) == 0
    return shown.decode("utf-8", "replace")


@pytest.mark.process  # a terminal (pty) or a pipe of its own
def test_a_walk_on_a_terminal_goes_through_the_pager(tmp_path):
    env, record = walk_env(tmp_path)
    shown = on_a_terminal(["walk", "--steps", "7-9"], env)
    paged = record.read_text(encoding="utf-8")
    assert "Step " in paged and "What to try next" in paged
    assert "What to try next" not in shown  # the pager, not the command, showed it


@pytest.mark.process  # a terminal (pty) or a pipe of its own
def test_no_pager_prints_straight_to_the_terminal(tmp_path):
    env, record = walk_env(tmp_path)
    shown = on_a_terminal(["walk", "--steps", "7-9", "--no-pager"], env)
    assert not record.exists() and "What to try next" in shown


@pytest.mark.process  # a terminal (pty) or a pipe of its own
def test_another_format_on_a_terminal_never_goes_through_the_pager(tmp_path):
    env, record = walk_env(tmp_path)
    shown = on_a_terminal(["walk", "--steps", "7-9", "--format", "markdown"], env)
    assert not record.exists() and "## 8 · " in shown


@pytest.mark.process  # a terminal (pty) or a pipe of its own
def test_piped_output_never_goes_through_the_pager(tmp_path):
    env, record = walk_env(tmp_path)
    done = subprocess.run([sys.executable, "-m", "handformer", "walk", "--steps", "7-9"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and not record.exists()
    assert "Step 8 " in done.stdout and "What to try next" not in done.stdout  # not on a screen


def test_cat_or_nothing_turns_the_pager_off_and_less_is_the_default():
    assert pager.pager_command({"HANDFORMER_PAGER": "cat"}) is None
    assert pager.pager_command({"HANDFORMER_PAGER": ""}) is None
    assert pager.pager_command({"HANDFORMER_PAGER": "no-such-pager-here"}) is None
    default = pager.pager_command({})
    assert default is None or default == ["less", "-R"]


def test_text_shorter_than_the_terminal_is_not_paged(monkeypatch):
    monkeypatch.setenv("LINES", "24")

    class Tty:
        def isatty(self):
            return True

    env = {"HANDFORMER_PAGER": sys.executable}
    assert not pager.wanted(Tty(), "a\n" * 10, env)
    assert pager.wanted(Tty(), "a\n" * 30, env)


def test_the_walk_on_a_screen_ends_with_three_commands_to_try_in_its_language():
    from click.testing import CliRunner

    from handformer.cli import main

    for lang, title in (("en", "What to try next"), ("zh", "接下来可以试试")):
        out = CliRunner().invoke(main, ["walk", "--lang", lang, "--steps", "13"],
                                 env={"TTY_COMPATIBLE": "1", "NO_COLOR": "1"}).output
        last = out[out.index(title):].splitlines()[2:]
        commands = [line for line in last if line.startswith("   handformer ")]
        assert len(commands) == 3, last
        assert all("--lang zh" in c for c in commands if "walk" in c) == (lang == "zh")
    gpt = CliRunner().invoke(main, ["walk", "--family", "gpt", "--steps", "13"],
                             env={"TTY_COMPATIBLE": "1", "NO_COLOR": "1"}).output
    assert "handformer generate" in gpt[gpt.index("What to try next"):]
