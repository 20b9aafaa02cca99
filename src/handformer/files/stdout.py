"""Standard output: written whole or not at all; a reader that went away (`| head -1`) ends the
run quietly with status 141, a full or closed standard output is one line (an OutputError)."""

from __future__ import annotations

import errno
import io
import os
import sys

from ..errors import OutputError

BROKEN_PIPE_STATUS = 141  # 128 + SIGPIPE: what a shell reports for `yes | head -1`


def write_stream(stream, text: str) -> None:
    """Write and flush in one go; a reader that went away (`| head`) ends the run quietly.

    A stream on a real descriptor is written with os.write until every byte is out: through
    the stream's buffer, a reader that left in the middle of a large write (`walk | head -1`)
    went unnoticed, and the run ended with status 0 and its output cut."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # CliRunner's streams, ClosedStdout
        fd = None
    try:
        if fd is None:
            stream.write(text)
            stream.flush()
        else:
            stream.flush()
            write_fully(fd, text.encode(stream.encoding or "utf-8", stream.errors or "strict"))
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", "?")
        raise OutputError(f"the terminal's encoding ({encoding}) cannot show the "
                          "walkthrough's characters: set PYTHONIOENCODING=utf-8, or write "
                          "a file with -o FILE") from None
    except OSError as err:
        stdout_failed(err)


def write_fully(fd: int, data: bytes) -> None:
    """Every byte, however many writes it takes; a failed one raises (EPIPE, ENOSPC, EBADF)."""
    view, done = memoryview(data), 0
    while done < len(data):
        done += os.write(fd, view[done:])


class ClosedStdout(io.TextIOBase):
    """What sys.stdout becomes when descriptor 1 was closed (`>&-`; Python then sets it to
    None and click.echo would drop every line): each write fails as a closed one does."""

    encoding, errors = "utf-8", "strict"

    def writable(self) -> bool:
        return True

    def write(self, text) -> int:
        raise OSError(errno.EBADF, "closed")


def stdout_failed(err: OSError):
    """A write to standard output failed: a closed pipe ends the run quietly with status
    141 (as any Unix tool killed by SIGPIPE); a full or closed stdout is an OutputError.
    Standard output then points at /dev/null, so Python's flush at exit cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
    if isinstance(err, BrokenPipeError):
        sys.exit(BROKEN_PIPE_STATUS)
    reason = {errno.ENOSPC: "no space left on the device", errno.EBADF: "it is closed"}.get(
        err.errno, err.strerror or str(err))
    raise OutputError(f"cannot write to standard output: {reason}; give -o FILE") from None
