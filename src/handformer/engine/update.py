"""One plain SGD step, shown on a tape: θ ← θ − η g for every parameter that has a gradient,
and the loss after it, which the family computes by a second forward pass."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..errors import UpdateOverflow
from .tape import Tape


def sgd_update(tape: Tape, lr: float,
               loss_with: Callable[[Tape, dict], float | tuple[float, dict]]) -> None:
    """The reverse pass, then ``tape.updates`` (name → (before, gradient, after)) and
    ``tape.meta["update"]`` with ``loss_after``; an lr whose step is not finite is refused.
    ``loss_with`` may also return what else the second forward pass tells (each position's
    p(target) and predicted word after the step), kept beside ``loss_after``."""
    grads = tape.backward("loss")
    tape.meta["update"] = {"optimizer": "sgd", "lr": lr}
    tape.updates = {name: (value, grads[name], value - lr * grads[name])
                    for name, value in tape.params.items() if name in grads}
    after = {name: tape.updates[name][2] if name in tape.updates else value
             for name, value in tape.params.items()}
    if not all(np.isfinite(u[2]).all() for u in tape.updates.values()):
        raise UpdateOverflow(f"with lr {lr:g} the updated weights are not finite numbers "
                             "(they overflowed); choose a smaller lr")
    with np.errstate(over="ignore", invalid="ignore"):
        result = loss_with(tape, after)
    loss_after, more = result if isinstance(result, tuple) else (result, {})
    if not np.isfinite(loss_after):
        raise UpdateOverflow(f"with lr {lr:g} the loss after the update is {loss_after} "
                             "(not a finite number); choose a smaller lr")
    tape.meta["update"]["loss_after"] = loss_after
    tape.meta["update"].update(more)
