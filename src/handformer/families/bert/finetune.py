"""One fine-tuning step of a pretrained sentence encoder, by hand.

Two sentences A and B go through the model as one padded batch; the loss
L = 1 − cos(u_A, u_B) = 1 − e_A · e_B is small when their embeddings point the same way. The
reverse pass over the same tape gives every gradient (through the pooling, every layer, the
three embedding tables), and one plain SGD step θ ← θ − η g pulls the two embeddings together:
the loss of the same pair, computed again with the updated weights, is lower.
"""

from __future__ import annotations

import numpy as np

from ...engine.tape import Tape
from ...engine.update import sgd_update
from . import load
from . import model as bert
from .model import BertConfig

DEFAULT_LR = 0.1  # as the other families' --backward


def pair_tape(model: load.Pretrained, a: str, b: str, record: bool = True) -> Tape:
    """A and B forward as one batch (rows 0 and 1), then "loss": 1 − e_A · e_B."""
    tape = load.run(model, [a, b], record=record)
    tape.meta["loss"] = "cosine"
    tape.run("loss", "cosine_loss", ["pooling.normalized"], symbols={"out": "L", "x": "e"})
    return tape


def backward(tape: Tape, lr: float | None = None) -> None:
    """Every gradient (tape.grads), then one SGD update of every parameter (tape.updates) and
    the loss after it (tape.meta["update"]["loss_after"])."""
    sgd_update(tape, DEFAULT_LR if lr is None else lr, loss_with)


def loss_with(tape: Tape, params: dict[str, np.ndarray]) -> float:
    """The same pair's loss under other parameters (the updated ones): a second forward pass."""
    again = Tape(params, record=False)
    bert.forward(again, BertConfig.from_dict(tape.meta["config"]), tape["src.ids"], padding(tape))
    again.run("loss", "cosine_loss", ["pooling.normalized"])
    return float(again["loss"])


def padding(tape: Tape) -> np.ndarray:
    """The batch's [PAD] positions (True), from each sentence's count of tokens."""
    ids = tape["src.ids"]
    lengths = np.array([len(s["tokens"]) for s in tape.meta["sentences"]])
    return np.arange(ids.shape[-1])[None, :] >= lengths[:, None]
