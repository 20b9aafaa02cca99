"""The walkthrough in the terminal: a rule per section, text, formula, labelled matrices.

Matrices larger than ``MAX_SHOWN`` rows or columns are elided in the middle (⋯) with their
shape in the title. An equation's matrices sit side by side while they fit the width and wrap
onto the next lines otherwise. Without a terminal the text is plain (no colours), as for a file.
Every section is laid out as lines with styled spans and written in one go (``ansi``): the
look is rich's (rules, rounded panels), without rich's import and per-line cost.
"""

from __future__ import annotations

import re

import numpy as np

from .. import layout
from ..narrate.document import Callout, Matrix, Section
from ..narrate.unicode_math import to_text
from ..textsafe import shown as safe
from . import grids
from .ansi import Line, Terminal, cells, crop, fit, truncate

MAX_SHOWN = 12  # rows or columns shown before eliding the middle
HEAD, TAIL = 6, 5  # kept at the start and at the end of an elided axis
PANEL_MAX = 100  # an erratum's box is at most this wide, however wide the terminal
PHASE_STYLE = {"text": "cyan", "forward": "blue", "loss": "magenta", "backward": "red",
               "update": "green", "decode": "yellow"}


def render(sections: list[Section], precision: int = 3, width: int | None = None,
           terminal: Terminal | None = None) -> str:
    """The walkthrough as text: styled for ``terminal`` (escapes, its width), or else plain
    text without colours at ``width`` (100 by default), as it is written to a file."""
    if terminal is None:
        return render_text(sections, precision, width or 100)
    return "".join(terminal.line(line) + "\n" for line in _lines(sections, precision,
                                                                  terminal.width))


def render_text(sections: list[Section], precision: int = 3, width: int = 100) -> str:
    """The plain text of the walkthrough (no colours), lines without trailing spaces."""
    return _strip("".join(line.plain + "\n" for line in _lines(sections, precision, width)))


def _strip(text: str) -> str:
    """Without the spaces that pad panel lines at the end, so a file diffs cleanly."""
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def _lines(sections: list[Section], precision: int, width: int) -> list[Line]:
    width = max(width, 8)  # narrower than a matrix cell helps nobody
    lines = [line for section in sections for line in _section(section, precision, width)]
    for line in lines:  # words from files may hold escape sequences; same width, so spans hold
        line.plain = safe(line.plain)
    return lines


def _section(section: Section, precision: int, width: int) -> list[Line]:
    """Blank line, rule with the title, paragraphs, formula, the equation, the errata."""
    style = PHASE_STYLE.get(section.phase, "blue")
    lines = [Line(""), _rule(section.heading, f"bold {style}", style, width)]
    body = [Line(" " + t) for p in section.paragraphs for t in _wrap(p, width - 1)]
    if section.formula:
        body += [Line("")] + [Line("   " + t, [(3, None, "italic cyan")])
                              for t in _wrap(to_text(section.formula), width - 3)]
    lines += [crop(line, width) for line in body]
    if section.equation:
        lines += [Line(""), *_equation(section.equation, precision, width)]
    for callout in section.callouts:
        lines += [Line(""), *_callout(callout, precision, width)]
    return lines


def _rule(title: str, title_style: str, style: str, width: int) -> Line:
    """`Title ─────` across the width (the title cut with … if it is too long)."""
    if not title:
        return Line("─" * width, [(0, None, style)])
    title = truncate(title, width - 2)
    plain = fit(f"{title} " + "─" * (width - cells(title) - 1), width)
    return Line(plain, [(0, len(title), title_style), (len(title) + 1, None, style)])


def _equation(items: list, precision: int, width: int) -> list[Line]:
    """Matrices and operators left to right; a new line when the next one would not fit."""
    rows, row, used = [], [], 0
    for item in items:
        block = _fitted(item, precision, width - 2) if isinstance(item, Matrix) else \
            [Line(to_text(str(item)), [(0, None, "bold")])]
        size = max(cells(t.plain) for t in block) + 1
        if row and used + size > width - 2:
            rows.append(row)
            row, used = [], 0
        row.append(block)
        used += size
    if row:
        rows.append(row)
    return [crop(line, width) for blocks in rows for line in _side_by_side(blocks)]


def _side_by_side(blocks: list[list[Line]]) -> list[Line]:
    """Blocks of lines joined left to right, each centred vertically."""
    height = max(len(b) for b in blocks)
    widths = [max(cells(t.plain) for t in b) for b in blocks]
    out = []
    for row in range(height):
        joined = Line("")
        for block, w in zip(blocks, widths, strict=True):
            top = (height - len(block)) // 2
            line = block[row - top] if 0 <= row - top < len(block) else Line("")
            at = len(joined.plain)
            joined.spans += [(at + a, at + (len(line.plain) if b is None else b), style)
                             for a, b, style in line.spans]
            joined.plain += line.plain + " " * (w - cells(line.plain) + 1)
        joined.plain = joined.plain.rstrip()
        out.append(joined)
    return out


def _callout(callout: Callout, precision: int, width: int) -> list[Line]:
    """An erratum in a rounded yellow box titled with its code, the tutorial's matrix inside."""
    inner = min(width, PANEL_MAX) - 4
    content = [Line(t) for t in _wrap(callout.text, inner)]
    if callout.tutorial is not None:
        content += [Line(""), *_side_by_side([_fitted(callout.tutorial, precision, inner)])]
    return _panel(content, f"  {callout.code}  ", min(width, PANEL_MAX))


