"""Questions on the layers between attentions: layer norm (μ, σ, the normalized value) and the
feed-forward network's ReLU (the engine's operations; a family's own, BERT's GELU, are asked
in its folder: exercises/family_kinds.py)."""

from __future__ import annotations

import numpy as np

from . import pick
from .question import Given, Question, tolerance

NORM = "LN(x)_j = γ_j (x_j − μ) / σ + β_j, σ = √(Σ_j (x_j − μ)² / d + ε)"


def _norm_step(tape, rng):
    found = [s for s in pick.steps(tape, "layer_norm") if {"mean", "std"} <= set(s.extras)]
    return pick.one(rng, found)


def ln_mean(tape, rng) -> Question | None:
    """μ of one row of the layer norm's input."""
    return _statistic(tape, rng, "mean", "ln_mean", "μ = Σ_j x_j / d", "ex.ask.ln_mean")


def ln_std(tape, rng) -> Question | None:
    """σ = √(variance + ε) of one row (the biased variance, as torch's LayerNorm)."""
    return _statistic(tape, rng, "std", "ln_std", "σ = √(Σ_j (x_j − μ)² / d + ε)",
                      "ex.ask.ln_std")


def _statistic(tape, rng, name, kind, formula, ask) -> Question | None:
    step = _norm_step(tape, rng)
    if step is None:
        return None
    stat = np.asarray(step.extras[name])
    at = pick.cell(rng, stat.shape)
    row = np.asarray(tape.value(step.inputs[0])[at], dtype=float)
    given = [Given("ex.given.ln_row", "x_i", pick.plain(row))]
    if name == "std":
        given += [Given("ex.given.mean", "μ", float(step.extras["mean"][at])),
                  Given("ex.given.eps", "ε", _eps(tape))]
    answer = float(stat[at])
    return Question(kind, step.name, f"extras.{name}", at, tuple(given), answer,
                    tolerance(answer), formula, ask, "ex.hint.sum",
                    {"i": at[-1], "cell": list(at), "first": f"{row[0]:.5g}"}, "norm")


def _eps(tape) -> float:
    config = tape.meta.get("config") or {}
    return float(config.get("ln_eps", 1e-5)) if isinstance(config, dict) else 1e-5


def ln_norm(tape, rng) -> Question | None:
    """LN(x)_ij from x_ij, the row's μ and σ, γ_j and β_j."""
    step = _norm_step(tape, rng)
    if step is None:
        return None
    at = pick.cell(rng, step.shape)
    x, gamma, beta = (tape.value(name) for name in step.inputs)
    mean, std = float(step.extras["mean"][at[:-1]]), float(step.extras["std"][at[:-1]])
    given = (Given("ex.given.x", "x_ij", float(x[at])), Given("ex.given.mean", "μ_i", mean),
             Given("ex.given.std", "σ_i", std), Given("ex.given.gamma", "γ_j", float(gamma[at[-1]])),
             Given("ex.given.beta", "β_j", float(beta[at[-1]])))
    return _norm_question("ln_norm", step, at, given, f"{float(x[at]):.5g} − {mean:.5g}")


def ln_value(tape, rng) -> Question | None:
    """Two steps: μ and σ of a row, then its normalized value at one column."""
    step = _norm_step(tape, rng)
    if step is None:
        return None
    at = pick.cell(rng, step.shape)
    x, gamma, beta = (tape.value(name) for name in step.inputs)
    row = np.asarray(x[at[:-1]], dtype=float)
    given = (Given("ex.given.ln_row", "x_i", pick.plain(row)), Given("ex.given.eps", "ε", _eps(tape)),
             Given("ex.given.gamma", "γ_j", float(gamma[at[-1]])),
             Given("ex.given.beta", "β_j", float(beta[at[-1]])))
    return _norm_question("ln_value", step, at, given, f"μ = ({row[0]:.5g} + …) / {row.size}")


def _norm_question(kind, step, at, given, first) -> Question:
    answer = float(step.value[at])
    return Question(kind, step.name, "value", at, given, answer, tolerance(answer), NORM,
                    "ex.ask.ln_norm", "ex.hint.ln_norm",
                    {"i": at[-2], "j": at[-1], "cell": list(at), "first": first}, "norm")


def relu(tape, rng) -> Question | None:
    """ReLU(h) = max(0, h) at one cell, negative half the time."""
    step = pick.one(rng, pick.steps(tape, "relu"))
    if step is None:
        return None
    pre = tape.value(step.inputs[0])
    at = pick.cell(rng, step.shape, pre < 0 if pick.coin(rng) else pre > 0)
    given = (Given("ex.given.pre", "h", float(pre[at])),)
    return Question("relu", step.name, "value", at, given, float(step.value[at]),
                    tolerance(float(step.value[at])), "ReLU(h) = max(0, h)", "ex.ask.relu",
                    "ex.hint.relu", {"i": at[-2], "j": at[-1], "cell": list(at),
                                     "first": f"max(0, {float(pre[at]):.5g})"}, "ffn")


def ffn_unit(tape, rng) -> Question | None:
    """Two steps: h = x_i · W_:j + b_j, then ReLU(h)."""
    found = [s for s in pick.steps(tape, "relu", inputs_op=("linear",))
             if len(tape.index[s.inputs[0]].inputs) == 3]
    step = pick.one(rng, found)
    if step is None:
        return None
    at = pick.cell(rng, step.shape)
    x, w, b = (tape.value(name) for name in tape.index[step.inputs[0]].inputs)
    row, column = np.asarray(x[at[:-1]], dtype=float), np.asarray(w[:, at[-1]], dtype=float)
    given = (Given("ex.given.x_row", "x_i", pick.plain(row)),
             Given("ex.given.w_column", "W_:j", pick.plain(column)),
             Given("ex.given.bias", "b_j", float(b[at[-1]])))
    answer = float(step.value[at])
    return Question("ffn_unit", step.name, "value", at, given, answer, tolerance(answer),
                    "FFN_ij = max(0, x_i · W_:j + b_j)", "ex.ask.ffn_unit", "ex.hint.dot",
                    {"i": at[-2], "j": at[-1], "cell": list(at),
                     "first": f"{row[0]:.5g} × {column[0]:.5g}"}, "ffn")
