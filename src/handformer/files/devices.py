"""Pipes and devices, as inputs and outputs: opened without blocking forever.

A named pipe (FIFO) with nobody at its other end blocks a plain ``open`` for ever. Here a pipe
or a device is opened non-blocking and then waited on for at most the limit ``stream_seconds``
(limits.py): an output pipe until a reader opens it, an input until its writer sends bytes.
A regular file reached where a device was expected (a link swapped in between the check and
the open) is refused, never written.
"""

from __future__ import annotations

import errno
import fcntl
import os
import select
import stat
import time

from .. import limits


class StreamTimeout(OSError):
    """Nobody at the other end of a pipe or a device within ``stream_seconds``."""


def writable_through(st) -> bool:
    """Character devices (/dev/null, a terminal) and pipes are written to, not replaced."""
    return stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode)


def kind(st) -> str:
    """What a file that is neither a regular file nor a folder is, in words."""
    if stat.S_ISBLK(st.st_mode):
        return "a block device (a disk)"
    if stat.S_ISSOCK(st.st_mode):
        return "a socket"
    return "a special file"


def open_for_writing(path) -> int:
    """A descriptor on the device or pipe at ``path`` (never created, never appended to),
    waiting at most ``stream_seconds`` for a pipe's reader."""
    flags = os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
    deadline = time.monotonic() + limits.limit("stream_seconds")
    while True:
        try:
            fd = os.open(path, flags)
            break
        except OSError as err:  # ENXIO: a pipe nobody reads yet
            if err.errno != errno.ENXIO or time.monotonic() > deadline:
                raise _no_reader(err, path) from None
            time.sleep(0.05)
    return _blocking_device(fd)


def _no_reader(err: OSError, path) -> OSError:
    if err.errno != errno.ENXIO:
        return err
    return StreamTimeout(errno.ENXIO, f"no program read from the pipe within "
                         f"{limits.limit('stream_seconds')} s (stream_seconds)", str(path))


def _blocking_device(fd: int) -> int:
    """``fd`` back in blocking mode, if it is still a device or a pipe; else closed, refused."""
    if not writable_through(os.fstat(fd)):
        os.close(fd)
        raise OSError(errno.EEXIST, "it changed while being written (now a file); try again")
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    return fd


def read_stream(path, bound: int) -> bytes:
    """At most ``bound + 1`` bytes of a device or a pipe, waiting no more than
    ``stream_seconds`` for each piece: a pipe that nobody writes ends with StreamTimeout."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    seconds = limits.limit("stream_seconds")
    chunks, total = [], 0
    try:
        while total <= bound:
            if not select.select([fd], [], [], seconds)[0]:
                raise StreamTimeout(errno.ETIMEDOUT, f"nothing came in {seconds} s "
                                    "(stream_seconds); is anything writing to it?", str(path))
            chunk = _read_some(fd, min(limits.MIB, bound + 1 - total))
            if chunk == b"":
                break
            chunks.append(chunk or b"")
            total += len(chunk or b"")
    finally:
        os.close(fd)
    return b"".join(chunks)


def _read_some(fd: int, size: int) -> bytes | None:
    """Up to ``size`` bytes; None when a non-blocking read has nothing yet."""
    try:
        return os.read(fd, size)
    except BlockingIOError:
        return None
