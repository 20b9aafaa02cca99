"""One training run per checkpoint: an exclusive lock on ``.NAME.lock`` beside it.

fcntl.flock is released by the kernel when the process ends, however it ends (kill -9 too),
so a lock cannot outlive its run. The file holds the holder's pid, for the refusal to name.
"""

from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager, nullcontext
from pathlib import Path

from ..errors import (
    CheckpointBusy,  # noqa: F401  (raised here)
    )
from ..files.io import OutputError, os_reason


def held_by_saver(checkpoint):
    """The lock, taken by the process that saves: under torchrun only rank 0 writes, so the
    other ranks (RANK > 0) must neither wait for its lock nor be refused by it."""
    return nullcontext() if os.environ.get("RANK", "0") != "0" else held(checkpoint)


@contextmanager
def held(checkpoint):
    """Hold the checkpoint's lock while the block runs; refuse if another run holds it."""
    checkpoint = Path(checkpoint)
    lock = checkpoint.with_name(f".{checkpoint.name}.lock")
    try:
        fd = _acquire(lock, checkpoint)
    except OSError as err:
        raise OutputError(f"cannot lock {str(checkpoint)!r}: {os_reason(err, lock)}") from None
    try:
        yield
    finally:
        try:
            os.unlink(lock)  # while still held, so no other run can hold this same file
        except OSError:
            pass
        os.close(fd)


def _acquire(lock: Path, checkpoint: Path) -> int:
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    while True:
        fd = os.open(lock, flags, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise CheckpointBusy(f"checkpoint {str(checkpoint)!r} is being trained by another "
                                 f"run (pid {holder}); wait for it, or give another --save FILE"
                                 ) from None
        if _still_named(fd, lock):  # not unlinked by a run that just finished
            _note_pid(fd)
            return fd
        os.close(fd)


def _note_pid(fd: int) -> None:
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
    except OSError:  # a full disk: the lock holds all the same, the refusal says "unknown"
        pass


def _still_named(fd: int, lock: Path) -> bool:
    try:
        return os.stat(lock, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        return False
