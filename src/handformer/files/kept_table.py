"""Conversions of text to text kept between runs: a formula's MathML (render/common/
mathml_cache.py), a text's line breaks on the page (render/html/wbr.py) and where the
glossary's terms occur in it (render/html/glossary.py).

A page converts the same texts from one run to the next, and in a fresh process that is much of
its start-up. So a table of conversions lives in one file of the user's cache folder
(files/user_cache.py), named by a stamp: a checksum of the sources that decide each conversion
(``sources_stamp``), so changing any of them starts a new file. It stays small
(``file_chars``), and it is two JSON tables, one per line (JSON Lines, hence ``.jsonl``): the
conversions the last run that wrote it used, then the others it held, as many as fit. A run
reads the first; it parses the second only when the first lacks a text. So a page made again
reads its own conversions, not those of every other page the user made (a full file costs
some 10 ms a page to parse). The file is written once, when the process ends, and only if the
run added a conversion or used one of the second line (next time it is in the first), so that
a page made again writes no file. Only a file the user owns and nobody else may write is
read; one that cannot be read or written is skipped, never an error.
"""

from __future__ import annotations

import atexit
import json
import os
import zlib
from collections.abc import Callable

from . import user_cache


class KeptTable:
    """Conversions (key → value, both text) kept in ``<name>-<stamp>.jsonl``; ``stamp`` gives
    the stamp, or None when there is nothing to name the file by (then nothing is kept on
    disk). ``limit`` conversions in memory at most (a long-running server converts many)."""

    def __init__(self, name: str, stamp: Callable[[], str | None], limit: int, file_chars: int):
        self.name, self._stamp = name, stamp
        self.limit, self.file_chars = limit, file_chars
        self._known: dict[str, str] | None = None
        self._older: bytes | None = None  # the file's second line, until a lookup needs it
        self._used: dict[str, None] = {}  # the keys this run looked up or added, in order
        self._saving = False

    def lookup(self, key: str) -> str | None:
        """The value kept for ``key``, or None."""
        found = self._table().get(key)
        if found is None and self._older is not None:
            found = self._whole_table().get(key)
            if found is not None:  # next time, in the first line
                self._save_at_exit()
        if found is not None:
            self._used[key] = None
        return found

    def keep(self, key: str, value: str) -> None:
        """Remember a conversion; written to the file once, when the process ends."""
        table = self._table()
        if len(table) < self.limit:
            table[key] = value
            self._used[key] = None
            self._save_at_exit()

    def path(self) -> str | None:
        stamp = self._stamp()
        return user_cache.path(f"{self.name}-{stamp}.jsonl") if stamp else None

    def save(self) -> None:
        """Write the file: this run's conversions first, then the others it held, that fit."""
        path = self.path()
        if path is None or self._known is None:
            return
        recent, older = self._kept({**read_table(path), **self._whole_table()})
        user_cache.write(path, (_dumps(recent) + "\n" + _dumps(older)).encode("utf-8"))

    def _save_at_exit(self) -> None:
        if not self._saving:
            self._saving = True
            atexit.register(self.save)

    def _table(self) -> dict[str, str]:
        if self._known is None:
            recent, _, older = _lines(self.path())
            self._known, self._older = _parsed(recent), older or None
            self._check_size()
        return self._known

    def _whole_table(self) -> dict[str, str]:
        """All the file's conversions and this run's: the second line parsed, once, after the
        first (a conversion this run made or found keeps its place)."""
        table = self._table()
        if self._older is not None:
            older, self._older = self._older, None
            _add_older(table, older)
            self._check_size()
        return table

    def _check_size(self) -> None:
        if _size(self._known) > self.file_chars:  # a file from before the limit: cut it
            self._save_at_exit()

    def _kept(self, table: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
        """The file's two lines: the conversions this run used, then the others, that fit."""
        recent, older, size = {}, {}, 0
        for key in dict.fromkeys([*(k for k in self._used if k in table), *table]):
            if size + len(key) + len(table[key]) <= self.file_chars:
                (recent if key in self._used else older)[key] = table[key]
                size += len(key) + len(table[key])
        return recent, older


def _size(table: dict[str, str]) -> int:
    return sum(len(k) + len(v) for k, v in table.items())


def _dumps(table: dict[str, str]) -> str:
    return json.dumps(table, ensure_ascii=False)  # escapes every newline: one line each


def read_table(path: str | None) -> dict[str, str]:
    """Both lines of the file as one table, the first's conversions first; empty if the file
    is absent or not the user's own."""
    recent, _, older = _lines(path)
    return _add_older(_parsed(recent), older)


def _add_older(table: dict[str, str], line: bytes) -> dict[str, str]:
    """``table`` with the conversions of ``line`` it lacks, after its own."""
    for key, value in _parsed(line).items():
        table.setdefault(key, value)
    return table


def _lines(path: str | None) -> tuple[bytes, bytes, bytes]:
    return (user_cache.read(path) or b"").partition(b"\n") if path else (b"", b"", b"")


def _parsed(line: bytes) -> dict[str, str]:
    """One line's table of text to text; empty if it is not JSON (or nested past the parser)
    or not such a table."""
    try:
        table = json.loads(line or b"{}")
    except (ValueError, RecursionError):
        return {}
    if not isinstance(table, dict):
        return {}
    return {k: v for k, v in table.items() if isinstance(k, str) and isinstance(v, str)}


def sources_stamp(sources) -> str | None:
    """A checksum of the files ``sources`` and their length, or None if one cannot be read.
    CRC-32 rather than a cryptographic hash: the stamp only names a cache's file (any change
    to a source starts a new one), and SHA-256 of large sources costs several times what
    reading them does, on every run."""
    checksum = length = 0
    try:
        for source in sources:
            with open(source, "rb") as f:
                data = f.read()
            checksum, length = zlib.crc32(data, checksum), length + len(data)
    except OSError:
        return None
    return f"{checksum:08x}{length:08x}"


def python_sources(folder: str) -> list[str]:
    """The Python files in ``folder``, by name. (os rather than pathlib: pathlib's import, with
    the urllib.parse and ipaddress it brings, costs more than the rest of a stamp.)"""
    return [os.path.join(folder, name) for name in sorted(os.listdir(folder))
            if name.endswith(".py")]
