"""Sections turned into what the HTML templates draw: MathML formulas, coloured cells, labels.

Large matrices show their corners; "show all" reveals a bounded block whose numbers travel in a
compact data attribute, so a page for the paper preset stays a few megabytes.
"""

from __future__ import annotations

import json
from functools import lru_cache

import numpy as np
from markupsafe import escape

from ... import i18n, layout
from ...narrate.document import Matrix, Section
from ..common import colour, grids
from ..common.tex import FormulaError, to_mathml, warn
from . import errata, grid, multiples
from .arith import arith_of
from .svg import positional_chart

FULL_CELLS = 2048  # "show all" reveals at most this many numbers of one matrix ...
FULL_COLS = 128  # ... and at most this many of its columns
PAGE_FULL_CELLS = 300_000  # and a page embeds at most this many numbers for "show all" in total


SYMBOLS = {r"\cdot": "·", r"\times": "×", r"\Rightarrow": "⇒", "-": "−", r"\to": "→"}


@lru_cache(maxsize=4096)
def mathml(latex: str, display: bool = True, where: str = "a formula") -> str:
    """LaTeX to MathML on the server; a formula that does not convert is shown as its TeX and
    warned about on stderr (the tests allow none)."""
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


def matrix_view(m: Matrix, precision: int, budget: Budget | None, pos: str = "pos {i}",
                scale: colour.Scale | None = None, alt: dict[str, Matrix] | None = None,
                exact: bool = False) -> dict:
    """One matrix: header, rows of coloured cells (with gaps where elided), legend, show-all;
    ``scale``: the colour scale it shares with others (its own when None); ``pos`` labels a
    positional chart's ends; ``alt``: the same matrix in every language, whose labels and note
    are drawn each in its language where they differ (the page switches language in place)."""
    value, precision = grids.as_2d(m.value), grids.precision_of(m, precision)
    alt = _same_shape(alt, m)
    scale = scale or colour.scale_for(colour.kind_of(m), [value])
    hl = m.highlight
    keep_r = set(m.keep_rows) | set(hl.rows if hl else ()) | ({hl.cell[0]} if hl and hl.cell else set())
    keep_c = set(m.keep_cols) | set(hl.cols if hl else ()) | ({hl.cell[1]} if hl and hl.cell else set())
    row_idx = shown(value.shape[0], layout.MAX_ROWS, layout.HEAD_ROWS, layout.TAIL_ROWS, keep_r)
    col_idx = shown(value.shape[1], PAGE_COLS, layout.HEAD_COLS, layout.TAIL_COLS, keep_c)
    wide = len(col_idx) > WIDE_COLS
    elided = None in row_idx or None in col_idx
    return {
        "name": m.name, "symbol": mathml(m.symbol, False, f"step {m.name}"), "kind": m.kind,
        "note": _note(alt, m), "role": m.role if m.role in colour.ROLES else "", "source": m.source,
        "scale": scale.kind, "shape": grids.dims(m.shape),
        "grid": grid.matrix_table(m, value, scale, precision, alt, row_idx, col_idx,
                                  wide and precision > 1),
        "top": layout.number(scale.top, precision), "elided": elided,
        "nonneg": _nonneg(value),  # −log p, max(0, H): the legend's half from 0 up
        "wide": wide,
        "extra": json.dumps({k: layout.number_rows(np.reshape(v, (1, -1)), precision)
                             for k, v in m.extra.items()}) if m.extra else "",
        "hidden": _hidden(value.shape, row_idx, col_idx),
        "power": m.power, "terms": json.dumps(m.terms) if m.terms else "",
        "exact": _exact(value) if exact else "",
        "full": _full(m, value, scale, precision, budget) if elided else None,
        "chart": positional_chart(value, cols=m.cols, title=m.name, pos=pos)
        if m.kind == "positional"
        else "",
    }


PAGE_COLS = 32  # the page shows matrices up to this many columns whole (fits 1280 px)
# More columns than this do not fit beside the contents at 14 px: such a matrix is "wide" (the
# page gives it the whole width below 1600 px) and its cells carry a one-decimal-shorter text
# the page's script shows when even 11 px type would not fit (the full number stays one hover
# or tap away, and the worked cell always keeps it).
WIDE_COLS = 16


def shown(n: int, limit: int, head: int, tail: int, keep: set[int]) -> list[int | None]:
    """The layout rule's indices along one axis, plus every index the narration names, with a
    gap (None) wherever indices are skipped."""
    if n <= limit:  # all of them (what the rule below gives, without its sets)
        return list(range(n))
    base = [i for i in layout.elide(n, limit, head, tail) if i is not None]
    picked = sorted(set(base) | {i for i in keep if 0 <= i < n})
    out: list[int | None] = []
    for i in picked:
        if out and out[-1] is not None and i != out[-1] + 1:
            out.append(None)
        out.append(i)
    return out


