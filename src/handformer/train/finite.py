"""Training that diverges stops: a loss, gradient or weight that is not a finite number.

With a learning rate far too high (``--lr 1e30``) the weights overflow, the loss becomes NaN,
and every later step trains on NaN. The run stops at the first such batch, before the update,
so the checkpoint on disk keeps the last good epoch; the message says which that is.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import NonFiniteError  # noqa: F401  (raised here)


def check_batch(epoch: int, loss: float, grads: dict[str, np.ndarray]) -> None:
    """Refuse to apply an update whose loss or gradient is not finite."""
    if not math.isfinite(loss):
        raise NonFiniteError(f"training stopped in epoch {epoch}: the loss is {loss}")
    for name, g in grads.items():
        if not np.isfinite(g).all():
            raise NonFiniteError(f"training stopped in epoch {epoch}: the gradient of {name} "
                                 f"is not finite (the loss is {loss:.4g})")


def check_params(epoch: int, params: dict[str, np.ndarray]) -> None:
    """Before a checkpoint is taken: every weight finite (an update can overflow)."""
    for name, value in params.items():
        if not np.isfinite(value).all():
            raise NonFiniteError(f"training stopped after epoch {epoch}: the weight {name} is "
                                 f"no longer finite")


def stopped(err: NonFiniteError, save_path, saved_epoch: int | None, lr: float) -> NonFiniteError:
    """The error again, saying what the checkpoint now holds and what to try."""
    if saved_epoch is not None:
        kept = f"{save_path} holds epoch {saved_epoch}, the last good one"
    else:
        kept = f"no checkpoint was written to {save_path} by this run"
    return NonFiniteError(f"{err}; {kept}. The learning rate {lr:g} is probably too high "
                          f"(try a smaller --lr, or --clip 1)")
