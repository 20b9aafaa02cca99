"""What a gradient panel's formula reads, drawn before what it makes: for each step that read X,
its gradient ∂L/∂Y (the upstream gradient) and the forward values its clause of the chain rule
uses (Wᵀ of a linear layer, K for ∂L/∂Q, A for a softmax, X with μ, σ and γ for a layer norm);
then, for the step's own parameters, its input X (∂L/∂W = Xᵀ·∂L/∂Y). Every array is read off the
tape; a gradient by head is drawn for the head of the worked cell only."""

from __future__ import annotations

import numpy as np

from ..engine.formula import head
from . import names
from .context import MAX_HEADS, Ctx
from .document import Matrix
from .grad_formula import carried, readers
from .numbers import mark, small_scaled

# Each reader's op → which of its own arrays its gradient clause for input k uses, beside the
# upstream gradient: "in0"/"in1" its inputs, "out" its output, "stats" a layer norm's μ and σ.
SAVED = {
    "linear": {0: ("in1",), 1: ("in0",)}, "head_proj": {0: ("in1",)},
    "relu": {0: ("in0",)}, "mask": {0: ("out",)}, "softmax": {0: ("out",)},
    "scores": {0: ("in1",), 1: ("in0",)}, "attend": {0: ("in1",), 1: ("in0",)},
    "layer_norm": {0: ("in0", "stats", "in1")},
    "cross_entropy": {0: ("probs",)},
}
# A step's own parameters: what ∂L/∂W (∂L/∂γ, ∂L/∂E) reads beside ∂L/∂Y: its input, its μ and σ.
PARAM_SAVED = {"linear": ("in0",), "head_proj": ("in0",), "layer_norm": ("in0", "stats"),
               "embed": ("in0",)}


def reads(ctx: Ctx, name: str, at: tuple) -> list[Matrix]:
    """The matrices the panel of ∂L/∂``name`` reads, in the order of its formula's clauses;
    ``at`` is its worked entry (its first index picks the head of a gradient by head)."""
    head_at = int(at[0]) if len(at) == 3 else None
    drawn: list[Matrix] = []
    for use, k, via in readers(ctx.tape, name):
        there = carried(ctx.tape, via, tuple(int(x) for x in at))
        if use.op != "cross_entropy":
            drawn += _lit(_arrays(ctx, f"grad.{use.name}", ctx.grad(use.name), use.name,
                                  head_at, grad=True), use.op, k, "up", there)
        for what in SAVED.get(use.op, {}).get(k, ()):
            drawn += _lit(_saved(ctx, use, what, head_at), use.op, k, what, there)
    step = ctx.tape.index[name]
    if any(x in ctx.tape.grads and x not in ctx.tape.index for x in step.inputs):
        for what in PARAM_SAVED.get(step.op, ()):
            drawn += _saved(ctx, step, what, head_at)
    unique = {m.name: m for m in drawn}
    return [small_scaled(m) for m in unique.values()]


# Which line of each drawn array makes the worked entry (i, j) of ∂L/∂X, by reader op, input k
# and role ("up": its upstream gradient; "in0"/"in1"/"out"/"stats"/"probs": what it saved):
# ∂L/∂X = ∂L/∂Y·Wᵀ reads row i of ∂L/∂Y and row j of W; ∂L/∂Q = ∂L/∂S·K/√d_k row i of ∂L/∂S
# and column j of K; an elementwise step row i and column j, crossing at the entry.
ROW, COL, CROSS = "row", "col", "cross"
LIT = {("linear", 0): {"up": (ROW, 0), "in1": (ROW, 1)},
       ("linear", 1): {"in0": (COL, 0), "up": (COL, 1)},
       ("head_proj", 0): {"up": (ROW, 0), "in1": (ROW, 1)},
       ("scores", 0): {"up": (ROW, 0), "in1": (COL, 1)},
       ("scores", 1): {"up": (COL, 0), "in0": (COL, 1)},
       ("attend", 0): {"up": (ROW, 0), "in1": (ROW, 1)},
       ("attend", 1): {"in0": (COL, 0), "up": (COL, 1)},
       ("softmax", 0): {"up": (ROW, 0), "out": (ROW, 0)},
       ("layer_norm", 0): {"up": (ROW, 0), "in0": (ROW, 0), "stats": (ROW, 0)}}


