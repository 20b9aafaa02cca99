"""`handformer walk` (the main job) and `handformer render` (a saved tape, not recomputed)."""

from __future__ import annotations

import sys

import click

from .. import pipeline
from ..cli import (
    LanguageChoice,
    Registered,
    check_outputs,
    family_names,
    model_options,
    same_file,
    user_errors,
    write_output,
)
from ..cli_checks import Bounded, FileName, Finite, Whole, bpe_merges_option
from ..errors import HandformerError
from ..families.registry import DEFAULT, notes_for
from ..narrate.select import PANELS
from ..render import registry
from ..render.terminal.ansi import Terminal
from ..textsafe import one_line
from ..tokenize import TOKENIZERS


def _render_options(func):
    func = click.option("--no-pager", is_flag=True,
                        help="print straight to the terminal, without a pager (a walk taller "
                        "than the terminal otherwise goes through `less -R` or "
                        "HANDFORMER_PAGER; never when piped or written to a file)")(func)
    func = click.option("--step", "figure_step", default=None,
                        help="with --format svg|png: the step (tape name) to draw")(func)
    func = click.option("--width", type=Bounded("width"), default=None,
                        help="terminal width in columns")(func)
    func = click.option("-o", "--output", metavar="FILE", type=FileName(), default=None,
                        help="write to FILE instead of the terminal")(func)
    func = click.option("--format", "fmt", type=Registered(registry.names), default="terminal",
                        show_default=True)(func)
    func = click.option("--panels", default=None,
                        help="only these panels, by the number each one carries (\"Step 12\" "
                        "in the terminal, on the page and in Markdown), e.g. 68-75 or 12,14; "
                        "not with --steps")(func)
    func = click.option("--steps", default=None,
                        help="only the panels of these stages, by the tutorial's step "
                        "numbers (1-13; then 14 the loss, 15 the gradients, 16 the "
                        "update), e.g. 7-9 or 12; to pick panels by their own numbers use "
                        "--panels")(func)
    func = click.option("--precision", type=Whole(0, 12), default=3, show_default=True,
                        help="decimals shown (the numbers themselves are float64)")(func)
    func = click.option("--level", type=click.Choice(["overview", "steps", "all"]),
                        default="steps", show_default=True,
                        help="overview: the map, one line per tutorial stage, the recap; steps: every "
                             "step, each explanation once; all: every explanation every time")(func)
    return click.option("--lang", type=LanguageChoice(), default="en",
                        show_default=True, help="language of the narration")(func)


@click.command()
@model_options
@_render_options
@click.option("--backward", is_flag=True, help="also the loss, every gradient and one update")
@click.option("--lr", type=Finite(-100.0, 100.0), default=None, show_default="0.1",
              help="learning rate of the update shown with --backward (negative: a step up "
                   "the loss)")
@click.option("--shards", type=Whole(1, None), default=None, metavar="N",
              help="with --backward: one step's gradient of the corpus's pairs as a whole "
                   "batch and as N data shards averaged (what torchrun does across processes)")
@click.option("--beside-trained", is_flag=True,
              help="also train a copy of the random weights on the corpus, as `handformer "
                   "train` does by default (about a second for the tutorial), and show its "
                   "attention and prediction beside theirs (a --checkpoint walk shows its "
                   f"untrained weights beside it without this flag){notes_for('beside_trained')}")
@click.option("--generate", type=Whole(1, None), default=None, metavar="N",
              help=f"{notes_for('generate', ', ')}: after the prompt (--src; the walk's text is "
                   "then the prompt alone), write N tokens one at a time with a key/value cache, every step "
                   "shown, and check the cache against a pass over the whole sequence")
@click.option("--temperature", type=Finite(lo=0.0), default=None,
              help="with --generate: sample softmax(logits / T); 0 is greedy  [default: 0]")
@click.option("--top-k", type=Whole(1, None), default=None,
              help="with --generate: sample only from the k most likely tokens")