def _hidden(shape: tuple[int, int], rows: list, cols: list) -> tuple[int, int]:
    """How many rows and columns the gaps hide."""
    return shape[0] - len(rows) + rows.count(None), shape[1] - len(cols) + cols.count(None)


def _note(alt: dict[str, Matrix], m: Matrix) -> str | dict[str, str]:
    """The matrix's note as one text, or by language where the languages' matrices (``alt``)
    say it differently."""
    texts = {code: x.note for code, x in (alt or {}).items()}
    return texts if len(set(texts.values())) > 1 else m.note


def _same_shape(alt: dict[str, Matrix] | None, m: Matrix) -> dict[str, Matrix]:
    """The languages' matrices that have ``m``'s shape (those whose labels can stand for
    its)."""
    shape = m.shape
    return {code: x for code, x in (alt or {}).items() if x is m or x.shape == shape}


def _full(m: Matrix, value: np.ndarray, scale: colour.Scale, precision: int,
          budget: Budget | None) -> dict | None:
    """The bounded block "show all" reveals: whole matrix if small enough, else its top-left."""
    n_cols = min(value.shape[1], FULL_COLS)
    n_rows = min(value.shape[0], max(1, FULL_CELLS // n_cols))
    if budget is None or not budget.take(n_rows * n_cols):
        return None
    numbers = layout.number_rows(value[:n_rows, :n_cols], precision)
    data = {"v": numbers, "t": scale.top, "s": scale.kind, "k": m.kind,
            "r": [grid.label(m.rows, i, True) for i in range(n_rows)] if m.rows else None,
            "c": [grid.label(m.cols, j, True) for j in range(n_cols)] if m.cols else None}
    complete = (n_rows, n_cols) == value.shape
    return {"data": json.dumps(data, ensure_ascii=False, separators=(",", ":")),
            "complete": complete, "shape": grids.dims((n_rows, n_cols))}


def equation_view(items: list, precision: int, budget: Budget | None,
                  others: dict[str, list], pos: str = "pos {i}", where: str = "an equation",
                  scales: dict | None = None) -> list[dict]:
    """The drawing left to right: matrices, and the operators between them as MathML, each
    operator kept with the matrix after it; three or more attention patterns as one grid of
    small multiples (others: the same equation in each language, for the patterns' notes)."""
    scales = scales or {}
    ours = [x for x in items if isinstance(x, Matrix)]
    exact = _cancelling(ours)
    theirs = {code: [x for x in equation if isinstance(x, Matrix)]
              for code, equation in others.items()}
    out = []
    for item in multiples.gather(items):
        if isinstance(item, multiples.Multiples):
            notes = {lang: [m for m in mats if multiples.is_pattern(m)]
                     for lang, mats in others.items()}
            out.append({"multiples": multiples.multiples_view(
                item, notes, precision, lambda m: matrix_view(m, precision, budget, pos))})
        elif isinstance(item, Matrix):
            out.append({"matrix": matrix_view(item, precision, budget, pos,
                                              scales.get(id(item)), _same(item, ours, theirs),
                                              item.name in exact)})
        else:
            text = SYMBOLS.get(str(item).strip(), str(item))
            out.append({"op": mathml(text, False, where) if "\\" in text else None,
                        "text": text})
    return out


def _same(m: Matrix, ours: list[Matrix], theirs: dict[str, list[Matrix]]) -> dict[str, Matrix]:
    """``m`` as each language's equation has it (the matrix at the same place): ``ours``, the
    matrices of the equation drawn, ``theirs``, each language's."""
    k = next(n for n, x in enumerate(ours) if x is m)
    return {code: mats[k] for code, mats in theirs.items()
            if k < len(mats) and mats[k].name == m.name}


def section_view(by_lang: dict[str, Section | None], precision: int, budget: Budget | None,
                 pos: str = "pos {i}", lang: str | None = None) -> dict:
    """One panel with its text in every language (the first language's section stands in for
    a missing one); the drawing, told once, is the page's opening language's (``lang``)."""
    base = next(iter(by_lang.values()))
    sections = {code: s or base for code, s in by_lang.items()}
    shown = sections.get(lang, base)
    matrices = [m for m in shown.equation if isinstance(m, Matrix)]
    callouts = errata.same_errata(shown, base)
    scales = _in_own_units(matrices, colour.shared_scales(matrices,
                                                          errata.pairs(callouts, matrices)))
    equation = equation_view(shown.equation, precision, budget,
                             {code: s.equation for code, s in sections.items()}, pos,
                             f"step {base.id}", scales)
    return {
        "id": base.id, "anchor": "s-" + base.id, "number": base.number, "phase": base.phase,
        "panel": base.panel, "tutorial": base.tutorial,
        "title": {lang: s.title for lang, s in sections.items()},
        # the flow nav says where the output goes, and the line that refers back links the
        # panels it names: both with the panels' numbers, so their plain text is left out
        "paragraphs": {lang: [t for t in s.paragraphs
                              if not (s.feeds and t == s.next) and not (s.told and t == s.told)]
                       for lang, s in sections.items()},
        "told_in": list(base.told_in), "told": {lang: told_around(lang) for lang in sections},
        "formula": mathml(base.formula, True, f"step {base.id}"), "latex": base.formula,
        "equation": equation, "arith": arith_of(shown.equation), "terms": terms(equation), "place": {lang: list(s.place) for lang, s in sections.items()},
        "reads": list(base.reads), "feeds": list(base.feeds), "level": base.level,
        # the diagram's labels in every language (None where the section draws none)
        "architecture": {lang: s.architecture or base.architecture for lang, s in sections.items()}
        if base.architecture else None,
        "callouts": [errata.callout_view(c, errata.told(sections, base, k), precision,
                                         lambda m, k=k: matrix_view(
                                             m, precision, budget, scale=scales.get(id(m)),
                                             alt=_tutorials(sections, k, m)),
                                         matrices)
                     for k, c in enumerate(callouts)],
        "steps": base.steps,
    }


def _tutorials(sections: dict[str, Section], k: int, m: Matrix) -> dict[str, Matrix]:
    """The k-th erratum's tutorial matrix in each language (its note is said in each)."""
    found = {}
    for code, s in sections.items():
        c = s.callouts[k] if k < len(s.callouts) else None
        if c is not None and c.tutorial is not None and c.tutorial.name == m.name:
            found[code] = c.tutorial
    return found


@lru_cache(maxsize=16)
def told_around(lang: str) -> tuple[str, str]:
    """The words before and after the panels named by "(Explained in “…”.)", which the page
    draws as links."""
    before, after = i18n.table(lang)["told.before"].split("{where}")
    return before.rstrip("“\""), after.lstrip("”\"")


def _nonneg(value: np.ndarray) -> bool:
    """No negative number (and some positive one): drawn on the diverging scale's red half
    only, its legend from 0, not from −top."""
    finite = value[np.isfinite(value)]
    return bool(finite.size) and float(finite.min()) >= 0.0 and float(finite.max()) > 0.0


def _cancelling(matrices: list[Matrix]) -> set[str]:
    """The matrices a gradient cell's shares read (narrate/grad_terms.py): a sum of products
    or a softmax's g − Σ a·g may cancel digits, so the page carries them to six significant
    digits, and a clicked cell's arithmetic writes each factor with enough of them."""
    return {t[k] for m in matrices for t in (m.terms or []) if t for k in ("a", "b", "p")
            if k in t}


def _exact(value: np.ndarray) -> str:
    """Every number to 6 significant digits, a row's numbers by spaces, rows by semicolons (the
    page's worked arithmetic reads them). One %-format a row: twice as fast as a format call a
    number, which the paper preset's 5 million numbers feel (about 2 s a page)."""
    row = " ".join(["%.6g"] * value.shape[1])
    return ";".join(row % tuple(r) for r in value.tolist())


def _in_own_units(matrices: list[Matrix], scales: dict) -> dict:
    """A matrix drawn × 10ⁿ keeps a shared scale only with matrices drawn × the same 10ⁿ: its
    colours and its legend's ends are then in its own units, the units of its cells."""
    powers: dict[int, set] = {}
    for m in matrices:
        powers.setdefault(id(scales[id(m)]), set()).add(m.power)
    for m in matrices:
        if len(powers[id(scales[id(m)])]) > 1:
            scales[id(m)] = colour.scale_for(colour.kind_of(m), [m.value])
    return scales


def terms(equation: list[dict]) -> list[list[dict]]:
    """The drawing in unbreakable pieces: an operator stays with the matrix after it, so a
    narrow screen wraps between terms, never between an operator and its matrix."""
    out: list[list[dict]] = []
    for item in equation:
        if out and not _is_op(item) and len(out[-1]) == 1 and _is_op(out[-1][0]):
            out[-1].append(item)
        else:
            out.append([item])
    return out


def _is_op(item: dict) -> bool:
    return "matrix" not in item and "multiples" not in item
