"""One batch of sentence pairs through the encoder-decoder on a fast tape: loss, token
accuracy, and every gradient (the training loop's ``batch_loss``, bound in pairs.py)."""

from __future__ import annotations

import numpy as np

from ...engine.tape import Tape
from ...train.data import Batch
from ...train.result import Result
from .config import Config
from .model import forward


def batch_loss(params: dict, cfg: Config, batch: Batch, rng: np.random.Generator | None = None,
               backward: bool = True) -> Result:
    """L = cross-entropy over non-pad targets (label smoothing cfg.label_smoothing); ∂L/∂θ.

    ``rng`` switches dropout on (training); None computes the model as at inference. A run
    that diverges overflows: numpy's warnings on the way are silenced, since the loop stops at
    the first loss or gradient that is not finite and says what to do (train/finite.py).
    """
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return _batch_loss(params, cfg, batch, rng, backward)


def _batch_loss(params: dict, cfg: Config, batch: Batch, rng, backward: bool) -> Result:
    tape = Tape(params, record=False, dropout_rng=rng, fused=True)
    logits = forward(tape, cfg, batch.src, batch.tgt_in, batch.src_pad, batch.tgt_pad,
                     probs=False)
    tape.run("loss", "cross_entropy", [logits],
             {"targets": batch.tgt_out, "weights": batch.weights,
              "smoothing": cfg.label_smoothing})
    right = (tape[logits].argmax(axis=-1) == batch.tgt_out) | batch.tgt_pad
    result = Result(float(tape["loss"]), int((right & ~batch.tgt_pad).sum()), batch.tokens,
                    int(right.all(axis=-1).sum()))
    if backward:
        grads = tape.backward("loss")
        result.grads = {name: grads[name] for name in params if name in grads}
    return result
