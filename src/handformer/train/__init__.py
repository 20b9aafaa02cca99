"""Training by hand: pairs and batches, loss, optimizers, epochs, checkpoints."""

from .checkpoint import DEFAULT_PATH, Checkpoint, CheckpointError
from .data import default_pairs, read_pairs
from .loop import Options, evaluate, fit, resume, start
from .optim import SGD, Adam, clip_grad_norm, warmup_lr

__all__ = ["DEFAULT_PATH", "SGD", "Adam", "Checkpoint", "CheckpointError", "Options",
           "clip_grad_norm", "default_pairs", "evaluate", "fit", "read_pairs", "resume", "start",
           "warmup_lr"]
