"""One step's gradient twice: of the whole batch, and of N data shards put back together.

This is what data-parallel training (DistributedDataParallel, `train --engine torch` under
torchrun) relies on, computed here in one process with the NumPy engine. The batch's loss is
the mean over its n non-pad target tokens, L = (1/n) Σ_t ℓ_t. Shard k holds n_k of them and
its loss is L_k = (1/n_k) Σ_{t∈k} ℓ_t, so L = Σ_k (n_k/n) L_k and, the gradient being linear,
g = Σ_k (n_k/n) g_k: the plain mean of the shards' gradients only when every shard holds the
same count of tokens. (DistributedDataParallel takes the plain mean; the torch engine scales
each process's loss by N/n so that the mean is this weighted sum.)
"""

from __future__ import annotations

import numpy as np

from ...errors import ShardError  # noqa: F401  (raised here)
from ...limits import check_walk
from ...train.data import encode_pairs, make_batch
from .config import Config
from .loss import batch_loss

SHOWN_PARAM = "generator.b"  # the output bias: one number per word, small enough to show whole
MAX_PAIRS = 24  # the batch is the corpus's first pairs, at most this many (divisible by 2…12)




def check_shards(n_shards: int, n_pairs: int) -> None:
    """Equal shards of at least one pair each, at least two of them."""
    if n_shards < 2 or n_pairs % n_shards:
        raise ShardError(f"--shards {n_shards}: the batch holds {n_pairs} sentence pairs; give "
                         f"a number of at least 2 that divides {n_pairs}")


def shard_gradients(params: dict, cfg: Config, vocab, pairs, n_shards: int, filler: int | None,
                    param: str = SHOWN_PARAM) -> dict:
    """The gradient of ``param`` for the whole batch of ``pairs`` and for each of ``n_shards``
    equal consecutive shards, the token-weighted sum of the shards', and how far the sum (and
    the plain mean, for comparison) lies from the whole. ``filler`` pads the rows (masked: the
    walk's vocabulary has no <pad>). JSON-ready: lists and floats only."""
    check_shards(n_shards, len(pairs))
    encoded = encode_pairs(vocab, pairs, cfg.max_len)
    longest = max(max(len(s), len(t) + 1) for s, t in encoded)
    check_walk(cfg, longest, longest, len(vocab.target), copies=len(encoded))
    size = len(encoded) // n_shards
    parts = [encoded[k * size:(k + 1) * size] for k in range(n_shards)]
    whole, tokens = _gradient(params, cfg, vocab, encoded, filler, param)
    each = [_gradient(params, cfg, vocab, part, filler, param) for part in parts]
    weighted = sum((n / tokens) * g for g, n in each)
    plain = sum(g for g, _ in each) / n_shards
    return {"param": param, "pairs": [list(p) for p in pairs], "tokens": tokens,
            "shard_pairs": size, "shard_tokens": [n for _, n in each],
            "whole": whole.tolist(), "shard_grads": [g.tolist() for g, _ in each],
            "average": weighted.tolist(),
            "max_difference": float(np.abs(weighted - whole).max()),
            "max_at": int(np.argmax(np.abs(weighted - whole))),
            "plain_difference": float(np.abs(plain - whole).max())}


def _gradient(params: dict, cfg: Config, vocab, encoded, filler: int | None,
              param: str) -> tuple[np.ndarray, int]:
    """∂L/∂param of one batch (no dropout: the step is shown as at inference) and its tokens."""
    batch = make_batch(vocab, encoded, pad=filler)
    result = batch_loss(params, cfg, batch, rng=None)
    return result.grads[param], batch.tokens
