"""The "one weight" and "one training step" changes of a comparison, applied to the second run.

``edit`` sets one number of one parameter ({"param": name, "index": [i, j], "value": x});
``train_steps`` (N) replaces the second run's weights by those after N steps of the walk's own
update rule (the family's backward: plain SGD, θ ← θ − η g, η the walk's "lr") on its sentence pair.
The edit comes first, so both together mean "train from the edited weights".
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from .limits import RequestError

MAX_TRAIN_STEPS = 50


@dataclass
class Change:
    edit: dict | None = None
    train_steps: int = 0


def parse_change(body: dict, params: dict) -> Change:
    """The optional "edit" and "train_steps" of a compare body, checked against ``params``."""
    steps = body.get("train_steps", 0)
    if isinstance(steps, bool) or not isinstance(steps, int) or not 0 <= steps <= MAX_TRAIN_STEPS:
        raise RequestError(f"train_steps must be a whole number from 0 to {MAX_TRAIN_STEPS}, "
                           f"got {steps!r}", "train_steps")
    edit = body.get("edit")
    return Change(None if edit is None else _check_edit(edit, params), steps)


def _check_edit(edit, params: dict) -> dict:
    if not isinstance(edit, dict) or set(edit) != {"param", "index", "value"}:
        raise RequestError('edit must be {"param": name, "index": [i, j], "value": number}',
                           "edit")
    name, index, value = edit["param"], edit["index"], edit["value"]
    if not isinstance(name, str) or name not in params:
        raise RequestError(f"edit.param {name!r} is not a parameter of this model", "edit.param")
    shape = params[name].shape
    if (not isinstance(index, list) or len(index) != len(shape)
            or not all(isinstance(i, int) and not isinstance(i, bool) for i in index)
            or not all(0 <= i < n for i, n in zip(index, shape, strict=True))):
        raise RequestError(f"edit.index must be {len(shape)} whole numbers within {name}'s "
                           f"shape {list(shape)}, got {index!r}", "edit.index")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RequestError(f"edit.value must be a finite number, got {value!r}", "edit.value")
    return {"param": name, "index": tuple(index), "value": float(value)}


def changed_params(walk, change: Change) -> dict:
    """The second run's parameters: a copy of its own, edited, then trained N steps."""
    params = {k: np.array(v, copy=True) for k, v in walk.setup.params.items()}
    if change.edit:
        params[change.edit["param"]][change.edit["index"]] = change.edit["value"]
    for _ in range(change.train_steps):
        params = _sgd_step(walk, params)
    return params


def _sgd_step(walk, params: dict) -> dict:
    tape = replace(walk, setup=replace(walk.setup, params=params), backward=False).tape()
    grads = tape.backward("loss")
    return {k: v - walk.lr * grads[k] if k in grads else v for k, v in params.items()}


def apply(walk, change: Change):
    """The walk with its parameters changed (the same walk when nothing changes)."""
    if change.edit is None and not change.train_steps:
        return walk
    return replace(walk, setup=replace(walk.setup, params=changed_params(walk, change)))
