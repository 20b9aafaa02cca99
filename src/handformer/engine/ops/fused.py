"""Whole sublayers as one operation each, for training's fused tape (``Tape(fused=True)``):
multi-head attention, the residual sum with layer norm, the embedding with its positions, and
the feed-forward network's first affine map with its ReLU.

A tutorial-sized training step is Python overhead, not arithmetic: fifty steps forward and
fifty back, each a few microseconds of bookkeeping around a few small products. Fused, the
same arithmetic runs in sixteen steps. Each op here is the chain of the separate ops, called
forward in order and backward in reverse (``OPS[name]``, so their math is written once and a
benchmark that wraps an op sees these calls too). The walk's tape never uses them: it shows
every step under its own name.
"""

from __future__ import annotations

from .registry import OPS, op

# --- multi-head attention: the projections, scores, mask, softmax, weighted sum, W^O ---------


def mha_forward(x, kv, w_q, w_k, w_v, w_o, b_q=None, b_k=None, b_v=None, b_o=None, *,
                heads, scale, allowed=None, keep=None, p=0.0):
    project = OPS["head_proj"].forward
    q = project(x, w_q, b_q, heads=heads)[0]
    k = project(kv, w_k, b_k, heads=heads)[0]
    v = project(kv, w_v, b_v, heads=heads)[0]
    s = OPS["scores"].forward(q, k, scale=scale)[0]
    if allowed is not None:  # in place: the scores are this op's own array
        s = OPS["mask"].forward(s, allowed=allowed, in_place=True)[0]
    a = OPS["softmax"].forward(s)[0]
    dropped = a if keep is None else OPS["dropout"].forward(a, keep=keep, p=p)[0]
    z = OPS["attend"].forward(dropped, v)[0]
    concat = OPS["merge_heads"].forward(z)[0]
    out = OPS["linear"].forward(concat, w_o, *([] if b_o is None else [b_o]))[0]
    return out, (q, k, v, a, dropped, z, concat)


@op("mha", mha_forward,
    r"$out = \mathrm{Concat}(\mathrm{softmax}(Q^{(i)} K^{(i)\top} / \sqrt{d_k}) V^{(i)}) W^O",
    r"\text{the chain rule through every step of the sublayer}",
    out=r"\mathrm{MHA}")
def mha(g, out, args, cache, attrs):
    x, kv, w_q, w_k, w_v, w_o = args[:6]
    b_q, b_k, b_v, b_o = ([b] for b in args[6:]) if len(args) == 10 else ([],) * 4
    q, k, v, a, dropped, z, concat = cache
    d_concat, *d_out = OPS["linear"].backward(g, out, (concat, w_o, *b_o), None, {})
    (dz,) = OPS["merge_heads"].backward(d_concat, concat, (z,), None, {})
    d_dropped, dv = OPS["attend"].backward(dz, z, (dropped, v), None, {})
    da = d_dropped if attrs.get("keep") is None else OPS["dropout"].backward(
        d_dropped, dropped, (a,), None, attrs)[0]
    (ds,) = OPS["softmax"].backward(da, a, (None,), None, {})
    if attrs.get("allowed") is not None:
        (ds,) = OPS["mask"].backward(ds, None, (None,), None, attrs | {"in_place": True})
    dq, dk = OPS["scores"].backward(ds, None, (q, k), None, attrs)
    proj = OPS["head_proj"].backward
    dx, dw_q, *db_q = proj(dq, q, (x, w_q, *b_q), None, attrs)
    dkv, dw_k, *db_k = proj(dk, k, (kv, w_k, *b_k), None, attrs)
    dkv_v, dw_v, *db_v = proj(dv, v, (kv, w_v, *b_v), None, attrs)
    dkv += dkv_v
    if kv is x:  # self-attention: one input read three times, one gradient
        dx += dkv
        dkv = None
    return (dx, dkv, dw_q, dw_k, dw_v, d_out[0], *db_q, *db_k, *db_v, *d_out[1:])


# --- the residual sum and layer norm: LN(x + sublayer(x)) -----------------------------------


def add_norm_forward(x, sub, gamma, beta, *, eps, blas_means=False):
    r = OPS["add"].forward(x, sub)[0]
    return OPS["layer_norm"].forward(r, gamma, beta, eps=eps, blas_means=blas_means)


@op("add_norm", add_norm_forward,
    r"$out = \mathrm{LN}($x + $sub)",
    r"\dL{$x} = \dL{$sub} = \dL{R},\ R = $x + $sub",
    sub="S")
def add_norm(g, out, args, cache, attrs):
    x, sub, gamma, beta = args
    dr, dgamma, dbeta = OPS["layer_norm"].backward(g, out, (None, gamma, beta), cache, attrs)
    # one array for both inputs, as the add step gives: the tape never adds into it in place
    return (*OPS["add"].backward(dr, None, (x, sub), None, {}), dgamma, dbeta)


# --- token embedding (× a factor) plus the positional encoding ------------------------------


def embed_positions_forward(ids, table, *, factor=None):
    out = OPS["embed"].forward(ids, table)[0]  # a new array: scaled and summed in place
    if factor is not None:
        out *= factor
    out += OPS["positional"].forward(n=ids.shape[-1], d=table.shape[-1], dtype=out.dtype)[0]
    return out, None


@op("embed_positions", embed_positions_forward,
    r"$out = $table[\mathrm{ids}] \cdot c + PE",
    r"\dL{$table_{w}} = c \sum_{t:\,\mathrm{ids}_t = w} \dL{$out_{t}}",
    table="E", out="X")
def embed_positions(g, out, args, cache, attrs):
    if attrs.get("factor") is not None:
        (g,) = OPS["scale"].backward(g, out, (None,), None, attrs)
    return OPS["embed"].backward(g, out, args, None, {})


# --- the feed-forward network's first half: ReLU(X W_1 + b_1) -------------------------------


def linear_relu_forward(x, w, b):
    y = OPS["linear"].forward(x, w, b)[0]
    return OPS["relu"].forward(y, in_place=True)[0], None  # y is this op's own array


@op("linear_relu", linear_relu_forward,
    r"$out = \max(0, $x $w + $b)",
    r"\dL{($x $w + $b)} = \dL{$out} \odot [$out > 0]",
    out="H", w=r"W_1", b=r"b_1")
def linear_relu(g, out, args, cache, attrs):
    (g,) = OPS["relu"].backward(g, out, (None,), None, {})
    return OPS["linear"].backward(g, None, args, None, {})
