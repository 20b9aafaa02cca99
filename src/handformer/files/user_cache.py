"""The user's cache folder (``$XDG_CACHE_HOME/handformer``, else ``~/.cache/handformer``):
files that spare a later run some work (engine/initial_cache.py's weights, the page's random
draws in render/html/kept_draws.py, and the conversions of files/kept_table.py: the MathML of
render/common/mathml_cache.py, the page's line breaks and glossary matches).

A file there is read only if the user owns it and nobody else may write it, and written whole
or not at all, private to the user. One that cannot be read or written is skipped, never an
error: the run then does the work itself.
"""

from __future__ import annotations

import os
import stat


def path(name: str) -> str:
    """Where the cache file ``name`` lives."""
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(home, "handformer", name)


MAX_BYTES = 16 << 20  # the largest file read: every file here is written far smaller


def read(file: str) -> bytes | None:
    """The file's bytes, if it is a regular file of at most ``MAX_BYTES`` that the user owns
    and nobody else may write; else None. Opened without blocking, so that a FIFO put in its
    place is refused rather than waited on."""
    try:
        with os.fdopen(os.open(file, os.O_RDONLY | os.O_NONBLOCK), "rb") as f:
            info = os.fstat(f.fileno())
            if info.st_uid != os.getuid() or info.st_mode & 0o022:
                return None  # someone else's file, or one others may write: not trusted
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
                return None  # a FIFO or a device, or a size no cache file of ours reaches
            return f.read()
    except OSError:
        return None


def write(file: str, data: bytes) -> None:
    """Write the file whole or not at all: a temporary file beside it (mode 600, in a folder
    of mode 700), then a rename over it."""
    import tempfile  # only when writing: its import costs more than reading a file

    folder = os.path.dirname(file)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=folder, prefix=os.path.basename(file) + ".",
                                    suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temp, file)
    except OSError:
        try:
            os.remove(temp)
        except OSError:
            pass
