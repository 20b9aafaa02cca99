"""Files in and out: the one reader (UTF-8, a clear error naming the file) and the one writer.

Every output handformer writes (pages, tapes, figures, weights, checkpoints, plain text) goes
through ``atomic_write``: a temporary file created exclusively in the target's folder
(io_temp), fsync, rename over the old one, so a run stopped half-way, or a full disk, leaves
the previous file whole. Targets that must not be replaced (read-only, a link to a file, an
input of the command) are refused before any work (``check_output``). Every OS error on the way
becomes an ``OutputError`` (exit 2 on the command line) that says what to change. Failures of
standard output end here too (``stdout_failed``). docs/security.md ("The writer") has the
whole list.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
from pathlib import Path

from .. import limits
from ..errors import HandformerError, InputError, OutputError  # noqa: F401  (raised here)
from ..limits import LimitError, check_file

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


def os_reason(err: OSError, path: Path | None = None) -> str:
    """What an OS error means for ``path``, in words a user can act on."""
    if err.errno == errno.ENOTDIR and path is not None:
        blocking = next((p for p in path.parents if p.is_file()), None)
        if blocking is not None:
            return f"{str(blocking)!r} is a file, not a folder"
    return _WHY.get(err.errno, err.strerror or str(err))


def atomic_write(path, data: bytes | str, inputs: dict | None = None) -> None:
    """Write a file whole or not at all: temporary file, fsync, rename over the old one.

    Text is written as UTF-8. The old file's mode stays (a new file gets the umask's). Refused,
    before a byte is written: a folder, a read-only file, a symbolic link to a file, and one of
    ``inputs`` (what the command reads, by flag). A path that exists but is no regular file
    (/dev/null, a pipe, /dev/stdout) is written through: renaming over it would replace the
    device itself.
    """
    path = Path(path)
    data = data.encode("utf-8") if isinstance(data, str) else data
    try:
        if check_output(path, inputs) == "through":
            _write_through(path, data)
        else:
            _replace(path, data)
    except OSError as err:
        raise OutputError(f"cannot write {str(path)!r}: {os_reason(err, path)}") from None


def check_output(path, inputs: dict | None = None) -> str:
    """Whether ``path`` may be written: "new", "replace" or "through" (a device); anything
    else raises OutputError naming the reason. Run it before the work, so a refusal costs
    nothing, and again (atomic_write does) just before writing."""
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        _check_folder(path)
        return "new"
    except OSError as err:
        raise OutputError(f"cannot write {str(path)!r}: {os_reason(err, path)}") from None
    if stat.S_ISLNK(st.st_mode):
        return _check_link(path)
    if stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{str(path)!r} is a folder; give a file name")
    if not stat.S_ISREG(st.st_mode):
        return "through"
    if not st.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise OutputError(f"cannot write {str(path)!r}: it is read-only (no write permission); "
                          "make it writable (chmod u+w) or give another name")
    for flag, given in (inputs or {}).items():
        if given is not None and _same_file(path, given):
            raise OutputError(f"cannot write {str(path)!r}: it is the {flag} this command "
                              "reads; give another output name")
    return "replace"


def _check_folder(path: Path) -> None:
    folder = path.parent
    try:
        if not stat.S_ISDIR(os.stat(folder).st_mode):
            raise OSError(errno.ENOTDIR, "not a folder")
    except OSError as err:
        raise OutputError(f"cannot write {str(path)!r}: {os_reason(err, path)}") from None


def _check_link(path: Path) -> str:
    """A link to a device or a stream (/dev/stdout) is written through; a link to a file, or
    to nothing, is refused: following it is how a planted link redirects the write."""
    target = os.path.realpath(path)
    if _is_system_stream(path):
        return "through"
    try:
        if not stat.S_ISREG(os.stat(path).st_mode) and not os.path.isdir(path):
            return "through"
    except OSError:
        pass
    raise OutputError(f"cannot write {str(path)!r}: it is a symbolic link (to {target!r}); "
                      "handformer does not write through links: give the real path")


def _is_system_stream(path: Path) -> bool:
    """/dev/stdout, /dev/fd/N, /proc/self/fd/N: the system's names of open streams."""
    return os.path.abspath(path).startswith(("/dev/", "/proc/"))


def _same_file(path: Path, other) -> bool:
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False


def _write_through(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)  # never creates a file
    with os.fdopen(fd, "wb") as f:
        if stat.S_ISREG(os.fstat(fd).st_mode) and not _is_system_stream(path):  # swapped
            raise OSError(errno.EEXIST, "it changed while being written; try again")
        f.write(data)


def _replace(path: Path, data: bytes) -> None:
    from . import temp as io_temp  # here: a walk to the terminal never writes a file

    io_temp.remove_stale(path.parent)
    old = _stat_or_none(path)
    fd, tmp = io_temp.create(path)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            _keep_owner_and_mode(f.fileno(), old)
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:  # a full disk, Ctrl-C, anything: no temporary file stays behind
        io_temp.remove(tmp)
        raise


def _stat_or_none(path: Path):
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


def _keep_owner_and_mode(fd: int, old) -> None:
    if old is None:
        from .temp import new_file_mode

        os.fchmod(fd, new_file_mode())
        return
    if os.geteuid() == 0 and (old.st_uid, old.st_gid) != (0, 0):
        os.fchown(fd, old.st_uid, old.st_gid)  # root rewriting a user's file leaves it theirs
    os.fchmod(fd, stat.S_IMODE(old.st_mode))


BROKEN_PIPE_STATUS = 141  # 128 + SIGPIPE: what a shell reports for `yes | head -1`


def write_stream(stream, text: str) -> None:
    """Write and flush in one go; a reader that went away (`| head`) ends the run quietly."""
    try:
        stream.write(text)
        stream.flush()
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", "?")
        raise OutputError(f"the terminal's encoding ({encoding}) cannot show the "
                          "walkthrough's characters: set PYTHONIOENCODING=utf-8, or write "
                          "a file with -o FILE") from None
    except OSError as err:
        stdout_failed(err)


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
        raise error(f"cannot read {what} {str(path)!r}: {os_reason(err)}") from None


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
