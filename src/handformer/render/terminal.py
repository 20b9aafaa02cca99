"""The walkthrough in the terminal (rich): a rule per section, text, formula, labelled matrices.

Matrices larger than ``MAX_SHOWN`` rows or columns are elided in the middle (⋯) with their
shape in the title. An equation's matrices sit side by side while they fit the width and wrap
onto the next lines otherwise. ``output`` writes plain text (no colours) to a file instead.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np

from ..config import HandformerError
from ..narrate.document import Callout, Matrix, Section
from ..narrate.unicode_math import to_text
from . import grids

MAX_SHOWN = 12  # rows or columns shown before eliding the middle
HEAD, TAIL = 6, 5  # kept at the start and at the end of an elided axis
PHASE_STYLE = {"text": "cyan", "forward": "blue", "loss": "magenta", "backward": "red",
               "update": "green", "decode": "yellow"}


def render(sections: list[Section], precision: int = 3, width: int | None = None,
           output: str | None = None) -> None:
    """Print the sections to the terminal, or write them as plain text to ``output``."""
    from rich.console import Console

    buffer = io.StringIO() if output else None
    console = Console(file=buffer, width=width or (100 if output else None), highlight=False,
                      emoji=False, color_system=None if output else "auto",
                      force_terminal=False if output else None, soft_wrap=False, height=50)
    console.width = console.width  # measured once: rich would ask the terminal on every print
    for section in sections:
        _section(console, section, precision)
    if output:
        _write(output, buffer.getvalue())


def render_text(sections: list[Section], precision: int = 3, width: int = 100) -> str:
    """The plain text that ``render(..., output=FILE)`` writes (for tests and other tools)."""
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, highlight=False, emoji=False, color_system=None,
                      force_terminal=False, soft_wrap=False, height=50)
    for section in sections:
        _section(console, section, precision)
    return _strip(buffer.getvalue())


def _strip(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def _write(output: str, text: str) -> None:
    try:
        # Without the spaces rich pads lines with, so the file diffs cleanly.
        Path(output).write_text(_strip(text), encoding="utf-8")
    except OSError as err:
        raise HandformerError(f"cannot write {output!r}: {err.strerror or err}") from None
    import click

    click.echo(f"wrote {output}", err=True)


def _section(console, section: Section, precision: int) -> None:
    from rich.rule import Rule
    from rich.text import Text

    style = PHASE_STYLE.get(section.phase, "blue")
    console.print()
    console.print(Rule(Text(section.title, style=f"bold {style}"), align="left", style=style))
    lines = [Line(" " + t) for p in section.paragraphs for t in _wrap(p, console.width - 1)]
    if section.formula:
        lines += [Line("")] + [Line("   " + t, [(3, None, "italic cyan")])
                               for t in _wrap(to_text(section.formula), console.width - 3)]
    console.print(_segments(lines, console.width))
    if section.equation:
        console.print()
        _equation(console, section.equation, precision)
    for callout in section.callouts:
        console.print()
        console.print(_callout(console, callout, precision))


def _equation(console, items: list, precision: int) -> None:
    """Matrices and operators left to right; a new line when the next one would not fit."""
    width = console.width - 2
    lines, line, used = [], [], 0
    for item in items:
        block = _fitted(item, precision, width) if isinstance(item, Matrix) else \
            [Line(to_text(str(item)), [(0, None, "bold")])]
        size = max(_cells(t.plain) for t in block) + 1
        if line and used + size > width:
            lines.append(line)
            line, used = [], 0
        line.append(block)
        used += size
    if line:
        lines.append(line)
    for blocks in lines:
        console.print(_segments(_side_by_side(blocks), console.width))


class Line:
    """One line of plain text with styled spans (start, end or None for the end, style)."""

    __slots__ = ("plain", "spans")

    def __init__(self, plain: str, spans=()):
        self.plain, self.spans = plain, list(spans)


# Characters that are not one cell wide: combining marks (width 0) and East Asian wide ones.
_NOT_ONE_CELL = re.compile("[\u0300-\u036f\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3"
                           "\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]")


def _cells(text: str) -> int:
    """Terminal cells of a text (rich's cell_len, with a fast path for the common case)."""
    if text.isascii() or not _NOT_ONE_CELL.search(text):
        return len(text)
    from rich.cells import cell_len

    return cell_len(text)


def _side_by_side(blocks: list[list[Line]]) -> list[Line]:
    """Blocks of lines joined left to right, each centred vertically."""
    height = max(len(b) for b in blocks)
    widths = [max(_cells(t.plain) for t in b) for b in blocks]
    out = []
    for row in range(height):
        joined = Line("")
        for block, w in zip(blocks, widths, strict=True):
            top = (height - len(block)) // 2
            line = block[row - top] if 0 <= row - top < len(block) else Line("")
            at = len(joined.plain)
            joined.spans += [(at + a, at + (len(line.plain) if b is None else b), style)
                             for a, b, style in line.spans]
            joined.plain += line.plain + " " * (w - _cells(line.plain) + 1)
        joined.plain = joined.plain.rstrip()
        out.append(joined)
    return out


def _segments(lines: list[Line], width: int):
    """Lines as rich segments: printed as they are (rich's own wrapping costs ~1 ms a line)."""
    from rich.cells import set_cell_size
    from rich.segment import Segment, Segments
    from rich.style import Style

    segments = []
    for line in lines:
        plain = line.plain if _cells(line.plain) <= width else set_cell_size(line.plain, width)
        cuts = sorted({0, len(plain), *(min(x, len(plain)) for a, b, _ in line.spans
                                        for x in (a, len(plain) if b is None else b))})
        for start, end in zip(cuts, cuts[1:], strict=False):
            styles = [s for a, b, s in line.spans if a <= start and (b is None or end <= b)]
            style = Style.parse(" ".join(styles)) if styles else None
            segments.append(Segment(plain[start:end], style))
        segments.append(Segment.line())
    return Segments(segments)


def _fitted(m: Matrix, precision: int, width: int) -> list:
    """The matrix, with more of its middle columns elided if it is wider than the screen."""
    for shown in (MAX_SHOWN, 8, 6, 4, 2):
        block = _matrix(m, precision, shown)
        if max(_cells(t.plain) for t in block) <= width:
            break
    return block


def _kept(n: int, shown: int = MAX_SHOWN) -> list[int | None]:
    """Indices shown along an axis of length n; None marks the elided middle."""
    if n <= shown:
        return list(range(n))
    head = min(HEAD, (shown + 1) // 2)
    return [*range(head), None, *range(n - min(TAIL, shown - head), n)]


def _matrix(m: Matrix, precision: int, shown: int = MAX_SHOWN) -> list[Line]:
    """A matrix as lines of text: title with shape, column labels, labelled rows."""
    value, rows, cols = _as_2d(m)
    keep_r, keep_c = _kept(value.shape[0]), _kept(value.shape[1], shown)
    integer = grids.integral(value, m.name)
    best = [int(np.argmax(r)) for r in value] if m.kind == "pattern" else None
    grid = [[_cell(value[i, j], precision, integer) if j is not None else "⋯" for j in keep_c]
            if i is not None else ["⋮" for _ in keep_c] for i in keep_r]
    heads = ["⋯" if j is None else (cols[j] if cols else str(j)) for j in keep_c]
    labels = ["⋮" if i is None else (rows[i] if rows else str(i)) if value.shape[0] > 1 or rows
              else "" for i in keep_r]
    label_w = max((_cells(x) for x in labels), default=0)
    col_w = [max(_cells(heads[c]), *(_cells(g[c]) for g in grid)) for c in range(len(heads))]
    shape = "×".join(str(x) for x in m.shape) or "1"
    title = f"{to_text(m.symbol)}  ({shape})" + (f" · {m.note}" if m.note else "")
    header = " " * label_w + "".join("  " + _pad(h, w) for h, w in zip(heads, col_w, strict=True))
    lines = [Line(title, [(0, None, "bold yellow" if m.note else "bold")]), Line(header),
             Line("─" * _cells(header), [(0, None, "dim")])]
    for r, (label, cells) in enumerate(zip(labels, grid, strict=True)):
        strong = best[keep_r[r]] if best is not None and keep_r[r] is not None else None
        lines.append(_row(label, label_w, cells, col_w, keep_c.index(strong)
                          if strong in keep_c else None))
    return lines


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


def _row(label: str, label_w: int, cells: list[str], col_w: list[int], strong: int | None):
    text = label + " " * (label_w - _cells(label))
    line = Line(text, [(0, len(text), "dim")])
    for c, (cell, w) in enumerate(zip(cells, col_w, strict=True)):
        piece = "  " + _pad(cell, w)
        if c == strong:  # the largest weight of an attention row stands out
            line.spans.append((len(line.plain), len(line.plain) + len(piece), "bold magenta"))
        line.plain += piece
    return line


def _pad(text: str, width: int) -> str:
    return " " * (width - _cells(text)) + text


def _cell(x, precision: int, integer: bool) -> str:
    if integer:
        return str(int(x))
    x = float(x)
    if x != x:
        return "·"
    if x in (float("inf"), float("-inf")):
        return "-∞" if x < 0 else "∞"
    text = f"{x:.{precision}f}"
    return text[1:] if text[0] == "-" and float(text) == 0 else text  # no "-0.000"


_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
_TOKENS = re.compile(r"[\u3000-\u9fff\uff00-\uffef]|[^\s\u3000-\u9fff\uff00-\uffef]+|\s+")
_NO_LINE_START = set("，。、：；！？）》」』”’%…")


def _text(paragraph: str, width: int):
    from rich.text import Text

    return Text("\n".join(_wrap(paragraph, width)), no_wrap=True, overflow="ignore")


def _wrap(paragraph: str, width: int) -> list[str]:
    """A paragraph's lines: broken at spaces, and in Chinese between any two characters
    (rich breaks only at spaces, which leaves ragged lines around the numbers in Chinese)."""
    from rich.cells import cell_len

    lines, line = [], []
    for token in _TOKENS.findall(paragraph):
        if cell_len("".join(line) + token.rstrip()) <= width or not "".join(line).strip():
            line.append(token)
            continue
        carried = [line.pop()] if token[0] in _NO_LINE_START and len(line) > 1 else []
        lines.append("".join(line).rstrip())
        line = [t for t in [*carried, token] if t.strip()] or []
    lines.append("".join(line).rstrip())
    return lines


def _callout(console, callout: Callout, precision: int):
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    parts = [_text(callout.text, min(console.width, 100) - 4)]
    if callout.tutorial is not None:
        width = min(console.width, 100) - 4
        parts += [Text(""), _segments(_side_by_side([_fitted(callout.tutorial, precision,
                                                             width)]), width)]
    return Panel(Group(*parts), title=Text(f" {callout.code} ", style="bold yellow"),
                 title_align="left", border_style="yellow", width=min(console.width, 100),
                 padding=(0, 1))
