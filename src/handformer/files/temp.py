"""The writer's temporary files: created exclusively, named so that the next run can find
and remove what a killed run left behind.

A temporary file is ``.NAME.PID.RANDOM.hf-tmp`` in the target's folder, opened with O_CREAT |
O_EXCL | O_NOFOLLOW and mode 600: nothing planted at that name (a symbolic link to another
file, say) is ever opened, and the random part means no name can be planted in advance.
"""

from __future__ import annotations

import os
import re
import stat
import time
from pathlib import Path

SUFFIX = ".hf-tmp"
_PATTERN = re.compile(r"^\..*\.(\d+)\.[0-9a-f]{16}" + re.escape(SUFFIX) + "$")
_NAME_CHARS = 120  # of the target's name kept in the temporary's (NAME_MAX is 255 bytes)
STALE_SECONDS = 3600  # a temporary of a live process is left alone for this long


def create(path: Path) -> tuple[int, Path]:
    """A new, empty, mode-600 file beside ``path``: its descriptor and its name."""
    import secrets  # here, not at the top: a walk to the terminal never pays for hashlib

    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    stem = path.name[:_NAME_CHARS]
    for _ in range(8):
        tmp = path.with_name(f".{stem}.{os.getpid()}.{secrets.token_hex(8)}{SUFFIX}")
        try:
            return os.open(tmp, flags, 0o600), tmp
        except FileExistsError:  # someone's file at a random name: draw another
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


def remove(tmp: Path) -> None:
    try:
        tmp.unlink()
    except OSError:  # renamed into place, or already gone
        pass


def remove_stale(folder: Path) -> None:
    """Delete our temporaries that a killed run left in ``folder``: ours (same owner, a
    regular file, our pattern) whose process is gone, or older than STALE_SECONDS."""
    try:
        entries = list(os.scandir(folder))
    except OSError:  # an unreadable folder: the write itself will say why
        return
    for entry in entries:
        found = _PATTERN.match(entry.name)
        if found and _is_stale(entry, int(found.group(1))):
            remove(Path(entry.path))


def _is_stale(entry: os.DirEntry, pid: int) -> bool:
    try:
        st = entry.stat(follow_symlinks=False)
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or pid == os.getpid():
        return False
    return not _alive(pid) or time.time() - st.st_mtime > STALE_SECONDS


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def new_file_mode() -> int:
    """The mode a new file gets here: 666 less the umask (read without changing it)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            umask = next(int(line.split()[1], 8) for line in f if line.startswith("Umask:"))
    except (OSError, StopIteration, ValueError):
        umask = os.umask(0o022)  # no /proc: read it the old way, then put it back
        os.umask(umask)
    return 0o666 & ~umask
