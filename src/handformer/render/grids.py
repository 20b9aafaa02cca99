"""What every drawing of a matrix shares: its 2-D form, whole numbers, and the colour scale.

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
    if np.issubdtype(value.dtype, np.integer) or value.dtype == bool:
        return True
    if not str(name).rsplit(".", 1)[-1].endswith("ids") or not value.size:
        return False
    with np.errstate(invalid="ignore"):
        return bool(np.all(np.isfinite(value)) and np.all(value == np.round(value)))


def precision_of(m, precision: int) -> int:
    """The decimals a matrix is shown with: none for whole numbers (ids 101, not 101.000)."""
    return 0 if integral(m.value, m.name) else precision


def scale_of(value: np.ndarray) -> float:
    """The colour scale's half-range: the largest finite |value| (1 when there is none)."""
    finite = np.abs(value[np.isfinite(value)])
    top = float(finite.max()) if finite.size else 0.0
    return top if top > 0 else 1.0


# Diverging scale centred at 0: blue (negative) – white – red (positive), ColorBrewer RdBu ends.
_NEG, _MID, _POS = (33, 102, 172), (247, 247, 247), (178, 24, 43)


def colour(x: float, top: float) -> str:
    """The cell colour of x on the diverging scale [−top, top], as #rrggbb."""
    if not math.isfinite(x):
        return "#d4d4d4"
    t = max(-1.0, min(1.0, x / top))
    end = _POS if t >= 0 else _NEG
    a = abs(t)
    rgb = (round(m + (e - m) * a) for m, e in zip(_MID, end, strict=True))
    return "#{:02x}{:02x}{:02x}".format(*rgb)


LEVELS = 10  # the HTML page colours cells in 2·LEVELS + 1 steps, one CSS class each


def level(x: float, top: float) -> int:
    """The step of x on the scale: −LEVELS (−top) … 0 … LEVELS (top)."""
    if not math.isfinite(x):
        return 0
    return round(max(-1.0, min(1.0, x / top)) * LEVELS)


def palette_css(scopes: tuple[str, ...] = (".hf .grid", ".hf .hm")) -> str:
    """One CSS rule per colour step (classes n10 … n1, p0 … p10), light text on strong steps;
    for numeric grids and for the small multiples' heatmaps alike."""
    rules = []
    for k in range(-LEVELS, LEVELS + 1):
        ink_rule = ";color:#fff" if abs(k) > 0.6 * LEVELS else ""
        selector = ",".join(f"{scope} .{_cls(k)}" for scope in scopes)
        rules.append(f"{selector}{{background:{colour(k / LEVELS, 1.0)}{ink_rule}}}")
    return "\n".join(rules)


def level_class(x: float, top: float) -> str:
    return _cls(level(x, top))


def _cls(k: int) -> str:
    return f"n{-k}" if k < 0 else f"p{k}"


def ink(x: float, top: float) -> str:
    """Dark text on light cells, light text on strong ones."""
    return "#fff" if math.isfinite(x) and abs(x) / top > 0.6 else "#111"


def is_masked(x: float, kind: str) -> bool:
    """A masked cell: −∞ before softmax, an exact 0 after it (e^−∞) in an attention pattern."""
    return x == -math.inf or (kind == "pattern" and x == 0.0)


def dims(shape: tuple) -> str:
    """A shape as people write it: 7 × 4."""
    return " × ".join(str(n) for n in shape) if shape else "1"

