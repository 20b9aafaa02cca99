"""Formulas already converted to MathML, kept between runs.

A page's formulas are the same from one run to the next, and converting them (with
latex2mathml's import) costs about as much as rendering the rest of the page. So the converted
MathML is kept in one file in the user's cache folder (``$XDG_CACHE_HOME/handformer`` or
``~/.cache/handformer``), named by a checksum of what makes the conversion (this package's converter
and allow-list sources, latex2mathml's sources and symbol table): changing any of them starts a
new file. It stays small (``FILE_BYTES``; a page's own formulas take tens of kilobytes; the file
had once grown to megabytes of other runs' matrices, most of a page's start-up), and a run
parses the formulas of other pages only when it needs one. How it is kept: files/kept_table.py. Formulas that fail to convert
are never kept.
"""

from __future__ import annotations

import importlib.util
import os

from ...files.kept_table import KeptTable, python_sources, sources_stamp

LIMIT = 20_000  # formulas kept in memory at most (a long-running server converts many)
FILE_BYTES = 1 << 19  # the file's formulas and MathML, in characters, at most


def _stamp() -> str | None:
    """A checksum of the sources that decide each conversion; None if latex2mathml is absent."""
    spec = importlib.util.find_spec("latex2mathml")
    if spec is None or not spec.submodule_search_locations:
        return None
    here, theirs = os.path.dirname(__file__), spec.submodule_search_locations[0]
    return sources_stamp([os.path.join(here, "tex.py"), os.path.join(here, "sanitize.py"),
                          *python_sources(theirs), os.path.join(theirs, "unimathsymbols.txt")])


_FORMULAS = KeptTable("mathml", _stamp, LIMIT, FILE_BYTES)
lookup = _FORMULAS.lookup  # the MathML kept for a key (the formula and its display mode), or None
keep = _FORMULAS.keep  # remember a conversion; written to the file when the process ends
