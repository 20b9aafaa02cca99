"""Files in and out: the one reader (UTF-8, a clear error naming the file) and the one writer.

Every output handformer writes (pages, tapes, figures, weights, checkpoints, plain text) goes
through ``atomic_write``: a temporary file created exclusively in the target's folder
(temp.py), fsync, rename over the old one, so a run stopped half-way, or a full disk, leaves
the previous file whole. Targets that must not be replaced (read-only, a link to a file, an
input of the command) are refused before any work (``check_output``). Every OS error on the way
becomes an ``OutputError`` (exit 2 on the command line) that says what to change. Failures of
standard output are stdout.py's. docs/security.md ("The writer") has the
whole list.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from typing import TYPE_CHECKING

from .. import limits
from ..errors import HandformerError, InputError, OutputError  # noqa: F401  (raised here)
from ..limits import LimitError, check_file
from . import devices

if TYPE_CHECKING:
    from pathlib import Path


def _path(name) -> Path:
    """``Path(name)``, pathlib imported only when a file is named: a walk to the terminal,
    the most common run, never pays for it."""
    from pathlib import Path

    return Path(name)

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

    Text is written as UTF-8. The old file's mode stays (a new file gets the umask's). What
    the final target *is* decides, never how its path is spelled: a regular file is replaced,
    a character device or a pipe is written through, one of the system's stream names
    (/dev/stdout, /dev/fd/N) writes to that open stream, and everything else (a folder, a
    read-only file, a link to a file, one of ``inputs``) is refused before a byte is written.
    """
    path_text = str(path)
    path = _path(path)
    data = _utf8(data, path_text)
    try:
        how = check_output(path_text, inputs)
        if how == "stream":
            write_all(os.dup(stream_fd(path)), data)
        elif how == "through":
            write_all(devices.open_for_writing(path), data)
        else:
            _replace(path, data)
    except OSError as err:
        raise OutputError(f"cannot write {path_text!r}: {os_reason(err, path)}") from None


def _utf8(data: bytes | str, path_text: str) -> bytes:
    if isinstance(data, bytes):
        return data
    try:
        return data.encode("utf-8")
    except UnicodeEncodeError as err:
        raise OutputError(f"cannot write {path_text!r}: the text holds a lone surrogate "
                          f"(U+{ord(err.object[err.start]):04X}), which is not a character"
                          ) from None


def check_output(path, inputs: dict | None = None) -> str:
    """Whether ``path`` may be written: "new", "replace", "through" (a character device or a
    pipe, named or reached by a link) or "stream" (/dev/stdout and its kin); anything else
    raises OutputError naming the reason. Run it before the work, so a refusal costs nothing,
    and again (atomic_write does) just before writing."""
    if str(path).endswith(("/", "/.")):
        raise OutputError(f"{str(path)!r} names a folder (it ends with /); give a file name")
    path = _path(path)
    if stream_fd(path) is not None:
        return "stream"
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
        return _check_special(path, st)
    _check_writable(path, st, inputs)
    return "replace"


def _check_writable(path: Path, st, inputs: dict | None) -> None:
    if not st.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise OutputError(f"cannot write {str(path)!r}: it is read-only (no write permission); "
                          "make it writable (chmod u+w) or give another name")
    for flag, given in (inputs or {}).items():
        if given is not None and _same_file(path, given):
            raise OutputError(f"cannot write {str(path)!r}: it is the {flag} this command "
                              "reads; give another output name")


def _check_folder(path: Path) -> None:
    folder = path.parent
    try:
        if not stat.S_ISDIR(os.stat(folder).st_mode):
            raise OSError(errno.ENOTDIR, "not a folder")
    except OSError as err:
        raise OutputError(f"cannot write {str(path)!r}: {os_reason(err, path)}") from None


def _check_link(path: Path) -> str:
    """A link is judged by what it finally reaches, wherever it lies (/dev/shm, /proc/self/cwd
    too): a character device or a pipe is written through; a file, a folder or nothing is
    refused, since following a link is how a planted one redirects the write."""
    target = os.path.realpath(path)
    try:
        st = os.stat(path)
    except OSError:
        st = None
    if st is not None and devices.writable_through(st):
        return "through"
    raise OutputError(f"cannot write {str(path)!r}: it is a symbolic link (to {target!r}); "
                      "handformer does not write through links: give the real path")


def _check_special(path: Path, st) -> str:
    if devices.writable_through(st):
        return "through"
    raise OutputError(f"cannot write {str(path)!r}: it is {devices.kind(st)}, not a file, a "
                      "character device or a pipe")


_STREAM_NAME = re.compile(r"^/dev/(?:std(?P<std>out|err)|fd/(?P<fd>\d+))$"
                          r"|^/proc/self/fd/(?P<proc>\d+)$")


def stream_fd(path) -> int | None:
    """The descriptor that /dev/stdout, /dev/stderr, /dev/fd/N or /proc/self/fd/N names (the
    exact spelling, after ``..`` is resolved), or None for any other path."""
    found = _STREAM_NAME.match(os.path.normpath(os.path.abspath(path)))
    if found is None:
        return None
    if found["std"]:
        return 1 if found["std"] == "out" else 2
    return int(found["fd"] or found["proc"])


def _same_file(path: Path, other) -> bool:
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False


def write_all(fd: int, data: bytes) -> None:
    """Every byte to ``fd`` (a device, a pipe, a duplicated stream), then close it."""
    from .stdout import write_fully

    try:
        write_fully(fd, data)
    finally:
        os.close(fd)


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


def read_bytes(path, what: str = "file", error: type[HandformerError] = InputError,
               limit: str = "file_mib", streams: bool = True) -> bytes:
    """The bytes of a file, no more than the limit called ``limit`` (limits.py) allows: a
    regular file is refused by its size before it is read, a device or a pipe (/dev/zero) by
    reading one byte past the limit; ``streams=False`` refuses those outright (binary formats
    are files). A missing or unreadable file raises ``error`` naming ``what``."""
    path = _path(path)
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
    """At most one byte past the limit of a device or a pipe (devices.read_stream: a pipe
    that nobody writes ends after stream_seconds, not never)."""
    bound = limits.limit(name) * limits.MIB
    try:
        data = devices.read_stream(path, bound)
    except devices.StreamTimeout as err:
        raise LimitError(f"cannot read {what} {str(path)!r}: {err.strerror}") from None
    if len(data) > bound:
        raise LimitError(f"{what} {str(path)!r} holds more than the limit of "
                         f"{bound // limits.MIB:,} MiB; if this is meant, raise it: "
                         f"{limits.ENV}={name}=...")
    return data


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
