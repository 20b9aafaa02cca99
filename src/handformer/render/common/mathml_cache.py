"""Formulas already converted to MathML, kept between runs.

A page's formulas are the same from one run to the next, and converting them (with
latex2mathml's import) costs about as much as rendering the rest of the page. So the converted
MathML is kept in one JSON file in the user's cache folder (``$XDG_CACHE_HOME/handformer`` or
``~/.cache/handformer``), named by a checksum of what makes the conversion (this package's converter
and allow-list sources, latex2mathml's sources and symbol table): changing any of them starts a
new file.
The file is read whole every run, so it stays small (``FILE_BYTES``): a run writes the formulas
it used first, then the others the file held, as many as fit (a page's own formulas take tens of
kilobytes; the file had grown to megabytes of other runs' matrices, most of a page's start-up).
Only a file the user owns and nobody else may write is read; one that cannot be read or written
is skipped, never an error. Formulas that fail to convert are never kept.
"""

from __future__ import annotations

import atexit
import importlib.util
import json
import os
import zlib

from ...files import user_cache

LIMIT = 20_000  # formulas kept in memory at most (a long-running server converts many)
FILE_BYTES = 1 << 19  # the file's formulas and MathML, in characters, at most

_known: dict[str, str] | None = None
_used: dict[str, None] = {}  # the keys this run looked up or added, in order
_saving = False


def lookup(key: str) -> str | None:
    """The MathML kept for ``key`` (the formula and its display mode), or None."""
    found = _table().get(key)
    if found is not None:
        _used[key] = None
    return found


def keep(key: str, mathml: str) -> None:
    """Remember a conversion; written to the file once, when the process ends."""
    table = _table()
    if len(table) < LIMIT:
        table[key] = mathml
        _used[key] = None
        _save_at_exit()


def _save_at_exit() -> None:
    global _saving
    if not _saving:
        _saving = True
        atexit.register(_save)


def _table() -> dict[str, str]:
    global _known
    if _known is None:
        _known = _read(_path())
        if _size(_known) > FILE_BYTES:  # a file from before the limit: cut it down
            _save_at_exit()
    return _known


def _size(table: dict[str, str]) -> int:
    return sum(len(k) + len(v) for k, v in table.items())


def _kept(table: dict[str, str]) -> dict[str, str]:
    """What the file keeps: this run's formulas, then the others in the file's order, while
    they fit in ``FILE_BYTES``."""
    out, size = {}, 0
    for key in [*(k for k in _used if k in table), *table]:
        if key not in out and size + len(key) + len(table[key]) <= FILE_BYTES:
            out[key] = table[key]
            size += len(key) + len(table[key])
    return out


def _path() -> str | None:
    stamp = _stamp()
    return user_cache.path(f"mathml-{stamp}.json") if stamp else None


def _stamp() -> str | None:
    """A checksum of the sources that decide each conversion, and their length; None if
    latex2mathml is absent. CRC-32 rather than a cryptographic hash: the stamp only names the
    cache's file (any change to a source starts a new one), and SHA-256 of the 200 kB symbol
    table cost several times what reading it does, on every run."""
    spec = importlib.util.find_spec("latex2mathml")
    if spec is None or not spec.submodule_search_locations:
        return None
    here, theirs = os.path.dirname(__file__), spec.submodule_search_locations[0]
    checksum = length = 0
    try:
        for source in (os.path.join(here, "tex.py"), os.path.join(here, "sanitize.py"),
                       *_sources(theirs), os.path.join(theirs, "unimathsymbols.txt")):
            with open(source, "rb") as f:
                data = f.read()
            checksum, length = zlib.crc32(data, checksum), length + len(data)
    except OSError:
        return None
    return f"{checksum:08x}{length:08x}"


def _sources(folder: str) -> list[str]:
    """The Python files in ``folder``, by name. (os rather than pathlib: pathlib's import, with
    the urllib.parse and ipaddress it brings, costs more than the rest of the stamp.)"""
    return [os.path.join(folder, name) for name in sorted(os.listdir(folder))
            if name.endswith(".py")]


def _read(path: str | None) -> dict[str, str]:
    try:
        table = json.loads(user_cache.read(path) or b"{}") if path else {}
    except (ValueError, RecursionError):  # not JSON, or nested past the parser
        return {}
    if not isinstance(table, dict):
        return {}
    return {k: v for k, v in table.items() if isinstance(k, str) and isinstance(v, str)}


def _save() -> None:
    path = _path()
    if path is None or _known is None:
        return
    merged = _kept({**_read(path), **_known})
    user_cache.write(path, json.dumps(merged, ensure_ascii=False).encode("utf-8"))
