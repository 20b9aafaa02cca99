"""`handformer exercises`: a worksheet of questions from one run, with the walk's options.

The run is the walk's (the same sentences, sizes, checkpoint, --backward); the questions read
their answers off its tape. ``--seed`` chooses the cells (two learners, two sheets); the seed of
the initial weights, which the walk calls --seed, is --weights-seed here.
"""

from __future__ import annotations

import click

from .. import pipeline
from ..cli import (
    LanguageChoice,
    Registered,
    check_outputs,
    family_names,
    model_options,
    user_errors,
    write_output,
)
from ..cli_checks import SEED, FileName, Finite, Whole
from ..errors import HandformerError
from ..families.registry import DEFAULT, notes_for
from ..tokenize import TOKENIZERS
from .walk import walk_options


def _weights_seed(func):
    """The config's --seed (the initial weights) renamed --weights-seed: here --seed chooses
    the cells."""
    for param in getattr(func, "__click_params__", []):
        if param.name == "seed":
            param.opts = ["--weights-seed"]
            param.help = "random seed of the initial weights (the walk's --seed)"
    return func


def _kinds(ctx, param, value) -> list[str] | None:
    names = [n.strip() for given in value for n in given.split(",") if n.strip()]
    return names or None


@click.command()
@_weights_seed
@model_options
@click.option("--lang", type=LanguageChoice(), default="en", show_default=True,
              help="language of the worksheet")
@click.option("--backward", is_flag=True, help="also the gradients and one update "
                                               "(questions on ∂L/∂logit and the SGD step)")
@click.option("--lr", type=Finite(-100.0, 100.0), default=None, show_default="0.1",
              help="learning rate of the update, with --backward")
@click.option("--tokenizer", type=click.Choice(TOKENIZERS), default=None,
              help="how sentences split into tokens (as the walk's)")
@click.option("--checkpoint", type=click.Path(dir_okay=False), default=None,
              help="questions on a model trained by `handformer train`")
@click.option("--pretrained", default=None,
              help=f"{notes_for('exercises_pretrained', ', or ')} (as the walk's)")
@click.option("--family", type=Registered(family_names), default=None,
              help=f"the model family  [default: {DEFAULT}]")
@click.option("--count", type=Whole(1, 200), default=12, show_default=True,
              help="how many questions")
@click.option("--kinds", multiple=True, callback=_kinds, metavar="K1,K2",
              help="only these kinds (e.g. score,softmax,loss); default: the level's kinds")
@click.option("--level", type=click.Choice(["easy", "medium", "hard"]), default="medium",
              show_default=True, help="easy: one operation; medium: one step; "
                                      "hard: two steps chained, or a gradient")
@click.option("--seed", "sheet_seed", type=SEED, default=0, show_default=True,
              help="chooses the cells asked (another seed, another sheet)")
@click.option("--no-key", is_flag=True, help="leave the answers out of the file")
@click.option("--format", "fmt", type=click.Choice(["html", "markdown", "json"]),
              default="markdown", show_default=True)
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="with --format html: the printed page's size")
@click.option("-o", "--output", metavar="FILE", type=FileName(), default=None,
              help="write to FILE instead of the terminal")
@user_errors
def exercises(**options):
    """Exercises from your own run: questions with the numbers they need and an answer key."""
    from .. import exercises as worksheet
    from ..exercises.places import placed
    from ..exercises.sheet import make_sheet
    from ..narrate import build

    sheet_options = {k: options.pop(k) for k in ("lang", "count", "kinds", "level", "sheet_seed",
                                                 "no_key", "fmt", "paper", "output")}
    inputs = {"--corpus file": options.get("corpus"), "--weights file": options.get("weights"),
              "--checkpoint file": options.get("checkpoint")}
    check_outputs({"-o": sheet_options["output"]}, inputs)
    tape = pipeline.run(walk_options(options)).tape
    if tape.meta.get("elided"):
        raise HandformerError(f"the exercises ask about any step, and this walk keeps only the "
                              f"steps it shows ({tape.meta['elided']}); drop --pretrained")
    sheet = make_sheet(tape, sheet_options["count"], sheet_options["sheet_seed"],
                       sheet_options["kinds"], sheet_options["level"])
    sheet = placed(sheet, build(tape, sheet_options["lang"]))  # "Step 12", its row and column
    settings = {"seed": sheet_options["sheet_seed"], "level": sheet_options["level"]}
    if sheet_options["fmt"] == "html":
        settings["paper"] = sheet_options["paper"]
    text = worksheet.render(sheet_options["fmt"], sheet, tape.meta, sheet_options["lang"],
                            not sheet_options["no_key"], **settings)
    write_output(text, sheet_options["output"], inputs=inputs)


COMMANDS = [exercises]
