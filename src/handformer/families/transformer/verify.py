"""Our engine against torch with the same weights: max |ours − torch| per stage and per
parameter gradient.

The reference is torch.nn.Transformer where it can express the config, else the same model
written with torch's functions (torch_mirror.py: the tutorial preset's d_k 4 with d_model 6,
its two decoder heads, ...). Two runs: the sentence pair itself, and a padded batch of two (the
pair and a shorter copy of it), so the padding masks are checked too. Imported only by
``handformer verify`` and tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...engine import finite
from ...engine.tape import Tape
from ...interop.torch_ref import import_torch
from ...text import PAD, make_example
from .model import forward
from .run import Setup
from .torch_mirror import TorchMirror
from .torch_ref import TorchReference, check_expressible, torch_unsupported

REFERENCES = ("auto", "nn", "functional")


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
    grads: list[StageDiff] = field(default_factory=list)  # ∂L/∂θ, one row per parameter
    reference: str = "nn"  # "nn": torch.nn.Transformer; "functional": torch_mirror.py
    unsupported: list[str] = field(default_factory=list)  # why nn could not be used

    @property
    def rows(self) -> list[StageDiff]:
        return self.stages + self.grads

    @property
    def worst(self) -> StageDiff:
        return max(self.rows, key=lambda s: s.worst)

    @property
    def passed(self) -> bool:
        return all(s.worst <= self.tol for s in self.rows)


def padded_batch(src_ids: list[int], tgt_ids: list[int], pad_id: int,
                 tgt_pad_id: int | None = None):
    """Rows: the pair, and its first half (at least one token) padded at the end (the target
    with ``tgt_pad_id`` when its vocabulary is not the source's)."""
    return _pad(_rows(src_ids), pad_id) + _pad(_rows(tgt_ids),
                                               pad_id if tgt_pad_id is None else tgt_pad_id)


def _rows(ids: list[int]) -> list[list[int]]:
    """The batch's rows of one side: the whole sentence, and its first half (at least one)."""
    return [ids, ids[: max(1, len(ids) // 2)]]


def _pad(rows: list[list[int]], pad_id: int):
    n = max(len(r) for r in rows)
    ids = np.array([r + [pad_id] * (n - len(r)) for r in rows])
    pad = np.array([[False] * len(r) + [True] * (n - len(r)) for r in rows])
    return ids, pad


def _pad_id(vocab) -> int:
    tokens = vocab.tokens
    return tokens.index(PAD) if PAD in tokens else 0


def ours(setup: Setup, src_ids, tgt_ids, src_pad=None, tgt_pad=None) -> Tape:
    """The NumPy engine's forward pass (no per-head views: only the stages are compared); a
    step that overflows float64 stops the verification, naming it (engine/finite.py)."""
    tape = Tape(setup.params, record=False)
    with finite.quiet():
        forward(tape, setup.config, src_ids, tgt_ids, src_pad, tgt_pad)
    finite.check(tape)
    return tape


def max_diffs(tape: Tape, reference: dict[str, np.ndarray]) -> dict[str, float]:
    return {name: float(np.max(np.abs(tape[name] - ref))) for name, ref in reference.items()}


def choose_reference(cfg, reference: str = "auto") -> str:
    """"nn" when torch.nn.Transformer can build ``cfg`` (or is asked for: then a config it
    cannot build is refused, naming why), "functional" otherwise or when asked for."""
    if reference not in REFERENCES:
        raise ValueError(f"reference must be one of {REFERENCES}, not {reference!r}")
    if reference == "nn":
        check_expressible(cfg)
    if reference == "auto":
        return "functional" if torch_unsupported(cfg) else "nn"
    return reference


def verify(setup: Setup, src: str, tgt: str, tol: float = 1e-10,
           reference: str = "auto") -> Report:
    """Run both engines on the pair and on a padded batch; every stage's and every parameter
    gradient's largest difference."""
    kind = choose_reference(setup.config, reference)
    import_torch()
    example = make_example(setup.vocab, src, tgt, setup.config.max_len)
    ref = (TorchReference if kind == "nn" else TorchMirror)(setup.params, setup.config)
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
    targets = _pad(_rows(example.out_ids), _pad_id(setup.vocab.target))[0]  # as the target rows
    grads = gradient_rows(setup, ref, (s_ids, t_ids, s_pad, t_pad), targets)
    return Report(rows, tol, info, grads, kind, torch_unsupported(setup.config))


def gradient_rows(setup: Setup, ref, batch, targets) -> list[StageDiff]:
    """∂L/∂θ of the cross-entropy loss (label smoothing as configured) for every parameter:
    the pair alone (row 0) and the padded batch (padded positions weigh 0)."""
    s_ids, t_ids, s_pad, t_pad = batch
    weights = (~t_pad).astype(np.float64)
    single = _grad_gaps(setup, ref, (s_ids[0], t_ids[0]), targets[0], weights[0])
    padded = _grad_gaps(setup, ref, batch, targets, weights)
    return [StageDiff(name, shape, gap, padded[name][1]) for name, (shape, gap) in single.items()]


def _grad_gaps(setup: Setup, ref, ids, targets, weights) -> dict[str, tuple[tuple, float]]:
    """Each row's shape and largest |ours − torch|, the loss first; one side's gradients are
    dropped as soon as they are compared (`paper` has 44M of them)."""
    smoothing = setup.config.label_smoothing
    loss, ours = _our_grads(setup, ids, targets, weights, smoothing)
    ref_loss, theirs = ref.loss_grads(*ids[:2], targets, weights, smoothing, *ids[2:])
    gaps = {"loss L": ((), abs(loss - ref_loss))}
    for name in list(theirs):
        g = theirs.pop(name)
        gaps[f"∂L/∂{name}"] = (tuple(g.shape), _gap(ours.pop(name), g))
    return gaps


def _our_grads(setup: Setup, ids, targets, weights, smoothing) -> tuple[float, dict]:
    tape = Tape(setup.params, record=False, fused=True)  # as training computes them
    with finite.quiet():
        logits = forward(tape, setup.config, *ids)
        tape.run("loss", "cross_entropy", [logits],
                 {"targets": np.asarray(targets), "weights": weights, "smoothing": smoothing})
        grads = tape.backward("loss")
    finite.check(tape)
    return float(tape["loss"]), grads


def _gap(a, b) -> float:
    return float(np.max(np.abs(np.asarray(a) - b))) if np.size(b) else 0.0
