"""What every drawing of a matrix shares: its 2-D form and whole numbers (colours: ``colour``).

Renderers (HTML, Markdown, figures) draw what these functions decide; which cells are shown and
how their numbers are written is the layout policy (``layout``), the same for every renderer.
"""

from __future__ import annotations

import math

import numpy as np


def as_2d(value) -> np.ndarray:
    """A scalar as 1×1, a vector as one row, more axes folded into rows (the last axis kept)."""
    value = np.asarray(value, dtype=np.float64)
    if value.ndim == 0:
        return value.reshape(1, 1)
    if value.ndim == 1:
        return value.reshape(1, -1)
    return value.reshape(-1, value.shape[-1])


def integral(value, name: str = "") -> bool:
    """Whole numbers to show without decimals: an integer (or bool) array, or token ids
    (a step named "...ids") whose values are all whole."""
    value = np.asarray(value)
    if value.dtype.kind in "iumb":  # np.integer (timedelta64 is one) or bool; no issubdtype cost
        return True
    if not str(name).rsplit(".", 1)[-1].endswith("ids") or not value.size:
        return False
    with np.errstate(invalid="ignore"):
        return bool(np.all(np.isfinite(value)) and np.all(value == np.round(value)))


def precision_of(m, precision: int) -> int:
    """The decimals a matrix is shown with: none for whole numbers (ids 101, not 101.000)."""
    return 0 if integral(m.value, m.name) else precision


def is_masked(x: float, kind: str) -> bool:
    """A masked cell: −∞ before softmax, an exact 0 after it (e^−∞) in an attention pattern."""
    return x == -math.inf or (kind == "pattern" and x == 0.0)


def masked_cells(block: np.ndarray, kind: str) -> np.ndarray:
    """``is_masked`` of every cell of a 2-D block, computed by numpy for the whole block."""
    minus_inf = block == -np.inf
    return minus_inf | (block == 0.0) if kind == "pattern" else minus_inf


def dims(shape: tuple) -> str:
    """A shape as people write it: 7 × 4."""
    return " × ".join(str(n) for n in shape) if shape else "1"

