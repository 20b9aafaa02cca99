"""How a run trains: the options `handformer train` sets, saved in the checkpoint so that
--resume continues the same run, and their checks."""

from __future__ import annotations

import math
import typing
from dataclasses import dataclass

from ..errors import HandformerError
from ..schema import SchemaError, typed
from ..tokenize import TOKENIZERS

MAX_LR = 100.0


@dataclass
class Options:
    """How to train (saved in the checkpoint so that --resume continues the same run)."""

    epochs: int = 200
    lr: float | None = 0.01  # None: the rule of resolve_schedule
    optimizer: str = "adam"
    momentum: float = 0.9
    batch_size: int = 16
    schedule: str = "constant"  # or "warmup": the paper's, lr is then its factor
    warmup: int | None = 4000  # None: the rule of resolve_schedule
    clip: float | None = None
    dtype: str = "float64"
    tokenizer: str = "tutorial"
    vocab_size: int | None = None  # keep the most frequent words; the rest read <unk>
    min_count: int = 1  # words seen fewer times read <unk>
    shared_vocab: bool = True  # one vocabulary for both sides; False: one per side (text.Sides)
    by_length: bool = False  # batches of similar lengths (less padding)
    patience: int | None = None  # stop after this many epochs without a better validation score
    stop_on: str = "loss"  # the validation score: "loss" (lower is better) or "bleu" (higher)
    bleu_pairs: int | None = None  # BLEU on the first N validation pairs only (None: all)
    limit: int | None = None  # train on the source's first pairs only
    bleu: bool = False  # BLEU of greedy translations of the validation pairs, every epoch
    time_budget: float | None = None  # minutes of training (train/budget.py); None: no limit
    total_steps: int | None = None  # the warm-up schedule's last step, fitted to time_budget
    target_bpe: int | None = None  # merges of a byte-level BPE target vocabulary (None: words)

    def check(self) -> None:
        if self.epochs < 1 or self.batch_size < 1 or self.warmup < 1:
            raise HandformerError("epochs, batch_size and warmup must be at least 1")
        for name in ("min_count", "vocab_size", "patience", "limit", "bleu_pairs", "total_steps",
                     "target_bpe"):
            if getattr(self, name) is not None and getattr(self, name) < 1:
                raise HandformerError(f"{name} must be at least 1")
        if self.stop_on not in ("loss", "bleu") or (self.stop_on == "bleu" and not self.bleu):
            raise HandformerError(f"stop_on must be loss, or bleu with validation BLEU on, got "
                                  f"{self.stop_on!r}")
        if self.schedule not in ("constant", "warmup"):
            raise HandformerError(f"schedule must be constant or warmup, got {self.schedule!r}")
        if self.dtype not in ("float64", "float32"):
            raise HandformerError(f"dtype must be float64 or float32, got {self.dtype!r}")
        if self.time_budget is not None and not 0 < self.time_budget < math.inf:
            raise HandformerError(f"time_budget must be a positive number of minutes, got "
                                  f"{self.time_budget}")
        if self.target_bpe is not None and self.shared_vocab:
            raise HandformerError("--target-bpe makes the target's own vocabulary: it needs one "
                                  "vocabulary per side (drop --shared-vocab)")
        if self.clip is not None and not 0 < self.clip < math.inf:
            raise HandformerError(f"clip must be a positive number, got {self.clip}")
        if not 0 < self.lr <= MAX_LR:
            raise HandformerError(f"lr must be a positive number at most {MAX_LR} (far above "
                                  f"any rate that trains), got {self.lr}")
        if self.tokenizer not in TOKENIZERS:
            raise HandformerError(f"tokenizer must be one of {', '.join(TOKENIZERS)}, got "
                                  f"{self.tokenizer!r}")
        if self.optimizer not in ("adam", "sgd"):
            raise HandformerError(f"optimizer must be adam or sgd, got {self.optimizer!r}")
        if not 0 <= self.momentum < 1:
            raise HandformerError(f"momentum must be in [0, 1), got {self.momentum}")

    @classmethod
    def from_dict(cls, data: dict) -> Options:
        """Options saved in a checkpoint, each field type-checked (the file may be crafted)."""
        hints = typing.get_type_hints(cls)
        unknown = sorted(set(data) - set(hints))
        if unknown:
            raise SchemaError(f"run.options has unknown field(s): {', '.join(unknown)}")
        return cls(**{k: typed(v, hints[k], f"run.options.{k}") for k, v in data.items()})
