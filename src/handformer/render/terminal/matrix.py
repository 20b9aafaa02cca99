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
from .ansi import Line, cells

MAX_ROWS = 12  # rows shown before eliding the middle
HEAD, TAIL = 6, 5  # kept at the start and at the end of an elided axis
COLUMN_TRIES = (32, 24, 16, 12, 8, 6, 4, 2)  # columns tried, widest first, until one fits


def fitted(m: Matrix, precision: int, width: int, origin: tuple[str, str] = ("", "")) -> list[Line]:
    """The matrix whole if it fits ``width``, else with more of its middle columns elided;
    ``origin``: the heading and the number of the step that made it ("← Step 6")."""
    n = _as_2d(m)[0].shape[1]
    block = []
    for shown in (n, *(c for c in COLUMN_TRIES if c < n)):
        block = draw(m, precision, shown, origin)
        if max(cells(t.plain) for t in block) <= width:
            break
    return block


def _kept(n: int, shown: int, keep) -> list[int | None]:
    head = min(HEAD, (shown + 1) // 2)
    return layout.elide_keeping(n, shown, head, min(TAIL, shown - head), keep)


def _marks(m: Matrix) -> tuple[set[int], set[int], tuple[int, int] | None]:
    h = m.highlight
    rows, cols = set(h.rows) if h else set(), set(h.cols) if h else set()
    cell = h.cell if h else None
    return rows, cols, cell


def draw(m: Matrix, precision: int, shown: int, origin: tuple[str, str] = ("", "")) -> list[Line]:
    """The matrix with at most ``shown`` columns (more if the narration names them)."""
    value, rows, cols = _as_2d(m)
    mark_r, mark_c, cell = _marks(m)
    keep_r = {*m.keep_rows, *mark_r, *([cell[0]] if cell else [])}
    keep_c = {*m.keep_cols, *mark_c, *([cell[1]] if cell else [])}
    at_r = _kept(value.shape[0], MAX_ROWS, keep_r)
    at_c = _kept(value.shape[1], shown, keep_c)
    grid = _grid(value, at_r, at_c, precision, grids.integral(value, m.name), cell)
    best = value.argmax(axis=1).tolist() if m.kind == "pattern" else None
    gaps_c = iter(layout.hidden_counts(at_c, value.shape[1]))
    gaps_r = iter(layout.hidden_counts(at_r, value.shape[0]))
    heads = [f"+{next(gaps_c)}" if j is None else
             ("▾" if j in mark_c else "") + (cols[j] if cols else str(j)) for j in at_c]
    labels = [f"⋮+{next(gaps_r)}" if i is None else
              ("▸" if i in mark_r else "") + (rows[i] if rows else str(i))
              if value.shape[0] > 1 or rows else "" for i in at_r]
    label_w = max((cells(x) for x in labels), default=0)
    sizes = [[cells(x) for x in g] for g in grid]  # once per cell: widths, then padding
    col_w = [max(cells(heads[c]), *(s[c] for s in sizes)) for c in range(len(heads))]
    header = " " * label_w + "".join("  " + _pad(h, w) for h, w in zip(heads, col_w, strict=True))
    lines = [_title(m, origin, cells(header)), Line(header),
             Line("─" * cells(header), [(0, None, "dim")])]
    for r, (label, row) in enumerate(zip(labels, zip(grid, sizes, strict=True), strict=True)):
        i = at_r[r]
        strong = best[i] if best is not None and i is not None else None
        worked = at_c.index(cell[1]) if cell and i == cell[0] and cell[1] in at_c else None
        lines.append(_row(label, label_w, row, col_w, at_c.index(strong)
                          if strong in at_c else None, worked))
    return lines


def _title(m: Matrix, origin: tuple[str, str], width: int) -> Line:
    """Symbol, shape, note, and where the matrix comes from: the heading of that step when it
    fits over the matrix, else its number."""
    shape = "×".join(str(x) for x in m.shape) or "1"
    title = f"{to_text(m.symbol)}  ({shape})" + (f" · {m.note}" if m.note else "")
    heading, number = origin
    if heading:
        whole = f"  ← {heading}"
        title_end = len(title)
        title += whole if cells(title + whole) <= width else f"  ← {number}"
        return Line(title, [(0, title_end, "bold yellow" if m.note else "bold"),
                            (title_end, None, "dim")])
    return Line(title, [(0, None, "bold yellow" if m.note else "bold")])


def _grid(value: np.ndarray, keep_r: list, keep_c: list, precision: int, integer: bool, cell):
    """The shown cells as text: ⋮ and ⋯ in the elided row and column, the worked cell
    [bracketed]."""
    rows = [i for i in keep_r if i is not None]
    cols = [j for j in keep_c if j is not None]
    whole = rows == list(range(value.shape[0])) and cols == list(range(value.shape[1]))
    picked = iter((value if whole else value[np.ix_(rows, cols)]).tolist())  # Python numbers
    decimals = 0 if integer else precision
    grid = []
    for i in keep_r:
        if i is None:
            grid.append(["⋮"] * len(keep_c))
            continue
        texts = iter(_numbers(next(picked), decimals))
        row = ["⋯" if j is None else next(texts) for j in keep_c]
        if cell is not None and cell[0] == i and cell[1] in keep_c:
            at = keep_c.index(cell[1])
            row[at] = f"[{row[at]}]"
        grid.append(row)
    return grid


def _numbers(row: list, decimals: int) -> list[str]:
    """``layout.number`` of each number (the terminal's spelling), a row at a time: the same
    format, with no "-0.000", the non-finite ones spelled by ``number`` itself."""
    spec = f".{decimals}f"
    out = [format(x, spec) for x in row]
    joined = "".join(out)
    if "-0" not in joined and "n" not in joined:  # no -0.00…, nan or inf: nothing to respell
        return out
    for k, text in enumerate(out):
        if text[-1] in "nf":  # nan, inf, -inf
            out[k] = layout.number(float(row[k]), decimals, layout.PLAIN)
        elif text[0] == "-" and not text.strip("-0."):  # a negative number that rounds to 0
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


def _row(label: str, label_w: int, row: tuple[list[str], list[int]], col_w: list[int],
         strong: int | None, worked: int | None) -> Line:
    """One row's line; ``row``: its cells' texts and their widths in cells."""
    text = label + " " * (label_w - cells(label))
    spans = [(0, len(text), "bold" if label.startswith("▸") else "dim")]
    pieces = ["  " + " " * (w - size) + cell for cell, size, w in zip(*row, col_w, strict=True)]

    def start(c: int) -> int:
        return len(text) + sum(map(len, pieces[:c]))

    if worked is not None:  # the cell the text works out (after the two spaces between cells)
        spans.append((start(worked) + 2, start(worked) + len(pieces[worked]), "bold reverse"))
    if strong is not None and strong != worked:  # the largest weight of an attention row
        spans.append((start(strong), start(strong) + len(pieces[strong]), "bold magenta"))
    return Line(text + "".join(pieces), sorted(spans))


def _pad(text: str, width: int) -> str:
    return " " * (width - cells(text)) + text
