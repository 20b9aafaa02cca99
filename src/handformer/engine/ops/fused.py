"""Whole sublayers as one operation each, for training's fused tape (``Tape(fused=True)``):
multi-head attention, the residual sum with layer norm, the embedding with its positions, and
the feed-forward network's first affine map with its ReLU.

A tutorial-sized training step is Python overhead, not arithmetic: fifty steps forward and
fifty back, each a few microseconds of bookkeeping around a few small products. Fused, the
same arithmetic runs in sixteen steps. Each forward here does exactly what the separate ops
do, in the same order (the same digits); each backward is the chain rule through them,
written out. The walk's tape never uses them: it shows every step under its own name.
"""

from __future__ import annotations

import numpy as np

from .basic import (
    column_sum,
    matmul_weight_grad,
    positional_forward,
    row_max,
    row_sum,
    rows_matmul,
    scatter_rows,
)
from .norm import layer_norm, layer_norm_forward  # layer_norm: the registered Op
from .registry import op

# --- multi-head attention: the projections, scores, mask, softmax, weighted sum, W^O ---------


def _split(y, b, heads):
    """X W (+ b) of shape (…, n, h·d_k) as h heads (…, h, n, d_k)."""
    if b is not None:
        y += b
    return y.reshape(*y.shape[:-1], heads, -1).swapaxes(-2, -3)


def heads_product(a, b):
    """A B for each head (and batch item) at once: numpy's stacked matmul. A function of its
    own so benchmarks/step_profile.py can time these products beside the GEMMs."""
    return a @ b


def _merge(z):
    """Heads (…, h, n, d) side by side: (…, n, h·d)."""
    merged = z.swapaxes(-2, -3)
    return merged.reshape(*merged.shape[:-2], -1)


def mha_forward(x, kv, w_q, w_k, w_v, w_o, b_q=None, b_k=None, b_v=None, b_o=None, *,
                heads, scale, allowed=None, keep=None, p=0.0):
    q = _split(rows_matmul(x, w_q), b_q, heads)
    k = _split(rows_matmul(kv, w_k), b_k, heads)
    v = _split(rows_matmul(kv, w_v), b_v, heads)
    s = heads_product(q, k.swapaxes(-1, -2))
    s *= scale
    if allowed is not None:
        np.copyto(s, -np.inf, where=~allowed)
    s -= row_max(s)  # softmax in place: the scores are this op's own array
    a = np.exp(s, out=s)
    a /= row_sum(a)
    dropped = a if keep is None else a * keep * (1.0 / (1.0 - p))
    concat = _merge(heads_product(dropped, v))
    out = rows_matmul(concat, w_o)
    if b_o is not None:
        out += b_o
    return out, (q, k, v, a, dropped, concat)


@op("mha", mha_forward,
    r"$out = \mathrm{Concat}(\mathrm{softmax}(Q^{(i)} K^{(i)\top} / \sqrt{d_k}) V^{(i)}) W^O",
    r"\text{the chain rule through every step of the sublayer}",
    out=r"\mathrm{MHA}")
def mha(g, out, args, cache, attrs):
    x, kv, w_q, w_k, w_v, w_o = args[:6]
    q, k, v, a, dropped, concat = cache
    heads, biased = attrs["heads"], len(args) == 10
    dz = rows_matmul(g, w_o.T)
    dz = dz.reshape(*dz.shape[:-1], heads, -1).swapaxes(-2, -3)
    dv = _merge(heads_product(dropped.swapaxes(-1, -2), dz))
    da = heads_product(dz, v.swapaxes(-1, -2))
    if attrs.get("keep") is not None:
        da = da * attrs["keep"] * (1.0 / (1.0 - attrs["p"]))
    ds = da * a  # softmax's backward; masked keys have a = 0, so their gradient is 0
    ds -= a * row_sum(ds)
    ds *= attrs["scale"]
    dq, dk = _merge(heads_product(ds, k)), _merge(heads_product(ds.swapaxes(-1, -2), q))
    dx = rows_matmul(dq, w_q.T)
    dkv = rows_matmul(dk, w_k.T)
    dkv += rows_matmul(dv, w_v.T)
    if kv is x:  # self-attention: one input read three times, one gradient
        dx += dkv
        dkv = None
    grads = [dx, dkv, matmul_weight_grad(x, dq), matmul_weight_grad(kv, dk),
             matmul_weight_grad(kv, dv), matmul_weight_grad(concat, g)]
    if biased:
        grads += [column_sum(dq), column_sum(dk), column_sum(dv), column_sum(g)]
    return tuple(grads)


# --- the residual sum and layer norm: LN(x + sublayer(x)) -----------------------------------


def add_norm_forward(x, sub, gamma, beta, *, eps, blas_means=True):
    return layer_norm_forward(x + sub, gamma, beta, eps=eps, blas_means=blas_means)


@op("add_norm", add_norm_forward,
    r"$out = \mathrm{LN}($x + $sub)",
    r"\dL{$x} = \dL{$sub} = \dL{R},\ R = $x + $sub",
    sub="S")
def add_norm(g, out, args, cache, attrs):
    dr, dgamma, dbeta = layer_norm.backward(g, out, (None, args[2]), cache, attrs)
    return dr, dr, dgamma, dbeta  # one array for both: the tape never adds into it in place


# --- token embedding (× a factor) plus the positional encoding ------------------------------


def embed_positions_forward(ids, table, *, factor=None):
    out = table[ids]
    if factor is not None:
        out *= factor
    out += positional_forward(n=ids.shape[-1], d=table.shape[-1], dtype=out.dtype)[0]
    return out, None


@op("embed_positions", embed_positions_forward,
    r"$out = $table[\mathrm{ids}] \cdot c + PE",
    r"\dL{$table_{w}} = c \sum_{t:\,\mathrm{ids}_t = w} \dL{$out_{t}}",
    table="E", out="X")
def embed_positions(g, out, args, cache, attrs):
    ids, table = args
    if attrs.get("factor") is not None:
        g = g * attrs["factor"]
    return None, scatter_rows(ids.reshape(-1), g.reshape(-1, table.shape[-1]), table)


# --- the feed-forward network's first half: ReLU(X W_1 + b_1) -------------------------------


def linear_relu_forward(x, w, b):
    y = rows_matmul(x, w)
    y += b
    return np.maximum(y, 0.0, out=y), None


@op("linear_relu", linear_relu_forward,
    r"$out = \max(0, $x $w + $b)",
    r"\dL{($x $w + $b)} = \dL{$out} \odot [$out > 0]",
    out="H", w=r"W_1", b=r"b_1")
def linear_relu(g, out, args, cache, attrs):
    x, w = args[0], args[1]
    g = g * (out > 0)
    g += 0.0  # −0.0 to 0.0, as the separate ReLU step gives
    return rows_matmul(g, w.T), matmul_weight_grad(x, g), column_sum(g)
