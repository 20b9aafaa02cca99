"""`handformer embed` and `handformer similarity`: sentence embeddings of a pretrained model."""

from __future__ import annotations

import json

import click

from ...cli import LanguageChoice, check_outputs, show_sections, user_errors, write_output
from ...cli_checks import Bounded, FileName, Whole
from ...textsafe import json_escaped, shown

DEFAULT_MODEL = "all-minilm-l6-v2"


def _common(func):
    func = click.option("--width", type=Bounded("width"), default=None,
                        help="terminal width in columns")(func)
    func = click.option("--precision", type=Whole(0, 12), default=4, show_default=True,
                        help="decimals shown (the numbers themselves are float64)")(func)
    func = click.option("--lang", type=LanguageChoice(), default="en",
                        show_default=True, help="language of --explain")(func)
    func = click.option("--explain", is_flag=True,
                        help="walk through the mean pooling and the L2 normalization")(func)
    return click.option("--pretrained", default=DEFAULT_MODEL, show_default=True,
                        help="a BERT-family checkpoint folder, or all-minilm-l6-v2")(func)


@click.command()
@click.argument("sentences", nargs=-1, required=True)
@_common
@click.option("--dims", type=Whole(0, None), default=8, show_default=True,
              help="numbers of each embedding printed (0: all)")
@click.option("--json", "as_json", is_flag=True, help="every embedding in full, as JSON")
@click.option("-o", "--output", metavar="FILE", type=FileName(), default=None,
              help="write to FILE instead of the terminal")
@user_errors
def embed(sentences, pretrained, explain, lang, precision, width, dims, as_json, output):
    """The sentence embedding of each SENTENCE (unit length: mean pooling, L2 normalization)."""
    from ...layout import number
    from .load import load, run

    inputs = {"--pretrained folder": pretrained}
    check_outputs({"-o": output}, inputs)
    tape = run(load(pretrained), list(sentences), record=explain)
    _warn(tape)
    if explain:
        _explain(tape, lang, precision, width)
    rows = tape["pooling.normalized"].reshape(len(sentences), -1)
    infos = tape.meta.get("sentences") or [tape.meta["src"]]
    if as_json:
        data = {"model": tape.meta["model"], "embeddings": [
            {"text": i["text"], "tokens": i["tokens"], "embedding": row.tolist()}
            for i, row in zip(infos, rows, strict=True)]}
        return write_output(json_escaped(json.dumps(data, ensure_ascii=False)) + "\n", output,
                            inputs=inputs)
    lines = []
    for info, row in zip(infos, rows, strict=True):
        shown = row if dims == 0 else row[:dims]
        rest = ", …" if len(shown) < len(row) else ""
        lines += [" ".join(info["tokens"]),
                  f"  e = [{', '.join(number(x, precision) for x in shown)}{rest}]  "
                  f"({len(row)} numbers, length 1)"]
    write_output("\n".join(lines) + "\n", output, inputs=inputs)


@click.command()
@click.argument("sentences", nargs=-1, required=True)
@_common
@user_errors
def similarity(sentences, pretrained, explain, lang, precision, width):
    """Cosine similarity of the sentence embeddings: of A and B, or of every pair."""
    from ...layout import number
    from .load import load, similarity_tape

    tape = similarity_tape(load(pretrained), list(sentences), record=explain)
    _warn(tape)
    if explain:
        _explain(tape, lang, precision, width)
    cos = tape["similarity"]
    if len(sentences) == 2:
        click.echo(number(cos[0, 1], precision))
        return
    for i, text in enumerate(sentences):
        numbers = "  ".join(number(x, precision).rjust(precision + 3) for x in cos[i])
        click.echo(f"{numbers}  {i + 1}: {shown(text)}")


def _warn(tape) -> None:
    from .load import unknown_warnings

    for line in unknown_warnings(tape):
        click.echo(shown(line), err=True)


def _explain(tape, lang: str, precision: int, width) -> None:
    from .story import explain

    show_sections(explain(tape, lang), precision, width)


COMMANDS = [embed, similarity]
