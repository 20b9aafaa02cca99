"""Optimizers (SGD with momentum, Adam), the paper's warm-up schedule and gradient clipping.

Each optimizer updates the parameter arrays in place and keeps its state as a flat dict of
named arrays (saved in checkpoints beside the weights). The update formulas are torch.optim's,
so the same gradients give the same numbers (tests/train/test_optim.py).

A small model's parameters (up to 16 K numbers) become views into one array when its optimizer
is made, so each formula updates them all in one call (train/flat.py): read them from the dict
after that, not from arrays taken out of it before.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import HandformerError
from .flat import FlatParams


def warmup_lr(step: int, d_model: int, warmup: int, factor: float = 1.0) -> float:
    """lr = factor · d_model^{-0.5} · min(step^{-0.5}, step · warmup^{-1.5}) (AIAYN eq. 3)."""
    step = max(step, 1)
    return factor * d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)


PEAK_LR = 7e-4  # the paper's peak (d_model 512, warm-up 4000), here for d_model 128


def resolve_schedule(options, d_model: int, train_pairs: int):
    """Fill a warm-up or rate left as None. Warm-up: one epoch of steps, within 100–4000.
    Rate of the paper's schedule: the factor whose peak, reached at the end of the warm-up, is
    7e-4 · √(128 / d_model) (the paper's 1/√d_model scaling, 7e-4 at d_model 128); so
    factor = 7e-4 · √(128 · warmup). With the constant schedule a rate left as None is 0.01."""
    if options.warmup is None:
        steps = -(-train_pairs // options.batch_size)
        options.warmup = min(4000, max(100, steps))
    if options.lr is None:
        options.lr = (PEAK_LR * math.sqrt(128 * options.warmup) if options.schedule == "warmup"
                      else 0.01)
    return options


def clip_grad_norm(grads: dict[str, np.ndarray], max_norm: float) -> float:
    """g ← g · max_norm / (‖g‖ + 1e-6) when the global norm ‖g‖ exceeds max_norm (as torch)."""
    total = math.sqrt(sum(float(np.vdot(g, g)) for g in grads.values()))
    coef = max_norm / (total + 1e-6)
    if coef < 1.0:
        for g in grads.values():
            g *= coef
    return total


def updates(params: dict[str, np.ndarray], grads: dict[str, np.ndarray],
            flat: FlatParams | None) -> list[tuple[str | None, np.ndarray, np.ndarray]]:
    """(name, parameter, gradient) to update: a small model's parameters all at once, as one
    flat array (name None, train/flat.py), else each parameter that has a gradient."""
    whole = None if flat is None else flat.gradients(grads)
    if whole is not None:
        return [(None, flat.data, whole)]
    return [(name, p, g) for name, p in params.items() if (g := grads.get(name)) is not None]


class SGD:
    """v ← μ v + g (v = g at the first step); θ ← θ − η v. Plain SGD when μ = 0."""

    name = "sgd"

    def __init__(self, params: dict[str, np.ndarray], lr: float, momentum: float = 0.0):
        self.params, self.lr, self.momentum = params, lr, momentum
        self.step_count = 0
        self.state: dict[str, np.ndarray] = {}
        self.flat = FlatParams.of(params)

    def step(self, grads: dict[str, np.ndarray], lr: float | None = None) -> None:
        lr = self.lr if lr is None else lr
        self.step_count += 1
        # η as a 0-d array of the gradient's dtype (the number numpy casts lr to in g · lr), made
        # once a step rather than converted from a Python float at every parameter
        rates = {}
        for name, p, g in updates(self.params, grads, self.flat):
            if self.momentum:
                g = self._velocity(name, p, g)
            rate = rates.get(g.dtype)
            if rate is None:
                rate = rates[g.dtype] = np.asarray(lr, dtype=g.dtype)
            p -= g * rate

    def _velocity(self, name: str | None, p: np.ndarray, g: np.ndarray) -> np.ndarray:
        """v ← μ v + g, v starting at zero: v = g at the first step, as torch.optim clones g."""
        if name is None:
            buf = self.flat.state(self.state, "{}")
        else:
            buf = self.state.get(name)
            if buf is None:
                buf = self.state[name] = np.zeros_like(p)
        buf *= self.momentum
        buf += g
        return buf

    def hyper(self) -> dict:
        return {"lr": self.lr, "momentum": self.momentum}


class Adam:
    """m ← β1 m + (1−β1) g; v ← β2 v + (1−β2) g²; θ ← θ − η m̂ / (√v̂ + ε), hats bias-corrected."""

    name = "adam"

    def __init__(self, params: dict[str, np.ndarray], lr: float, betas=(0.9, 0.98),
                 eps: float = 1e-9):
        self.params, self.lr, self.betas, self.eps = params, lr, tuple(betas), eps
        self.step_count = 0
        self.state: dict[str, np.ndarray] = {}
        self.flat = FlatParams.of(params)

    def step(self, grads: dict[str, np.ndarray], lr: float | None = None) -> None:
        lr = self.lr if lr is None else lr
        self.step_count += 1
        b1, b2 = self.betas
        correction1 = 1.0 - b1 ** self.step_count
        root_correction2 = math.sqrt(1.0 - b2 ** self.step_count)
        for name, p, g in updates(self.params, grads, self.flat):
            m, v = self._moments(name, p)
            work = np.multiply(g, 1.0 - b1, dtype=p.dtype)  # one scratch array per parameter
            m *= b1
            m += work
            np.multiply(g, g, out=work)
            work *= 1.0 - b2
            v *= b2
            v += work
            # torch's order of operations: (√v / √(1−β2^t)) + ε, then step η / (1−β1^t)
            denom = np.sqrt(v, out=work)
            denom /= root_correction2
            denom += self.eps
            step = np.divide(m, denom, out=work)
            step *= lr / correction1
            p -= step

    def _moments(self, name: str | None, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if name is None:
            return self.flat.state(self.state, "m.{}"), self.flat.state(self.state, "v.{}")
        m = self.state.get(f"m.{name}")
        if m is None:  # the first step (a checkpoint brings its own)
            m = self.state[f"m.{name}"] = np.zeros_like(p)
            self.state[f"v.{name}"] = np.zeros_like(p)
        return m, self.state[f"v.{name}"]

    def hyper(self) -> dict:
        return {"lr": self.lr, "betas": list(self.betas), "eps": self.eps}


def make_optimizer(name: str, params, lr: float, momentum: float = 0.9):
    """'adam' (β 0.9/0.98, ε 1e-9, the paper's) or 'sgd' (with momentum)."""
    if lr <= 0:
        raise HandformerError(f"the learning rate must be positive, got {lr}")
    if name == "adam":
        return Adam(params, lr)
    if name == "sgd":
        return SGD(params, lr, momentum)
    raise HandformerError(f"unknown optimizer {name!r}; choose adam or sgd")