@click.option("--top-p", type=Finite(0.0, 1.0, lo_open=True), default=None,
              help="with --generate: sample only from the fewest most likely tokens whose "
                   "probabilities reach p, in (0, 1]")
@click.option("--save-weights", metavar="FILE", type=FileName(), default=None,
              help="write the weights as .safetensors (torch names: docs/weights.md)"
                   f"{notes_for('save_weights')}")
@click.option("--save-grads", metavar="FILE", type=FileName(), default=None,
              help="with --backward: every parameter's gradient ∂L/∂θ as .safetensors, under "
                   "the names --save-weights writes (any model size; no tape JSON)")
@click.option("--tokenizer", type=click.Choice(TOKENIZERS), default=None,
              help="how sentences split into tokens: the tutorial's rule, English words with "
              "punctuation split off, Chinese characters, jieba words, or byte-level BPE "
              f"learnt from the corpus{notes_for('tokenizer')}  [default: tutorial]")
@bpe_merges_option
@click.option("--checkpoint", type=click.Path(dir_okay=False), default=None,
              help="walk a model trained by `handformer train` (its config and vocabulary)")
@click.option("--pretrained", default=None,
              help=f"walk a pretrained model: {notes_for('pretrained', ', or ')}")
@click.option("--dtype", type=click.Choice(["float32", "float64"]), default=None,
              help=f"with --pretrained {notes_for('quantized')}: its dequantized weights in "
                   "float32, or float64 for checking  [default: float32]")
@click.option("--blocks-shown", default=None,
              help=f"with --pretrained {notes_for('quantized')}: the blocks shown in full, e.g. "
                   "0,29 (the others keep a one-line summary)  [default: 0]")
@click.option("--family", type=Registered(family_names), default=None,
              help="the model family to walk (its folder under handformer/families)  "
                   f"[default: {DEFAULT}]")
@user_errors
def walk(**options):
    """Compute the Transformer step by step and explain every step."""
    render = {k: options.pop(k) for k in ("lang", "precision", "steps", "fmt", "output",
                                          "width", "figure_step", "level")}
    render["steps"] = selection(render["steps"], options.pop("panels"))
    inputs = {"--corpus file": options.get("corpus"), "--weights file": options.get("weights"),
              "--pretrained folder": options.get("pretrained")}
    save, grads = options.pop("save_weights"), options.pop("save_grads")
    paged = not options.pop("no_pager")
    check_outputs({"-o": render["output"], "--save-weights": None if is_folder(save) else save,
                   "--save-grads": grads}, inputs)  # a folder: a Llama model's (checked there)
    if is_folder(save) and options.get("weights") and same_file(save, options["weights"]):
        raise HandformerError(f"--save-weights names the --weights folder this command reads "
                              f"({one_line(save)}); give another folder")
    if options.get("pretrained") and save:
        raise HandformerError("--pretrained reads its sizes, weights and vocabulary from the "
                              "model folder and writes no weights; drop --save-weights")
    refuse_pretrained_only(options)
    if save:
        refuse_without_export(pipeline.family_for(options))
    if grads:
        refuse_grads_without(options, pipeline.family_for(options))
    done = pipeline.run(walk_options(options), before_backward=_json_fits(render["fmt"]))
    for line in done.notes:
        click.echo(line, err=True)
    data = rendered(done.tape, **render)  # every check passed and every byte computed: now write
    if save:
        done.family.save_weights(save, done.model)
        click.echo(one_line(f"wrote {save}"), err=True)
    if grads:
        save_grads(grads, done)
        click.echo(one_line(f"wrote {grads}"), err=True)
    terminal = render["fmt"] == "terminal"
    write_output(data, render["output"], inputs=inputs, styled=terminal, pager=terminal and paged)


def refuse_pretrained_only(options: dict) -> None:
    """--dtype and --blocks-shown choose how a known LLM (a family's: notes_for) is read and
    shown."""
    given = [f for f, k in (("--dtype", "dtype"), ("--blocks-shown", "blocks_shown"))
             if options.get(k) is not None]
    if given and not options.get("pretrained"):
        raise HandformerError(f"{given[0]} goes with --pretrained {notes_for('quantized')} (a "
                              f"model read from its 4-bit file); drop it")


