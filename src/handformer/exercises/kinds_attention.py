"""Questions on attention: a score as a dot product, its scaling, a masked entry, a softmax
weight, a weighted sum of the values."""

from __future__ import annotations

import math

import numpy as np

from . import pick
from .question import Given, Question, tolerance

SCORE = "S_ij = (q_i · k_j) / √d_k"


def score(tape, rng) -> Question | None:
    """S_ij from row i of Q and row j of K (one head), and d_k."""
    found = _score_cell(tape, rng)
    if found is None:
        return None
    step, at, q, k = found
    given = (Given("ex.given.q_row", "q_i", pick.plain(q)),
             Given("ex.given.k_row", "k_j", pick.plain(k)),
             Given("ex.given.d_k", "d_k", q.size))
    return _question("score", step, at, given, "ex.ask.score", "ex.hint.score",
                     f"{q[0]:.5g} × {k[0]:.5g}")


def scale(tape, rng) -> Question | None:
    """S_ij from the dot product q_i · k_j (given) and d_k."""
    found = _score_cell(tape, rng)
    if found is None:
        return None
    step, at, q, k = found
    dot = float(q @ k)
    given = (Given("ex.given.dot", "q_i · k_j", dot), Given("ex.given.d_k", "d_k", q.size))
    return _question("scale", step, at, given, "ex.ask.scale", "ex.hint.scale",
                     f"√{q.size} = {math.sqrt(q.size):.5g}")


def _score_cell(tape, rng):
    step = pick.one(rng, pick.steps(tape, "scores"))
    if step is None:
        return None
    at = pick.cell(rng, step.shape)
    head, i, j = at[:-2], at[-2], at[-1]
    q, k = (tape.value(name)[head] for name in step.inputs)
    return step, at, np.asarray(q[i], dtype=float), np.asarray(k[j], dtype=float)


def _question(kind, step, at, given, ask, hint, first) -> Question:
    answer = float(step.value[at])
    return Question(kind, step.name, "value", at, given, answer, tolerance(answer), SCORE, ask,
                    hint, _where(at) | {"first": first}, "attention")


def _where(at: tuple[int, ...]) -> dict:
    """The words of a cell (head h, row i, column j) in a head-first attention tensor; heads
    are named from 1 as the walkthrough names them ("head 1"), the cell stays the tape's."""
    head = at[0] if len(at) == 3 else 0
    return {"head": head + 1, "i": at[-2], "j": at[-1], "cell": list(at)}


def mask(tape, rng) -> Question | None:
    """S'_ij from S_ij and row i of the mask: S_ij where it may be seen, −∞ where not."""
    step = pick.one(rng, pick.steps(tape, "mask"))
    if step is None:
        return None
    # The mask the step applied: where its output is finite (no score is −∞ before the mask).
    # Read off the values, which a tape file keeps, rather than the step's attributes.
    allowed = np.isfinite(step.value)
    at = pick.cell(rng, step.shape, ~allowed if pick.coin(rng) else allowed)
    row = allowed[at[:-1]].astype(int).tolist()
    given = (Given("ex.given.score", "S_ij", float(tape.value(step.inputs[0])[at])),
             Given("ex.given.mask_row", "M_i", row))
    answer = float(step.value[at])
    return Question("mask", step.name, "value", at, given, answer, tolerance(answer),
                    "S'_ij = S_ij if mask_ij = 1, −∞ if mask_ij = 0", "ex.ask.mask", "ex.hint.mask",
                    _where(at) | {"first": f"mask_ij = {row[at[-1]]}"}, "attention")


def softmax(tape, rng) -> Question | None:
    """A_ij from row i of the (masked) scores: e^{S_ij} / Σ_k e^{S_ik}."""
    step = pick.one(rng, pick.steps(tape, "softmax", inputs_op=("scores", "mask")))
    if step is None:
        return None
    scores = tape.value(step.inputs[0])
    at = pick.cell(rng, step.shape, np.isfinite(scores))
    row = scores[at[:-1]]
    given = (Given("ex.given.score_row", "S_i", pick.plain(row)),)
    answer = float(step.value[at])
    first = f"e^{row[0]:.5g}"
    return Question("softmax", step.name, "value", at, given, answer, tolerance(answer),
                    "A_ij = e^{S_ij} / Σ_k e^{S_ik}", "ex.ask.softmax", "ex.hint.softmax",
                    _where(at) | {"first": first}, "attention")


def weighted_sum(tape, rng) -> Question | None:
    """Z_ic = Σ_j A_ij V_jc from row i of A and column c of V."""
    step = pick.one(rng, pick.steps(tape, "attend"))
    if step is None:
        return None
    at = pick.cell(rng, step.shape)
    head = at[:-2]
    weights = np.asarray(tape.value(step.inputs[0])[head][at[-2]], dtype=float)
    values = np.asarray(tape.value(step.inputs[1])[head][:, at[-1]], dtype=float)
    given = (Given("ex.given.a_row", "A_i", pick.plain(weights)),
             Given("ex.given.v_column_c", "V_c", pick.plain(values)))
    answer = float(step.value[at])
    return Question("weighted_sum", step.name, "value", at, given, answer, tolerance(answer),
                    "Z_ic = Σ_j A_ij V_jc", "ex.ask.weighted_sum", "ex.hint.dot",
                    _where(at) | {"first": f"{weights[0]:.5g} × {values[0]:.5g}"}, "attention")
