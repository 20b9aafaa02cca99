"""`walk --family gpt --beside-trained`: a copy of the walk's random weights trained on the
dataset's lines on the spot (what `train --family gpt` does, with its defaults), then the walk's
text read by the copy, shown beside the random weights (narrate/beside.py). A checkpoint's walk
shows the same model before training beside it, without the flag.

Only what the comparison shows is kept (``tape.meta["beside"]``): the first layer's first
masked self-attention pattern over the input tokens, p(target) at each position, the word each
position picks, and how the copy came about (steps, lines, loss before and after).
"""

from __future__ import annotations

import numpy as np

from ...engine.tape import Tape
from ...errors import HandformerError
from .model import forward

PATTERN = "decoder.0.self_attn.head.0.pattern"
EPOCHS = 400  # `train --family gpt`'s default steps: the three lines are then learnt by heart
LR = 0.02  # and its default rate (Adam)


def trained_on_the_spot(model, tape: Tape) -> dict:
    """The copy's view of the walk's text (``tape`` holds its ids and targets)."""
    from .run import Model
    from .train import fit, texts_ids

    copy = Model(model.config, model.dataset, model.vocab,
                 {name: value.copy() for name, value in model.params.items()})
    try:
        losses = fit(copy, EPOCHS, LR)
    except HandformerError as err:
        raise HandformerError(f"cannot train beside the walk: {err}") from None
    ids = list(tape.meta["tgt"]["ids"])
    seen = any(line[:-1] == ids for line in texts_ids(copy))
    return {"label": "trained", "epochs": EPOCHS, "pairs": len(model.dataset), "lr": LR,
            "loss": [losses[0], losses[-1]], "seen": seen, "step": PATTERN, "over": "tgt",
            **view(copy.params, model.config, ids, tape.meta["target"]["ids"])}


def untrained(initial: dict, config, epochs: int, ids: list[int], targets: list[int]) -> dict:
    """A checkpoint's model before training (``initial``: its initial weights) on the walk's
    text: shown beside the trained walk without any flag."""
    return {"label": "untrained", "epochs": epochs, "step": PATTERN, "over": "tgt",
            **view(initial, config, ids, targets)}


def view(params: dict, config, ids: list[int], targets: list[int]) -> dict:
    """What the comparison shows of one model on the walk's text."""
    tape = Tape(params)
    forward(tape, config, ids)
    p = tape["generator.probs"]
    return {"pattern": np.asarray(tape[PATTERN]).tolist(),
            "p_target": [float(p[t, i]) for t, i in enumerate(targets)],
            "picked": [int(i) for i in np.argmax(p, axis=-1)]}
