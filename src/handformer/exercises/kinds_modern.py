"""Questions on the parts of today's LLMs, where a run has them: one number of a query or key
turned by RoPE, one RMSNorm output, one SwiGLU product SiLU(g)·u. The answers are the tape's."""

from __future__ import annotations

import math

import numpy as np

from . import pick
from .question import Given, Question, tolerance


def _config(tape) -> dict:
    config = tape.meta.get("config") or {}
    return config if isinstance(config, dict) else {}


def rope_pair(tape, rng) -> Question | None:
    """q̃ (or k̃) at (head, position m, column j) from its pair's two numbers and the angle."""
    step = pick.one(rng, pick.steps(tape, "rope"))
    if step is None:
        return None
    config = _config(tape)
    base, pairs = float(config.get("rope_base") or 1e4), str(config.get("rope_pairs") or "half")
    at = pick.cell(rng, step.shape)
    x = tape.value(step.inputs[0])
    dk, j, m = step.shape[-1], at[-1], at[-2]
    i, first = (j // 2, j % 2 == 0) if pairs == "adjacent" else (j % (dk // 2), j < dk // 2)
    partner = (j + 1 if first else j - 1) if pairs == "adjacent" else \
        (j + dk // 2 if first else j - dk // 2)
    angle = m * base ** (-2 * i / dk)
    given = (Given("ex.given.rope_x", "x_j", float(x[at])),
             Given("ex.given.rope_partner", "x_p", float(x[(*at[:-1], partner)])),
             Given("ex.given.rope_angle", "mθ_i", angle))
    sign = "−" if first else "+"
    answer = float(step.value[at])
    # column j first of its pair: x_j cos − x_p sin; second: x_j cos + x_p sin
    return Question("rope_pair", step.name, "value", at, given, answer, tolerance(answer),
                    f"x̃_j = x_j cos mθ_i {sign} x_p sin mθ_i", "ex.ask.rope_pair",
                    "ex.hint.rope_pair",
                    {"h": at[0] + 1, "i": m, "j": j, "cell": list(at),
                     "first": f"{float(x[at]):.5g} × cos {angle:.5g} {sign} …"}, "attention")


def rms_value(tape, rng) -> Question | None:
    """RMSNorm(x)_ij from row i, ε and γ_j."""
    step = pick.one(rng, pick.steps(tape, "rms_norm"))
    if step is None:
        return None
    at = pick.cell(rng, step.shape)
    x, gamma = (tape.value(name) for name in step.inputs)
    row = np.asarray(x[at[:-1]], dtype=float)
    eps = float(_config(tape).get("ln_eps", 1e-5))
    given = (Given("ex.given.ln_row", "x_i", pick.plain(row)), Given("ex.given.eps", "ε", eps),
             Given("ex.given.gamma", "γ_j", float(gamma[at[-1]])))
    answer = float(step.value[at])
    return Question("rms_value", step.name, "value", at, given, answer, tolerance(answer),
                    "RMSNorm(x)_j = γ_j x_j / √(Σ_k x_k² / d + ε)", "ex.ask.rms_value",
                    "ex.hint.rms_value",
                    {"i": at[-2], "j": at[-1], "cell": list(at),
                     "first": f"({row[0]:.5g}² + …) / {row.size}"}, "norm")


def swiglu_unit(tape, rng) -> Question | None:
    """H_ij = SiLU(g) · u = g · σ(g) · u from the gate g and the value u."""
    step = pick.one(rng, pick.steps(tape, "mul", inputs_op=("silu",)))
    if step is None:
        return None
    at = pick.cell(rng, step.shape)
    gate = tape.value(tape.index[step.inputs[0]].inputs[0])
    up = tape.value(step.inputs[1])
    g, u = float(gate[at]), float(up[at])
    given = (Given("ex.given.gate", "g", g), Given("ex.given.up", "u", u))
    answer = float(step.value[at])
    return Question("swiglu_unit", step.name, "value", at, given, answer, tolerance(answer),
                    "H = SiLU(g) · u = g / (1 + e^(−g)) · u", "ex.ask.swiglu_unit",
                    "ex.hint.swiglu_unit",
                    {"i": at[-2], "j": at[-1], "cell": list(at),
                     "first": f"σ({g:.5g}) = {1 / (1 + math.exp(-g)):.5g}"}, "ffn")
