"""Layer normalization, forward and backward (the Add & Norm steps of every family)."""

from __future__ import annotations

import numpy as np

from ..formula import clauses
from .basic import row_mean
from .registry import op

# --- layer normalization --------------------------------------------------------------------


def layer_norm_forward(x, gamma, beta, *, eps):
    mu = row_mean(x)
    centered = x - mu
    inv_std = 1.0 / np.sqrt(row_mean(centered * centered) + eps)
    xhat = centered * inv_std
    return xhat * gamma + beta, (xhat, inv_std)


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
    x, gamma, _ = args
    xhat, inv_std = cache
    ghat = g * gamma
    mean_g = row_mean(ghat)
    mean_gx = row_mean(ghat * xhat)
    dx = inv_std * (ghat - mean_g - xhat * mean_gx)
    d = g.shape[-1]
    dgamma = (g * xhat).reshape(-1, d).sum(axis=0)
    dbeta = g.reshape(-1, d).sum(axis=0)
    return dx, dgamma, dbeta
