"""Files in and out: the one reader (UTF-8, a clear error naming the file) and the one writer.

Every output handformer writes (pages, tapes, figures, weights, checkpoints, plain text) goes
through ``atomic_write``: a temporary file in the target's folder, fsync, rename over the old
one, so a run stopped half-way, or a full disk, leaves the previous file whole. Every OS error
on the way becomes an ``OutputError`` (exit 2 on the command line) that says what to change.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

from . import limits
from .config import HandformerError
from .limits import LimitError, check_file


class OutputError(HandformerError):
    """A file that cannot be written where it was asked for."""


class InputError(HandformerError):
    """A file that cannot be read."""


_WHY = {
    errno.ENOENT: "its folder does not exist",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.EISDIR: "it is a folder; give a file name",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "the file system is read-only",
    errno.ENOSPC: "no space left on the device (an older file there is unchanged)",
    errno.EDQUOT: "disk quota exceeded (an older file there is unchanged)",
}


def _why(err: OSError, path: Path | None = None) -> str:
    if err.errno == errno.ENOTDIR and path is not None:
        blocking = next((p for p in path.parents if p.is_file()), None)
        if blocking is not None:
            return f"{str(blocking)!r} is a file, not a folder"
    return _WHY.get(err.errno, err.strerror or str(err))


def atomic_write(path, data: bytes | str) -> None:
    """Write a file whole or not at all: temporary file, fsync, rename over the old one.

    Text is written as UTF-8. A path that exists but is no regular file (/dev/null, a pipe) is
    written through: renaming over it would replace the device itself.
    """
    path = Path(path)
    data = data.encode("utf-8") if isinstance(data, str) else data
    if path.is_dir():
        raise OutputError(f"{str(path)!r} is a folder; give a file name")
    try:
        if path.exists() and not path.is_file():
            with open(path, "wb") as f:
                f.write(data)
            return
        _replace(path, data)
    except OSError as err:
        raise OutputError(f"cannot write {str(path)!r}: {_why(err, path)}") from None


def _replace(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        try:
            tmp.unlink()
        except OSError:  # renamed into place, or never created
            pass


def write_stream(stream, text: str) -> None:
    """Write and flush in one go; a reader that went away (`| head`) ends the output quietly."""
    try:
        stream.write(text)
        stream.flush()
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", "?")
        raise OutputError(f"the terminal's encoding ({encoding}) cannot show the "
                          "walkthrough's characters: set PYTHONIOENCODING=utf-8, or write "
                          "a file with -o FILE") from None
    except BrokenPipeError:
        # stdout to /dev/null, so that Python's flush at exit does not fail a second time.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)


def read_bytes(path, what: str = "file", error: type[HandformerError] = InputError,
               limit: str = "file_mib", streams: bool = True) -> bytes:
    """The bytes of a file, no more than the limit called ``limit`` (limits.py) allows: a
    regular file is refused by its size before it is read, a device or a pipe (/dev/zero) by
    reading one byte past the limit; ``streams=False`` refuses those outright (binary formats
    are files). A missing or unreadable file raises ``error`` naming ``what``."""
    path = Path(path)
    try:
        check_file(path, limit, what)
        if path.is_file():
            return path.read_bytes()  # its size is checked; read(n) would reserve n bytes
        if not streams and path.exists():
            raise LimitError(f"{what} {str(path)!r} is not a regular file (a device or a pipe)")
        return _read_stream(path, limit, what)
    except FileNotFoundError:
        raise error(f"{what} {str(path)!r} does not exist") from None
    except OSError as err:
        raise error(f"cannot read {what} {str(path)!r}: {_why(err)}") from None


def _read_stream(path: Path, name: str, what: str) -> bytes:
    """At most one byte past the limit of a device or a pipe, a MiB at a time."""
    bound = limits.limit(name) * limits.MIB
    chunks, total = [], 0
    with open(path, "rb") as f:
        while total <= bound:
            chunk = f.read(min(limits.MIB, bound + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    if total > bound:
        raise LimitError(f"{what} {str(path)!r} holds more than the limit of "
                         f"{bound // limits.MIB:,} MiB; if this is meant, raise it: "
                         f"{limits.ENV}={name}=...")
    return b"".join(chunks)


def read_text(path, what: str = "file", error: type[HandformerError] = InputError,
              limit: str = "text_mib") -> str:
    """A UTF-8 file's text (a byte-order mark dropped), no larger than the limit ``limit``;
    anything else raises ``error``."""
    raw = read_bytes(path, what, error, limit)
    try:
        return raw.decode("utf-8-sig")  # a byte-order mark (Windows editors) is not text
    except UnicodeDecodeError as err:
        raise error(f"{what} {str(path)!r} is not UTF-8 (byte {err.start}); save it as UTF-8"
                    ) from None
