"""Layer normalization, forward and backward (the Add & Norm steps of every family)."""

from __future__ import annotations

import numpy as np

from ..formula import clauses
from .basic import column_sum, mean_column, row_sum
from .registry import op

# --- layer normalization --------------------------------------------------------------------


def layer_norm_forward(x, gamma, beta, *, eps, blas_means=False):
    # blas_means (the training tapes only): each row mean one BLAS product with a column of
    # 1/d, looked up once and kept for the backward pass; the walk keeps the sums, whose every
    # digit its pages show. Rows are worked on as one 2-D matrix (no reshaping per call).
    d = x.shape[-1]
    column = mean_column(d, x.dtype) if blas_means else None
    rows = x.reshape(-1, d)
    xhat = rows - _mean(rows, column)  # centred; normalized in place below
    inv_std = _mean(xhat * xhat, column)
    inv_std += eps
    np.sqrt(inv_std, out=inv_std)
    np.reciprocal(inv_std, out=inv_std)  # 1 / σ to the bit, without a Python 1.0 to convert
    xhat *= inv_std
    out = xhat * gamma
    out += beta
    return out.reshape(x.shape), (xhat, inv_std, column)


@op("layer_norm", layer_norm_forward,
    clauses(r"$out = \gamma \odot \frac{$x - \mu}{\sqrt{\sigma^2 + \varepsilon}} + \beta",
            r"\mu = \tfrac{1}{d}\textstyle\sum_j $x_{j},\ "
            r"\sigma^2 = \tfrac{1}{d}\textstyle\sum_j ($x_{j} - \mu)^2"),
    r"\dL{$x} = \frac{1}{\sqrt{\sigma^2+\varepsilon}}"
    r"\left(\hat g - \overline{\hat g} - \hat x\, \overline{\hat g \odot \hat x}\right),\ "
    r"\hat g = \gamma \odot \dL{$out};\quad \dL{\gamma} = \sum_t \dL{$out_{t}} \odot \hat x_t,\ "
    r"\dL{\beta} = \sum_t \dL{$out_{t}}",
    out="Y", x="X")
def layer_norm(g, out, args, cache, attrs):
    gamma = args[1]
    xhat, inv_std, column = cache  # (rows, d), (rows, 1), the 1/d column or None
    rows = g.reshape(xhat.shape)
    dx = rows * gamma  # ĝ, turned into ∂L/∂x in place
    gx = dx * xhat
    mean_gx = _mean(gx, column)
    dx -= _mean(dx, column)
    dx -= np.multiply(xhat, mean_gx, out=gx)
    dx *= inv_std
    dgamma = column_sum(np.multiply(rows, xhat, out=gx))
    dbeta = column_sum(rows)
    return dx.reshape(g.shape), dgamma, dbeta


def _mean(rows: np.ndarray, column: np.ndarray | None) -> np.ndarray:
    """Each row's mean (rows 2-D): one BLAS product with the 1/d column, or the sum / d."""
    return np.dot(rows, column) if column is not None else row_sum(rows) / rows.shape[-1]
