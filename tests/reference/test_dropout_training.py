"""Dropout end to end: `handformer train`'s loop (train.loop.fit) runs a few SGD steps with
dropout 0.3, its masks drawn from the run's seeded generator; the NumPy reference, given the
same masks (read off each step's tape) and nothing else, computes every loss, gradient and
update itself and must land on the same weights, step after step, to 1e-12."""

import numpy as np
import pytest

from handformer.engine.tape import Tape
from handformer.families.transformer.config import preset
from handformer.train import loop
from handformer.train.data import default_pairs

from .check import close, sizes_of
from .model import Reference, sgd

CFG = preset("tutorial", dropout=0.3, seed=2)
LR = 0.05


class RecordingTape(Tape):
    """The engine's tape, remembered with a copy of the weights it started from."""

    made: list = []

    def __init__(self, params=None, record=True, dropout_rng=None, **options):
        super().__init__(params, record, dropout_rng, **options)
        self.start = {k: v.copy() for k, v in (params or {}).items()}
        RecordingTape.made.append(self)


@pytest.fixture(scope="module")
def trained():
    """Two epochs over the tutorial's 3 pairs, one pair a batch: 6 steps with dropout."""
    RecordingTape.made = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("handformer.families.transformer.loss.Tape", RecordingTape)
        options = loop.Options(epochs=2, batch_size=1, optimizer="sgd", momentum=0.0, lr=LR)
        run = loop.fit(loop.start(CFG, default_pairs(), options))
    steps = [t for t in RecordingTape.made if t.dropout_rng is not None]
    return run, steps


def masks_of(tape: Tape) -> dict:
    """The keep-mask of every dropout step, as the one pair of the batch sees it. Training's
    fused tape draws the attention pattern's inside its attention step (``mha``): there it is
    named as the step-by-step tape names it, ``{p}.pattern_dropout``."""
    masks = {s.name: s.attrs["keep"][0] for s in tape.steps if s.op == "dropout"}
    for s in tape.steps:
        if s.op == "mha" and s.attrs.get("keep") is not None:
            masks[s.name.replace(".out", ".pattern_dropout")] = s.attrs["keep"][0]
    return masks


def replay(tape: Tape, params: dict, masks: dict) -> Reference:
    ids = tape.index["src.ids"].value[0], tape.index["tgt.ids"].value[0]
    ref = Reference(sizes_of(CFG), params, masks)
    ref.run(*ids, tape.index["loss"].attrs["targets"][0])
    ref.backward()
    return ref


def test_six_steps_with_dropout_equal_the_reference(trained):
    run, steps = trained
    assert len(steps) == 6 and all(tape.fused for tape in steps)  # training's fused tape
    params = steps[0].start
    for number, tape in enumerate(steps, 1):
        for name in params:
            close(tape.start[name], params[name], f"step {number}: {name} before the step")
        ref = replay(tape, params, masks_of(tape))
        close(tape["loss"], ref.values["loss"], f"step {number}: the loss")
        params = sgd(params, ref.grads, LR)
    for name in params:
        close(run.params[name], params[name], f"{name} after 6 steps")


def test_the_masks_drop_something_everywhere_the_paper_puts_dropout(trained):
    _, steps = trained
    masks = masks_of(steps[0])
    assert {"src_embed.dropout", "tgt_embed.dropout", "encoder.0.self_attn.dropout",
            "encoder.0.self_attn.pattern_dropout", "encoder.0.ffn.dropout",
            "decoder.0.self_attn.pattern_dropout", "decoder.0.cross_attn.pattern_dropout",
            "decoder.0.cross_attn.dropout"} <= set(masks)
    dropped = np.mean([1 - m.mean() for m in masks.values()])
    assert 0.2 < dropped < 0.4  # p = 0.3
    first, second = steps[:3], steps[3:]  # each pair once per epoch
    for a in first:
        b = next(t for t in second if t["src.ids"].tolist() == a["src.ids"].tolist())
        assert any((masks_of(a)[n] != masks_of(b)[n]).any() for n in masks)  # a new draw


def test_without_the_masks_the_reference_would_differ(trained):
    """The masks matter: the same step without dropout gives another loss."""
    _, steps = trained
    with_masks = replay(steps[0], steps[0].start, masks_of(steps[0])).values["loss"]
    without = replay(steps[0], steps[0].start, {}).values["loss"]
    assert abs(with_masks - without) > 1e-3
