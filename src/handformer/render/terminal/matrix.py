"""One matrix as lines of terminal text: title with shape, column labels, labelled rows.

A matrix is shown whole when it fits the width; otherwise the middle of its columns (and of
more than ``MAX_ROWS`` rows) is elided, never the rows and columns the narration names
(``keep_rows``/``keep_cols``, the worked cell), and each gap says how many it hides ("+14").
The worked cell is drawn [bracketed] (and reversed on a terminal); the row and column that
make it are marked ▸ and ▾.
"""

from __future__ import annotations

import numpy as np

from ... import layout
from ...narrate.document import Matrix
from ...narrate.unicode_math import to_text
from ..common import grids
from .ansi import Block, Line, cells

MAX_ROWS = 16  # rows shown before eliding the middle
WHOLE = 16  # a matrix this small is shown whole, in a compact layout if it must
HEAD, TAIL = 6, 5  # kept at the start and at the end of an elided axis
COLUMN_TRIES = (32, 24, 16, 12, 8, 6, 4, 2)  # columns tried, widest first, until one fits


def fitted(m: Matrix, precision: int, width: int, origin: tuple[str, str] = ("", "")) -> Block:
    """The matrix whole if it fits ``width``; a small one (up to WHOLE × WHOLE) then whole in a
    compact layout (one space between columns, a decimal or two fewer, long column labels
    cut); else with more of its middle columns elided; ``origin``: the heading and the number
    of the step that made it ("← Step 6")."""
    value = _as_2d(m)[0]
    n = value.shape[1]
    block = draw(m, precision, n, origin)
    if block.width <= width:
        return block
    if max(value.shape) <= WHOLE:
        for decimals in dict.fromkeys((precision, max(1, precision - 1), max(1, precision - 2))):
            block = draw(m, decimals, n, origin, compact=True)
            if block.width <= width:
                return block
    for shown in (c for c in COLUMN_TRIES if c < n):
        block = draw(m, precision, shown, origin)
        if block.width <= width:
            break
    return block


