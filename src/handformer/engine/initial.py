"""A family's initial weights from its parameter shapes: γ = 1, β = 0, zero biases and
Xavier-uniform matrices (or the tutorial's uniform [0, 1)), kept between runs by
initial_cache."""

from __future__ import annotations

import math

import numpy as np

from . import initial_cache


def init_weights(shapes: dict, seed: int, dtype="float64", uniform: bool = False) -> dict:
    """Parameters for ``shapes`` (name → (shape, kind)): γ = 1, β = 0, zero biases and
    Xavier-uniform matrices; ``uniform``: every weight and bias in [0, 1) (the tutorial's).
    The same shapes and seed give the same numbers: a small model's are kept between runs
    (``initial_cache``), so a walk does not import numpy.random to draw them again."""
    kept = initial_cache.lookup(_drawn, shapes, seed, dtype, uniform)
    if kept is not None:
        return kept
    params = _drawn(shapes, seed, dtype, uniform)
    initial_cache.keep(_drawn, shapes, seed, dtype, uniform, params)
    return params


def _drawn(shapes: dict, seed: int, dtype: str, uniform: bool) -> dict:
    rng = np.random.default_rng(seed)
    params = {}
    for name, (shape, kind) in shapes.items():
        if kind == "gamma":
            value = np.ones(shape)
        elif kind == "beta":
            value = np.zeros(shape)
        elif uniform:
            value = rng.random(shape)
        elif kind == "bias":
            value = np.zeros(shape)
        else:
            limit = math.sqrt(6.0 / (shape[0] + shape[-1]))
            value = rng.uniform(-limit, limit, shape)
        params[name] = value.astype(dtype)
    return params
