"""The Python API in one call: sentences in, a tape with every step (and, if asked, every
gradient), through the same pipeline as `handformer walk` and the web app.

    >>> import handformer
    >>> tape = handformer.walk()                      # the tutorial's example
    >>> tape["generator.probs"].shape
    (6, 25)
    >>> tape = handformer.walk(src="the storm", tgt="he brings the storm", preset="small")
    >>> tape = handformer.walk(src="winter is coming", pretrained="all-minilm-l6-v2")
"""

from __future__ import annotations

from . import pipeline
from .engine.tape import Tape
from .text import TUTORIAL_SRC, TUTORIAL_TGT  # noqa: F401  (handformer.api.TUTORIAL_SRC)


def walk(src: str | None = None, tgt: str | None = None, preset: str | None = None,
         corpus: str | None = None, weights: str | None = None, backward: bool = False,
         lr: float | None = None, checkpoint: str | None = None, tokenizer: str | None = None,
         shards: int | None = None, family: str | None = None, pretrained: str | None = None,
         beside_trained: bool = False, **overrides) -> Tape:
    """Compute every step for one sentence pair (the tutorial's when not given) and return
    the tape.

    ``preset`` is "tutorial" (the default), "small" or "paper"; ``overrides`` are Config
    fields (``d_model=8, heads=2, ...``). With ``backward=True`` the
    tape also holds every gradient (``tape.grads``) and one SGD update (``tape.updates``:
    name → (before, gradient, after)), an SGD step of ``lr`` (default 0.1). ``checkpoint`` walks a model saved by ``handformer
    train`` with its own config and vocabulary (``preset`` and ``overrides`` are then ignored).
    ``tokenizer`` splits the sentences: "tutorial" (the default), "words", "char" or "jieba". ``shards``
    (with ``backward``) also computes one step's gradient of the corpus's pairs as a whole
    batch and as that many data shards (``tape.meta["shards"]``). ``family`` names a model
    family of the registry (default: the encoder-decoder); ``pretrained`` walks ``src``
    through a pretrained model instead (a folder, or "all-minilm-l6-v2"), and with
    ``backward`` takes one fine-tuning step on ``src`` and ``tgt`` (loss 1 − their cosine).
    ``beside_trained`` also trains a copy of the random weights on the corpus (as `handformer
    train` does by default: the encoder-decoder 200 epochs on its pairs, the gpt family 400
    Adam steps on its lines) and keeps its first attention pattern and prediction
    (``tape.meta["beside"]``); a checkpoint's walk keeps its untrained weights' there without
    it.
    """
    if pretrained:  # with backward: one fine-tuning step pulling src and tgt together
        step = {"tgt": tgt, "backward": True, "lr": lr} if backward else {}
        return pipeline.run({"pretrained": pretrained, "src": src, **step}).tape
    options = {"src": src, "tgt": tgt, "preset": preset, "corpus": corpus, "weights": weights,
               "backward": backward, "lr": lr, "checkpoint": checkpoint,
               "tokenizer": tokenizer, "shards": shards, "family": family,
               "beside_trained": beside_trained, **overrides}
    if checkpoint:  # the checkpoint's own sizes, weights and vocabulary win: the rest is ignored
        options = {k: options[k] for k in ("src", "tgt", "backward", "lr", "checkpoint",
                                           "shards", "family")}
    return pipeline.run(options).tape


def preset(name: str, **overrides):
    """The default family's config (``handformer.Config``): the named preset ("tutorial",
    "small", "paper") with any fields overridden (None values are ignored), checked; through
    the family's ``configure``, as `--preset NAME --d-model 8 …` are.

    >>> handformer.preset("small", heads=2).d_k
    16
    """
    from .families import registry

    return registry.get(registry.DEFAULT).configure({"preset": name, **overrides})
