"""Where a training step's time goes, for benchmarks/train_step.py: matrix products vs the rest
on each side, and the machine's GEMM ratio (numpy / torch) for the products the step makes.

handformer: the step runs a few times with its matrix products timed one by one (the GEMMs of
``rows_matmul`` and ``matmul_weight_grad`` — projections, FFN, generator — and the stacked
products of the ``scores`` and ``attend`` ops, forward and backward, also where the fused tape's
attention calls them); their shapes are kept.
torch: ``torch.profiler`` over a few steps; the self CPU time of aten::mm, addmm, bmm, baddbmm
and the fused attention kernels counts as matmul, out of the self CPU time of every op.
Each side gives a share (matmul time / the instrumented steps' time: instrumenting, the
profiler above all, slows a step, so its seconds are not comparable with the plain step's);
matmul = share × the step's median time (from the alternating blocks), rest = median − matmul.

GEMM ratio: each recorded shape timed alone in numpy and in torch (same dtype, same operand
layout, alternating blocks after a sleep; each shape's fastest block), weighted by how often the
step makes it.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import time

import numpy as np

import handformer.engine.ops.attention as attention_ops
import handformer.engine.ops.basic as basic_ops
from handformer.engine.ops import OPS
from handformer.engine.ops.registry import Op

TORCH_MATMUL = ("aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm",
                "aten::_scaled_dot_product_flash_attention_for_cpu",
                "aten::_scaled_dot_product_flash_attention_for_cpu_backward")


@dataclasses.dataclass
class Products:
    """Matrix products of one step: seconds spent, and shape → count (for replaying them)."""

    seconds: float = 0.0
    share: float = 0.0  # seconds / the instrumented step's wall time
    shapes: collections.Counter = dataclasses.field(default_factory=collections.Counter)

    def timed(self, fn, key_of, products: int = 1):
        def wrapper(*args, **kwargs):
            start = time.perf_counter()
            out = fn(*args, **kwargs)
            self.seconds += time.perf_counter() - start
            self.shapes[key_of(*args)] += products
            return out
        return wrapper


# A shape key: (batch, M, K, N, A transposed, B transposed, dtype) of the product made.


def _rows_key(x, w):
    return (1, int(np.prod(x.shape[:-1])), x.shape[-1], w.shape[-1], False,
            not w.flags.c_contiguous, x.dtype.str)


def _weight_key(x, g):
    return (1, x.shape[-1], int(np.prod(x.shape[:-1])), g.shape[-1], True, False, x.dtype.str)


def _stacked_key(scores, a, b, *rest):
    # forward (q, k) of scores, Q Kᵀ, or (a, v) of attend, A V; a backward makes two products
    # with the same multiply-adds (counted twice with the forward's shape)
    if rest:  # backward(g, out, args, cache, attrs)
        a, b = rest[0]
    n = b.shape[-2] if scores else b.shape[-1]
    return (int(np.prod(a.shape[:-2])), a.shape[-2], a.shape[-1], n, False, scores, a.dtype.str)


def handformer_products(step, steps: int = 3) -> Products:
    """Run ``step`` ``steps`` times with its matrix products timed; seconds and shape counts
    are per step. The ops are restored afterwards."""
    found = Products()
    saved = {m: (m.rows_matmul, m.matmul_weight_grad) for m in (basic_ops, attention_ops)}
    saved_ops = {name: OPS[name] for name in ("scores", "attend")}
    rows = found.timed(basic_ops.rows_matmul, _rows_key)
    weight = found.timed(basic_ops.matmul_weight_grad, _weight_key)
    try:
        for m in saved:  # both modules call the one wrapper: each product counted once
            m.rows_matmul, m.matmul_weight_grad = rows, weight
        for name, op in saved_ops.items():
            key = functools.partial(_stacked_key, name == "scores")
            OPS[name] = Op(op.name, found.timed(op.forward, key),
                           found.timed(op.backward, key, 2), op.formula, op.grad_formula,
                           op.symbols)
        start = time.perf_counter()
        for _ in range(steps):
            step()
        wall = time.perf_counter() - start
    finally:
        for m, (original_rows, original_weight) in saved.items():
            m.rows_matmul, m.matmul_weight_grad = original_rows, original_weight
        OPS.update(saved_ops)
    found.share = found.seconds / wall
    found.seconds /= steps
    found.shapes = collections.Counter({key: n // steps for key, n in found.shapes.items()})
    return found


def torch_matmul_share(step, steps: int = 3) -> float:
    """The share of torch's matrix-product kernels in a step: their self CPU time over the
    self CPU time of every op (torch.profiler). The profiler's own cost per op inflates the
    seconds, so only the share is kept."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(steps):
            step()
    events = prof.key_averages()
    matmul = sum(e.self_cpu_time_total for e in events if e.key in TORCH_MATMUL)
    return matmul / max(sum(e.self_cpu_time_total for e in events), 1e-9)


def gemm_ratio(shapes: collections.Counter, blocks: int = 3, budget: float = 0.02) -> float:
    """Σ count × numpy time / Σ count × torch time over the step's product shapes."""
    import torch

    operands = {"numpy": [_operands(key, np) for key in shapes],
                "torch": [_operands(key, torch) for key in shapes]}
    best = {side: [float("inf")] * len(shapes) for side in operands}
    for _ in range(blocks):
        for side, ops in operands.items():
            time.sleep(0.3)
            best[side] = [min(b, _per_call(o, budget)) for b, o in zip(best[side], ops, strict=True)]
    counts = list(shapes.values())
    # each shape's fastest block: a shared machine stalls one side now and then
    return (sum(n * t for n, t in zip(counts, best["numpy"], strict=True))
            / sum(n * t for n, t in zip(counts, best["torch"], strict=True)))


def _operands(key, lib):
    batch, m, k, n, a_t, b_t, dtype = key
    rng = np.random.default_rng(0)

    def make(rows, cols, transposed):
        shape = (cols, rows) if transposed else (rows, cols)
        x = rng.standard_normal((batch, *shape) if batch > 1 else shape).astype(dtype)
        x = x if lib is np else lib.from_numpy(x)
        return x.swapaxes(-1, -2) if transposed else x

    return make(m, k, a_t), make(k, n, b_t)


def _per_call(operands, budget: float) -> float:
    a, b = operands
    a @ b
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget:
        a @ b
        calls += 1
    return (time.perf_counter() - start) / calls
