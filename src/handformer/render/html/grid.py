"""A matrix's table on the page, as one string of HTML: the column labels, then a row of
coloured cells per shown row, ⋯ and ⋮ where the matrix is elided.

A page holds thousands of cells. Drawn by a template each cell cost a loop step, an escape and
a Markup object, which together took longer than the rest of the page; here a row is one join.
The cells' numbers and classes are ours (digits, signs, "inf", class names): they are escaped
only when a row holds a character HTML reserves, which none does, so a row is checked once
instead of each cell being escaped. Labels and notes (words from the user's sentences) are
always escaped. ``matrix_table`` makes a matrix's table: its labels, and its cells by
``cells_by_row``.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from markupsafe import Markup, escape

from ... import i18n, layout
from ...narrate.document import Matrix
from ..common import colour, grids

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
        return "".join([f"{_opening(lang)}{escaped(text)}</span>" for lang, text in label.items()])
    return escaped(label)


@lru_cache(maxsize=4096, typed=True)  # (typed: a Markup, already safe, is not escaped)
def escaped(text: str) -> str:
    """``escape(text)`` as a plain string, remembered: a page writes the same few labels (its
    tokens, its dimensions) in matrix after matrix, and an escape with its Markup object costs
    several times a look-up here."""
    return str(escape(text))


def table(cols: list, rows: list) -> Markup:
    """``cols``: None for a gap, else (label, j, CSS classes); ``rows``: None for a gap, else
    (label, i, the row's cells as ``cells_by_row`` makes them)."""
    head = _head(tuple(cols)) if all(c is None or isinstance(c[0], str) for c in cols) \
        else _head.__wrapped__(cols)  # a label said by language (a dict) is no cache key
    gap_row = ('<tr class="gap"><th>⋮</th>'
               + "".join(["<td>⋱</td>" if c is None else "<td>⋮</td>" for c in cols])
               + "</tr>\n") if None in rows else ""
    body = "".join([gap_row if r is None else
                    f'<tr data-i="{r[1]}"><th>{said(r[0])}</th>{r[2]}</tr>\n' for r in rows])
    return Markup(f'<div class="scroll"><table class="grid">\n<thead><tr><th class="corner"></th>'
                  f"{head}</tr></thead>\n<tbody>\n{body}</tbody></table></div>")


@lru_cache(maxsize=256)
def _head(cols: tuple) -> str:
    """The header's cells (``table``'s ``cols``), made once for each header: a page repeats
    the same few (its dimensions, its tokens) over matrix after matrix."""
    return "".join(['<th class="gap">⋯</th>' if c is None else
                    f'<th data-j="{c[1]}"{_attr("class", c[2])}>{said(c[0])}</th>' for c in cols])


def _attr(name: str, value: str) -> str:
    return f' {name}="{escaped(value)}"' if value else ""


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


def cells_by_row(block: np.ndarray, colours: list[str], rows: list[int], col_idx: list,
                 precision: int, marks: list[str], hl=None, compact: bool = False) -> list[str]:
    """The cells of each shown row (``rows``, whose shown numbers are ``block``), ⋯ in a gap:
    each number in its colour (``colours``, row after row, " m" included where masked), "hc"
    on the worked cell and "hr" on its row (``hl``), then its column's ``marks``; ``compact``:
    with the shorter text a wide matrix may show. Made for the whole matrix a list at a time:
    a page has thousands of cells."""
    width, values = block.shape[1], block.ravel().tolist()
    texts = numbers(block, values, precision)
    worked = _worked(hl, rows, col_idx)
    shorter = [_shorter(x, text, precision, k == worked)
               for k, (x, text) in enumerate(zip(values, texts, strict=True))] if compact else []
    if holds_reserved("".join(texts) + "".join(shorter)):  # never for numbers
        texts, shorter = [str(escape(t)) for t in texts], [str(escape(t)) for t in shorter]
    tails = _tails(rows, marks, hl)
    if compact:
        cells = [f'<td class="{c}{tail}" data-c="{short}">{text}</td>' if short else
                 f'<td class="{c}{tail}">{text}</td>'
                 for c, tail, text, short in zip(colours, tails, texts, shorter, strict=True)]
    else:
        cells = [f'<td class="{c}{tail}">{text}</td>'
                 for c, tail, text in zip(colours, tails, texts, strict=True)]
    if worked >= 0:  # (its shorter text is its whole one)
        cells[worked] = f'<td class="{colours[worked]} hc{tails[worked]}">{texts[worked]}</td>'
    if width < len(col_idx):  # the gaps
        by_row = (iter(cells[r * width:(r + 1) * width]) for r in range(len(rows)))
        return ["".join([GAP_CELL if j is None else next(row) for j in col_idx])
                for row in by_row]
    return ["".join(cells[r * width:(r + 1) * width]) for r in range(len(rows))]


WRITTEN_BLOCKS = 4096  # blocks whose numbers ``numbers`` keeps written, at most
_written: dict[tuple[str, bytes, int], tuple[str, ...]] = {}


def numbers(block: np.ndarray, values: list[float], precision: int) -> tuple[str, ...]:
    """``layout.numbers`` of a block's numbers (``values``), remembered by the block's bytes:
    a page draws many tensors in more than one panel (a step's output is the next one's input,
    about 40 % of its cells), and writing a number costs more than looking up its block. The
    key holds the dtype too: the bytes of two float32 numbers are those of one float64."""
    key = (block.dtype.str, block.tobytes(), precision)
    texts = _written.get(key)
    if texts is None:
        texts = tuple(layout.numbers(values, precision))
        if len(_written) < WRITTEN_BLOCKS:
            _written[key] = texts
    return texts


def _tails(rows: list[int], marks: list[str], hl) -> list[str]:
    """The classes after each cell's colour, row after row: " hr" on a row the worked cell
    reads (``hl``), then its column's ``marks``. Most rows carry no band: they repeat
    ``marks`` as they are, and only a banded row is made cell by cell."""
    width, tails = len(marks), marks * len(rows)
    banded = set(hl.rows) if hl is not None else ()
    for r, i in enumerate(rows):
        if i in banded:
            tails[r * width:(r + 1) * width] = [" hr" + mark for mark in marks]
    return tails


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


# --- a matrix's table: its labels, its cells ----------------------------------------------


def matrix_table(m: Matrix, value: np.ndarray, scale: colour.Scale, precision: int,
                 alt: dict[str, Matrix], row_idx: list, col_idx: list, compact: bool):
    """The matrix's table (``table``): the labels of the shown rows and columns, and each
    shown row's cells, coloured on ``scale``; ``compact``: with their shorter numbers."""
    groups = _groups(m.col_groups, col_idx)
    starts = {j for j, classes in zip(col_idx, groups, strict=True) if " gs" in classes}
    marks = column_marks(col_idx, m.highlight, starts)
    rows = [i for i in row_idx if i is not None]
    block = _shown_block(value, rows, [j for j in col_idx if j is not None])
    colours = _masked(colour.cell_classes(block, scale), grids.masked_cells(block, m.kind))
    shown_rows = iter(cells_by_row(block, colours, rows, col_idx, precision, marks,
                                   m.highlight, compact))
    cells = [None if i is None else next(shown_rows) for i in row_idx]
    row_labels = _said_each(alt, m, "rows", row_idx, value.shape[0] > 1)
    col_labels = _said_each(alt, m, "cols", col_idx, True)
    return table([None if j is None else (text, j, classes)
                  for j, text, classes in zip(col_idx, col_labels, groups, strict=True)],
                 [None if i is None else (text, i, row)
                  for i, text, row in zip(row_idx, row_labels, cells, strict=True)])


def _shown_block(value: np.ndarray, rows: list[int], cols: list[int]) -> np.ndarray:
    """The shown rows and columns of ``value``: the matrix itself when all are shown (as on
    most panels: copying it would cost more than drawing its few cells)."""
    if len(rows) == value.shape[0] and len(cols) == value.shape[1]:  # (indices are distinct)
        return value
    return value[rows][:, cols]


def _masked(colours: list[str], masked: np.ndarray) -> list[str]:
    """The colour classes with " m" on each masked cell (``masked``, a block of booleans)."""
    if not masked.any():
        return colours
    return [f"{name} m" if dead else name
            for name, dead in zip(colours, masked.ravel().tolist(), strict=True)]


def _groups(widths: tuple[int, ...], col_idx: list) -> list[str]:
    """``_group`` of each shown column ("" in a gap, and everywhere without groups)."""
    if not widths:
        return [""] * len(col_idx)
    return ["" if j is None else _group(widths, j) for j in col_idx]


def _group(widths: tuple[int, ...], j: int) -> str:
    """The CSS classes of column j in its group (Concat: one group per head): "h0"…, and "gs"
    on a group's first column; "" without groups."""
    start = 0
    for g, width in enumerate(widths):
        if j < start + width:
            return f"h{g % 4}" + (" gs" if j == start and g else "")
        start += width
    return ""


def _said_each(alt: dict[str, Matrix], m: Matrix, field: str, indices: list,
               numbered: bool) -> list:
    """The labels of ``indices`` (rows or columns; None in a gap) as one text each, or by
    language where the languages' matrices (``alt``) say one differently ("input" / "输入");
    each language's labels read once."""
    labels = getattr(m, field)
    own = _labels(labels, indices, numbered)
    if all(getattr(x, field) == labels for x in (alt or {}).values()):  # the usual case
        return own
    by_lang = {code: own if x is m else _labels(getattr(x, field), indices, numbered)
               for code, x in (alt or {}).items()}
    lists = list(by_lang.values())
    if all(texts == lists[0] for texts in lists[1:]):  # labels that differ only where not shown
        return own
    said = []
    for k in range(len(indices)):
        texts = {code: names[k] for code, names in by_lang.items()}
        said.append(texts if len(set(texts.values())) > 1 else own[k])
    return said


def _labels(labels, indices: list, numbered: bool) -> list:
    """``label`` of each of ``indices`` (None in a gap)."""
    return [None if i is None else label(labels, i, numbered) for i in indices]


def label(labels, i: int, numbered: bool) -> str:
    """Row or column i's label; its number where there is none and ``numbered``, else ""."""
    if labels is not None and i < len(labels):
        return str(labels[i])
    return str(i) if numbered else ""
