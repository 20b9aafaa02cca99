"""Numbers a run makes that are not finite, found at the first step that holds one.

Weights near float64's largest (±1e308) overflow inside the forward pass: a product is ±inf,
inf − inf is NaN, and every later step is NaN. Such a run stops at the first step holding inf
or NaN, in one line naming it, instead of printing NaN everywhere or failing in the JSON
writer. The one −∞ a run makes on purpose is the mask's (positions a query may not see): in
the mask's step, its per-head views, and its input (which the fast tape masks in place).
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np

from ..errors import RunOverflow


@contextmanager
def quiet():
    """numpy's overflow warnings off: a run's overflow is reported by ``check`` instead."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        yield


def check(tape) -> None:
    """Refuse the run at the first step (then the first gradient) holding inf or NaN."""
    name = first_non_finite(tape)
    if name is not None:
        raise RunOverflow(f"step {name} is the first to hold a number that is not finite "
                          f"(inf or NaN): {_why(tape.params)}")


def first_non_finite(tape) -> str | None:
    """The name of the first step, then of the first gradient (as ∂L/∂name), holding inf or
    NaN; None if every number is finite."""
    masks = {s.name for s in tape.steps if s.op == "mask"}
    masked_in_place = {name for s in tape.steps if s.op == "mask" for name in s.inputs}
    for step in tape.steps:
        masked = (step.name in masks | masked_in_place
                  or (step.view and bool(set(step.inputs) & masks)))
        if _overflowed(step.value, masked):
            return step.name
    for name in tape.grad_order:
        if _overflowed(tape.grads.get(name), False):
            return f"∂L/∂{name}"
    return None


def _overflowed(value, masked: bool) -> bool:
    """inf or NaN in ``value``; in a masked step, only NaN or +inf (its −∞ are the mask's)."""
    if value is None:
        return False
    value = np.asarray(value)
    if value.dtype.kind not in "fc" or np.isfinite(value).all():
        return False
    return not masked or bool(np.isnan(value).any() or (value == np.inf).any())


def _why(params: dict) -> str:
    """What makes it: the largest weight, when the weights are near float64's limit."""
    sizes = {k: float(np.max(np.abs(v))) for k, v in params.items() if np.size(v)}
    name = max(sizes, key=sizes.get, default=None)
    if name is None or sizes[name] < 1e150:
        return "the numbers grew too large for float64 on the way"
    return (f"the weights are too large for float64 arithmetic (|{name}| reaches "
            f"{sizes[name]:.3g}); use weights of ordinary size")
