"""Small multiples: the many attention patterns of one section (BERT: 12 heads) as a grid.

Each head is a compact heatmap, colour only on the fixed scale 0 … 1 (weights are comparable
across heads), its value on hover; a click on a head opens its full numeric grid below.
"""

from __future__ import annotations

from ... import layout
from ...narrate.document import Matrix
from ...records import Record
from ..common import colour, grids

MIN_PATTERNS = 3  # one or two patterns stay full numeric grids (the tutorial's decoder heads)
MAX_TOKENS = 32  # a tile draws at most this many rows and columns (its top-left block)
MAX_LABELLED = 16  # more tokens than this and labels would overlap: hover tells the tokens


class Multiples(Record):
    """The patterns of one equation, drawn together."""

    FIELDS = ("patterns",)

    def __init__(self, patterns: list[Matrix]):
        self.patterns = patterns


def columns_css() -> str:
    """A class per column count (cols-1 … cols-MAX_TOKENS) setting the heatmap's grid: a
    style attribute per tile would need the page's policy to allow inline styles."""
    return "\n".join(f".hf .hm.cols-{n}{{--n:{n}}}" for n in range(1, MAX_TOKENS + 1))


def is_pattern(item) -> bool:
    return isinstance(item, Matrix) and item.kind == "pattern"


def gather(items: list) -> list:
    """The equation with its patterns gathered at the first one's place (when ≥ MIN_PATTERNS);
    an operator between two patterns goes with them (it has nothing left to join)."""
    patterns = [item for item in items if is_pattern(item)]
    if len(patterns) < MIN_PATTERNS:
        return list(items)
    out, placed = [], False
    for k, item in enumerate(items):
        if is_pattern(item):
            if not placed:
                out.append(Multiples(patterns))
                placed = True
        elif isinstance(item, Matrix) or not _between_patterns(items, k):
            out.append(item)
    return out


def _between_patterns(items: list, k: int) -> bool:
    return 0 < k < len(items) - 1 and is_pattern(items[k - 1]) and is_pattern(items[k + 1])


def multiples_view(group: Multiples, others: dict[str, list[Matrix]], precision: int,
                   full) -> dict:
    """The tiles of a group; ``others``: its patterns in each language (for their notes);
    ``full(m)`` draws one head's numeric grid for when it is opened."""
    notes = {lang: {m.name: m.note for m in mats} for lang, mats in others.items()}
    n = max(max(grids.as_2d(m.value).shape) for m in group.patterns)
    labelled = n <= MAX_LABELLED
    return {"labelled": labelled, "legend": layout.number(1.0, precision),
            "tiles": [tile_view(m, {lang: by_name.get(m.name) or m.note
                                    for lang, by_name in notes.items()}, precision, full)
                      for m in group.patterns]}


def tile_view(m: Matrix, notes: dict[str, str], precision: int, full) -> dict:
    """One head: label rows and columns, cells as (colour class, hover text); its note in
    each language."""
    value = grids.as_2d(m.value)
    n_rows, n_cols = min(value.shape[0], MAX_TOKENS), min(value.shape[1], MAX_TOKENS)
    rows = [_label(m.rows, i) for i in range(n_rows)]
    cols = [_label(m.cols, j) for j in range(n_cols)]
    cells = [[_cell(float(value[i, j]), rows[i], cols[j], precision) for j in range(n_cols)]
             for i in range(n_rows)]
    cut = (n_rows, n_cols) != value.shape
    numbers = dict(full(m), note="")  # the note is told above it, in every language
    return {"name": m.name, "id": "z-" + m.name, "symbol": numbers["symbol"],
            "note": notes, "rows": rows, "cols": cols,
            "cells": cells, "n_cols": n_cols, "cut": grids.dims((n_rows, n_cols)) if cut else "",
            "shape": grids.dims(m.shape), "full": numbers}


def _label(labels, i: int) -> str:
    return str(labels[i]) if labels is not None and i < len(labels) else str(i)


def _cell(x: float, row: str, col: str, precision: int) -> tuple[str, str]:
    """Colour on the fixed scale 0 … 1, masked cells hatched; hover: "when → you: 0.062"."""
    masked = " m" if grids.is_masked(x, "pattern") else ""
    return colour.cell_class(x, colour.Scale("prob")) + masked, f"{row} → {col}: {layout.number(x, precision)}"
