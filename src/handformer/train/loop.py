"""Epochs: shuffle, batch, forward, backward, clip, update; metrics per epoch; checkpoints.

Everything random (the shuffle, dropout) draws from one generator seeded by the config's seed,
and its state is saved with each checkpoint: resuming after epoch k replays epochs k+1 … exactly
as an uninterrupted run would, so the final weights are identical.
"""

from __future__ import annotations

import copy
import math
import time
import typing
from dataclasses import asdict, dataclass

import numpy as np

from ..config import Config, HandformerError
from ..model import init_params
from ..schema import SchemaError, typed
from . import checkpoint as ckpt_io
from . import finite
from .checkpoint import Checkpoint
from .data import batches, encode_pairs, pairs_vocab, split
from .loss import batch_loss
from .memory import keep_freed_memory
from .optim import clip_grad_norm, make_optimizer, warmup_lr

MAX_LR = 100.0


@dataclass
class Options:
    """How to train (saved in the checkpoint so that --resume continues the same run)."""

    epochs: int = 200
    lr: float = 0.01
    optimizer: str = "adam"
    momentum: float = 0.9
    batch_size: int = 16
    schedule: str = "constant"  # or "warmup": the paper's, lr is then its factor
    warmup: int = 4000
    clip: float | None = None
    dtype: str = "float64"

    def check(self) -> None:
        if self.epochs < 1 or self.batch_size < 1 or self.warmup < 1:
            raise HandformerError("epochs, batch_size and warmup must be at least 1")
        if self.schedule not in ("constant", "warmup"):
            raise HandformerError(f"schedule must be constant or warmup, got {self.schedule!r}")
        if self.dtype not in ("float64", "float32"):
            raise HandformerError(f"dtype must be float64 or float32, got {self.dtype!r}")
        if self.clip is not None and not 0 < self.clip < math.inf:
            raise HandformerError(f"clip must be a positive number, got {self.clip}")
        if not 0 < self.lr <= MAX_LR:
            raise HandformerError(f"lr must be a positive number at most {MAX_LR} (far above "
                                  f"any rate that trains), got {self.lr}")
        if self.optimizer not in ("adam", "sgd"):
            raise HandformerError(f"optimizer must be adam or sgd, got {self.optimizer!r}")
        if not 0 <= self.momentum < 1:
            raise HandformerError(f"momentum must be in [0, 1), got {self.momentum}")

    @classmethod
    def from_dict(cls, data: dict) -> Options:
        """Options saved in a checkpoint, each field type-checked (the file may be crafted)."""
        hints = typing.get_type_hints(cls)
        unknown = sorted(set(data) - set(hints))
        if unknown:
            raise SchemaError(f"run.options has unknown field(s): {', '.join(unknown)}")
        return cls(**{k: typed(v, hints[k], f"run.options.{k}") for k, v in data.items()})


@dataclass
class Run:
    """The state of a run: what a checkpoint holds, live."""

    config: Config
    options: Options
    vocab: object
    params: dict
    optimizer: object
    rng: np.random.Generator
    train: list
    valid: list
    epoch: int = 0
    history: list | None = None
    saved_epoch: int | None = None  # the epoch the --save file holds, once this run wrote it


def start(cfg: Config, pairs, options: Options) -> Run:
    """A fresh run: vocabulary, initial weights (cfg.seed), optimizer, validation split."""
    options.check()
    vocab = pairs_vocab(pairs)
    params = init_params(cfg, len(vocab), options.dtype)
    encoded = encode_pairs(vocab, pairs, cfg.max_len)
    train, valid = split(encoded, np.random.default_rng([cfg.seed, 1]))
    opt = make_optimizer(options.optimizer, params, options.lr, options.momentum)
    return Run(cfg, options, vocab, params, opt, np.random.default_rng(cfg.seed), train, valid,
               0, [])


def resume(ckpt: Checkpoint, pairs, epochs: int | None = None) -> Run:
    """Continue a saved run exactly where it stopped (same pairs, options, random state)."""
    try:
        options = Options.from_dict(ckpt.run.get("options", {}))
    except SchemaError as err:
        raise HandformerError(f"the checkpoint's training options are unreadable: {err}") from None
    if epochs is not None:
        options.epochs = epochs
    options.check()
    cfg, vocab = ckpt.config, ckpt.vocab
    if pairs_vocab(pairs).tokens != vocab.tokens:
        raise HandformerError("these pairs are not the ones the checkpoint was trained on "
                              "(their vocabulary differs); give the same --pairs FILE")
    encoded = encode_pairs(vocab, pairs, cfg.max_len)
    train, valid = split(encoded, np.random.default_rng([cfg.seed, 1]))
    opt = make_optimizer(options.optimizer, ckpt.params, options.lr, options.momentum)
    opt.state, opt.step_count = dict(ckpt.optimizer_state), ckpt.optimizer.get("step", 0)
    rng = np.random.default_rng()
    rng.bit_generator.state = ckpt.rng_state
    return Run(cfg, options, vocab, ckpt.params, opt, rng, train, valid, ckpt.epoch,
               list(ckpt.history))


