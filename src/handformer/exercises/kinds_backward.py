"""Questions on the backward half: one cell of a softmax's backward (∂L/∂S from a row of A and of
∂L/∂A), of a layer norm's backward (∂L/∂x from the row, γ and ∂L/∂Y), and of a weight's gradient
(∂L/∂W = Xᵀ·∂L/∂Y, a column of X against a column of ∂L/∂Y). The answer is the tape's own
gradient at that cell, where the one step asked about is its only reader (so the cell is that
step's share and nothing else)."""

from __future__ import annotations

import numpy as np

from . import pick
from .question import Given, Question, tolerance


def _only_reader(tape, name: str, step) -> bool:
    """Whether ``step`` is the one step that sends a gradient back to ``name``."""
    return [s.name for s in tape.steps if not s.view and name in s.inputs
            and s.name in tape.grads] == [step.name]


def grad_softmax(tape, rng) -> Question | None:
    """∂L/∂S_ij = A_ij (∂L/∂A_ij − Σ_k A_ik ∂L/∂A_ik), from row i of A and of ∂L/∂A."""
    found = [s for s in pick.steps(tape, "softmax", inputs_op=("scores", "mask"))
             if s.name in tape.grads and s.inputs[0] in tape.grads
             and _only_reader(tape, s.inputs[0], s)]
    step = pick.one(rng, found)
    if step is None:
        return None
    a, g = np.asarray(step.value, dtype=float), np.asarray(tape.grads[step.name], dtype=float)
    at = pick.cell(rng, a.shape, a > 1e-3)
    row = at[:-1]
    given = (Given("ex.given.a_row", "A_i", pick.plain(a[row]), 6),
             Given("ex.given.grad_a_row", "∂L/∂A_i", pick.plain(g[row]), 6))
    answer = float(tape.grads[step.inputs[0]][at])
    inner = float(a[row] @ g[row])
    return Question("grad_softmax", step.inputs[0], "grad", at, given, answer,
                    tolerance(answer, 2e-3, 1e-6),
                    "∂L/∂S_ij = A_ij (∂L/∂A_ij − Σ_k A_ik ∂L/∂A_ik)", "ex.ask.grad_softmax",
                    "ex.hint.grad_softmax", _cell(at) | {"first": f"Σ_k A_ik ∂L/∂A_ik = "
                                                                  f"{inner:.5g}"}, "backward")


def grad_norm(tape, rng) -> Question | None:
    """∂L/∂x_ij = (ĝ_j − mean ĝ − x̂_j mean(ĝ ⊙ x̂)) / σ_i, ĝ = γ ⊙ ∂L/∂Y_i, x̂ = (x_i − μ_i)/σ_i."""
    found = [s for s in pick.steps(tape, "layer_norm") if {"mean", "std"} <= set(s.extras)
             and s.name in tape.grads and s.inputs[0] in tape.grads
             and _only_reader(tape, s.inputs[0], s)]
    step = pick.one(rng, found)
    if step is None:
        return None
    at = pick.cell(rng, step.shape)
    i = at[:-1]
    x, gamma = np.asarray(tape.value(step.inputs[0])[i]), np.asarray(tape.value(step.inputs[1]))
    g = np.asarray(tape.grads[step.name][i], dtype=float)
    given = (Given("ex.given.ln_row", "x_i", pick.plain(x), 6),
             Given("ex.given.mean", "μ_i", float(step.extras["mean"][i])),
             Given("ex.given.std", "σ_i", float(step.extras["std"][i])),
             Given("ex.given.gamma_row", "γ", pick.plain(gamma), 6),
             Given("ex.given.grad_y_row", "∂L/∂Y_i", pick.plain(g), 6))
    answer = float(tape.grads[step.inputs[0]][at])
    ghat = gamma * g
    return Question("grad_norm", step.inputs[0], "grad", at, given, answer,
                    tolerance(answer, 2e-3, 1e-6),
                    "∂L/∂x_ij = (ĝ_j − mean ĝ − x̂_j · mean(ĝ ⊙ x̂)) / σ_i, ĝ = γ ⊙ ∂L/∂Y_i, "
                    "x̂ = (x_i − μ_i) / σ_i", "ex.ask.grad_norm", "ex.hint.grad_norm",
                    _cell(at) | {"first": f"mean ĝ = {float(ghat.mean()):.5g}"}, "backward")


def grad_weight(tape, rng) -> Question | None:
    """∂L/∂W_rc = Σ_t X_tr ∂L/∂Y_tc: column r of the layer's input, column c of ∂L/∂Y."""
    found = [s for s in pick.steps(tape, "linear") if len(s.inputs) > 1
             and s.inputs[1] in tape.grads and s.inputs[1] not in tape.index
             and s.name in tape.grads and np.ndim(tape.grads[s.inputs[1]]) == 2]
    step = pick.one(rng, found)
    if step is None:
        return None
    gw = np.abs(np.asarray(tape.grads[step.inputs[1]], dtype=float))
    at = pick.cell(rng, gw.shape, gw >= np.quantile(gw, 0.5))
    x = np.asarray(tape.value(step.inputs[0]), dtype=float).reshape(-1, gw.shape[0])
    g = np.asarray(tape.grads[step.name], dtype=float).reshape(-1, gw.shape[1])
    given = (Given("ex.given.x_column", "X_:r", pick.plain(x[:, at[0]]), 6),
             Given("ex.given.grad_y_column", "∂L/∂Y_:c", pick.plain(g[:, at[1]]), 6))
    answer = float(tape.grads[step.inputs[1]][at])
    return Question("grad_weight", step.inputs[1], "grad", at, given, answer,
                    tolerance(answer, 2e-3, 1e-6), "∂L/∂W_rc = Σ_t X_tr ∂L/∂Y_tc",
                    "ex.ask.grad_weight", "ex.hint.dot",
                    {"r": at[0], "c": at[1], "cell": list(at),
                     "first": f"{x[0, at[0]]:.5g} × {g[0, at[1]]:.5g}"}, "backward")


def _cell(at: tuple) -> dict:
    """The words of a cell: its head (1-based, when there are heads), row and column."""
    words = {"i": at[-2], "j": at[-1], "cell": list(at)}
    return words | ({"head": at[0] + 1} if len(at) == 3 else {"head": 1})
