"""Epochs: shuffle, batch, forward, backward, clip, update; metrics per epoch; checkpoints.

The model's own parts (its initial weights, one batch's loss and gradients, its greedy
translations for BLEU) are the bindings of the family that learns from sentence pairs
(registry.for_pairs().pairs): this loop names no family.

Everything random (the shuffle, dropout) draws from one generator seeded by the config's seed,
and its state is saved with each checkpoint: resuming after epoch k replays epochs k+1 … exactly
as an uninterrupted run would, so the final weights are identical.
"""

from __future__ import annotations

import contextlib
import copy
import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from ..errors import HandformerError
from ..families.registry import for_pairs
from ..schema import SchemaError
from . import budget, finite
from . import checkpoint as ckpt_io
from .checkpoint import Checkpoint
from .data import batches, encode_pairs, pairs_vocab, sides_vocab, split_parts
from .memory import keep_freed_memory
from .optim import clip_grad_norm, make_optimizer, resolve_schedule, warmup_lr
from .options import Options
from .saving import Saver


@dataclass
class Run:
    """The state of a run: what a checkpoint holds, live."""

    config: Any  # the config of the family that learns from pairs (registry.for_pairs)
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
    test: list = field(default_factory=list)
    texts: dict = field(default_factory=dict)  # "valid"/"test": the (source, target) strings
    engine: object = None  # None: the NumPy engine; else an object with step(run, batch), sync
    best: float = math.inf  # the best validation score so far (see merit: lower is better)
    guard: object = None  # None, or a context manager factory entered around each step and
    # each evaluation (the web app's memory budget: server/jobs.py)
    clock: object = None  # budget.Clock of a fresh run with --time-budget, else None
    ended: bool = False  # the time budget or the fitted schedule ended training


def guarded(run: Run):
    """The run's guard entered anew (nothing when it has none)."""
    return run.guard() if run.guard else contextlib.nullcontext()


def _vocab(options: Options, pairs):
    if options.target_bpe:
        from .target_bpe import sides_with_bpe_target

        return sides_with_bpe_target(pairs, options)
    make = pairs_vocab if options.shared_vocab else sides_vocab
    return make(pairs, options.tokenizer, options.vocab_size, options.min_count)


def _run_vocab(options: Options, pairs, parts):
    """The vocabulary of the training pairs only when unknown words can read <unk> (any
    tokenizer but the tutorial's), so held-out words are not in it; else of every pair."""
    if options.tokenizer == "tutorial":
        return _vocab(options, pairs)
    return _vocab(options, [pairs[i] for i in parts[0]])


def _split(run: Run, pairs, parts) -> Run:
    """Train / validation / test pairs, encoded (held-out words unknown to the vocabulary read
    <unk>)."""
    encoded = encode_pairs(run.vocab, pairs, run.config.max_len)
    run.train, run.valid, run.test = ([encoded[i] for i in part] for part in parts)
    run.texts = {"valid": [pairs[i] for i in parts[1]], "test": [pairs[i] for i in parts[2]]}
    return run


def start(cfg, pairs, options: Options, source: str = "default") -> Run:
    """A fresh run: vocabulary, initial weights (cfg.seed), optimizer, held-out splits."""
    pairs = pairs[:options.limit] if options.limit else pairs
    parts = split_parts(pairs, cfg.seed, source)
    options = resolve_schedule(options, cfg.d_model, len(parts[0]))
    options.check()
    vocab = _run_vocab(options, pairs, parts)
    params = for_pairs().pairs.first_params(cfg, vocab, options)
    opt = make_optimizer(options.optimizer, params, options.lr, options.momentum)
    run = Run(cfg, options, vocab, params, opt, np.random.default_rng(cfg.seed), [], [], 0, [])
    run.clock = budget.Clock(options.time_budget) if options.time_budget else None
    return _split(run, pairs, parts)


