"""Layer normalization, forward and backward (the Add & Norm steps of every family)."""

from __future__ import annotations

import numpy as np

from ..formula import clauses
from .basic import column_sum, row_sum
from .registry import op

# --- layer normalization --------------------------------------------------------------------


def layer_norm_forward(x, gamma, beta, *, eps):
    d = x.shape[-1]
    xhat = x - row_sum(x) / d  # centred; normalized in place below
    inv_std = row_sum(xhat * xhat) / d
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
    d = g.shape[-1]
    dx = g * gamma  # ĝ, turned into ∂L/∂x in place
    gx = dx * xhat
    mean_gx = row_sum(gx) / d
    dx -= row_sum(dx) / d
    dx -= np.multiply(xhat, mean_gx, out=gx)
    dx *= inv_std
    dgamma = column_sum(np.multiply(g, xhat, out=gx))
    dbeta = column_sum(g)
    return dx, dgamma, dbeta
