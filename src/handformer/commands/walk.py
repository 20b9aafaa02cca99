"""`handformer walk` (the main job) and `handformer render` (a saved tape, not recomputed)."""

from __future__ import annotations

import click

from ..cli import LanguageChoice, config_from_options, model_options, user_errors, write_output
from ..config import HandformerError
from ..tokenize import TOKENIZERS

FORMATS = ["terminal", "json", "markdown", "html", "svg", "png", "xlsx"]


def _render_options(func):
    func = click.option("--step", "figure_step", default=None,
                        help="with --format svg|png: the step (tape name) to draw")(func)
    func = click.option("--width", type=int, default=None, help="terminal width in columns")(func)
    func = click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
                        help="write to FILE instead of the terminal")(func)
    func = click.option("--format", "fmt", type=click.Choice(FORMATS), default="terminal",
                        show_default=True)(func)
    func = click.option("--steps", default=None,
                        help="only these tutorial steps, e.g. 7-9 or 12")(func)
    func = click.option("--precision", type=click.IntRange(0, 12), default=3, show_default=True,
                        help="decimals shown (the numbers themselves are float64)")(func)
    return click.option("--lang", type=LanguageChoice(), default="en",
                        show_default=True, help="language of the narration")(func)


@click.command()
@model_options
@_render_options
@click.option("--backward", is_flag=True, help="also the loss, every gradient and one update")
@click.option("--lr", type=float, default=0.1, show_default=True,
              help="learning rate of the update shown with --backward")
@click.option("--save-weights", type=click.Path(dir_okay=False), default=None,
              help="write the weights as .safetensors (torch.nn.Transformer names)")
@click.option("--tokenizer", type=click.Choice(TOKENIZERS), default=None,
              help="how sentences split into tokens: the tutorial's rule, English words with "
              "punctuation split off, Chinese characters, or jieba words  [default: tutorial]")
@click.option("--checkpoint", type=click.Path(dir_okay=False), default=None,
              help="walk a model trained by `handformer train` (its config and vocabulary)")
@click.option("--pretrained", default=None,
              help="walk a pretrained BERT-family model: a folder, or all-minilm-l6-v2")
@user_errors
def walk(**options):
    """Compute the Transformer step by step and explain every step."""
    render = {k: options.pop(k) for k in ("lang", "precision", "steps", "fmt", "output",
                                          "width", "figure_step")}
    if options.get("pretrained"):
        tape = _pretrained_tape(options)
    else:
        tape = _tape_from_options(options)
    render_tape(tape, **render)


def _tape_from_options(options: dict):
    from ..api import run_backward, run_forward, setup
    from ..text import TUTORIAL_SRC, TUTORIAL_TGT

    backward, lr, save = options.pop("backward"), options.pop("lr"), options.pop("save_weights")
    options.pop("pretrained")
    if options["checkpoint"]:
        _refuse_with_checkpoint(options)
    checkpoint, tokenizer = options.pop("checkpoint"), options.pop("tokenizer") or "tutorial"
    src, tgt = options.pop("src"), options.pop("tgt")  # "" is an empty sentence, not the default
    src, tgt = TUTORIAL_SRC if src is None else src, TUTORIAL_TGT if tgt is None else tgt
    corpus = options.pop("corpus")
    s = setup(config_from_options(options), corpus, options.pop("weights"),
              checkpoint=checkpoint, tokenizer=tokenizer)
    if corpus:
        _warn_tokens(s.dataset, tokenizer)
    if save:
        from ..interop.weights import save_weights

        save_weights(save, s.params, s.config, s.vocab.tokens)
        click.echo(f"wrote {save}", err=True)
    tape = run_forward(s, src, tgt)
    if backward:
        run_backward(tape, lr)
    return tape


def _warn_tokens(sentences, tokenizer: str) -> None:
    from ..tokenize import corpus_warning

    warning = corpus_warning(sentences, tokenizer)
    if warning:
        click.echo(f"note: {warning}", err=True)


def _refuse_with_checkpoint(options: dict) -> None:
    """A checkpoint brings its own sizes, weights and vocabulary: flags that set them clash."""
    given = [k for k, v in options.items() if k not in ("src", "tgt", "preset", "checkpoint")
             and v is not None]
    if options["preset"] != "tutorial":
        given.append("preset")
    if given:
        flags = ", ".join("--" + k.replace("_", "-") for k in sorted(given))
        raise HandformerError(f"--checkpoint reads its sizes, weights and vocabulary from the "
                              f"checkpoint; drop {flags}")


def _pretrained_tape(options: dict):
    from ..interop.pretrained import pretrained_tape

    if not options.get("src"):
        raise HandformerError("--pretrained needs a sentence: --src \"...\"")
    given = [k for k, v in options.items() if k not in ("pretrained", "src", "lr", "preset")
             and v not in (None, False)]
    if options["preset"] != "tutorial":
        given.append("preset")
    if given:
        flags = ", ".join("--" + k.replace("_", "-") for k in sorted(given))
        raise HandformerError(
            f"--pretrained reads its sizes, weights and vocabulary from the model folder, and "
            f"walks one sentence forward only; drop {flags}")
    return pretrained_tape(options["pretrained"], options["src"])


def render_tape(tape, lang="en", precision=3, steps=None, fmt="terminal", output=None,
                width=None, figure_step=None) -> None:
    """Draw a tape in the chosen format (to the terminal or to --output)."""
    if fmt == "json":
        from ..render.json_tape import dumps

        return write_output(dumps(tape), output)
    if fmt == "html":
        from ..render.html import render

        return write_output(render(tape, precision=precision, steps=steps, lang=lang), output)
    if fmt == "xlsx":
        from ..interop.weights import atomic_write
        from ..render.xlsx import render_xlsx

        if not output:
            raise HandformerError("--format xlsx writes a file: give -o FILE.xlsx")
        atomic_write(output, render_xlsx(tape, lang=lang, precision=precision))
        return click.echo(f"wrote {output}", err=True)
    if fmt in ("svg", "png"):
        from ..render.figure import render_figure

        if not output:
            raise HandformerError(f"--format {fmt} writes a file: give -o FILE.{fmt}")
        return render_figure(tape, figure_step, output, fmt=fmt, lang=lang, precision=precision)
    from ..narrate import build, select

    sections = select(build(tape, lang), steps)
    if fmt == "markdown":
        from ..render.markdown import render

        return write_output(render(sections, precision=precision, lang=lang), output)
    from ..render.terminal import render

    render(sections, precision=precision, width=width, output=output)


@click.command(name="render")
@click.argument("tape_file", type=click.Path(dir_okay=False))
@_render_options
@user_errors
def render_command(tape_file, **render):
    """Render a tape saved with `walk --format json` without recomputing it."""
    from pathlib import Path

    from ..render.json_tape import TapeFormatError, loads

    try:
        text = Path(tape_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise TapeFormatError(f"cannot read tape {tape_file!r}: {err}") from None
    render_tape(loads(text), **render)


COMMANDS = [walk, render_command]
