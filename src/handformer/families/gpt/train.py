"""Training the decoder-only model on its texts, and generating with it.

``fit``: Adam (train/optim.py) on the summed next-token loss of every text (each line of the
dataset read as <start> words <end>), the gradients by the tape's reverse pass. ``generate``:
one token at a time from a prompt, each step a forward pass over everything so far: greedy
(the most likely token), or sampled (sampling.py: temperature, top-k, top-p) with a seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...engine.tape import Tape
from ...text import END, START
from .model import forward
from .run import Model
from .sampling import check_options, sample


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
    probs: list[float]  # p of each chosen token when it was chosen (the model's, at T = 1)
    choices: list = field(default_factory=list)  # each step's sampling.Sampled, <end>'s too


def generate(model: Model, prompt: str, max_new: int = 20, temperature: float = 0.0,
             top_k: int | None = None, seed: int = 0, top_p: float | None = None) -> Generated:
    """Continue ``prompt`` until <end> or ``max_new`` tokens, each chosen from the last
    position's logits by sampling.sample (temperature 0: greedy); one generator seeded with
    ``seed`` gives every draw, one per token, in order."""
    check_options(temperature, top_k, top_p)
    vocab, rng = model.vocab, np.random.default_rng(seed)
    ids = [vocab.id(START), *vocab.encode(prompt, "prompt")]
    new, probs, choices = [], [], []
    while len(new) < max_new and len(ids) < model.config.max_len:
        tape = Tape(model.params, record=False)
        forward(tape, model.config, ids)
        choice = sample(tape["generator.logits"][-1], temperature, top_k, top_p, rng)
        choices.append(choice)
        if choice.token == vocab.id(END):
            break
        ids.append(choice.token)
        new.append(vocab.tokens[choice.token])
        probs.append(float(tape["generator.probs"][-1][choice.token]))
    return Generated(vocab.tokenize(prompt), new, probs, choices)
