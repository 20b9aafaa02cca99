"""The walkthrough in the terminal (rich): a rule per section, text, formula, labelled matrices.

Matrices larger than ``MAX_SHOWN`` rows or columns are elided in the middle (⋯) with their
shape in the title. An equation's matrices sit side by side while they fit the width and wrap
onto the next lines otherwise. ``output`` writes plain text (no colours) to a file instead.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from ..config import HandformerError
from ..narrate.document import Callout, Matrix, Section
from ..narrate.unicode_math import to_text

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
                      force_terminal=False if output else None, soft_wrap=False)
    for section in sections:
        _section(console, section, precision)
    if output:
        _write(output, buffer.getvalue())


def render_text(sections: list[Section], precision: int = 3, width: int = 100) -> str:
    """The plain text that ``render(..., output=FILE)`` writes (for tests and other tools)."""
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, highlight=False, emoji=False, color_system=None,
                      force_terminal=False, soft_wrap=False)
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
    from rich.padding import Padding
    from rich.rule import Rule
    from rich.text import Text

    style = PHASE_STYLE.get(section.phase, "blue")
    console.print()
    console.print(Rule(Text(section.title, style=f"bold {style}"), align="left", style=style))
    for paragraph in section.paragraphs:
        console.print(Padding(Text(paragraph), (0, 0, 0, 1)))
    if section.formula:
        console.print(Padding(Text(to_text(section.formula), style="italic cyan"), (1, 0, 0, 3)))
    if section.equation:
        console.print()
        _equation(console, section.equation, precision)
    for callout in section.callouts:
        console.print()
        console.print(_callout(console, callout, precision))


def _equation(console, items: list, precision: int) -> None:
    """Matrices and operators left to right; a new line when the next one would not fit."""
    from rich.table import Table
    from rich.text import Text

    width = console.width - 2
    lines, line, used = [], [], 0
    for item in items:
        cell = _matrix(item, precision) if isinstance(item, Matrix) else \
            Text(to_text(str(item)), style="bold")
        size = console.measure(cell).maximum + 2
        if line and used + size > width:
            lines.append(line)
            line, used = [], 0
        line.append(cell)
        used += size
    if line:
        lines.append(line)
    for cells in lines:
        grid = Table.grid(padding=(0, 1))
        for _ in cells:
            grid.add_column(vertical="middle")
        grid.add_row(*cells)
        console.print(grid, overflow="crop")


def _kept(n: int) -> list[int | None]:
    """Indices shown along an axis of length n; None marks the elided middle."""
    if n <= MAX_SHOWN:
        return list(range(n))
    return [*range(HEAD), None, *range(n - TAIL, n)]


def _matrix(m: Matrix, precision: int):
    from rich import box
    from rich.table import Table

    value = np.asarray(m.value)
    if value.ndim == 0:
        value = value.reshape(1, 1)
    rows, cols = m.rows, m.cols
    if value.ndim == 1:
        value, cols, rows = value.reshape(1, -1), cols or rows, None
    elif value.ndim > 2:
        value = value.reshape(-1, value.shape[-1])
    keep_r, keep_c = _kept(value.shape[0]), _kept(value.shape[1])
    shape = "×".join(str(s) for s in m.shape) or "1"
    title = f"{to_text(m.symbol)}  ({shape})" + (f" · {m.note}" if m.note else "")
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1),
                  show_edge=False, pad_edge=False, collapse_padding=True,
                  title_style="bold" if not m.note else "bold yellow")
    table.add_column("", style="dim", no_wrap=True)
    for j in keep_c:
        label = "⋯" if j is None else (cols[j] if cols else str(j))
        table.add_column(label, justify="right", no_wrap=True)
    best = _row_max(value) if m.kind == "pattern" else None
    for i in keep_r:
        if i is None:
            table.add_row("⋮", *["⋮" if j is not None else "⋱" for j in keep_c])
            continue
        cells = [_cell(value[i, j], precision, best is not None and best[i] == j)
                 if j is not None else "⋯" for j in keep_c]
        table.add_row(rows[i] if rows else str(i), *cells)
    return table


def _row_max(value: np.ndarray) -> list[int]:
    return [int(np.argmax(row)) for row in value]


def _cell(x, precision: int, strong: bool):
    from rich.text import Text

    if np.issubdtype(np.asarray(x).dtype, np.integer) or isinstance(x, (bool, np.bool_)):
        text = str(int(x))
    elif np.isnan(x):
        text = "·"
    elif np.isinf(x):
        text = "-∞" if x < 0 else "∞"
    else:
        text = f"{x:.{precision}f}"
        if text.lstrip("-").strip("0.") == "":
            text = f"{0.0:.{precision}f}"  # no "-0.000"
    return Text(text, style="bold magenta" if strong else "")


def _callout(console, callout: Callout, precision: int):
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    parts = [Text(callout.text)]
    if callout.tutorial is not None:
        parts += [Text(""), _matrix(callout.tutorial, precision)]
    return Panel(Group(*parts), title=Text(f" {callout.code} ", style="bold yellow"),
                 title_align="left", border_style="yellow", width=min(console.width, 100),
                 padding=(0, 1))
