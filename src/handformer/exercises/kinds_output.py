"""Questions on the way out and back: a logit, a probability, the loss, ∂L/∂logit at one cell
and one SGD update."""

from __future__ import annotations

import numpy as np

from . import pick
from .question import Given, Question, tolerance

LONG_ROW = 40  # a longer row of logits is given as its one logit and Σ_k e^{z_k}


def logit(tape, rng) -> Question | None:
    """z_tj = y_t · W_:j (+ b_j): row t of the last layer's output and column j of W."""
    step = pick.one(rng, pick.steps(tape, "linear", "logits"))
    if step is None:
        return None
    at = pick.cell(rng, step.shape)
    x, w = (tape.value(name) for name in step.inputs[:2])
    row, column = np.asarray(x[at[:-1]], dtype=float), np.asarray(w[:, at[-1]], dtype=float)
    given = [Given("ex.given.y_row", "y_t", pick.plain(row)),
             Given("ex.given.w_column", "W_:j", pick.plain(column))]
    if len(step.inputs) == 3:
        given.append(Given("ex.given.bias", "b_j", float(tape.value(step.inputs[2])[at[-1]])))
    answer = float(step.value[at])
    return Question("logit", step.name, "value", at, tuple(given), answer, tolerance(answer),
                    "z_tj = y_t · W_:j + b_j", "ex.ask.logit", "ex.hint.dot",
                    _words(tape, at, f"{row[0]:.5g} × {column[0]:.5g}"), "prediction")


def _words(tape, at, first) -> dict:
    vocab = list(tape.meta.get("vocab") or [])
    word = vocab[at[-1]] if at[-1] < len(vocab) else str(at[-1])
    return {"t": at[-2], "j": at[-1], "word": word, "cell": list(at), "first": first}


def probability(tape, rng) -> Question | None:
    """p_tj = e^{z_tj} / Σ_k e^{z_tk}, from row t of the logits (or z_tj and the sum)."""
    step = pick.one(rng, pick.steps(tape, "softmax", "probs"))
    if step is None:
        return None
    logits = np.asarray(tape.value(step.inputs[0]), dtype=float)
    at = pick.cell(rng, step.shape)
    row = logits[at[:-1]]
    if row.size <= LONG_ROW:
        given = (Given("ex.given.logit_row", "z_t", pick.plain(row)),)
        first = f"e^{row[0]:.5g}"
    else:
        total = float(np.exp(row).sum())
        given = (Given("ex.given.logit", "z_tj", float(row[at[-1]])),
                 Given("ex.given.exp_sum", "Σ_k e^{z_tk}", total))
        first = f"e^{row[at[-1]]:.5g}"
    answer = float(step.value[at])
    return Question("probability", step.name, "value", at, given, answer, tolerance(answer),
                    "p_tj = e^{z_tj} / Σ_k e^{z_tk}", "ex.ask.probability", "ex.hint.softmax",
                    _words(tape, at, first), "prediction")


def loss(tape, rng) -> Question | None:
    """L = −(1/|T|) Σ_t [(1 − ε) log p_t,y_t + ε · mean_w log p_t,w], from each position's
    probability of its target (and, with label smoothing, its mean log-probability)."""
    step = tape.index.get("loss")
    probs = pick.steps(tape, "softmax", "probs")
    if step is None or step.op != "cross_entropy" or not probs or "target" not in tape.meta:
        return None
    p = np.asarray(probs[0].value, dtype=float)
    targets, weights, smoothing = _targets(tape, p.shape)
    picked = p.reshape(-1, p.shape[-1])[np.arange(np.size(targets)), np.ravel(targets)]
    given = [Given("ex.given.target_probs", "p_t,y_t", pick.plain(picked[np.ravel(weights)]))]
    if smoothing:
        mean_log = np.log(p.reshape(-1, p.shape[-1])).mean(axis=-1)[np.ravel(weights)]
        given += [Given("ex.given.smoothing", "ε", smoothing),
                  Given("ex.given.mean_log", "mean_w log p_t,w", pick.plain(mean_log))]
    answer = float(step.value)
    formula = ("L = −(1/|T|) Σ_t [(1 − ε) log p_t,y_t + ε · mean_w log p_t,w]" if smoothing
               else "L = −(1/|T|) Σ_t log p_t,y_t")  # an ε only where it is given
    return Question("loss", "loss", "value", (), tuple(given), answer, tolerance(answer),
                    formula,
                    "ex.ask.loss", "ex.hint.loss",
                    {"count": int(weights.sum()), "first": f"−log {picked[0]:.5g}"}, "loss")