def _panel(content: list[Line], title: str, width: int) -> list[Line]:
    """╭─ title ──╮, │ line │ per line of content (cut or padded to fit), ╰────╯."""
    border = "yellow"
    if width <= 4:
        top = Line("╭" + "─" * (width - 2) + "╮", [(0, None, border)])
    else:
        title = fit(title, width - 4) if cells(title) > width - 4 else title
        rest = width - 4 - cells(title)
        top = Line(f"╭─{title}{'─' * rest}─╮",
                   [(0, 2, border), (2, 2 + len(title), f"bold {border}"),
                    (2 + len(title), 2 + len(title) + rest, border),
                    (2 + len(title) + rest, None, border)])
    lines = [top]
    for line in content:
        plain, end = fit(line.plain, width - 4), len(line.plain)  # padding stays unstyled
        spans = [(0, 1, border), *((a + 2, min(end if b is None else b, len(plain)) + 2, s)
                                   for a, b, s in line.spans), (len(plain) + 3, None, border)]
        lines.append(Line(f"│ {plain} │", spans))
    lines.append(Line("╰" + "─" * (width - 2) + "╯", [(0, None, border)]))
    return lines


def _fitted(m: Matrix, precision: int, width: int) -> list:
    """The matrix, with more of its middle columns elided if it is wider than the screen."""
    for shown in (MAX_SHOWN, 8, 6, 4, 2):
        block = _matrix(m, precision, shown)
        if max(cells(t.plain) for t in block) <= width:
            break
    return block


def _kept(n: int, shown: int = MAX_SHOWN) -> list[int | None]:
    """Indices shown along an axis of length n: the layout rule, at the terminal's sizes."""
    head = min(HEAD, (shown + 1) // 2)
    return layout.elide(n, shown, head, min(TAIL, shown - head))


def _matrix(m: Matrix, precision: int, shown: int = MAX_SHOWN) -> list[Line]:
    """A matrix as lines of text: title with shape, column labels, labelled rows."""
    value, rows, cols = _as_2d(m)
    keep_r, keep_c = _kept(value.shape[0]), _kept(value.shape[1], shown)
    grid = _grid(value, keep_r, keep_c, precision, grids.integral(value, m.name))
    best = value.argmax(axis=1).tolist() if m.kind == "pattern" else None
    heads = ["⋯" if j is None else (cols[j] if cols else str(j)) for j in keep_c]
    labels = ["⋮" if i is None else (rows[i] if rows else str(i)) if value.shape[0] > 1 or rows
              else "" for i in keep_r]
    label_w = max((cells(x) for x in labels), default=0)
    col_w = [max(cells(heads[c]), *(cells(g[c]) for g in grid)) for c in range(len(heads))]
    shape = "×".join(str(x) for x in m.shape) or "1"
    title = f"{to_text(m.symbol)}  ({shape})" + (f" · {m.note}" if m.note else "")
    header = " " * label_w + "".join("  " + _pad(h, w) for h, w in zip(heads, col_w, strict=True))
    lines = [Line(title, [(0, None, "bold yellow" if m.note else "bold")]), Line(header),
             Line("─" * cells(header), [(0, None, "dim")])]
    for r, (label, row) in enumerate(zip(labels, grid, strict=True)):
        strong = best[keep_r[r]] if best is not None and keep_r[r] is not None else None
        lines.append(_row(label, label_w, row, col_w, keep_c.index(strong)
                          if strong in keep_c else None))
    return lines


def _grid(value: np.ndarray, keep_r: list, keep_c: list, precision: int, integer: bool):
    """The shown cells as text: ⋮ and ⋯ in the elided row and column."""
    rows = [i for i in keep_r if i is not None]
    cols = [j for j in keep_c if j is not None]
    picked = iter(value[np.ix_(rows, cols)].tolist())  # Python numbers: no per-cell NumPy call
    grid = []
    for i in keep_r:
        if i is None:
            grid.append(["⋮"] * len(keep_c))
            continue
        numbers = iter(next(picked))
        grid.append(["⋯" if j is None else _cell(next(numbers), precision, integer)
                     for j in keep_c])
    return grid


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


def _row(label: str, label_w: int, row: list[str], col_w: list[int], strong: int | None):
    text = label + " " * (label_w - cells(label))
    line = Line(text, [(0, len(text), "dim")])
    for c, (cell, w) in enumerate(zip(row, col_w, strict=True)):
        piece = "  " + _pad(cell, w)
        if c == strong:  # the largest weight of an attention row stands out
            line.spans.append((len(line.plain), len(line.plain) + len(piece), "bold magenta"))
        line.plain += piece
    return line


def _pad(text: str, width: int) -> str:
    return " " * (width - cells(text)) + text


def _cell(x, precision: int, integer: bool) -> str:
    return layout.number(float(x), 0 if integer else precision, layout.PLAIN)


_TOKENS = re.compile(r"[\u3000-\u9fff\uff00-\uffef]|[^\s\u3000-\u9fff\uff00-\uffef]+|\s+")
_NO_LINE_START = set("，。、：；！？）》」』”’%…")


def _wrap(paragraph: str, width: int) -> list[str]:
    """A paragraph's lines: broken at spaces, and in Chinese between any two characters
    (breaking only at spaces leaves ragged lines around the numbers in Chinese)."""
    lines, line, used = [], [], 0  # used: cells of "".join(line)
    for token in _TOKENS.findall(paragraph):
        if used + cells(token.rstrip()) <= width or not any(t.strip() for t in line):
            line.append(token)
            used += cells(token)
            continue
        carried = [line.pop()] if token[0] in _NO_LINE_START and len(line) > 1 else []
        lines.append("".join(line).rstrip())
        line = [t for t in [*carried, token] if t.strip()]
        used = sum(cells(t) for t in line)
    lines.append("".join(line).rstrip())
    return lines
