"""The decoder-only model saved and read back: the shared checkpoint format (train/checkpoint.py)
with ``family: "gpt"``, its texts kept with it so a walk of the checkpoint shows the lines it
learned from."""

from __future__ import annotations

from ...errors import CheckpointError
from ...schema import SchemaError, strings
from .run import Model


def save(path: str, model: Model, history: list[float], lr: float) -> None:
    """Write the trained model (its parameters, config, vocabulary, texts and loss curve)."""
    from ...train.checkpoint import Checkpoint
    from ...train.checkpoint import save as write

    run = {"texts": list(model.dataset), "options": {"lr": lr, "steps": len(history)}}
    write(path, Checkpoint(model.config, model.vocab, model.params, {"name": "adam"},
                           epoch=len(history), history=[{"loss": x} for x in history],
                           run=run, family="gpt"))


def load(path: str) -> Model:
    """A gpt checkpoint as a ready model; another family's checkpoint is refused by name."""
    from ...train.checkpoint import load as read

    ckpt = read(path, family="gpt")
    try:
        texts = strings(ckpt.run.get("texts", []), "run.texts", 100_000)
    except SchemaError as err:
        raise CheckpointError(f"{path!r} has unreadable metadata: {err}") from None
    losses = [h["loss"] for h in ckpt.history]
    trained = {"checkpoint": str(path), "epochs": ckpt.epoch,
               "loss": losses[-1] if losses else None}
    return Model(ckpt.config, list(texts), ckpt.vocab, ckpt.params, trained)