def position_loss(tape, rng) -> Question | None:
    """ℓ_t = (1 − ε)·(−log p_t,y_t) + ε·(−mean_w log p_t,w): one position's share of L."""
    step = tape.index.get("loss")
    probs = pick.steps(tape, "softmax", "probs")
    if (step is None or "per_position" not in step.extras or not probs
            or "target" not in tape.meta):
        return None
    p = np.asarray(probs[0].value, dtype=float)
    targets, weights, smoothing = _targets(tape, p.shape)
    at = pick.cell(rng, targets.shape, weights)
    picked = float(p[at + (int(targets[at]),)])
    given = [Given("ex.given.target_prob", "p_t,y_t", picked)]
    formula = "ℓ_t = −log p_t,y_t"
    if smoothing:
        given += [Given("ex.given.smoothing", "ε", smoothing),
                  Given("ex.given.row_mean_log", "mean_w log p_t,w", float(np.log(p[at]).mean()))]
        formula = "ℓ_t = (1 − ε)·(−log p_t,y_t) + ε·(−mean_w log p_t,w)"
    answer = float(step.extras["per_position"][at])
    vocab = list(tape.meta.get("vocab") or [])
    word = vocab[int(targets[at])] if int(targets[at]) < len(vocab) else str(int(targets[at]))
    return Question("position_loss", "loss", "extras.per_position", at, tuple(given), answer,
                    tolerance(answer), formula, "ex.ask.position_loss", "ex.hint.position_loss",
                    {"t": at[-1], "word": word, "cell": list(at), "first": f"−log {picked:.5g}"},
                    "loss")


def _targets(tape, shape) -> tuple[np.ndarray, np.ndarray, float]:
    """The target ids (one per position), which positions count (not padding) and the label
    smoothing, from the tape's meta (a tape file keeps it; the loss step's attributes it
    does not)."""
    targets = np.asarray(tape.meta["target"]["ids"], dtype=int).reshape(shape[:-1])
    vocab = list(tape.meta.get("vocab") or [])
    weights = targets != vocab.index("<pad>") if "<pad>" in vocab else np.ones(targets.shape, bool)
    config = tape.meta.get("config") or {}
    return targets, weights, float(config.get("label_smoothing", 0.0) or 0.0)


def grad_logit(tape, rng) -> Question | None:
    """∂L/∂z_tj = (p_tj − q_tj) / |T|, q_tj = (1 − ε)·[j = y_t] + ε/V."""
    step = tape.index.get("loss")
    logits = pick.steps(tape, "linear", "logits")
    if step is None or not logits or logits[0].name not in tape.grads or "target" not in tape.meta:
        return None
    name, probs = logits[0].name, pick.steps(tape, "softmax", "probs")[0].value
    targets, weights, smoothing = _targets(tape, probs.shape)
    is_target = np.zeros(probs.shape, dtype=bool)
    is_target.reshape(-1, probs.shape[-1])[np.arange(targets.size), targets.ravel()] = True
    at = pick.cell(rng, probs.shape, is_target if pick.coin(rng) else None)
    given = [Given("ex.given.prob", "p_tj", float(probs[at])),
             Given("ex.given.is_target", "[j = y_t]", int(is_target[at])),
             Given("ex.given.positions", "|T|", int(weights.sum()))]
    if smoothing:
        given += [Given("ex.given.smoothing", "ε", smoothing),
                  Given("ex.given.vocab_size", "V", probs.shape[-1])]
    answer = float(tape.grads[name][at])
    return Question("grad_logit", name, "grad", at, tuple(given), answer,
                    tolerance(answer, 1e-3, 1e-5), "∂L/∂z_tj = (p_tj − q_tj) / |T|",
                    "ex.ask.grad_logit", "ex.hint.grad_logit",
                    _words(tape, at, f"q_tj = {int(is_target[at])}"), "backward")


def sgd_update(tape, rng) -> Question | None:
    """θ' = θ − η g at one cell of one parameter, a cell where the step is large enough to
    tell from no step at all."""
    lr = (tape.meta.get("update") or {}).get("lr")
    name = pick.one(rng, sorted(tape.updates))
    if name is None or lr is None:
        return None
    before, grad, after = tape.updates[name]
    size = np.abs(np.asarray(grad, dtype=float))
    at = pick.cell(rng, size.shape, size >= np.quantile(size, 0.9))
    given = (Given("ex.given.theta", "θ", float(before[at]), 9),
             Given("ex.given.grad", "g", float(grad[at]), 9), Given("ex.given.lr", "η", float(lr)))
    answer = float(after[at])
    return Question("sgd_update", name, "update.after", at, given, answer,
                    max(1e-7, 0.01 * abs(float(lr) * float(size[at]))), "θ' = θ − η g",
                    "ex.ask.sgd_update", "ex.hint.sgd_update",
                    {"param": name, "cell": list(at),
                     "first": f"η g = {float(lr):g} × {float(grad[at]):.9g}"}, "backward")
