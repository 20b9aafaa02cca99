"""The math of every step, registered by name: ``OPS[name]`` (or ``get(name)``) is one operation's
forward, backward and formulas.

The shared operations live in ``basic``, ``norm``, ``attention``, ``loss`` and ``fused`` (whole
sublayers for training's fused tape), all imported here, so
importing ``engine.ops`` registers every one of them; a family's own operations (BERT's GELU)
are registered by its folder (``families/<name>/ops.py``).
"""

from __future__ import annotations

from . import attention, basic, fused, loss, modern, norm
from .basic import matmul_weight_grad, row_sum, rows_matmul, unbroadcast
from .loss import at_targets
from .registry import OPS, Op, get, op

__all__ = ["OPS", "Op", "at_targets", "attention", "basic", "fused", "get", "loss", "matmul_weight_grad", "modern", "norm",
           "op", "row_sum", "rows_matmul", "unbroadcast"]
