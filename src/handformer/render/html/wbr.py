"""The page's text made breakable: escaped, with ``<wbr>`` between Chinese words and a no-break
space where a line must not break (the templates' ``wbr`` filter and ``with_breaks`` global).

Finding the breaks of a page's few hundred distinct texts (the word list, the runs of Hanzi,
the glue) was most of its render in a fresh process, so each text's result is kept between
runs (``_KEPT_BREAKS``, files/kept_table.py), named by the sources that decide it.
"""

from __future__ import annotations

import os
from functools import lru_cache

from markupsafe import Markup, escape

from ...files import kept_table
from ..common import breaks, lexicon
from . import grid


def with_breaks(text: str):
    """``text`` escaped, with ``<wbr>`` wherever a line may break between two Hanzi
    (``breaks.hanzi_breaks``): the page's ``word-break:keep-all`` for Chinese lets the browser
    break there, at spaces and at punctuation, and nowhere else inside a word; a no-break
    space where a number meets its measure word or after "=" (``breaks.glue``)."""
    if hasattr(text, "__html__"):
        raise TypeError("the wbr filter takes plain text, not markup (it escapes it itself)")
    return _with_breaks(str(text))


@lru_cache(maxsize=4096)  # a page asks for the same words again and again ("Reads:", titles)
def _with_breaks(text: str):
    html = _KEPT_BREAKS.lookup(text)
    if html is None:
        html = str(_broken(text))
        _KEPT_BREAKS.keep(text, html)
    return Markup(html)


def _broken(text: str):
    """``text`` escaped, given its line breaks: what ``_KEPT_BREAKS`` keeps."""
    pieces = breaks.pieces(breaks.glue(text))
    if len(pieces) < 2:  # nothing to join (most English text): escaped in one C call
        return escape("".join(pieces))
    if grid.holds_reserved(text):
        return Markup("<wbr>").join(pieces)  # escapes each piece
    return Markup("<wbr>".join(pieces))  # nothing to escape: one join, not a Markup per piece


def _breaks_stamp() -> str | None:
    """A checksum of what decides a text's breaks and escapes (kept_table.sources_stamp)."""
    import markupsafe

    here = os.path.dirname(os.path.abspath(__file__))
    common = os.path.join(os.path.dirname(here), "common")
    return kept_table.sources_stamp([
        os.path.join(common, "breaks.py"), os.path.join(common, "lexicon.py"), lexicon.LEXICON,
        os.path.join(here, "grid.py"), os.path.abspath(__file__), markupsafe.__file__])


_KEPT_BREAKS = kept_table.KeptTable("breaks", _breaks_stamp, limit=20_000, file_chars=1 << 19)
