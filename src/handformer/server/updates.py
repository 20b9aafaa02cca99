"""What one step of training did to one weight, recorded while a job goes one epoch at a time.

Every update a job makes is watched and the last one is kept as the job's ``update`` (so when
"One epoch" holds the job again, it is the update that ended that epoch): the weight with the largest gradient |g| of the whole model, its
value θ before, its gradient g, the rate η and its value θ′ after, read off the parameters
themselves (and, for Adam, the bias-corrected moments m̂ and v̂ and ε, so that
θ′ = θ − η·m̂ / (√v̂ + ε) can be checked by hand; for SGD with momentum μ its velocity
v = μ·v + g, θ′ = θ − η·v; plain SGD θ′ = θ − η·g).
"""

from __future__ import annotations

import numpy as np


def watch(job) -> None:
    """Wrap the job's optimizer so that each step is recorded (the last one kept)."""
    run = job.run
    if run is None:
        return
    optimizer, plain = run.optimizer, run.optimizer.step
    batches = {"epoch": None, "n": 0}

    def step(grads, lr=None):
        epoch = run.epoch + 1
        batches["n"] = batches["n"] + 1 if batches["epoch"] == epoch else 1
        batches["epoch"] = epoch
        name, index = largest(grads)
        theta = float(run.params[name][index])
        plain(grads, lr)
        job.update = record(optimizer, name, index, theta, float(grads[name][index]),
                            optimizer.lr if lr is None else lr, float(run.params[name][index]))
        job.update |= {"epoch": epoch, "batch": batches["n"]}

    optimizer.step = step


def largest(grads: dict) -> tuple[str, tuple[int, ...]]:
    """The parameter and index of the largest |g| (the first such, in the model's order)."""
    best = (-1.0, "", ())
    for name, g in grads.items():
        if g is None or not np.size(g):
            continue
        flat = int(np.argmax(np.abs(g)))
        value = float(np.abs(g).flat[flat])
        if value > best[0]:
            best = (value, name, tuple(int(i) for i in np.unravel_index(flat, np.shape(g))))
    return best[1], best[2]


def record(optimizer, name: str, index: tuple, theta: float, g: float, lr: float,
           theta_new: float) -> dict:
    out = {"optimizer": optimizer.name, "param": name, "index": list(index), "theta": theta,
           "g": g, "lr": float(lr), "theta_new": theta_new}
    if optimizer.name == "adam":
        t = optimizer.step_count
        b1, b2 = optimizer.betas
        m = float(optimizer.state[f"m.{name}"][index]) / (1 - b1 ** t)
        v = float(optimizer.state[f"v.{name}"][index]) / (1 - b2 ** t)
        out |= {"m_hat": m, "v_hat": v, "eps": optimizer.eps, "t": t}
    elif getattr(optimizer, "momentum", 0):  # v ← μ·v + g; θ′ = θ − η·v
        out |= {"momentum": optimizer.momentum, "velocity": float(optimizer.state[name][index])}
    return out
