"""Formulas already converted to MathML, kept between runs.

A page's formulas are the same from one run to the next, and converting them (with
latex2mathml's import) costs about as much as rendering the rest of the page. So the converted
MathML is kept in one JSON file in the user's cache folder (``$XDG_CACHE_HOME/handformer`` or
``~/.cache/handformer``), named by a hash of what makes the conversion (this package's converter
and allow-list sources, latex2mathml's sources and symbol table): changing any of them starts a
new file.
Only a file the user owns and nobody else may write is read; one that cannot be read or written
is skipped, never an error. Formulas that fail to convert are never kept.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import json
import os
import tempfile
from pathlib import Path

LIMIT = 20_000  # formulas kept at most (a long-running server converts many)

_known: dict[str, str] | None = None
_added = False


def lookup(key: str) -> str | None:
    """The MathML kept for ``key`` (the formula and its display mode), or None."""
    return _table().get(key)


def keep(key: str, mathml: str) -> None:
    """Remember a conversion; written to the file once, when the process ends."""
    global _added
    table = _table()
    if len(table) < LIMIT:
        table[key] = mathml
        if not _added:
            _added = True
            atexit.register(_save)


def _table() -> dict[str, str]:
    global _known
    if _known is None:
        _known = _read(_path())
    return _known


def _path() -> Path | None:
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    stamp = _stamp()
    return Path(home) / "handformer" / f"mathml-{stamp}.json" if stamp else None


def _stamp() -> str | None:
    """A hash of the sources that decide each conversion; None if latex2mathml is absent."""
    spec = importlib.util.find_spec("latex2mathml")
    if spec is None or not spec.submodule_search_locations:
        return None
    here, theirs = Path(__file__).parent, Path(spec.submodule_search_locations[0])
    digest = hashlib.sha256()
    try:
        for source in (here / "tex.py", here / "sanitize.py", *sorted(theirs.glob("*.py")),
                       theirs / "unimathsymbols.txt"):
            digest.update(source.read_bytes())
    except OSError:
        return None
    return digest.hexdigest()[:16]


def _read(path: Path | None) -> dict[str, str]:
    try:
        info = path.stat()
        if info.st_uid != os.getuid() or info.st_mode & 0o022:
            return {}  # someone else's file, or one others may write: not trusted
        table = json.loads(path.read_text(encoding="utf-8"))
    except (AttributeError, OSError, ValueError):
        return {}
    if not isinstance(table, dict):
        return {}
    return {k: v for k, v in table.items() if isinstance(k, str) and isinstance(v, str)}


def _save() -> None:
    path = _path()
    if path is None or _known is None:
        return
    merged = dict(list({**_read(path), **_known}.items())[:LIMIT])
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        out = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent,
                                          prefix=path.name, suffix=".tmp", delete=False)
    except OSError:
        return
    try:
        with out:
            json.dump(merged, out, ensure_ascii=False)
        os.chmod(out.name, 0o600)
        os.replace(out.name, path)
    except OSError:
        Path(out.name).unlink(missing_ok=True)
