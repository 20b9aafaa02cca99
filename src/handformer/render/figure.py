"""One step's panel as a figure for an article (SVG or PNG, matplotlib), and the loss curve.

The figure is the HTML panel in print form: number and title, the formula (matplotlib mathtext
where it can parse the LaTeX, the plain LaTeX where it cannot), and the equation's matrices as
coloured grids with their labels. matplotlib is imported only when drawing (plotting.py).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from .. import i18n, layout
from ..errors import HandformerError
from ..narrate.document import Matrix, Section
from .common import colour, grids
from .common.tex import FormulaError, mathtext, warn
from .plotting import math_font, pyplot

CELL, ROW = 0.55, 0.3  # inches per cell: width, height
LABELS, HEAD, FOOT = 0.9, 1.5, 0.5  # inches: row labels, title and formula, shape below


def find_section(sections: list[Section], step: str | None) -> Section:
    """The section that shows tape step ``step`` (or has it as id); unknown names are refused.

    A multi-head step (``encoder.0.self_attn.pattern``) is shown by its first head's panel.
    """
    prefix, _, leaf = (step or "").rpartition(".")
    for name in (step, f"{prefix}.head.0.{leaf}"):
        for s in sections:
            if name is not None and (s.id == name or name in s.steps):
                return s
    names = [n for s in sections for n in (s.steps or [s.id])]
    hint = ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")
    if step is None:
        raise HandformerError(f"a figure shows one step: give --step NAME, e.g. {hint}")
    raise HandformerError(f"no step named {step!r} in this walkthrough; steps are e.g. {hint}")


def render(tape, options) -> bytes:
    """The renderer contract (render/registry.py): one step's figure (``options.step``), as
    the format the registry names (``options.format``: svg or png)."""
    return render_figure(tape, options.step, fmt=options.format, lang=options.lang,
                         precision=options.precision)


def render_figure(tape, step: str | None, fmt: str = "svg", lang: str = "en",
                  precision: int = 3) -> bytes:
    """The panel of the section containing tape step ``step``, as SVG or PNG bytes."""
    from ..narrate import build

    if fmt not in ("svg", "png"):
        raise HandformerError(f"figures are svg or png, not {fmt!r}")
    section = find_section(build(tape, lang), step)
    return _bytes(section_figure(section, precision, lang), fmt)


def _bytes(fig, fmt: str) -> bytes:
    """The figure's file contents (matplotlib draws into memory; the writer saves them)."""
    from io import BytesIO

    plt = pyplot()
    meta = {"Date": None} if fmt == "svg" else {}
    buffer = BytesIO()
    try:
        fig.savefig(buffer, format=fmt, bbox_inches="tight", dpi=160, metadata=meta)
    finally:
        plt.close(fig)
    return buffer.getvalue()


def section_figure(section: Section, precision: int, lang: str = "en"):
    """A matplotlib figure: title, formula, then the matrices and operators left to right."""
    plt = pyplot(lang)
    items = [i for i in section.equation if isinstance(i, (Matrix, str))]
    slots = [_width(i) for i in items]
    tall = max([_rows(i) * ROW for i in items if isinstance(i, Matrix)] or [0.0])
    width, height = max(0.2 + sum(slots), 6.0), HEAD + tall + FOOT
    fig = plt.figure(figsize=(width, height))
    fig.text(0.1 / width, 1 - 0.15 / height, f"{section.number}  {section.title}", fontsize=14,
             weight="bold", va="top")
    where = f"step {section.id}"
    fig.text(0.1 / width, 1 - 0.6 / height, formula_text(section.formula, where), fontsize=12,
             va="top", **math_font(section.formula))
    x = 0.2
    scales = colour.shared_scales([m for m in items if isinstance(m, Matrix)])
    for item, w in zip(items, slots, strict=True):
        if isinstance(item, Matrix):
            h = _rows(item) * ROW
            ax = fig.add_axes([(x + LABELS) / width, (FOOT + (tall - h) / 2) / height,
                               (w - LABELS - 0.2) / width, h / height])
            draw_matrix(ax, item, precision, scales[id(item)])
        else:
            op = {r"\cdot": "·", "-": "−"}.get(item.strip(), item)
            fig.text((x + w / 2) / width, (FOOT + tall / 2) / height, formula_text(op, where),
                     fontsize=28 if len(op) == 1 else 18, ha="center", va="center",
                     **math_font(op))
        x += w
    return fig


def _width(item) -> float:
    if isinstance(item, str):
        return 0.6
    return LABELS + len(layout.shown_cols(grids.as_2d(item.value).shape[1])) * CELL + 0.2


def _rows(m: Matrix) -> int:
    return len(layout.shown_rows(grids.as_2d(m.value).shape[0]))


def formula_text(latex: str, where: str = "a figure") -> str:
    """$latex$ in the subset matplotlib's mathtext reads; a formula it cannot read is drawn
    as plain text and warned about on stderr (the tests allow none)."""
    if not latex:
        return ""
    try:
        return mathtext(latex)
    except FormulaError as err:
        warn(where, latex, err)
        return latex.replace("$", r"\$")


