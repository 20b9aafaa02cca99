"""`handformer generate` and `handformer train --family gpt`: the decoder-only model trained on
its texts (the tutorial's three lines unless --corpus; a few seconds, the same every run),
saved as a checkpoint, and continuing a prompt one token at a time."""

from __future__ import annotations

import math
import os

import click
import numpy as np

from ...cli import check_outputs, user_errors
from ...cli_checks import SEED, Finite, Whole
from ...errors import HandformerError
from ...textsafe import one_line, shown

DEFAULT_CKPT = "handformer.gpt.ckpt"
DEFAULT_STEPS, DEFAULT_LR = 400, 0.02
# What `train --family gpt` reads of the train command's options; any other given is refused.
TRAIN_TAKES = {"epochs", "lr", "save", "corpus", "tokenizer", "quiet", "lang", "plot", "family",
               "preset", "d_model", "heads", "d_k", "d_v", "d_ff", "layers", "norm",
               "final_norm", "tie_embeddings", "attn_bias", "ln_eps", "max_len", "dropout",
               "seed"}


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
              help="0: greedy (the most likely token); above 0: sample p^(1/T)")
@click.option("--top-k", type=Whole(1, None), default=None,
              help="sample only from the k most likely tokens")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="seed of the initial weights and of the sampling")
@click.option("--max-new", type=Whole(1, 1000), default=20, show_default=True,
              help="most tokens to add")
@click.option("--corpus", type=click.Path(dir_okay=False), default=None,
              help="without a checkpoint: UTF-8 file, one text per line (default: the "
                   "tutorial's three lines)")
@user_errors
def generate(prompt, checkpoint, train_steps, lr, temperature, top_k, seed, max_new, corpus):
    """Continue PROMPT with the decoder-only (GPT-style) model of `walk --family gpt`."""
    from .train import generate as continue_text

    model = _model(checkpoint, train_steps, lr, seed, corpus, prompt)
    out = continue_text(model, prompt, max_new, temperature, top_k, seed)
    click.echo(shown(" ".join(out.tokens)))  # the corpus's words: any text


def _model(checkpoint, train_steps, lr, seed, corpus, prompt: str):
    """The checkpoint's model (given, or ./handformer.gpt.ckpt), or one trained here; the
    prompt is checked against its vocabulary and length before any training."""
    if checkpoint is None and train_steps is None and lr is None and corpus is None \
            and os.path.isfile(DEFAULT_CKPT):
        checkpoint = DEFAULT_CKPT
        click.echo(f"using {DEFAULT_CKPT} (give --train-steps to train a fresh model here)",
                   err=True)
    if checkpoint is not None:
        given = [f for f, v in (("--train-steps", train_steps), ("--lr", lr),
                                ("--corpus", corpus)) if v is not None]
        if given:
            raise HandformerError(f"--checkpoint is a trained model; {given[0]} trains a new "
                                  f"one: give one or the other")
        from .saved import load

        return _check_prompt(load(checkpoint), prompt)
    from .run import prepare

    model = _check_prompt(prepare({"seed": seed, "corpus": corpus}), prompt)
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
    """`handformer train --family gpt`: Adam on the texts, then the checkpoint (and the
    curve) written; the options of the encoder-decoder's training are refused by name
    (``given``: each option the user gave → its flag)."""
    from .run import prepare
    from .saved import save

    refused = sorted(set(given) - TRAIN_TAKES)
    if refused:
        raise HandformerError(f"train --family gpt does not take {given[refused[0]]} (it trains the decoder-only model on --corpus lines with Adam: "
                              f"--epochs steps at --lr)")
    path = options["save"] or DEFAULT_CKPT
    check_outputs({"--save": path, "--plot": options["plot"]},
                  {"--corpus file": options["corpus"]})
    config = {k: options.get(k) for k in TRAIN_TAKES - {"epochs", "lr", "save", "quiet", "lang",
                                                       "plot", "family"}}
    model = prepare(config)
    steps = DEFAULT_STEPS if options["epochs"] is None else options["epochs"]
    if steps < 1:
        raise HandformerError(f"--epochs must be at least 1, got {steps}")
    lr = DEFAULT_LR if options["lr"] is None else options["lr"]
    history = _fit(model, steps, lr, options["quiet"])
    save(path, model, history, lr)
    click.echo(f"wrote {one_line(path)}; continue a text with: handformer generate "
               f"--checkpoint {one_line(path)} "
               f"\"when you play the game of thrones\"", err=True)
    if options["plot"]:
        from ...cli import write_output
        from ...render.figure import loss_curve, plot_format

        write_output(loss_curve([{"loss": x} for x in history], plot_format(options["plot"]),
                                options["lang"]), options["plot"])


COMMANDS = [generate]
