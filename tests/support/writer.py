"""Helpers of the writer and signal tests: handformer in a subprocess, as a user runs it.

The tests import nothing from handformer, so the same tests run against any checkout (the
PYTHONPATH they inherit picks it): that is how the "before" column of the issue's table was
measured on main.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).parent / "handformer"
HANDFORMER = [str(SCRIPT)] if SCRIPT.exists() else [
    sys.executable, "-c", "import sys; from handformer.cli import main; sys.exit(main())"]
TEMP_SUFFIX = ".hf-tmp"  # the writer's temporary files end so (handformer/files/temp.py)
LONG_TRAIN = ["train", "--preset", "small", "--d-ff", "1024", "--epochs", "100000", "--quiet"]


def handformer(*args, cwd, stdout=subprocess.PIPE, umask=None, closed_stdout=False,
               timeout=300):
    """Run `handformer ARGS` in ``cwd``; the finished process (stdout/stderr as text).
    ``umask``: the child's; ``closed_stdout``: its descriptor 1 closed, as `>&-` does."""

    def child_setup():
        if umask is not None:
            os.umask(umask)
        if closed_stdout:
            os.close(1)

    return subprocess.run([*HANDFORMER, *map(str, args)], cwd=cwd, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=timeout,
                          preexec_fn=child_setup, env=os.environ | {"COLUMNS": "100"})


@contextmanager
def running(*args, cwd):
    """`handformer ARGS` started in ``cwd`` (stdout discarded), killed if still running when
    the block ends, so a failing test leaves no run behind."""
    proc = subprocess.Popen([*HANDFORMER, *map(str, args)], cwd=cwd, text=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=os.environ | {"COLUMNS": "100"})
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def one_line(done, *words, status=2) -> str:
    """The single stderr line of a refusal (status 2 unless told), with each of ``words``."""
    err = done.stderr
    assert "Traceback" not in err, err
    assert done.returncode == status, (done.returncode, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0], (word, err)
    return lines[0]


def digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def hashes(folder: Path) -> dict[str, str]:
    """Every entry of ``folder``: a file by its SHA-256, a link by where it points."""
    out = {}
    for p in sorted(Path(folder).iterdir()):
        out[p.name] = f"-> {os.readlink(p)}" if p.is_symlink() else digest(p)
    return out


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in Path(folder).iterdir() if p.name.endswith(TEMP_SUFFIX))


def wait_for(condition, timeout: float, what: str):
    """Poll ``condition()`` until it is truthy (its value), or fail naming ``what``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.01)
    pytest.fail(f"waited {timeout} s for {what}")


def interrupt(proc: subprocess.Popen, after: float) -> tuple[int, str]:
    """SIGINT ``proc`` ``after`` seconds from now; its exit status and stderr."""
    time.sleep(after)
    assert proc.poll() is None, "finished before the signal: give it more work"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    return proc.returncode, err


def computing(proc: subprocess.Popen, megabytes: int = 250) -> bool:
    """Whether ``proc`` holds more than ``megabytes`` of memory: well past start-up (about
    25 MB), so a signal now lands in the work, not in Python's own imports."""
    try:
        status = Path(f"/proc/{proc.pid}/status").read_text()
    except OSError:
        return False
    rss = next((int(line.split()[1]) for line in status.splitlines()
                if line.startswith("VmRSS:")), 0)
    return rss > megabytes * 1024


def next_pids(count: int) -> range:
    """The pids the kernel hands out next (a guess: others may start processes too)."""
    last = int(Path("/proc/sys/kernel/ns_last_pid").read_text())
    return range(last + 1, last + 1 + count)


def small_tmpfs(where: Path, size: str = "256k"):
    """Mount a tmpfs of ``size`` at ``where`` (root only; skips otherwise); returns umount."""
    if os.geteuid() != 0:
        pytest.skip("the disk-full cases mount a small tmpfs, which needs root")
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    return lambda: subprocess.run(["umount", str(where)], check=True)


def fill(disk: Path) -> None:
    """Fill ``disk`` to the last byte with one file, so that any further write fails."""
    fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        for block in (4096, 1):
            try:
                while os.write(fd, b"\0" * block):
                    pass
            except OSError:  # full at this block size: try the next, smaller one
                pass
    finally:
        os.close(fd)
