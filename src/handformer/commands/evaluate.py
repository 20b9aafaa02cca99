"""`handformer evaluate`: a checkpoint's loss, accuracy, exact match and BLEU on pairs, or on
its dataset's split cut exactly as training cut it."""

from __future__ import annotations

import click

from ..cli import user_errors
from ..cli_checks import Bounded
from ..errors import HandformerError
from .train import DEFAULT_CKPT, _pairs


@click.command()
@click.option("--checkpoint", default=DEFAULT_CKPT, show_default=True,
              type=click.Path(dir_okay=False), help="a checkpoint written by `handformer train`")
@click.option("--pairs", "pairs_file", type=click.Path(dir_okay=False), default=None,
              help="UTF-8 'source<TAB>target' file (default: the tutorial's pairs)")
@click.option("--dataset", type=click.Choice(["hsk", "tatoeba"]), default=None,
              help="the checkpoint's dataset: evaluate on its --split, cut as training cut it")
@click.option("--split", type=click.Choice(["train", "valid", "test"]), default="test",
              show_default=True, help="with --dataset: which part")
@click.option("--beam", type=Bounded("beam"), default=1, show_default=True,
              help="beam width of the decoding behind exact match")
@user_errors
def evaluate(checkpoint, pairs_file, dataset, split, beam):
    """Loss, perplexity, token accuracy (teacher forcing), exact match and BLEU (decoding)."""
    from ..train import loop
    from ..train.checkpoint import load
    from ..train.data import encode_pairs

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
    hyps, right = _decoded(ckpt, pairs, beam)
    click.echo(f"pairs           {m['pairs']} ({m['tokens']} target tokens)")
    click.echo(f"loss            {m['loss']:.4f}")
    click.echo(f"perplexity      {m['perplexity']:.4f}")
    click.echo(f"token accuracy  {m['accuracy']:.1%}  (teacher forcing)")
    click.echo(f"exact match     {right / len(pairs):.1%}  ({right}/{len(pairs)}, "
               f"{'greedy' if beam == 1 else f'beam {beam}'} decoding)")
    if source != "default":
        from ..train.bleu import corpus_bleu
        from ..train.datasets import target_language

        bleu = corpus_bleu(hyps, [t for _, t in pairs], target_language(source))
        click.echo(f"BLEU            {bleu:.2f}  (sacrebleu, lower-cased)")


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


def _decoded(ckpt, pairs, beam: int) -> tuple[list[str], int]:
    """The translations (greedy in batches, or beam one by one) and how many equal the target."""
    from ..families.transformer.decode import translate as run
    from ..tokenize import detokenize
    from ..train.bleu import translate_all

    if beam == 1:
        hyps = translate_all(ckpt.params, ckpt.config, ckpt.vocab, [s for s, _ in pairs])
    else:
        hyps = [detokenize(run(ckpt.params, ckpt.config, ckpt.vocab, src, beam).tokens)
                for src, _ in pairs]
    right = sum(ckpt.vocab.target.tokenize(h) == ckpt.vocab.target.tokenize(t)
                for h, (_, t) in zip(hyps, pairs, strict=True))
    return hyps, right


COMMANDS = [evaluate]