def draw_matrix(ax, m: Matrix, precision: int, scale=None) -> None:
    """Coloured cells on the page's colour mapping (render/common/colour.py: the same steps, the same
    scale kinds), the number in each, tokens and dims as ticks; the worked cell outlined."""
    from matplotlib.patches import Rectangle

    value = grids.as_2d(m.value)
    scale = scale or colour.scale_for(colour.kind_of(m), [value])
    rows, cols = layout.shown_rows(value.shape[0]), layout.shown_cols(value.shape[1])
    shown = np.array([[np.nan if i is None or j is None else value[i, j] for j in cols]
                      for i in rows])
    ax.imshow(colour.figure_colours(shown, scale), aspect="auto")
    for r, i in enumerate(rows):
        for c, j in enumerate(cols):
            if i is not None and j is not None and grids.is_masked(value[i, j], m.kind):
                ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, hatch="///", fill=False,
                                       edgecolor="#9a9a9a", linewidth=0))
            ax.text(c, r, _cell_text(value, i, j, precision), ha="center", va="center",
                    fontsize=7, color=_ink(value, i, j, scale))
    _outline(ax, m, rows, cols)
    ax.set_xticks(range(len(cols)), [_tick(m.cols, j) for j in cols], fontsize=7)
    ax.set_yticks(range(len(rows)), [_tick(m.rows, i) for i in rows], fontsize=7)
    ax.tick_params(length=0, labeltop=True, labelbottom=False)
    ax.set_xlabel(f"{formula_text(m.symbol, f'step {m.name}')}   {grids.dims(m.shape)}",
                  fontsize=9, **math_font(m.symbol))


def _outline(ax, m: Matrix, rows: list, cols: list) -> None:
    """The worked cell (Highlight.cell) outlined in black, as on the page."""
    from matplotlib.patches import Rectangle

    hl = m.highlight
    if hl is None or hl.cell is None or hl.cell[0] not in rows or hl.cell[1] not in cols:
        return
    r, c = rows.index(hl.cell[0]), cols.index(hl.cell[1])
    ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, edgecolor="#000", linewidth=2))


def _cell_text(value, i, j, precision: int) -> str:
    if i is None or j is None:
        return "⋱" if i is None and j is None else ("⋮" if i is None else "⋯")
    return layout.number(float(value[i, j]), precision)


def _ink(value, i, j, scale) -> str:
    if i is None or j is None or not np.isfinite(value[i, j]):
        return colour.MASKED_INK
    return colour.ink(colour.cell_rgb(float(value[i, j]), scale))


def _tick(labels, i) -> str:
    if i is None:
        return "⋯"
    return str(labels[i]) if labels is not None and i < len(labels) else str(i)


def plot_format(output) -> str:
    """svg or png, from a file name's suffix (the loss curve's format)."""
    fmt = Path(output).suffix.lower().lstrip(".")
    if fmt not in ("svg", "png"):
        raise HandformerError(f"the loss curve is written as .svg or .png, not {str(output)!r}")
    return fmt


def loss_curve(history: list[dict], fmt: str = "svg", lang: str = "en") -> bytes:
    """Loss (and token accuracy, validation too when present) per epoch, as SVG or PNG bytes."""
    if not history:
        raise HandformerError("no epochs to plot: the training history is empty")
    t = i18n.table(lang)
    fig, loss_ax = pyplot(lang).subplots(figsize=(7, 4))
    epochs = [h.get("epoch", k + 1) for k, h in enumerate(history)]
    _curves(loss_ax, epochs, history, "loss", t["train.loss"], t["train.val"], "tab:blue")
    loss_ax.set_xlabel(t["train.epoch"])
    loss_ax.set_ylabel(t["train.loss"])
    from matplotlib.ticker import MaxNLocator

    loss_ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # epochs are whole numbers
    loss_ax.grid(alpha=0.3)
    if any("accuracy" in h for h in history):
        acc_ax = loss_ax.twinx()
        _curves(acc_ax, epochs, history, "accuracy", t["train.acc"], t["train.val"], "tab:orange")
        acc_ax.set_ylabel(t["train.acc"])
        acc_ax.set_ylim(0, 1.05)
    loss_ax.set_title(t["train.title"])
    fig.legend(loc="center right", bbox_to_anchor=(0.88, 0.5))
    return _bytes(fig, fmt)


def _curves(ax, epochs, history, key: str, label: str, val: str, color: str) -> None:
    """One measure per epoch, its validation twin dashed (NaN where an epoch has none)."""
    ax.plot(epochs, [h.get(key, math.nan) for h in history], color=color, marker="o", ms=3,
            label=label)
    if any(h.get(f"val_{key}") is not None for h in history):
        ax.plot(epochs, [h.get(f"val_{key}", math.nan) for h in history], "--", color=color,
                marker="s", ms=3, label=f"{val} {label}")
