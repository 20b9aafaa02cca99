"""Cross-entropy over the non-pad positions, with optional label smoothing: the loss of every
family, forward with its backward right below it, and each position's own loss ℓ_t (what the
walk shows beside L)."""

from __future__ import annotations

import numpy as np

from ..formula import clauses
from .basic import row_max, row_sum
from .registry import op


def position_losses(logits, targets, smoothing=0.0):
    """Each position's loss ℓ_t = −Σ_w q_w log p_w, q = (1 − ε)·onehot + ε/V, without building q:
    (1 − ε)·(−log p_target) + ε·(−mean_w log p_w). Also e = exp(shifted logits) and its row
    sums, which the backward pass keeps (p = e / total is left to it: one pass fewer)."""
    p = logits - row_max(logits)
    picked = at_targets(p, targets)
    mean_shifted = p.mean(axis=-1) if smoothing else 0.0
    np.exp(p, out=p)
    total = row_sum(p)
    log_total = np.log(total[..., 0])
    per_position = log_total - picked
    if smoothing:
        per_position *= 1.0 - smoothing
        per_position += smoothing * (log_total - mean_shifted)
    return per_position, p, total


def cross_entropy_forward(logits, *, targets, weights, smoothing=0.0):
    per_position, e, total = position_losses(logits, targets, smoothing)
    count = np.add.reduce(weights, axis=None)
    return np.asarray((per_position * weights).sum() / count, dtype=logits.dtype), (e, total, count)


@op("cross_entropy", cross_entropy_forward,
    clauses(r"$out = -\frac{1}{|T|} \sum_{t \in T} \sum_{w} q_{t,w} \log p_{t,w}",
            r"p_t = \operatorname{softmax}($x_t)"),
    r"\dL{$x_{t}} = \frac{1}{|T|}\,(p_t - q_t)",
    out="L", x="z")
def cross_entropy(g, out, args, cache, attrs):
    e, total, count = cache  # p = e / total
    scale = attrs["weights"][..., None] * (g / count)
    grad = e * (scale / total)  # (p − q) · w / |T|, q = (1 − ε)·onehot + ε/V subtracted in place
    smoothing = attrs.get("smoothing", 0.0)
    rows, cols = _target_index(attrs["targets"])
    onehot_part = scale.reshape(-1)  # (1 − ε) · w / |T| at each target; ε = 0: no product
    if smoothing:
        onehot_part = (1.0 - smoothing) * onehot_part
    grad.reshape(-1, e.shape[-1])[rows, cols] -= onehot_part
    if smoothing:
        grad -= (smoothing / e.shape[-1]) * scale
    return (grad,)


def _target_index(targets):
    # (row, column) of every target in the logits seen as a (positions × V) matrix; plain
    # fancy indexing: np.take_along_axis costs more in its argument checks than in the work.
    cols = np.asarray(targets).reshape(-1)
    return np.arange(cols.size), cols


def at_targets(x: np.ndarray, targets) -> np.ndarray:
    """x[…, t, targets[…, t]]: the entry of each position's target word."""
    rows, cols = _target_index(targets)
    return x.reshape(-1, x.shape[-1])[rows, cols].reshape(np.shape(targets))