def _lit(mats: list[Matrix], op: str, k: int, role: str, at: tuple) -> list[Matrix]:
    """The drawn arrays with the row or column that makes the worked entry lit (as forward
    lights row i of Q and column j of Kᵀ for S_ij); an elementwise reader's row and column."""
    if len(at) < 2:
        return mats
    how, axis = LIT.get((op, k), {}).get(role, (CROSS, 0))
    line = at[-2:][axis]
    for m in mats:
        shape = np.shape(m.value)
        if len(shape) != 2 or m.highlight is not None:
            continue
        if how == CROSS and at[-2] < shape[0] and at[-1] < shape[1]:
            mark(m, rows=(at[-2],), cols=(at[-1],))
        elif how == ROW and line < shape[0]:
            mark(m, rows=(line,))
        elif how == COL and line < shape[1]:
            mark(m, cols=(line,))
    return mats


def _saved(ctx: Ctx, step, what: str, head_at: int | None) -> list[Matrix]:
    if what == "stats":
        mean, std = ctx.extra(step.name, "mean"), ctx.extra(step.name, "std")
        if mean is None or std is None:
            return []
        rows = _labels(ctx, step.name, (len(mean), 2))[0]
        return [ctx.mat(f"{step.name}.stats", r"\mu,\ \sqrt{\sigma^2+\varepsilon}",
                        np.stack([mean, std], axis=-1), rows, ["μ", "√(σ²+ε)"])]
    if what == "probs":
        x = "generator.probs"
    else:
        x = step.name if what == "out" else step.inputs[int(what[2:])]
    if x not in ctx.tape.index and x not in ctx.tape.params:
        return []
    called = step.symbols.get("x") if what == "in0" else None  # M, Y: as the formula reads it
    return _arrays(ctx, x, ctx.value(x), x, head_at, called=called)


def _arrays(ctx: Ctx, name: str, value, step: str, head_at: int | None,
            grad: bool = False, called: str | None = None) -> list[Matrix]:
    """One array as matrices: a 2-D one as it is, a vector as a row, one by head as the worked
    head's matrix (or every head, up to MAX_HEADS, when the panel's gradient is not by head)."""
    if value is None:
        return []
    value = np.asarray(value)
    sym = (r"\partial L/\partial\," if grad else "") + _symbol(ctx, step, called)
    if value.ndim == 1:
        return _matrix(ctx, name, sym, value, None, _labels(ctx, step, value.shape)[1], "vector")
    if value.ndim == 2:
        return _matrix(ctx, name, sym, value, *_labels(ctx, step, value.shape))
    heads = [head_at] if head_at is not None else list(range(min(value.shape[0], MAX_HEADS)))
    base, leaf = name.rsplit(".", 1)
    rows, cols = _labels(ctx, step, value.shape[1:])
    return [m for h in heads for m in _matrix(
        ctx, f"{name}.head.{h}" if grad else f"{base}.head.{h}.{leaf}", head(sym, h + 1),
        value[h], rows, cols)]


def _symbol(ctx: Ctx, step: str, called: str | None) -> str:
    """The lesson's symbol; a layer's output not as "out" but as the step reading it calls it
    (M in cross-attention, Y before the output layer), else as its own step names it (Y⁽¹⁾)."""
    sym = names.symbol(step, names.op_of(ctx, step))
    if sym == names.LEAVES["out.layer"][0] and step in ctx.tape.index:
        return called or ctx.tape.index[step].symbols.get("out", sym)
    return sym


def _matrix(ctx: Ctx, name: str, sym: str, value, rows, cols, kind: str = "matrix") -> list:
    m = ctx.mat(name, sym, value, rows, cols, kind=kind)
    return [m] if isinstance(m, Matrix) else []


def _labels(ctx: Ctx, step: str, shape: tuple) -> tuple[list[str] | None, list[str] | None]:
    """Rows and columns of an array of ``step`` (tokens, dimensions, vocabulary words)."""
    from .backward import _cols, _rows, param_labels

    if step in ctx.tape.params:
        return param_labels(ctx, tuple(shape), step)
    if len(shape) == 1:
        return None, None
    return _rows(ctx, step, shape[0]), _cols(ctx, step, shape[1])
