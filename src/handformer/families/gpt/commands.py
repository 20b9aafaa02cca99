"""`handformer generate`: the decoder-only model trained on the tutorial's three lines (a few
seconds, the same every run), then continuing a prompt one token at a time."""

from __future__ import annotations

import math

import click
import numpy as np

from ...cli import user_errors
from ...cli_checks import Finite
from ...errors import HandformerError


@click.command()
@click.argument("prompt")
@click.option("--train-steps", type=click.IntRange(0, 100_000), default=400, show_default=True,
              help="Adam steps on the dataset's lines before generating (0: untrained)")
@click.option("--lr", type=Finite(lo=0.0), default=0.02, show_default=True,
              help="Adam's learning rate")
@click.option("--temperature", type=Finite(lo=0.0), default=0.0, show_default=True,
              help="0: greedy (the most likely token); above 0: sample p^(1/T)")
@click.option("--top-k", type=click.IntRange(1, None), default=None,
              help="sample only from the k most likely tokens")
@click.option("--seed", type=click.IntRange(0, None), default=0, show_default=True,
              help="seed of the initial weights and of the sampling")
@click.option("--max-new", type=click.IntRange(1, 1000), default=20, show_default=True,
              help="most tokens to add")
@click.option("--corpus", type=click.Path(dir_okay=False), default=None,
              help="UTF-8 file, one text per line (default: the tutorial's three lines)")
@user_errors
def generate(prompt, train_steps, lr, temperature, top_k, seed, max_new, corpus):
    """Continue PROMPT with the decoder-only (GPT-style) model of `walk --family gpt`."""
    from .run import prepare
    from .train import fit
    from .train import generate as continue_text

    model = prepare({"seed": seed, "corpus": corpus})
    model.vocab.encode(prompt, "prompt")  # an unknown word is refused before any training
    with np.errstate(over="ignore", invalid="ignore"):  # a diverging run: one line below
        history = fit(model, train_steps, lr) if train_steps else []
    if history and not math.isfinite(history[-1]):
        raise HandformerError(f"training diverged: the loss is {history[-1]} after "
                              f"{train_steps} Adam steps; the learning rate {lr:g} is too high")
    if history:
        click.echo(f"trained {train_steps} Adam steps on {len(model.dataset)} lines: loss "
                   f"{history[0]:.3f} → {history[-1]:.3f}", err=True)
    out = continue_text(model, prompt, max_new, temperature, top_k, seed)
    click.echo(" ".join(out.tokens))


COMMANDS = [generate]