def resume(ckpt: Checkpoint, pairs, epochs: int | None = None) -> Run:
    """Continue a saved run exactly where it stopped (same pairs, options, random state)."""
    try:
        options = Options.from_dict(ckpt.run.get("options", {}))
    except SchemaError as err:
        raise HandformerError(f"the checkpoint's training options are unreadable: {err}") from None
    if epochs is not None:
        options.epochs = epochs
    options.check()
    pairs = pairs[:options.limit] if options.limit else pairs
    cfg, vocab = ckpt.config, ckpt.vocab
    parts = split_parts(pairs, cfg.seed, ckpt.run.get("pairs", "default"))
    if _run_vocab(options, pairs, parts) != vocab:
        raise HandformerError("these pairs are not the ones the checkpoint was trained on "
                              "(their vocabulary differs); give the same --pairs FILE")
    opt = make_optimizer(options.optimizer, ckpt.params, options.lr, options.momentum)
    opt.state, opt.step_count = dict(ckpt.optimizer_state), ckpt.optimizer.get("step", 0)
    rng = np.random.default_rng()
    rng.bit_generator.state = ckpt.rng_state
    run = Run(cfg, options, vocab, ckpt.params, opt, rng, [], [], ckpt.epoch,
              list(ckpt.history))
    run.best = min((m for m in map(lambda h: merit(h, options), run.history) if m is not None),
                   default=math.inf)
    return _split(run, pairs, parts)


def held_out(ckpt: Checkpoint, pairs, split: str) -> list[tuple[str, str]]:
    """The text pairs of a checkpoint's ``split`` ('train', 'valid' or 'test'), cut as its run
    cut them (same limit, seed and source)."""
    options = Options.from_dict(ckpt.run.get("options", {}))
    pairs = pairs[:options.limit] if options.limit else pairs
    parts = split_parts(pairs, ckpt.config.seed, ckpt.run.get("pairs", "default"))
    index = ("train", "valid", "test").index(split)
    return [pairs[i] for i in parts[index]]


def snapshot(run: Run, pairs_source: str) -> Checkpoint:
    """A copy of the run's state now (safe to save later while training goes on)."""
    opt = run.optimizer
    return Checkpoint(
        run.config, run.vocab, {k: v.copy() for k, v in run.params.items()},
        {"name": opt.name, "hyper": opt.hyper(), "step": opt.step_count},
        {k: v.copy() for k, v in opt.state.items()}, run.epoch,
        copy.deepcopy(run.rng.bit_generator.state), list(run.history),
        {"options": asdict(run.options), "pairs": pairs_source})


def step_lr(run: Run) -> float | None:
    """The learning rate of the next step: the paper's schedule, or None (the optimizer's)."""
    o = run.options
    if o.schedule != "warmup":
        return None
    if o.total_steps is not None:
        return budget.fitted_lr(run.optimizer.step_count + 1, o, run.config.d_model)
    return warmup_lr(run.optimizer.step_count + 1, run.config.d_model, o.warmup, o.lr)


def numpy_step(run: Run, batch):
    """Forward, backward, clip and update on the NumPy engine."""
    r = for_pairs().pairs.batch_loss(run.params, run.config, batch, run.rng)
    finite.check_batch(run.epoch + 1, r.loss, r.grads)
    if run.options.clip is not None:
        clip_grad_norm(r.grads, run.options.clip)
    run.optimizer.step(r.grads, step_lr(run))
    return r


def train_epoch(run: Run, on_batch=None) -> dict:
    """One pass over the training pairs; returns the epoch's token-weighted loss and accuracy."""
    o = run.options
    step = run.engine.step if run.engine else numpy_step
    loss = correct = tokens = exact = 0
    for batch in batches(run.vocab, run.train, o.batch_size, run.rng, o.dtype, o.by_length):
        with guarded(run):
            r = step(run, batch)
        loss += r.loss * r.tokens
        correct, tokens, exact = correct + r.correct, tokens + r.tokens, exact + r.exact
        if on_batch:
            on_batch(len(batch.src), r.tokens)
        if budget.after_step(run, _agreed):
            run.ended = True
            break
    if run.engine:
        run.engine.sync(run)
    run.epoch += 1
    return {"epoch": run.epoch, "loss": loss / tokens, "accuracy": correct / tokens}


def evaluate(params, cfg, vocab, encoded, batch_size: int = 64, dtype="float64") -> dict:
    """Loss, perplexity, token accuracy and exact match under teacher forcing, no dropout."""
    loss = correct = tokens = exact = 0
    batch_loss = for_pairs().pairs.batch_loss
    for batch in batches(vocab, encoded, batch_size, None, dtype):
        r = batch_loss(params, cfg, batch, None, backward=False)
        loss += r.loss * r.tokens
        correct, tokens, exact = correct + r.correct, tokens + r.tokens, exact + r.exact
    mean = loss / tokens
    return {"loss": mean, "perplexity": float(np.exp(min(mean, 700.0))),
            "accuracy": correct / tokens, "exact": exact / len(encoded), "pairs": len(encoded),
            "tokens": tokens}


