"""The walkthrough as sections (text, formulas, labelled matrices), read off a tape.

    >>> from handformer import api, narrate
    >>> sections = narrate.build(api.walk(), lang="zh")
    >>> narrate.select(sections, "7-9")
"""

from __future__ import annotations

from .document import Callout, Matrix, Section
from .select import select


def build(tape, lang: str = "en") -> list[Section]:
    """Every step from the dataset to the predicted word (and, after a backward pass, the loss,
    every gradient and the update), in order, in ``lang`` (a language of handformer.i18n)."""
    if tape.meta.get("kind") == "bert":  # a pretrained encoder-only model: its own story
        from .pretrained import build_pretrained

        return build_pretrained(tape, lang)
    from . import intro, layers, predict
    from .backward import backward
    from .context import Ctx

    ctx = Ctx(tape, lang)
    intro.dataset(ctx)
    intro.vocabulary(ctx)
    intro.encoding(ctx)
    intro.embedding(ctx, "src_embed", "4")
    intro.positional(ctx, "src_embed", "5")
    intro.model_input(ctx, "src_embed", "6")
    layers.encoder(ctx)
    layers.decoder(ctx)
    predict.prediction(ctx)
    if tape.grads:
        predict.loss(ctx)
        backward(ctx)
    return ctx.sections


__all__ = ["Callout", "Matrix", "Section", "build", "select"]
