"""The same sentence under other weights, shown beside the walk: random weights beside trained.

What random weights can and cannot do is easiest seen next to what training does. A walk from
a checkpoint shows the trained model; beside it goes the same model before training (its
initial weights, drawn from the same config and seed). A walk of fresh random weights with
``beside_trained`` trains a copy of them on the corpus's sentence pairs on the spot (the
tutorial's three: 200 epochs in well under a second) and shows that copy beside them.

Only what the comparison shows is kept (``tape.meta["beside"]``): the encoder's first attention
pattern, p(target) at each position, the word each position picks, and how the other weights
came about (epochs, pairs, loss before and after).
"""

from __future__ import annotations

import numpy as np

from ...engine.tape import Tape
from ...errors import HandformerError
from ...text import END
from .model import forward

PATTERN = "encoder.0.self_attn.head.0.pattern"
EPOCHS = 200  # `handformer train`'s default: the tutorial's pairs are then learnt by heart
LR = 0.01  # and its default rate (Adam)


def view(params: dict, config, example) -> dict:
    """What the comparison shows of one model on the walk's sentence pair."""
    tape = Tape(params)
    forward(tape, config, example.src_ids, example.tgt_ids)
    return view_of(tape, example)


def view_of(tape: Tape, example) -> dict:
    """What the comparison shows, read off a recorded tape of the walk's sentence pair."""
    p = tape["generator.probs"]
    return {"pattern": np.asarray(tape[PATTERN]).tolist(),
            "p_target": [float(p[t, i]) for t, i in enumerate(example.out_ids)],
            "picked": [int(i) for i in np.argmax(p, axis=-1)]}


def untrained(s, example, tape: Tape) -> dict:
    """The checkpoint's model before training, read off ``tape``: the pair under its initial
    weights (same config and seed)."""
    return {"label": "untrained", "epochs": int(s.trained["epochs"]), **view_of(tape, example)}


def trained_on_the_spot(s, example, pair: tuple[str, str]) -> dict:
    """The walk's weights trained on the corpus's pairs (``train_copy``), on the walk's sentence
    pair; ``pair``: its sentences (is it one the copy learnt?)."""
    params, losses, encoded = train_copy(s)
    return {"label": "trained", "epochs": EPOCHS, "pairs": len(encoded), "lr": LR,
            "loss": [losses[0], losses[-1]], "seen": _seen(s.vocab, pair, encoded),
            **view(params, s.config, example)}


def train_copy(s) -> tuple[dict, list[float], list]:
    """A copy of the walk's weights trained on the corpus's sentence pairs (each line cut at
    its first comma, as `handformer train` reads it) with the walk's vocabulary: Adam, ``LR``,
    ``EPOCHS`` epochs of batches of 16, shuffled from the config's seed. The trained weights,
    each epoch's mean loss, the pairs as ids."""
    from ...train.data import encode_pairs, pairs_from_lines
    from ...train.loop import Options, Run
    from ...train.optim import make_optimizer

    try:
        encoded = encode_pairs(s.vocab, pairs_from_lines(s.dataset), s.config.max_len)
    except HandformerError as err:
        raise HandformerError(f"cannot train beside the walk: {err}") from None
    params = {name: value.copy() for name, value in s.params.items()}
    run = Run(s.config, Options(epochs=EPOCHS, lr=LR), s.vocab, params,
              make_optimizer("adam", params, LR), np.random.default_rng(s.config.seed),
              encoded, [], 0, [])
    return params, [_epoch(run) for _ in range(EPOCHS)], encoded

def _epoch(run) -> float:
    """One pass over the pairs in batches of 16; the epoch's mean loss per target token. The
    walk's vocabulary has no <pad>: any id pads, the masks come from the lengths."""
    from ...train.data import batch_order, make_batch
    from ...train.loop import numpy_step

    total = tokens = 0.0
    for idx in batch_order(run.train, 16, run.rng):
        batch = make_batch(run.vocab, [run.train[i] for i in idx], pad=run.vocab.id(END))
        r = numpy_step(run, batch)
        total, tokens = total + r.loss * r.tokens, tokens + r.tokens
    run.epoch += 1
    return float(total / tokens)

def _seen(vocab, pair: tuple[str, str], encoded: list) -> bool:
    """Whether the walk's sentence pair is one the copy trained on (compared as token ids)."""
    ids = (vocab.encode(pair[0], "source sentence"), vocab.encode(pair[1], "target sentence"))
    return any((list(a), list(b)) == (list(ids[0]), list(ids[1])) for a, b in encoded)