def fit(run: Run, save_path=None, pairs_source="default", on_batch=None, on_epoch=None,
        save_interval: float = 1.0, keep_freed: bool = True) -> Run:
    """Train to ``options.epochs``; checkpoint (atomically) at most every ``save_interval`` s,
    always at the end (also when no epoch was left to run, so --save names a file that
    exists), and on Ctrl-C the last completed epoch, so nothing finished is lost.
    ``run.saved_epoch`` says which epoch the file at ``save_path`` holds (None: none yet).
    ``keep_freed``: keep freed memory in the process (train/memory.py); a server, whose
    threads share one memory budget, says False, so each thread's freed steps go back."""
    if keep_freed:
        keep_freed_memory()
    saver = Saver(save_path, save_interval) if save_path else None
    stop = _agreed(run, stopped_early(run)) or budget.schedule_done(run)
    if run.clock:
        run.clock.steps_begin(run.optimizer.step_count)
    try:
        while run.epoch < run.options.epochs and not stop:
            stats = train_epoch(run, on_batch)
            finite.check_params(run.epoch, run.params)
            stats |= validate(run, pairs_source)
            if not run.ended:  # the schedule's end, from the epoch's measured time
                budget.refit(run)
                run.ended = budget.schedule_done(run)  # no time left: it ends at this step
            run.history.append(stats)
            stop = _agreed(run, stopped_early(run)) or run.ended
            if save_path and run.options.patience and merit(stats, run.options) == run.best:
                ckpt_io.save(best_path(save_path), snapshot(run, pairs_source))
            if saver:
                last = run.epoch == run.options.epochs or stop
                _saved(run, saver, snapshot(run, pairs_source), last)
            if on_epoch:
                on_epoch(stats)
    except finite.NonFiniteError as err:
        _saved(run, saver)
        raise finite.stopped(err, save_path, run.saved_epoch, run.options.lr) from None
    except KeyboardInterrupt:
        _saved(run, saver)
        raise
    if saver and run.saved_epoch != run.epoch:
        _saved(run, saver, snapshot(run, pairs_source), last=True)
    return run


def _saved(run: Run, saver: Saver | None, ckpt: Checkpoint | None = None,
           last: bool = False) -> None:
    """Hand the saver an epoch's snapshot (or, with none, write the one it holds back) and
    note the epoch the file holds."""
    if saver is None:
        return
    if ckpt is None:
        saver.flush()
    else:
        saver.epoch_done(ckpt, last)
    if saver.saved_epoch is not None:
        run.saved_epoch = saver.saved_epoch


def _agreed(run: Run, stop: bool) -> bool:
    """Under torchrun only rank 0 validates, so its decision to stop is everyone's."""
    share = getattr(run.engine, "share_flag", None)
    return share(stop) if share else stop


def validate(run: Run, pairs_source="default") -> dict:
    """Validation loss and accuracy, and (if asked) BLEU (cased), chrF2 and lower-cased BLEU on
    the first ``bleu_pairs`` validation pairs (a fixed subset, so an epoch's evaluation stays
    cheap); remembers the best score (early stopping watches the cased BLEU).
    Under torchrun only rank 0 validates (the others would compute the same numbers)."""
    if not run.valid or getattr(run.engine, "rank", 0):
        return {}
    with guarded(run):
        v = evaluate(run.params, run.config, run.vocab, run.valid, dtype=run.options.dtype)
    stats = {"val_loss": v["loss"], "val_accuracy": v["accuracy"]}
    if run.options.bleu:
        from .bleu import scores_of

        subset = run.texts["valid"][:run.options.bleu_pairs]
        stats |= scores_of(run.params, run.config, run.vocab, subset,
                           pairs_source).as_stats("val_")
    run.best = min(run.best, merit(stats, run.options))
    return stats


def merit(stats: dict, options: Options) -> float | None:
    """The validation score early stopping watches, as lower-is-better: the loss, or −BLEU
    (None: the epoch has none)."""
    if options.stop_on == "bleu":
        return -stats["val_bleu"] if "val_bleu" in stats else None
    return stats.get("val_loss")


def stopped_early(run: Run) -> bool:
    """Early stopping: ``patience`` epochs have passed since the best validation score."""
    p = run.options.patience
    if not p or not run.valid:
        return False
    scores = [m for m in (merit(h, run.options) for h in run.history) if m is not None]
    return len(scores) > p and min(scores[-p:]) > min(scores)


def best_path(save_path) -> str:
    """run.ckpt → run.best.ckpt: where the weights with the best validation score are kept."""
    from pathlib import Path

    path = Path(save_path)
    return str(path.with_name(f"{path.stem}.best{path.suffix or '.ckpt'}"))