def snapshot(run: Run, pairs_source: str) -> Checkpoint:
    """A copy of the run's state now (safe to save later while training goes on)."""
    opt = run.optimizer
    return Checkpoint(
        run.config, run.vocab, {k: v.copy() for k, v in run.params.items()},
        {"name": opt.name, "hyper": opt.hyper(), "step": opt.step_count},
        {k: v.copy() for k, v in opt.state.items()}, run.epoch,
        copy.deepcopy(run.rng.bit_generator.state), list(run.history),
        {"options": asdict(run.options), "pairs": pairs_source})


def train_epoch(run: Run, on_batch=None) -> dict:
    """One pass over the training pairs; returns the epoch's token-weighted loss and accuracy."""
    o = run.options
    loss = correct = tokens = exact = 0
    for batch in batches(run.vocab, run.train, o.batch_size, run.rng, o.dtype):
        r = batch_loss(run.params, run.config, batch, run.rng)
        finite.check_batch(run.epoch + 1, r.loss, r.grads)
        if o.clip is not None:
            clip_grad_norm(r.grads, o.clip)
        lr = None
        if o.schedule == "warmup":
            lr = warmup_lr(run.optimizer.step_count + 1, run.config.d_model, o.warmup, o.lr)
        run.optimizer.step(r.grads, lr)
        loss += r.loss * r.tokens
        correct, tokens, exact = correct + r.correct, tokens + r.tokens, exact + r.exact
        if on_batch:
            on_batch(len(batch.src))
    run.epoch += 1
    return {"epoch": run.epoch, "loss": loss / tokens, "accuracy": correct / tokens}


def evaluate(params, cfg: Config, vocab, encoded, batch_size: int = 64, dtype="float64") -> dict:
    """Loss, perplexity, token accuracy and exact match under teacher forcing, no dropout."""
    loss = correct = tokens = exact = 0
    for batch in batches(vocab, encoded, batch_size, None, dtype):
        r = batch_loss(params, cfg, batch, None, backward=False)
        loss += r.loss * r.tokens
        correct, tokens, exact = correct + r.correct, tokens + r.tokens, exact + r.exact
    mean = loss / tokens
    return {"loss": mean, "perplexity": float(np.exp(min(mean, 700.0))),
            "accuracy": correct / tokens, "exact": exact / len(encoded), "pairs": len(encoded),
            "tokens": tokens}


def fit(run: Run, save_path=None, pairs_source="default", on_batch=None, on_epoch=None,
        save_interval: float = 1.0) -> Run:
    """Train to ``options.epochs``; checkpoint (atomically) at most every ``save_interval`` s,
    always at the end (also when no epoch was left to run, so --save names a file that
    exists), and on Ctrl-C the last completed epoch, so nothing finished is lost.
    ``run.saved_epoch`` says which epoch the file at ``save_path`` holds (None: none yet)."""
    keep_freed_memory()
    last_save, pending = time.monotonic(), None
    try:
        while run.epoch < run.options.epochs:
            stats = train_epoch(run, on_batch)
            finite.check_params(run.epoch, run.params)
            if run.valid:
                v = evaluate(run.params, run.config, run.vocab, run.valid, dtype=run.options.dtype)
                stats |= {"val_loss": v["loss"], "val_accuracy": v["accuracy"]}
            run.history.append(stats)
            pending = snapshot(run, pairs_source) if save_path else None
            if pending and (time.monotonic() - last_save >= save_interval
                            or run.epoch == run.options.epochs):
                _save(run, save_path, pending)
                last_save, pending = time.monotonic(), None
            if on_epoch:
                on_epoch(stats)
    except finite.NonFiniteError as err:
        if pending is not None:
            _save(run, save_path, pending)
        raise finite.stopped(err, save_path, run.saved_epoch, run.options.lr) from None
    except KeyboardInterrupt:
        if pending is not None:
            _save(run, save_path, pending)
        raise
    if save_path and run.saved_epoch != run.epoch:
        _save(run, save_path, snapshot(run, pairs_source))
    return run


def _save(run: Run, path, ckpt: Checkpoint) -> None:
    ckpt_io.save(path, ckpt)
    run.saved_epoch = ckpt.epoch
