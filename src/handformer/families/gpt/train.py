"""Training the decoder-only model on its texts, and generating with it.

``fit``: Adam (train/optim.py) on the summed next-token loss of every text (each line of the
dataset read as <start> words <end>), the gradients by the tape's reverse pass. ``generate``:
one token at a time from a prompt, each step a forward pass over everything so far: greedy
(the most likely token), or sampled at a temperature from the top k, with a seed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...engine.tape import Tape
from ...errors import HandformerError
from ...text import END, START
from .model import forward
from .run import Model


def texts_ids(model: Model) -> list[list[int]]:
    """Every line of the dataset as <start> w₁ … w_n <end>."""
    start, end = model.vocab.id(START), model.vocab.id(END)
    return [[start, *model.vocab.encode(line, "line"), end] for line in model.dataset]


def loss_and_grads(params: dict, model: Model, ids: list[int], rng=None) -> tuple[float, dict]:
    """One text's next-token loss and its gradients (dropout on when ``rng`` is given)."""
    tape = Tape(params, record=False, dropout_rng=rng, fused=True)
    logits = forward(tape, model.config, ids[:-1])
    tape.run("loss", "cross_entropy", [logits], {"targets": np.asarray(ids[1:]),
                                                 "weights": np.ones(len(ids) - 1)})
    grads = tape.backward("loss")
    return float(tape["loss"]), {n: grads[n] for n in params if n in grads}


@dataclass
class Training:
    """A run in progress: the model (its parameters updated in place), Adam, the dropout
    generator (None without dropout), and the loss before each step so far."""

    model: Model
    optimizer: object
    rng: np.random.Generator | None
    history: list[float]


def start(model: Model, lr: float) -> Training:
    """A fresh run: Adam at ``lr``, the dropout generator seeded by the config's seed."""
    from ...train.optim import Adam

    rng = np.random.default_rng(model.config.seed) if model.config.dropout else None
    return Training(model, Adam(model.params, lr), rng, [])


def epoch(run: Training) -> float:
    """One Adam step on the mean loss of every text (an epoch: each text once); returns the
    loss before the step."""
    texts, total, summed = texts_ids(run.model), 0.0, {}
    for ids in texts:
        loss, grads = loss_and_grads(run.model.params, run.model, ids, run.rng)
        total += loss / len(texts)
        for name, g in grads.items():
            summed[name] = summed.get(name, 0.0) + g / len(texts)
    run.history.append(total)
    run.optimizer.step(summed)
    return total


def fit(model: Model, steps: int = 300, lr: float = 0.01, on_step=None) -> list[float]:
    """``steps`` Adam steps on the mean loss of the texts; the model's parameters are updated
    in place. Returns the loss before each step; ``on_step(i, loss)`` is told each one."""
    run = start(model, lr)
    for step in range(steps):
        loss = epoch(run)
        if on_step is not None:
            on_step(step, loss)
    return run.history


@dataclass(frozen=True)
class Generated:
    prompt: list[str]
    tokens: list[str]  # the new tokens, <end> excluded
    probs: list[float]  # p of each chosen token when it was chosen


def generate(model: Model, prompt: str, max_new: int = 20, temperature: float = 0.0,
             top_k: int | None = None, seed: int = 0) -> Generated:
    """Continue ``prompt`` until <end> or ``max_new`` tokens; temperature 0 is greedy."""
    if temperature < 0 or (top_k is not None and top_k < 1):
        raise HandformerError("temperature must be 0 (greedy) or more, and top-k at least 1")
    vocab, rng = model.vocab, np.random.default_rng(seed)
    ids = [vocab.id(START), *vocab.encode(prompt, "prompt")]
    new, probs = [], []
    while len(new) < max_new and len(ids) < model.config.max_len:
        tape = Tape(model.params, record=False)
        forward(tape, model.config, ids)
        p = tape["generator.probs"][-1]
        choice = _choose(p, temperature, top_k, rng)
        if choice == vocab.id(END):
            break
        ids.append(choice)
        new.append(vocab.tokens[choice])
        probs.append(float(p[choice]))
    return Generated(vocab.tokenize(prompt), new, probs)


def _choose(p: np.ndarray, temperature: float, top_k: int | None, rng) -> int:
    if temperature == 0:
        return int(np.argmax(p))
    logits = np.log(np.maximum(p, 1e-300))
    with np.errstate(over="ignore"):  # the largest 0, the rest -inf for a tiny T: greedy
        logits = (logits - logits.max()) / temperature
    if top_k is not None and top_k < len(p):
        logits[np.argsort(logits)[:-top_k]] = -np.inf
    q = np.exp(logits - logits.max())
    return int(rng.choice(len(p), p=q / q.sum()))
