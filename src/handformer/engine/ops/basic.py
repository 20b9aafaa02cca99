"""The operations every family shares: embedding, scaling, positions, sums, affine maps, ReLU,
identity, dropout and the tied output layer's transpose; each forward with its backward right
below it (cross-entropy: ``loss``).

The helpers at the top (``unbroadcast``, ``rows_matmul``, ``row_sum``, ``column_sum``,
``matmul_weight_grad``) are the few array tricks the backward passes share.
"""

from __future__ import annotations

import functools

import numpy as np

from ..formula import clauses
from .registry import op


def unbroadcast(g: np.ndarray, shape: tuple) -> np.ndarray:
    """Sum a gradient back down to the shape of an argument that was broadcast."""
    if g.shape == shape:  # nothing was broadcast (every residual sum)
        return g
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    for axis, size in enumerate(shape):
        if size == 1 and g.shape[axis] != 1:
            g = g.sum(axis=axis, keepdims=True)
    return g


def rows_matmul(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """X W for X with leading batch axes, as one matrix product over all rows.

    numpy's stacked matmul would call BLAS once per batch item; one (B·n)×d product is faster.
    np.dot, not @: the same BLAS call without the generalized ufunc's set-up (0.4 µs a call,
    which counts at the tutorial's 7×6 matrices).
    """
    if x.ndim <= 2:
        return np.dot(x, w)
    return np.dot(x.reshape(-1, x.shape[-1]), w).reshape(*x.shape[:-1], w.shape[-1])


SMALL = 2048  # below this many numbers a plain reduction beats the BLAS call's overhead


def row_sum(x: np.ndarray) -> np.ndarray:
    """Each row's sum, keeping the last axis (size 1), as one matrix-vector product: BLAS sums
    short rows several times faster than a reduction along the last axis."""
    if x.size < SMALL:
        return np.add.reduce(x, axis=-1, keepdims=True)
    d = x.shape[-1]
    return (x.reshape(-1, d) @ _ones(d, x.dtype.str)).reshape(*x.shape[:-1], 1)


def mean_column(d: int, dtype: np.dtype) -> np.ndarray:
    """The (d, 1) column of 1/d: the rows of a matrix times it are their means, as one BLAS
    matrix-vector product for a reduction and a division (BLAS adds in its own order, so the
    last bit can differ from the sum / d). Shared between calls, so read-only."""
    return _filled((d, 1), 1.0 / d, dtype.str)


SHORT_ROW = 64  # up to this many numbers a row, a max along it is faster down the columns


def row_max(x: np.ndarray) -> np.ndarray:
    """Each row's maximum, keeping the last axis (size 1). Short rows (attention scores over a
    few keys): numpy reduces along a short last axis at ~50 ns a row; the rows copied into
    columns and reduced down axis 0 take a third of that at the small config."""
    d = x.shape[-1]
    if d > SHORT_ROW or x.size < SMALL:
        return np.maximum.reduce(x, axis=-1, keepdims=True)  # x.max without its Python wrapper
    columns = np.ascontiguousarray(x.reshape(-1, d).T)
    return columns.max(axis=0).reshape(*x.shape[:-1], 1)


def column_sum(x: np.ndarray) -> np.ndarray:
    """Σ over every row (all leading axes) of x: a bias's or γ's gradient, as one
    vector-matrix product (BLAS), several times faster than a reduction over axis 0."""
    rows = x if x.ndim == 2 else x.reshape(-1, x.shape[-1])
    if x.size < SMALL:
        return np.add.reduce(rows, axis=0)
    return _ones(rows.shape[0], x.dtype.str) @ rows


def _ones(d: int, dtype: str) -> np.ndarray:
    return _filled((d,), 1.0, dtype)


@functools.lru_cache(maxsize=64)
def _filled(shape: tuple, value: float, dtype: str) -> np.ndarray:
    """A constant array shared between calls, so read-only."""
    array = np.full(shape, value, dtype=dtype)
    array.flags.writeable = False
    return array


def matmul_weight_grad(x: np.ndarray, g: np.ndarray) -> np.ndarray:
    """∂L/∂W for Y = X W when X and Y carry leading batch axes: Xᵀ G over all rows."""
    if x.ndim == 2 and g.ndim == 2:
        return np.dot(x.T, g)
    return np.dot(x.reshape(-1, x.shape[-1]).T, g.reshape(-1, g.shape[-1]))


# --- embedding lookup -----------------------------------------------------------------------


def embed_forward(ids, table):
    # table[ids] by ndarray.take: the same rows, a quarter of fancy indexing's set-up time
    return table.take(ids, axis=0), None


@op("embed", embed_forward,
    r"$out = $table[\mathrm{ids}]",
    r"\dL{$table_{w}} = \sum_{t:\,\mathrm{ids}_t = w} \dL{$out_{t}}",
    table="E", out="X")
def embed(g, out, args, cache, attrs):
    ids, table = args
    return None, scatter_rows(ids.reshape(-1), g.reshape(-1, table.shape[-1]), table)


def scatter_rows(ids: np.ndarray, rows: np.ndarray, table: np.ndarray) -> np.ndarray:
    """A table shaped like ``table`` whose row w is the sum of the ``rows`` at ids = w.

    Few ids: np.add.at. Many: the rows sorted by id and summed in runs (np.add.reduceat),
    about 1.5× faster than np.add.at at the small config's 256 ids. An id seen once has its
    row copied, not summed: reduceat costs some 4 µs a row of 512 numbers, and most ids of a
    large vocabulary are seen once (base config: 1.3 ms a table instead of 2.3). The runs
    left are summed by reduceat as before, so every sum is the same to the bit.
    """
    grad = np.zeros_like(table)
    if ids.size < 64:
        np.add.at(grad, ids, rows)
        return grad
    order = np.argsort(ids, kind="stable")
    ids = ids[order]
    starts = np.flatnonzero(np.concatenate(([True], ids[1:] != ids[:-1])))
    lengths = np.diff(starts, append=ids.size)
    once = lengths == 1
    if once.any():
        grad[ids[starts[once]]] = rows[order[starts[once]]]
        if once.all():
            return grad
        repeated = np.repeat(~once, lengths)  # the rows of the runs of two or more
        ids, order = ids[repeated], order[repeated]
        starts = np.flatnonzero(np.concatenate(([True], ids[1:] != ids[:-1])))
    grad[ids[starts]] = np.add.reduceat(rows[order], starts, axis=0)
    return grad


# --- multiply by a constant -----------------------------------------------------------------


def scale_forward(x, *, factor):
    return x * factor, None


@op("scale", scale_forward,
    r"$out = $x \cdot $c",
    r"\dL{$x} = $c \cdot \dL{$out}",
    c="c")
def scale(g, out, args, cache, attrs):
    return (g * attrs["factor"],)


# --- sinusoidal positional encoding (a constant) --------------------------------------------


def positional_forward(*, n, d, dtype="float64"):
    return _positional_table(n, d, np.dtype(dtype).str), None


@functools.lru_cache(maxsize=64)
def _positional_table(n, d, dtype):
    # A constant: computed once per (n, d, dtype) and shared, so it is made read-only.
    pos = np.arange(n, dtype=np.float64)[:, None]
    pair = np.arange(d, dtype=np.float64)[None, :] // 2  # i is the pair index (D6, docs/errata.md)
    angle = pos / np.power(10000.0, 2 * pair / d)
    pe = np.where(np.arange(d) % 2 == 0, np.sin(angle), np.cos(angle)).astype(dtype)
    pe.flags.writeable = False
    return pe


@op("positional", positional_forward,
    clauses(r"PE_{(pos,\,2i)} = \sin\!\left(\frac{pos}{10000^{2i/d_{model}}}\right)",
            r"PE_{(pos,\,2i+1)} = \cos\!\left(\frac{pos}{10000^{2i/d_{model}}}\right)"),
    r"\frac{\partial PE}{\partial \theta} = 0")
def positional(g, out, args, cache, attrs):
    return ()


# --- element-wise sum (embedding + position, residual connections) --------------------------


def add_forward(a, b):
    return a + b, None


@op("add", add_forward,
    r"$out = $a + $b",
    r"\dL{$a} = \dL{$b} = \dL{$out}")
def add(g, out, args, cache, attrs):
    a, b = args
    return unbroadcast(g, a.shape), unbroadcast(g, b.shape)


# --- affine map X W + b ---------------------------------------------------------------------


def linear_forward(x, w, b=None):
    y = rows_matmul(x, w)
    if b is not None:
        y += b
    return y, None


@op("linear", linear_forward,
    r"$out = $x $w + $b",
    clauses(r"\dL{$x} = \dL{$out} $w^\top",
            r"\dL{$w} = $x^\top \dL{$out}",
            r"\dL{$b} = \sum_{t} \dL{$out_{t}}"),
    out="Y", x="X", w="W", b="b")
def linear(g, out, args, cache, attrs):
    x, w = args[0], args[1]
    grads = [rows_matmul(g, w.T), matmul_weight_grad(x, g)]
    if len(args) == 3:
        grads.append(column_sum(g))
    return tuple(grads)


# --- ReLU -----------------------------------------------------------------------------------


def relu_forward(x, *, in_place=False):
    # in_place (the training tape only): X is overwritten, its linear step's backward never
    # reads it
    return np.maximum(x, 0.0, out=x if in_place else None), None


@op("relu", relu_forward,
    r"$out = \max(0, $x)",
    r"\dL{$x} = \dL{$out} \odot [$x > 0]",
    out="H", x="X")
def relu(g, out, args, cache, attrs):
    grad = g * (out > 0)  # several times faster than np.where; [x > 0] is [out > 0]
    grad += 0.0  # a negative g times 0 is −0.0: make it 0.0, as np.where gave
    return (grad,)


# --- identity (a name for a value the reader meets again) -----------------------------------


def identity_forward(x):
    return x, None


@op("identity", identity_forward,
    r"$out = $x",
    r"\dL{$x} = \dL{$out}")
def identity(g, out, args, cache, attrs):
    return (g,)


# --- dropout (training only) ---------------------------------------------------------------


def dropout_forward(x, *, keep, p):
    return x * keep * (1.0 / (1.0 - p)), None


@op("dropout", dropout_forward,
    clauses(r"$out = \frac{m \odot $x}{1 - p}",
            r"m_{j} \sim \mathrm{Bernoulli}(1 - p)"),
    r"\dL{$x} = \frac{m}{1 - p} \odot \dL{$out}")
def dropout(g, out, args, cache, attrs):
    return (g * attrs["keep"] * (1.0 / (1.0 - attrs["p"])),)


def transpose_forward(x):
    return x.T, None


# The embedding table transposed into the output layer's weights, W_out = Eᵀ (tied embeddings,
# §3.4 of the paper, GPT-2's lm_head): its own step, so the two uses of E stay visible; E's
# gradient is the lookup's plus this step's (∂L/∂W_out)ᵀ, added like any value read twice.
@op("transpose", transpose_forward,
    r"$out = $x^\top",
    r"\dL{$x} = \left(\dL{$out}\right)^\top",
    out="W", x="E")
def transpose(g, out, args, cache, attrs):
    return (g.T,)


# The attention operations live in their own module; importing it registers them.
