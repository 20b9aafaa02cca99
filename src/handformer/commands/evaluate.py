"""`handformer evaluate`: a checkpoint's loss, accuracy, exact match, BLEU and chrF2 on pairs,
or on its dataset's split cut exactly as training cut it; --output keeps the translations."""

from __future__ import annotations

import click

from ..cli import user_errors
from ..cli_checks import Bounded, FileName, Finite
from ..errors import HandformerError
from .train import DEFAULT_CKPT, _pairs
from .translate import ALPHA_MAX, DEFAULT_ALPHA


@click.command()
@click.option("--checkpoint", default=DEFAULT_CKPT, show_default=True,
              type=click.Path(dir_okay=False), help="a checkpoint written by `handformer train`")
@click.option("--pairs", "pairs_file", type=click.Path(dir_okay=False), default=None,
              help="UTF-8 'source<TAB>target' file (default: the tutorial's pairs)")
@click.option("--dataset", type=click.Choice(["hsk", "tatoeba"]), default=None,
              help="the checkpoint's dataset: evaluate on its --split, cut as training cut it")
@click.option("--split", type=click.Choice(["train", "valid", "test"]), default="test",
              show_default=True, help="with --dataset: which part")
@click.option("--beam", type=Bounded("beam"), default=4, show_default=True,
              help="beam width of the decoding behind exact match, BLEU and chrF2; 1 is "
                   "greedy search (training's test line)")
@click.option("--length-penalty", "alpha", type=Finite(-ALPHA_MAX, ALPHA_MAX),
              default=DEFAULT_ALPHA, show_default=True,
              help="GNMT α in ((5 + length) / 6)^α (beam search only), as translate's")
@click.option("--output", metavar="FILE", type=FileName(), default=None,
              help="write the translations to FILE, one per line (atomically)")
@user_errors
def evaluate(checkpoint, pairs_file, dataset, split, beam, alpha, output):
    """Loss, perplexity, token accuracy (teacher forcing), exact match, BLEU and chrF2
    (decoding)."""
    from ..cli import check_outputs
    from ..train import loop
    from ..train.checkpoint import load
    from ..train.data import encode_pairs

    check_outputs({"--output": output}, {"--checkpoint": checkpoint, "--pairs": pairs_file})
    ckpt = load(checkpoint)
    source = _evaluated_source(ckpt, dataset, pairs_file)
    pairs = _pairs(source)
    if dataset:
        from ..train.datasets import credit_of

        click.echo(credit_of(source), err=True)
        pairs = loop.held_out(ckpt, pairs, split)
    encoded = encode_pairs(ckpt.vocab, pairs, ckpt.config.max_len)
    m = loop.evaluate(ckpt.params, ckpt.config, ckpt.vocab, encoded,
                      dtype=str(ckpt.params["generator.w"].dtype))
    hyps, right = _decoded(ckpt, pairs, beam, alpha)
    decoding = "greedy" if beam == 1 else f"beam {beam}, length penalty {alpha:g}"
    click.echo(f"pairs           {m['pairs']} ({m['tokens']} target tokens)")
    click.echo(f"loss            {m['loss']:.4f}")
    click.echo(f"perplexity      {m['perplexity']:.4f}")
    click.echo(f"token accuracy  {m['accuracy']:.1%}  (teacher forcing)")
    click.echo(f"exact match     {right / len(pairs):.1%}  ({right}/{len(pairs)}, "
               f"{decoding} decoding)")
    if source != "default":
        _print_scores(hyps, [t for _, t in pairs], source)
    if output:
        _write_hypotheses(hyps, output, {"--checkpoint": checkpoint, "--pairs": pairs_file})


def _print_scores(hyps: list[str], references: list[str], source: str) -> None:
    from ..train.bleu import corpus_scores
    from ..train.datasets import target_language
    from ..train.report import scores_text

    s = corpus_scores(hyps, references, target_language(source))
    click.echo(f"scores          {scores_text('en', s.bleu, s.chrf, s.bleu_lower, s.tokenize)}")


def _write_hypotheses(hyps: list[str], output: str, inputs: dict) -> None:
    """One translation a line, in the pairs' order (what sacrebleu's command line reads)."""
    from ..cli import write_output

    write_output("".join(f"{h}\n" for h in hyps), output, inputs=inputs)


def _evaluated_source(ckpt, dataset, pairs_file) -> str:
    if dataset and pairs_file:
        raise HandformerError("give --dataset or --pairs, not both")
    if not dataset:
        return pairs_file or "default"
    stored = ckpt.run.get("pairs", "default")
    if not stored.startswith(f"{dataset}:"):
        raise HandformerError(f"this checkpoint was not trained on --dataset {dataset} "
                              f"(its pairs: {stored[:200]!r})")
    return stored


def _decoded(ckpt, pairs, beam: int, alpha: float) -> tuple[list[str], int]:
    """The translations (greedy in batches, or beam one by one with length penalty α) and how
    many equal the target."""
    from ..families import registry
    from ..tokenize import target_text

    family = registry.get(ckpt.family)
    if beam == 1:
        hyps = family.pairs.translate_all(ckpt.params, ckpt.config, ckpt.vocab,
                                          [s for s, _ in pairs])
    else:
        hyps = [target_text(ckpt.vocab.target, family.decode(ckpt.params, ckpt.config,
                                                             ckpt.vocab, src, beam, alpha).tokens)
                for src, _ in pairs]
    right = sum(ckpt.vocab.target.tokenize(h) == ckpt.vocab.target.tokenize(t)
                for h, (_, t) in zip(hyps, pairs, strict=True))
    return hyps, right


COMMANDS = [evaluate]
