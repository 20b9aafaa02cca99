"""Sections turned into what the HTML templates draw: MathML formulas, coloured cells, labels.

Large matrices show their corners; "show all" reveals a bounded block whose numbers travel in a
compact data attribute, so a page for the paper preset stays a few megabytes.
"""

from __future__ import annotations

import json
from functools import lru_cache

import numpy as np

from .. import layout
from ..narrate.document import Callout, Matrix, Section
from . import grids
from . import html_multiples as multiples
from .svg import positional_chart
from .tex import FormulaError, to_mathml, warn

FULL_CELLS = 2048  # "show all" reveals at most this many numbers of one matrix ...
FULL_COLS = 128  # ... and at most this many of its columns
PAGE_FULL_CELLS = 300_000  # and a page embeds at most this many numbers for "show all" in total


SYMBOLS = {r"\cdot": "·", r"\times": "×", r"\Rightarrow": "⇒", "-": "−", r"\to": "→"}


@lru_cache(maxsize=4096)
def mathml(latex: str, display: bool = True, where: str = "a formula") -> str:
    """LaTeX to MathML on the server; a formula that does not convert is shown as its TeX and
    warned about on stderr (the tests allow none)."""
    from markupsafe import escape

    if not latex:
        return ""
    try:
        return to_mathml(latex, display)
    except FormulaError as err:
        warn(where, latex, err)
        return f'<code class="tex">{escape(latex)}</code>'


class Budget:
    """How many numbers the page may still embed for "show all"."""

    def __init__(self, cells: int = PAGE_FULL_CELLS):
        self.cells = cells

    def take(self, n: int) -> bool:
        if n > self.cells:
            return False
        self.cells -= n
        return True


def matrix_view(m: Matrix, precision: int, budget: Budget | None, pos: str = "pos {i}") -> dict:
    """One matrix: header, rows of coloured cells (with gaps where elided), legend, show-all;
    ``pos`` labels a positional chart's ends."""
    value, precision = grids.as_2d(m.value), grids.precision_of(m, precision)
    top = grids.scale_of(value)
    row_idx, col_idx = layout.shown_rows(value.shape[0]), layout.shown_cols(value.shape[1])
    rows = [None if i is None else (_label(m.rows, i, value.shape[0] > 1),
                                    [_cell(value, i, j, top, precision, m.kind) for j in col_idx])
            for i in row_idx]
    elided = None in row_idx or None in col_idx
    return {
        "name": m.name, "symbol": mathml(m.symbol, False, f"step {m.name}"), "kind": m.kind,
        "note": m.note,
        "shape": grids.dims(m.shape), "cols": [None if j is None else _label(m.cols, j, True)
                                               for j in col_idx],
        "rows": rows, "top": layout.number(top, precision), "elided": elided,
        "full": _full(m, value, top, precision, budget) if elided else None,
        "chart": positional_chart(value, cols=m.cols, title=m.name, pos=pos)
        if m.kind == "positional"
        else "",
    }


def _label(labels, i: int, numbered: bool) -> str:
    if labels is not None and i < len(labels):
        return str(labels[i])
    return str(i) if numbered else ""


def _cell(value: np.ndarray, i: int | None, j: int | None, top: float, precision: int,
          kind: str):
    if i is None or j is None:
        return None
    x = float(value[i, j])
    masked = " m" if grids.is_masked(x, kind) else ""
    return (layout.number(x, precision), grids.level_class(x, top) + masked)


def _full(m: Matrix, value: np.ndarray, top: float, precision: int,
          budget: Budget | None) -> dict | None:
    """The bounded block "show all" reveals: whole matrix if small enough, else its top-left."""
    n_cols = min(value.shape[1], FULL_COLS)
    n_rows = min(value.shape[0], max(1, FULL_CELLS // n_cols))
    if budget is None or not budget.take(n_rows * n_cols):
        return None
    numbers = layout.number_rows(value[:n_rows, :n_cols], precision)
    data = {"v": numbers, "t": top, "k": m.kind,
            "r": [_label(m.rows, i, True) for i in range(n_rows)] if m.rows else None,
            "c": [_label(m.cols, j, True) for j in range(n_cols)] if m.cols else None}
    complete = (n_rows, n_cols) == value.shape
    return {"data": json.dumps(data, ensure_ascii=False, separators=(",", ":")),
            "complete": complete, "shape": grids.dims((n_rows, n_cols))}


def equation_view(items: list, precision: int, budget: Budget | None,
                  others: dict[str, list], pos: str = "pos {i}", where: str = "an equation") -> list[dict]:
    """The drawing left to right: matrices, and the operators between them as MathML; three
    or more attention patterns as one grid of small multiples (others: the same equation in
    each language, for the patterns' notes)."""
    out = []
    for item in multiples.gather(items):
        if isinstance(item, multiples.Multiples):
            notes = {lang: [m for m in mats if multiples.is_pattern(m)]
                     for lang, mats in others.items()}
            out.append({"multiples": multiples.multiples_view(
                item, notes, precision, lambda m: matrix_view(m, precision, budget, pos))})
        elif isinstance(item, Matrix):
            out.append({"matrix": matrix_view(item, precision, budget, pos)})
        else:
            text = SYMBOLS.get(str(item).strip(), str(item))
            out.append({"op": mathml(text, False, where) if "\\" in text else None,
                        "text": text})
    return out


def section_view(by_lang: dict[str, Section | None], precision: int, budget: Budget | None,
                 pos: str = "pos {i}", lang: str | None = None) -> dict:
    """One panel with its text in every language (the first language's section stands in for
    a missing one); the drawing, told once, is the page's opening language's (``lang``)."""
    base = next(iter(by_lang.values()))
    sections = {code: s or base for code, s in by_lang.items()}
    shown = sections.get(lang, base)
    equation = equation_view(shown.equation, precision, budget,
                             {code: s.equation for code, s in sections.items()}, pos,
                             f"step {base.id}")
    return {
        "id": base.id, "anchor": "s-" + base.id, "number": base.number, "phase": base.phase,
        "title": {lang: s.title for lang, s in sections.items()},
        "paragraphs": {lang: s.paragraphs for lang, s in sections.items()},
        "formula": mathml(base.formula, True, f"step {base.id}"), "latex": base.formula,
        "equation": equation,
        "callouts": [_callout(c, _told(sections, base, k), precision, budget, equation)
                     for k, c in enumerate(_same_errata(shown, base))],
        "steps": base.steps,
    }


def _same_errata(s: Section, base: Section) -> list[Callout]:
    return s.callouts if len(s.callouts) == len(base.callouts) else base.callouts


def _told(sections: dict[str, Section], base: Section, k: int) -> dict[str, str]:
    """Erratum k in every language; a language whose section has other errata tells it in the
    first language's words."""
    return {code: _same_errata(s, base)[k].text for code, s in sections.items()}


def _callout(c: Callout, text: dict[str, str], precision: int, budget: Budget | None,
             equation: list[dict]) -> dict:
    """An erratum box; with the tutorial's number, ours (same shape, from the drawing) beside it."""
    tutorial = matrix_view(c.tutorial, precision, budget) if c.tutorial else None
    ours = None
    if tutorial:
        same = [e["matrix"] for e in equation
                if "matrix" in e and e["matrix"]["shape"] == tutorial["shape"]]
        ours = same[-1] if same else None
    return {"code": c.code, "text": text, "tutorial": tutorial, "ours": ours}