def is_folder(path) -> bool:
    """A folder --save-weights may name (a Llama model's, checked when it is written)."""
    from pathlib import Path

    return path is not None and (str(path).endswith("/") or Path(path).is_dir())


def refuse_without_export(family) -> None:
    if family.save_weights is None:
        raise HandformerError(f"the {family.name} family writes no weights file; drop "
                              "--save-weights")


def refuse_grads_without(options: dict, family) -> None:
    if not options.get("backward"):
        raise HandformerError("--save-grads writes the gradients of the backward pass: add "
                              "--backward")
    if family.export_names is None:
        raise HandformerError(f"the {family.name} family names no weights for export; drop "
                              "--save-grads")


def save_grads(path: str, done) -> None:
    """Every parameter's gradient, read straight off the tape, under its exported name."""
    from ..interop.weights import write_state

    tape = done.tape
    grads = {name: tape.grads[name] for name in tape.params if name in tape.grads}
    meta = {"format": "handformer.grads/1", "family": done.family.name,
            "loss": repr(float(tape["loss"]))}
    write_state(path, done.family.export_names(grads, done.model), meta)


def selection(steps: str | None, panels: str | None) -> str | None:
    """--steps (the tutorial's stages) or --panels (the panels' own numbers) as one selection
    for narrate.select ("panels:68-75" for the second)."""
    if steps and panels:
        raise HandformerError("--steps and --panels both choose panels: give one of them")
    return f"{PANELS}{panels}" if panels else steps


def walk_options(options: dict) -> dict:
    """The command line's options as the pipeline reads them (--layers is a config field)."""
    return {k: v for k, v in options.items()
            if not (k in ("pretrained", "dtype", "blocks_shown") and v is None)}


def _json_fits(fmt: str):
    """For --format json: refuse, after the forward pass and before the reverse pass spends the
    time and memory, a tape whose gradients would not fit the tape file's limit."""
    if fmt != "json":
        return None
    from ..files.tape_json import check_backward_fits

    return check_backward_fits


def rendered(tape, lang="en", precision=3, steps=None, fmt="terminal", output=None,
             width=None, figure_step=None, level="steps") -> str | bytes:
    """A tape drawn in the chosen format (for the terminal, or for the file --output)."""
    renderer = registry.get(fmt)
    if renderer.binary and not output:
        raise HandformerError(f"--format {fmt} writes a file: give -o FILE.{fmt}")
    terminal = None if output else Terminal.detect(sys.stdout, width)
    options = registry.Options(lang, precision, steps, width, figure_step, terminal, level)
    return renderer.render(tape, options)


@click.command(name="render")
@click.argument("tape_file", type=click.Path(dir_okay=False))
@_render_options
@user_errors
def render_command(tape_file, **render):
    """Render a tape saved with `walk --format json` without recomputing it."""
    from ..files.io import read_text
    from ..files.tape_json import TapeFormatError, loads

    render["steps"] = selection(render["steps"], render.pop("panels"))
    paged = not render.pop("no_pager")
    inputs = {"tape": tape_file}
    check_outputs({"-o": render["output"]}, inputs)
    tape = loads(read_text(tape_file, "tape", TapeFormatError, limit="tape_mib"))
    try:
        data = rendered(tape, **render)
    except (KeyError, IndexError, TypeError, ValueError) as err:
        # The tape's fields are well-formed (tape_schema) but it lacks a step or a sentence
        # its narration reads: a tape cut short, or one put together by hand.
        raise TapeFormatError(f"the tape {tape_file!r} does not hold what its narration needs "
                              f"({type(err).__name__}: {err})") from None
    terminal = render["fmt"] == "terminal"
    write_output(data, render["output"], inputs=inputs, styled=terminal, pager=terminal and paged)


COMMANDS = [walk, render_command]
