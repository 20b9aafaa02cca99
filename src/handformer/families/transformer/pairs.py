"""The encoder-decoder's bindings for the shared sentence-pair services (its registry entry's
``pairs``): what train/loop.py, train/report.py, train/bleu.py and `evaluate` call to start,
step, score and translate a run of this family, none of them naming it.

Each imports its module when called: a walk imports the family, never the training code
(train/, interop/; the start-up tests hold it).
"""

from __future__ import annotations


def first_params(cfg, vocab, options) -> dict:
    """A fresh run's initial weights (cfg.seed): one table per side unless --shared-vocab, and
    a tied table only with one shared vocabulary (even when the sizes happen to agree)."""
    from ...errors import ConfigError
    from .model import TIED_NEEDS_ONE_VOCAB, init_params

    if cfg.tie_embeddings and not options.shared_vocab:
        raise ConfigError(TIED_NEEDS_ONE_VOCAB)
    return init_params(cfg, vocab.sizes, options.dtype)


def batch_loss(params, cfg, batch, rng=None, backward: bool = True):
    """One batch's loss, counts and gradients on a fast tape (loss.py)."""
    from .loss import batch_loss as loss

    return loss(params, cfg, batch, rng, backward)


def translate_all(params, cfg, vocab, sentences: list[str]) -> list[str]:
    """Greedy translations in batches, detokenized (greedy.py)."""
    from .greedy import translate_all as translate

    return translate(params, cfg, vocab, sentences)


def attach_torch(run, device_and_backend: tuple[str, str] | None = None) -> None:
    """`train --engine torch`: the run's steps taken by torch.nn.Transformer on that (device,
    backend) (torch_engine.py)."""
    from .torch_engine import attach

    attach(run, device_and_backend)
