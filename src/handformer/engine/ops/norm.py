"""Layer normalization, forward and backward (the Add & Norm steps of every family)."""

from __future__ import annotations

import numpy as np

from ..formula import clauses
from .basic import column_sum, row_mean, row_sum
from .registry import op

# --- layer normalization --------------------------------------------------------------------


def layer_norm_forward(x, gamma, beta, *, eps, blas_means=False):
    # blas_means (the training tape only): each row mean one BLAS product, not a sum and a
    # division; the walk keeps the sums, whose every digit its pages show
    mean = row_mean if blas_means else _summed_mean
    xhat = x - mean(x)  # centred; normalized in place below
    inv_std = mean(xhat * xhat)
    inv_std += eps
    np.sqrt(inv_std, out=inv_std)
    np.divide(1.0, inv_std, out=inv_std)
    xhat *= inv_std
    out = xhat * gamma
    out += beta
    return out, (xhat, inv_std)


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
    xhat, inv_std = cache
    mean = row_mean if attrs.get("blas_means") else _summed_mean
    dx = g * gamma  # ĝ, turned into ∂L/∂x in place
    gx = dx * xhat
    mean_gx = mean(gx)
    dx -= mean(dx)
    dx -= np.multiply(xhat, mean_gx, out=gx)
    dx *= inv_std
    dgamma = column_sum(np.multiply(g, xhat, out=gx))
    dbeta = column_sum(g)
    return dx, dgamma, dbeta


def _summed_mean(x: np.ndarray) -> np.ndarray:
    return row_sum(x) / x.shape[-1]
