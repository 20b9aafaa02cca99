"""The encoder-decoder Transformer of the paper and the tutorial (model.py), as a family."""

from __future__ import annotations

import functools

from .. import model
from ..config import Config
from .registry import Family, register


def story(tape) -> list:
    """Dataset → vocabulary → encoding → embedding → encoder → decoder → prediction, then, after
    a backward pass, the loss, every gradient and the update."""
    from ..narrate import intro, layers, overview, predict

    told = [overview.overview, intro.dataset, intro.vocabulary, intro.encoding,
            functools.partial(intro.embedding, p="src_embed", number="4"),
            functools.partial(intro.positional, p="src_embed", number="5"),
            functools.partial(intro.model_input, p="src_embed", number="6"),
            layers.encoder, layers.decoder, predict.prediction]
    after = []
    if tape.grads:  # only then are the backward narration's modules worth importing
        from ..narrate.backward import backward, updates
        from ..narrate.shards import shards

        after = [predict.loss, backward, shards, updates]
    return told + after + [overview.recap]



def load(config: Config, corpus: str | None = None, weights: str | None = None):
    """Dataset, vocabulary and parameters (fresh from the seed, or a weights file)."""
    from ..api import setup

    return setup(config, corpus, weights)


FAMILY = register(Family("transformer", Config, model.param_shapes, model.forward, story,
                         load))
