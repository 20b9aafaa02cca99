"""A matrix's table on the page, as one string of HTML: the column labels, then a row of
coloured cells per shown row, ⋯ and ⋮ where the matrix is elided.

A page holds thousands of cells. Drawn by a template each cell cost a loop step, an escape and
a Markup object, which together took longer than the rest of the page; here a row is one join.
The cells' numbers and classes are ours (digits, signs, "inf", class names): they are escaped
only when a row holds a character HTML reserves, which none does, so a row is checked once
instead of each cell being escaped. Labels and notes (words from the user's sentences) are
always escaped. ``cells_by_row`` makes the rows' cells (numbers, colour classes, marks)
for ``table``.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from markupsafe import Markup, escape

from ... import i18n, layout

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
    (label, i, the row's cells as ``cells_by_row`` makes them)."""
    head = "".join('<th class="gap">⋯</th>' if c is None else
                   f'<th data-j="{c[1]}"{_attr("class", c[2])}>{said(c[0])}</th>' for c in cols)
    gap_row = ('<tr class="gap"><th>⋮</th>'
               + "".join("<td>⋱</td>" if c is None else "<td>⋮</td>" for c in cols) + "</tr>\n")
    body = "".join(gap_row if r is None else
                   f'<tr data-i="{r[1]}"><th>{said(r[0])}</th>{r[2]}</tr>\n' for r in rows)
    return Markup(f'<div class="scroll"><table class="grid">\n<thead><tr><th class="corner"></th>'
                  f"{head}</tr></thead>\n<tbody>\n{body}</tbody></table></div>")


def _attr(name: str, value: str) -> str:
    return f' {name}="{escape(value)}"' if value else ""


def holds_reserved(text: str) -> bool:
    """Whether ``text`` holds a character that escaping would replace."""
    return any(char in text for char in RESERVED)


def column_marks(col_idx: list, hl=None, starts: set[int] = frozenset()) -> list[str]:
    """The classes every cell of a shown column carries (gaps skipped): "hk" on a column the
    worked cell reads (``hl``), "gs" on one that begins a group (``starts``: Concat's
    heads)."""
    cols = set(hl.cols) if hl is not None else set()
    return [(" hk" if j in cols else "") + (" gs" if j in starts else "")
            for j in col_idx if j is not None]


def cells_by_row(block: np.ndarray, colours: list[str], masked: list[bool], rows: list[int],
              col_idx: list, precision: int, marks: list[str], hl=None,
              compact: bool = False) -> list[str]:
    """The cells of each shown row (``rows``, whose shown numbers are ``block``), ⋯ in a gap:
    each number in its colour (``colours``, row after row), marked " m" where ``masked``,
    "hc" on the worked cell and "hr" on its row (``hl``), then its column's ``marks``;
    ``compact``: with the shorter text a wide matrix may show. Made for the whole matrix a
    list at a time: a page has thousands of cells."""
    width, values = block.shape[1], block.ravel().tolist()
    texts = layout.numbers(values, precision)
    worked = _worked(hl, rows, col_idx)
    shorter = [_shorter(x, text, precision, k == worked)
               for k, (x, text) in enumerate(zip(values, texts, strict=True))] if compact else []
    if holds_reserved("".join(texts) + "".join(shorter)):  # never for numbers
        texts, shorter = [str(escape(t)) for t in texts], [str(escape(t)) for t in shorter]
    bands = [" hr" if hl is not None and i in hl.rows else "" for i in rows]
    tails = [band + mark for band in bands for mark in marks]
    classes = [f"{colour} m{tail}" if dead else colour + tail
               for colour, dead, tail in zip(colours, masked, tails, strict=True)]
    if worked >= 0:
        classes[worked] = colours[worked] + (" m" if masked[worked] else "") + " hc" + tails[worked]
    if compact:
        cells = [f'<td class="{c}" data-c="{short}">{text}</td>' if short else
                 f'<td class="{c}">{text}</td>'
                 for c, text, short in zip(classes, texts, shorter, strict=True)]
    else:
        cells = [f'<td class="{c}">{text}</td>' for c, text in zip(classes, texts, strict=True)]
    by_row = [cells[r * width:(r + 1) * width] for r in range(len(rows))]
    if width < len(col_idx):  # the gaps
        return ["".join(GAP_CELL if j is None else next(row) for j in col_idx)
                for row in map(iter, by_row)]
    return ["".join(row) for row in by_row]


def _worked(hl, rows: list[int], col_idx: list) -> int:
    """Where the worked cell is among the shown cells, row after row (-1: not shown)."""
    cols = [j for j in col_idx if j is not None]
    if hl is None or not isinstance(hl.cell, tuple) or len(hl.cell) != 2:
        return -1
    i, j = hl.cell
    return rows.index(i) * len(cols) + cols.index(j) if i in rows and j in cols else -1


def _shorter(x: float, text: str, precision: int, worked: bool) -> str:
    """A wide matrix's shorter number for ``x`` ("" where it is ``text`` itself, and in the
    worked cell, which keeps its whole number)."""
    short = "" if worked else layout.number(x, short_decimals(x, precision))
    return "" if short == text else short


def short_decimals(x: float, precision: int) -> int:
    """Decimals of a wide matrix's shorter number: one fewer, and one fewer again for each
    digit before the point past the first, so that none has more than ``precision`` digits
    (0.381 → 0.38, 78.124 → 78.1, 100.03 → 100)."""
    whole = 1 if not math.isfinite(x) or abs(x) < 10 else int(math.log10(abs(x))) + 1
    return max(0, precision - whole)
