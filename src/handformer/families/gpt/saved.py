"""The decoder-only model saved and read back: the shared checkpoint format (train/checkpoint.py)
with ``family: "gpt"``, its texts kept with it so a walk of the checkpoint shows the lines it
learned from, and Adam's state and the dropout generator's, so `train --resume` continues the
run exactly where it stopped."""

from __future__ import annotations

import copy

import numpy as np

from ...errors import CheckpointError
from ...schema import SchemaError, strings
from .run import Model


def snapshot(run, steps: int):
    """A copy of the run now (``train.Training``), safe to save while training goes on;
    ``steps``: how many the run was asked for (what --resume continues to)."""
    from ...train.checkpoint import Checkpoint

    model, opt = run.model, run.optimizer
    state = copy.deepcopy(run.rng.bit_generator.state) if run.rng is not None else None
    texts = {"texts": list(model.dataset), "options": {"lr": opt.lr, "steps": steps}}
    return Checkpoint(model.config, model.vocab, {k: v.copy() for k, v in model.params.items()},
                      {"name": opt.name, "hyper": opt.hyper(), "step": opt.step_count},
                      {k: v.copy() for k, v in opt.state.items()}, epoch=len(run.history),
                      rng_state=state, history=[{"loss": x} for x in run.history],
                      run=texts, family="gpt")


def read(path: str):
    """A gpt checkpoint and the texts it kept; another family's checkpoint is refused by name."""
    from ...train.checkpoint import load as read_checkpoint

    ckpt = read_checkpoint(path, family="gpt")
    try:
        texts = strings(ckpt.run.get("texts", []), "run.texts", 100_000)
    except SchemaError as err:
        raise CheckpointError(f"{path!r} has unreadable metadata: {err}") from None
    return ckpt, list(texts)


def load(path: str) -> Model:
    """A gpt checkpoint as a ready model."""
    ckpt, texts = read(path)
    losses = [h["loss"] for h in ckpt.history]
    trained = {"checkpoint": str(path), "epochs": ckpt.epoch,
               "loss": losses[-1] if losses else None}
    return Model(ckpt.config, texts, ckpt.vocab, ckpt.params, trained)


def resume(path: str):
    """The run a checkpoint holds, ready to continue (``train.Training``): its parameters as
    float64, Adam's moments and step count, the dropout generator's state, the loss history.
    Returns (run, the steps it was asked for)."""
    from .train import start

    ckpt, texts = read(path)
    if ckpt.optimizer.get("name") != "adam" or "hyper" not in ckpt.optimizer:
        raise CheckpointError(f"{path!r} was saved without its optimizer's state (by an "
                              f"earlier version); it can be walked and generated from, not "
                              f"resumed")
    params = {k: np.asarray(v, dtype=np.float64) for k, v in ckpt.params.items()}
    run = start(Model(ckpt.config, texts, ckpt.vocab, params), ckpt.optimizer["hyper"]["lr"])
    run.optimizer.state = {k: np.asarray(v, dtype=np.float64)
                           for k, v in ckpt.optimizer_state.items()}
    run.optimizer.step_count = int(ckpt.optimizer.get("step", 0))
    if run.rng is not None and ckpt.rng_state is not None:
        run.rng.bit_generator.state = ckpt.rng_state
    run.history = [float(h["loss"]) for h in ckpt.history]
    return run, int(ckpt.run.get("options", {}).get("steps", len(run.history)))
