"""`handformer translate`: a trained checkpoint decodes a sentence, greedy or by beam search,
and with --explain every decoding step is told."""

from __future__ import annotations

import click

from ..cli import LanguageChoice, user_errors
from ..cli_checks import Bounded, Finite, Whole
from ..textsafe import shown
from .train import DEFAULT_CKPT

# The length penalty of translate, evaluate and the app's translations (one search for "beam
# 4" everywhere): the best validation BLEU of two 30-minute Tatoeba translators, beam 4
# (docs/translator.md: 26.26 / 26.78 at α 0.6, 26.32 / 26.88 at 1.0, 26.50 / 26.99 at 1.2,
# 26.49 / 26.97 at 1.5; chrF2 rising with α, as outputs lengthen).
DEFAULT_ALPHA = 1.2

# |α| beyond 10 overflows ((5 + length) / 6)^α, or underflows it to 0, for long outputs; GNMT
# uses 0.6 to 1
ALPHA_MAX = 10.0


@click.command()
@click.argument("sentence")
@click.option("--checkpoint", default=DEFAULT_CKPT, show_default=True,
              type=click.Path(dir_okay=False), help="a checkpoint written by `handformer train`")
@click.option("--beam", type=Bounded("beam"), default=1, show_default=True,
              help="beam width; 1 is greedy search")
@click.option("--length-penalty", "alpha", type=Finite(-ALPHA_MAX, ALPHA_MAX), default=DEFAULT_ALPHA,
              show_default=True, help="GNMT α in ((5 + length) / 6)^α (beam search only), "
              f"from -{ALPHA_MAX:g} to {ALPHA_MAX:g}")
@click.option("--max-length", type=Whole(1, None), default=None,
              help="longest output, in tokens  [default: 2 × the source length + 10]")
@click.option("--explain", is_flag=True, help="walk through every decoding step")
@click.option("--top-k", type=Whole(1, 50), default=5, show_default=True,
              help="with --explain: candidates shown per step")
@click.option("--lang", type=LanguageChoice(), default="en", show_default=True)
@click.option("--precision", type=Whole(0, 12), default=3, show_default=True)
@click.option("--width", type=Bounded("width"), default=None, help="terminal width in columns")
@user_errors
def translate(sentence, checkpoint, beam, alpha, max_length, explain, top_k, lang, precision,
              width):
    """Translate SENTENCE with a trained checkpoint (greedy, or beam search with --beam)."""
    from ..families import registry
    from ..tokenize import target_text
    from ..train.checkpoint import load

    ckpt = load(checkpoint)
    family = registry.get(ckpt.family)
    unknown = ckpt.vocab.source.unknown(sentence)
    if unknown and "<unk>" in ckpt.vocab.source.specials:
        click.echo(f"note: not in the model's vocabulary, read as <unk>: "
                   f"{', '.join(map(repr, unknown))}", err=True)
    result = family.decode(ckpt.params, ckpt.config, ckpt.vocab, sentence, beam, alpha,
                           max_length, record=explain, k=top_k)
    if explain:
        from ..cli import show_sections

        show_sections(family.explain(result, ckpt.vocab, lang), precision, width)
    click.echo(shown(" ".join(result.tokens) if ckpt.vocab.target.tokenizer == "tutorial"
                     else target_text(ckpt.vocab.target, result.tokens)))


COMMANDS = [translate]
