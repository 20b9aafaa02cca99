"""Our engine against torch.nn.Transformer with the same weights: max |ours − torch| per stage.

Two runs: the sentence pair itself, and a padded batch of two (the pair and a shorter copy of
it), so the padding masks are checked too. Imported only by ``handformer verify`` and tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..engine.tape import Tape
from ..families.transformer.model import forward
from ..families.transformer.run import Setup
from ..text import PAD, make_example
from .torch_ref import TorchReference, check_expressible, import_torch


@dataclass
class StageDiff:
    """One stage's largest absolute difference, alone and in the padded batch."""

    name: str
    shape: tuple[int, ...]
    single: float
    batch: float

    @property
    def worst(self) -> float:
        return max(self.single, self.batch)


@dataclass
class Report:
    stages: list[StageDiff]
    tol: float
    batch_info: dict = field(default_factory=dict)

    @property
    def worst(self) -> StageDiff:
        return max(self.stages, key=lambda s: s.worst)

    @property
    def passed(self) -> bool:
        return all(s.worst <= self.tol for s in self.stages)


def padded_batch(src_ids: list[int], tgt_ids: list[int], pad_id: int,
                 tgt_pad_id: int | None = None):
    """Rows: the pair, and its first half (at least one token) padded at the end (the target
    with ``tgt_pad_id`` when its vocabulary is not the source's)."""
    rows_src = [src_ids, src_ids[: max(1, len(src_ids) // 2)]]
    rows_tgt = [tgt_ids, tgt_ids[: max(1, len(tgt_ids) // 2)]]
    return _pad(rows_src, pad_id) + _pad(rows_tgt, pad_id if tgt_pad_id is None else tgt_pad_id)


def _pad(rows: list[list[int]], pad_id: int):
    n = max(len(r) for r in rows)
    ids = np.array([r + [pad_id] * (n - len(r)) for r in rows])
    pad = np.array([[False] * len(r) + [True] * (n - len(r)) for r in rows])
    return ids, pad


def _pad_id(vocab) -> int:
    tokens = vocab.tokens
    return tokens.index(PAD) if PAD in tokens else 0


def ours(setup: Setup, src_ids, tgt_ids, src_pad=None, tgt_pad=None) -> Tape:
    """The NumPy engine's forward pass (no per-head views: only the stages are compared)."""
    tape = Tape(setup.params, record=False)
    forward(tape, setup.config, src_ids, tgt_ids, src_pad, tgt_pad)
    return tape


def max_diffs(tape: Tape, reference: dict[str, np.ndarray]) -> dict[str, float]:
    return {name: float(np.max(np.abs(tape[name] - ref))) for name, ref in reference.items()}


def verify(setup: Setup, src: str, tgt: str, tol: float = 1e-10) -> Report:
    """Run both engines on the pair and on a padded batch; every stage's largest difference."""
    check_expressible(setup.config)
    import_torch()
    example = make_example(setup.vocab, src, tgt, setup.config.max_len)
    ref = TorchReference(setup.params, setup.config)
    s_ids, s_pad, t_ids, t_pad = padded_batch(example.src_ids, example.tgt_ids,
                                              _pad_id(setup.vocab.source),
                                              _pad_id(setup.vocab.target))
    batch_ref = ref.stages(s_ids, t_ids, s_pad, t_pad)
    batch = max_diffs(ours(setup, s_ids, t_ids, s_pad, t_pad), batch_ref)
    # Row 0 of the batch is the pair itself, unpadded: torch's answer for it, compared with
    # our unbatched run (one torch pass fewer; `paper` is large).
    expected = {name: value[0] for name, value in batch_ref.items()}
    single = max_diffs(ours(setup, s_ids[0], t_ids[0]), expected)
    rows = [StageDiff(n, tuple(v.shape), single[n], batch[n]) for n, v in expected.items()]
    info = {"shape": tuple(s_ids.shape) + tuple(t_ids.shape[1:]),
            "src_pad": int(s_pad.sum()), "tgt_pad": int(t_pad.sum())}
    return Report(rows, tol, info)
