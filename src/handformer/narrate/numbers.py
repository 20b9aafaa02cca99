"""How the narration shows numbers and matrices: three decimals (f3), a row's first numbers,
dimension labels, the worked cell marked on a Matrix, and matrices too small for three decimals
drawn times a power of ten."""

from __future__ import annotations

import math

import numpy as np

from .document import Highlight, Matrix


def small_scaled(m):
    """A matrix of numbers too small for 3 decimals (all below 0.05, not all 0), drawn times a
    power of ten and the symbol saying so ("∂L/∂Q ×10⁻⁴"), so it does not read as all 0.000."""
    if not isinstance(m, Matrix) or m.value.size == 0:
        return m
    top = float(np.max(np.abs(m.value[np.isfinite(m.value)]), initial=0.0))
    if top == 0.0 or top >= 0.05:
        return m
    power = int(np.floor(np.log10(top))) + 1
    m.value = m.value / 10.0 ** power
    m.power = power
    m.symbol = rf"{m.symbol}\ (\times 10^{{{power}}})"
    return m


def mark(m, cell: tuple[int, int] | None = None, rows=(), cols=(), keep_rows=(), keep_cols=()):
    """The worked cell (and the rows and columns that make it) on a Matrix, and the rows and
    columns the text names (never elided); a matrix missing from a loaded tape is left as is."""
    if isinstance(m, Matrix):
        if cell is not None or rows or cols:
            m.highlight = Highlight(None if cell is None else (int(cell[0]), int(cell[1])),
                                    tuple(int(r) for r in rows), tuple(int(c) for c in cols))
        m.keep_rows = tuple(sorted({*m.keep_rows, *(int(r) for r in keep_rows)}))
        m.keep_cols = tuple(sorted({*m.keep_cols, *(int(c) for c in keep_cols)}))
    return m


def dims(n: int, prefix: str = "d") -> list[str]:
    return [f"{prefix}{j}" for j in range(n)]


def row_text(values, shown: int = 6) -> str:
    """The first numbers of a row, "…" standing for the rest."""
    values = np.ravel(values).tolist()  # Python numbers: f3 formats each without numpy
    return ", ".join(f3(v) for v in values[:shown]) + (", …" if len(values) > shown else "")


def f3(x) -> str:
    """A number as told in the narration: three decimals, −∞ spelled out."""
    x = float(x)
    if math.isinf(x):  # math's, on a Python float: numpy's costs a ufunc call per number
        return "−∞" if x < 0 else "∞"
    if x != 0 and abs(x) < 0.0005:
        return f"{x:.1e}"  # a tiny gradient is not "0.000"
    return f"{x:.3f}"
