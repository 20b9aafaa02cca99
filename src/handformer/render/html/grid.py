"""A matrix's table on the page, as one string of HTML: the column labels, then a row of
coloured cells per shown row, ⋯ and ⋮ where the matrix is elided.

A page holds thousands of cells. Drawn by a template each cell cost a loop step, an escape and
a Markup object, which together took longer than the rest of the page; here a row is one join.
The cells' numbers and classes are ours (digits, signs, "inf", class names): they are escaped
only when a row holds a character HTML reserves, which none does, so a row is checked once
instead of each cell being escaped. Labels and notes (words from the user's sentences) are
always escaped. ``row_cells`` makes a row's cells (text, colour classes, marks) from its
numbers for ``table``.
"""

from __future__ import annotations

import math
from functools import lru_cache

from markupsafe import Markup, escape

from ... import i18n, layout
from ..common import grids

RESERVED = ("&", "<", ">", '"', "'")  # what markupsafe.escape replaces
GAP_CELL = '<td class="gap">⋯</td>'


@lru_cache(maxsize=16)
def _opening(lang: str) -> str:
    """The span that holds one language's words: ``<span class="l-en" lang="en">``."""
    return f'<span class="l-{escape(lang)}" lang="{escape(i18n.t(lang, "lang.tag"))}">'


def said(label: str | dict[str, str]) -> str:
    """A label as one text, or (a dict: by language) a span per language, each shown in its
    language (the page's language toggle)."""
    if isinstance(label, dict):
        return "".join(f"{_opening(lang)}{escape(text)}</span>" for lang, text in label.items())
    return str(escape(label))


def table(cols: list, rows: list) -> Markup:
    """``cols``: None for a gap, else (label, j, CSS classes); ``rows``: None for a gap, else
    (label, i, cells), a cell None in a gap, else (text, CSS classes, shorter text or "")."""
    head = "".join('<th class="gap">⋯</th>' if c is None else
                   f'<th data-j="{c[1]}"{_attr("class", c[2])}>{said(c[0])}</th>' for c in cols)
    gap_row = ('<tr class="gap"><th>⋮</th>'
               + "".join("<td>⋱</td>" if c is None else "<td>⋮</td>" for c in cols) + "</tr>\n")
    body = "".join(gap_row if r is None else
                   f'<tr data-i="{r[1]}"><th>{said(r[0])}</th>{_cells(r[2])}</tr>\n' for r in rows)
    return Markup(f'<div class="scroll"><table class="grid">\n<thead><tr><th class="corner"></th>'
                  f"{head}</tr></thead>\n<tbody>\n{body}</tbody></table></div>")


def _attr(name: str, value: str) -> str:
    return f' {name}="{escape(value)}"' if value else ""


def holds_reserved(text: str) -> bool:
    """Whether ``text`` holds a character that escaping would replace."""
    return any(char in text for char in RESERVED)


def _cells(cells: list) -> str:
    texts = "".join(part for c in cells if c is not None for part in c)
    if holds_reserved(texts):  # never for numbers: escape them one by one
        cells = [c if c is None else tuple(map(escape, c)) for c in cells]
    return "".join(GAP_CELL if c is None else
                   f'<td class="{c[1]}" data-c="{c[2]}">{c[0]}</td>' if c[2] else
                   f'<td class="{c[1]}">{c[0]}</td>' for c in cells)


def row_cells(values: list[float], classes: list[str], i: int, col_idx: list, precision: int,
              kind: str, hl=None, starts: set[int] = frozenset(), compact: bool = False) -> list:
    """(text, CSS classes, shorter text or "") of each shown cell of row i (``values``: the
    whole row; ``classes``: the shown cells' colours); None in a gap; ``starts``: the columns
    that begin a group (Concat's heads)."""
    band = " hr" if hl is not None and i in hl.rows else ""
    picked = [values[j] for j in col_idx if j is not None]
    texts, classes = iter(layout.numbers(picked, precision)), iter(classes)
    out: list = []
    for j in col_idx:
        if j is None:
            out.append(None)
            continue
        x, text = values[j], next(texts)
        masked = " m" if grids.is_masked(x, kind) else ""
        marks = "" if hl is None else \
            (" hc" if hl.cell == (i, j) else "") + band + (" hk" if j in hl.cols else "")
        short = layout.number(x, short_decimals(x, precision)) \
            if compact and " hc" not in marks else ""
        out.append((text, next(classes) + masked + marks + (" gs" if j in starts else ""),
                    "" if short == text else short))
    return out


def short_decimals(x: float, precision: int) -> int:
    """Decimals of a wide matrix's shorter number: one fewer, and one fewer again for each
    digit before the point past the first, so that none has more than ``precision`` digits
    (0.381 → 0.38, 78.124 → 78.1, 100.03 → 100)."""
    whole = 1 if not math.isfinite(x) or abs(x) < 10 else int(math.log10(abs(x))) + 1
    return max(0, precision - whole)