def _kept(n: int, shown: int, keep) -> list[int | None]:
    if n <= shown:  # all of them (most matrices)
        return list(range(n))
    head = min(HEAD, (shown + 1) // 2)
    return layout.elide_keeping(n, shown, head, min(TAIL, shown - head), keep)


def _marks(m: Matrix) -> tuple[set[int], set[int], tuple[int, int] | None]:
    h = m.highlight
    rows, cols = set(h.rows) if h else set(), set(h.cols) if h else set()
    cell = h.cell if h else None
    return rows, cols, cell


def draw(m: Matrix, precision: int, shown: int, origin: tuple[str, str] = ("", ""),
         compact: bool = False) -> list[Line]:
    """The matrix with at most ``shown`` columns (more if the narration names them); compact:
    one space between columns, and a column's label cut to its numbers' width."""
    value, rows, cols = _as_2d(m)
    mark_r, mark_c, cell = _marks(m)
    keep_r = {*m.keep_rows, *mark_r, *([cell[0]] if cell else [])}
    keep_c = {*m.keep_cols, *mark_c, *([cell[1]] if cell else [])}
    at_r = _kept(value.shape[0], MAX_ROWS, keep_r)
    at_c = _kept(value.shape[1], shown, keep_c)
    grid = _grid(value, at_r, at_c, precision, grids.integral(value, m.name), cell)
    gaps_c = iter(layout.hidden_counts(at_c, value.shape[1]) if None in at_c else ())
    gaps_r = iter(layout.hidden_counts(at_r, value.shape[0]) if None in at_r else ())
    heads = [f"+{next(gaps_c)}" if j is None else
             ("▾" if j in mark_c else "") + (cols[j] if cols else str(j)) for j in at_c]
    labels = [f"⋮+{next(gaps_r)}" if i is None else
              ("▸" if i in mark_r else "") + (rows[i] if rows else str(i))
              if value.shape[0] > 1 or rows else "" for i in at_r]
    gap = 1 if compact else 2
    if compact:
        widths = [max(map(len, column)) for column in zip(*grid, strict=True)]
        heads = [_cut(h, w) for h, w in zip(heads, widths, strict=True)]
    label_ws, head_ws = list(map(cells, labels)), list(map(cells, heads))
    label_w = max(label_ws, default=0)
    # A number, ⋯, ⋮, · (NaN) and ∞ take one cell a character: a grid text's width is its length.
    col_w = [max(head_w, max(map(len, column)))
             for head_w, column in zip(head_ws, zip(*grid, strict=True), strict=True)]
    header = " " * label_w + "".join([" " * (gap + w - head_w) + head
                                      for head, head_w, w in zip(heads, head_ws, col_w,
                                                                 strict=True)])
    table_w = label_w + sum(col_w) + gap * len(col_w)  # the header's, the rule's, every row's
    row_format = "".join([" " * gap + f"%{w}s" for w in col_w])  # each right-aligned
    body = [_row(label + " " * (label_w - label_cells), row_format % tuple(row),
                 label.startswith("▸"))
            for label, label_cells, row in zip(labels, label_ws, grid, strict=True)]
    for r, c, style in _accents(m, value, at_r, at_c, cell):
        line = body[r]
        at = line.spans[0][1] + sum(gap + w for w in col_w[:c])  # the cells after the label
        line.spans = sorted([*line.spans, (at, at + gap + col_w[c], style) if style[-1] == "a"
                             else (at + gap, at + gap + col_w[c], style)])
    title, title_w = _title(m, origin, table_w)
    width = max(title_w, table_w)
    title.plain += " " * (width - title_w)
    table = [Line(header), Line("─" * table_w, [(0, table_w, "dim")]), *body]
    if table_w < width:  # a title wider than the table
        for line in table:
            line.plain += " " * (width - table_w)
    return Block([title, *table], width)


def _cut(label: str, width: int) -> str:
    """A column label no wider than its numbers (at least 3 cells), cut with "…"."""
    width = max(width, 3)
    return label if cells(label) <= width else label[:width - 1] + "…"


def _accents(m: Matrix, value: np.ndarray, at_r: list, at_c: list, cell) -> list:
    """(row, column, style) of the shown cells drawn apart: the worked cell (after the two
    spaces before it) and, in an attention pattern, each row's largest weight (with them). A
    row with no largest weight (not a pattern, or a ⋮ row) so marks its first ⋯ column."""
    worked = (at_r.index(cell[0]), at_c.index(cell[1])) \
        if cell is not None and cell[0] in at_r and cell[1] in at_c else None
    accents = [(*worked, "bold reverse")] if worked else []
    best = value.argmax(axis=1).tolist() if m.kind == "pattern" else None
    if best is None and None not in at_c:  # no row has a column to mark
        return accents
    for r, i in enumerate(at_r):
        strong = best[i] if best is not None and i is not None else None
        if strong in at_c and (r, at_c.index(strong)) != worked:
            accents.append((r, at_c.index(strong), "bold magenta"))
    return accents


def _title(m: Matrix, origin: tuple[str, str], width: int) -> tuple[Line, int]:
    """Symbol, shape, note, and where the matrix comes from: the heading of that step when it
    fits over the matrix, else its number; and the title's width in cells."""
    shape = "×".join(str(x) for x in m.shape) or "1"
    title = f"{to_text(m.symbol)}  ({shape})" + (f" · {m.note}" if m.note else "")
    style = "bold yellow" if m.note else "bold"
    heading, number = origin
    if not heading:
        return Line(title, [(0, len(title), style)]), cells(title)
    title_end = len(title)
    whole = title + f"  ← {heading}"
    title = whole if cells(whole) <= width else title + f"  ← {number}"
    return Line(title, [(0, title_end, style), (title_end, len(title), "dim")]), cells(title)


def _grid(value: np.ndarray, keep_r: list, keep_c: list, precision: int, integer: bool, cell):
    """The shown cells as text: ⋮ and ⋯ in the elided rows and columns, the worked cell
    [bracketed]."""
    rows = [i for i in keep_r if i is not None]
    cols = [j for j in keep_c if j is not None]
    whole = len(rows) == value.shape[0] and len(cols) == value.shape[1]  # (indices shown once)
    picked = (value if whole else value[rows][:, cols]).ravel().tolist()  # Python numbers
    texts = _numbers(picked, 0 if integer else precision)
    grid = [texts[k:k + len(cols)] for k in range(0, len(texts), len(cols))]
    for k, j in enumerate(keep_c):
        if j is None:
            for row in grid:
                row.insert(k, "⋯")
    for k, i in enumerate(keep_r):
        if i is None:
            grid.insert(k, ["⋮"] * len(keep_c))
    if cell is not None and cell[0] in keep_r and cell[1] in keep_c:
        r, c = keep_r.index(cell[0]), keep_c.index(cell[1])
        grid[r][c] = f"[{grid[r][c]}]"
    return grid


def _numbers(numbers: list, decimals: int) -> list[str]:
    """``layout.number`` of each number (the terminal's spelling), all in one format: the
    same digits, with no "-0.000", the non-finite ones spelled by ``number`` itself."""
    spec = f"%.{decimals}f"
    joined = " ".join([spec] * len(numbers)) % tuple(numbers)
    out = joined.split(" ")
    negative_zero = "-" + spec % 0  # every number has these decimals: no other text holds it
    if negative_zero not in joined and "n" not in joined:  # nothing to respell (nan, inf)
        return out
    for k, text in enumerate(out):
        if text[-1] in "nf":  # nan, inf, -inf
            out[k] = layout.number(float(numbers[k]), decimals, layout.PLAIN)
        elif text == negative_zero:
            out[k] = text[1:]
    return out


def _as_2d(m: Matrix):
    """The value as rows × columns (a vector is one row), with the labels that fit."""
    value, rows, cols = np.asarray(m.value), m.rows, m.cols
    if value.ndim == 0:
        value = value.reshape(1, 1)
    if value.ndim == 1:
        value, cols, rows = value.reshape(1, -1), cols or rows, None
    elif value.ndim > 2:
        value = value.reshape(-1, value.shape[-1])
    return value, rows, cols


def _row(label: str, numbers: str, marked: bool) -> Line:
    """One row's line: its label (padded to the labels' width), then its numbers."""
    return Line(label + numbers, [(0, len(label), "bold" if marked else "dim")])
