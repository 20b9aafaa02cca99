"""The attention operations: per-head projection, scores, mask, softmax, weighted sum, concat.

Each sits with its backward right below it, like the rest of ``ops`` (importing ``ops``
registers them).
"""

from __future__ import annotations

import numpy as np

from ..formula import clauses, sup
from .basic import SMALL, column_sum, matmul_weight_grad, row_max, row_sum, rows_matmul
from .registry import op


def heads_side_by_side(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x @ y for stacked heads, (…, h, n, k) @ (…, h, k, d), written into an array laid out
    (…, n, h, d) and returned as its (…, h, n, d) view.

    Concat (merge_heads) and the per-head projection's backward read the heads side by side,
    (…, n, h·d): from this layout that is a free reshape, from the product's own a copy (2 MB
    each, four per attention sublayer at the paper's base size). BLAS writes the rows with the
    longer stride itself, so the numbers are the plain product's. Small products keep the
    plain one (callers test the size themselves: a call costs too much at the tutorial's size):
    there the extra allocation costs more than the copy it saves."""
    if x.ndim < 3 or x.shape[:-2] != y.shape[:-2]:
        return x @ y
    *lead, h, n, _ = x.shape
    out = np.empty((*lead, n, h, y.shape[-1]), dtype=np.result_type(x, y))
    return np.matmul(x, y, out=out.swapaxes(-2, -3))

# --- per-head projection: X W split into h heads --------------------------------------------


def head_proj_forward(x, w, b=None, *, heads):
    y = rows_matmul(x, w)
    if b is not None:
        y += b
    split = y.reshape(*y.shape[:-1], heads, -1)
    return split.swapaxes(-2, -3), None


@op("head_proj", head_proj_forward,
    r"$out^{(i)} = $x $w^{(i)} + $b^{(i)}",
    clauses(r"\dL{$x} = \sum_i \dL{$out^{(i)}} ($w^{(i)})^\top",
            r"\dL{$w^{(i)}} = $x^\top \dL{$out^{(i)}}"),
    out="Q", x="X", w=sup("W", "Q"), b=sup("b", "Q"))
def head_proj(g, out, args, cache, attrs):
    x, w = args[0], args[1]
    merged = g.swapaxes(-2, -3)
    merged = merged.reshape(*merged.shape[:-2], -1)
    grads = [rows_matmul(merged, w.T), matmul_weight_grad(x, merged)]
    if len(args) == 3:
        grads.append(column_sum(merged))
    return tuple(grads)


# --- scaled dot-product scores --------------------------------------------------------------


def scores_forward(q, k, *, scale):
    # .mT: the view swapaxes(-1, -2) gives, without a method call (this runs at every step)
    s = q @ k.mT
    s *= scale
    return s, None


@op("scores", scores_forward,
    r"$out = \frac{$q $k^\top}{\sqrt{d_k}}",
    clauses(r"\dL{$q} = \frac{1}{\sqrt{d_k}} \dL{$out} $k",
            r"\dL{$k} = \frac{1}{\sqrt{d_k}} \left(\dL{$out}\right)^{\!\top} $q"),
    out="S", q="Q", k="K")
def scores(g, out, args, cache, attrs):
    q, k = args
    g = g * attrs["scale"]
    if g.size < SMALL:
        return g @ k, g.mT @ q
    return heads_side_by_side(g, k), heads_side_by_side(g.mT, q)


# --- mask: positions that may not be seen get −∞ --------------------------------------------


def mask_forward(s, *, allowed, in_place=False):
    # in_place (the training tape only): S is overwritten, nothing else reads it there
    if not in_place:
        return np.where(allowed, s, -np.inf), None
    np.copyto(s, -np.inf, where=~allowed)  # ~allowed is the small (…, n, m) mask, broadcast
    return s, None


@op("mask", mask_forward,
    r"$out_{ij} = \begin{cases} $s_{ij} & (\mathrm{mask}_{ij} = 1) \\ -\infty & (\mathrm{mask}_{ij} = 0) \end{cases}",
    r"\dL{$s_{ij}} = \begin{cases} \dL{$out_{ij}} & (\mathrm{mask}_{ij} = 1) \\ 0 & (\mathrm{mask}_{ij} = 0) \end{cases}",
    out="S'", s="S")
def mask(g, out, args, cache, attrs):
    if not attrs.get("in_place"):
        return (np.where(attrs["allowed"], g, 0.0),)
    np.copyto(g, 0.0, where=~attrs["allowed"])  # g is softmax's backward's own new array
    return (g,)


# --- softmax over the last axis -------------------------------------------------------------


def softmax_forward(s):
    e = s - row_max(s)
    np.exp(e, out=e)
    e /= row_sum(e)
    return e, None


@op("softmax", softmax_forward,
    r"$out_{ij} = \frac{e^{$s_{ij}}}{\sum_{k} e^{$s_{ik}}}",
    r"\dL{$s} = $out \odot \left(\dL{$out} - \operatorname{rowsum}\!\left(\dL{$out} \odot $out\right)\right)",
    out="A", s="S")
def softmax(g, out, args, cache, attrs):
    grad = g * out
    grad -= out * row_sum(grad)  # out ⊙ (g − rowsum(g ⊙ out))
    return (grad,)


# --- weighted sum of values -----------------------------------------------------------------


def attend_forward(a, v):
    return (a @ v if a.size < SMALL else heads_side_by_side(a, v)), None


@op("attend", attend_forward,
    r"$out = $a $v",
    clauses(r"\dL{$a} = \dL{$out} $v^\top",
            r"\dL{$v} = $a^\top \dL{$out}"),
    out="Z", a="A", v="V")
def attend(g, out, args, cache, attrs):
    a, v = args
    return g @ v.mT, (a.mT @ g if a.size < SMALL else heads_side_by_side(a.mT, g))


# --- concatenate the heads side by side -----------------------------------------------------


def merge_heads_forward(z):
    merged = z.swapaxes(-2, -3)
    return merged.reshape(*merged.shape[:-2], -1), None


@op("merge_heads", merge_heads_forward,
    r"$out = \mathrm{Concat}($z^{(1)}, \dots, $z^{(h)})",
    r"\dL{$z^{(i)}} = \left[\dL{$out}\right]_{:,\ (i-1)\,d_v+1\,:\,i\,d_v}",
    out="Z", z="Z")
def merge_heads(g, out, args, cache, attrs):
    (z,) = args
    split = g.reshape(*g.shape[:-1], z.shape[-3], z.shape[-1])
    return (split.swapaxes(-2, -3),)


# --- one head's slice (a view for showing heads one by one) ---------------------------------


def select_head_forward(x, *, index):
    return x[..., index, :, :], None


@op("select_head", select_head_forward,
    r"$out = $x^{(i)}",
    r"\dL{$x^{(i)}} = \dL{$out}")
def select_head(g, out, args, cache, attrs):
    (x,) = args
    grad = np.zeros_like(x)
    grad[..., attrs["index"], :, :] = g
    return (grad,)
