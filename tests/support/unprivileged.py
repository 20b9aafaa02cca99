"""Checks that need a user who is not root, run even when the tests run as root (as CI does):
the command then runs as user nobody (setpriv, util-linux), reading handformer from where this
process reads it. Where that cannot be done the test is skipped with the reason."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest


def as_nobody() -> list[str]:
    """The prefix that runs a command as user nobody when we are root; [] when we are not."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root, and without setpriv (util-linux) this check cannot run "
                    "as user nobody")
    try:
        user = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("running as root, and there is no user nobody to run this check as")
    prefix = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups",
              "--"]
    probe = subprocess.run([*prefix, sys.executable, "-c", "import handformer"], cwd="/",
                           env=env_for_nobody(), capture_output=True, text=True, timeout=120)
    if probe.returncode:
        pytest.skip("running as root, and user nobody cannot import handformer from here: "
                    f"{probe.stderr.strip()[-300:]}")
    return prefix


def env_for_nobody(env: dict | None = None) -> dict:
    """This process's environment with its import path, so a child finds the same handformer."""
    path = os.pathsep.join(p for p in sys.path if p)
    return dict(os.environ) | {"PYTHONPATH": path} | (env or {})


@pytest.fixture
def open_folder():
    """A fresh folder any user may enter and write (pytest's tmp_path is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="handformer-nobody-"))
    folder.chmod(0o777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
