"""One worked entry of a weight's gradient, ∂L/∂W = Xᵀ·∂L/∂Y, in the panel that computes it
(before the update that uses it): its largest entry as column r of the layer's input X times
column c of the upstream gradient ∂L/∂Y (for a projection into heads, head h's column of ∂L/∂Q),
every product written out, and the two columns lit where the panel draws them."""

from __future__ import annotations

import numpy as np

from . import names
from .document import Matrix
from .grad_cell import _sum, num
from .numbers import mark
from .unicode_math import to_text

WEIGHTED = ("linear", "head_proj")


def worked(ctx, name: str, equation: list, labels) -> str:
    """The paragraph ("" for a step without a weight of its own); ``labels(shape, param)``
    gives a parameter's row and column labels."""
    step = ctx.tape.index[name]
    if step.op not in WEIGHTED or len(step.inputs) < 2:
        return ""
    w, x_name = step.inputs[1], step.inputs[0]
    gw, x, gy = ctx.grad(w), ctx.value(x_name), ctx.grad(name)
    if w in ctx.tape.index or gw is None or x is None or gy is None or np.ndim(gw) != 2:
        return ""
    r, c = (int(k) for k in np.unravel_index(int(np.argmax(np.abs(gw))), gw.shape))
    column, head, j = _upstream_column(gy, c, step.op)
    terms = [(float(a), float(b)) for a, b in zip(x[:, r], column, strict=True)]
    _light(equation, w, x_name, r, c)
    rows, cols = labels(gw.shape, w)
    y = names.symbol(name, step.op)
    return ctx.t("grad.weight.cell", w=to_text(names.symbol(w)), row=rows[r] if rows else r,
                 col=cols[c], ycol=cols[c] if head is None else f"d{j}", x=to_text(step.symbols.get("x", "X")),
                 y=to_text(y if head is None else f"{y}^{{({head + 1})}}"),
                 k=len(terms), terms=_sum(terms), v=num(float(gw[r, c])))


def _upstream_column(gy: np.ndarray, c: int, op: str) -> tuple[np.ndarray, int | None, int]:
    """Column c of ∂L/∂Y; for a projection into heads, W's column c is column c mod d_k of
    head c // d_k's ∂L/∂Q (the head, and that column)."""
    if op == "head_proj":
        h, j = divmod(c, gy.shape[-1])
        return gy[h][:, j], h, j
    return gy[:, c], None, c


def _light(equation: list, w: str, x_name: str, r: int, c: int) -> None:
    """The worked entry on ∂L/∂W, and column r of the drawn input X."""
    for m in equation:
        if not isinstance(m, Matrix):
            continue
        if m.name == f"grad.{w}" and m.highlight is None:
            mark(m, cell=(r, c))
        elif m.name == x_name and m.highlight is None and np.ndim(m.value) == 2:
            mark(m, cols=(r,))
