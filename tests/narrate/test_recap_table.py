"""The recap's before/after table (issue 19, part 6): each position's p(target) and predicted
word before and after the one SGD step (recomputed in PyTorch: gradients by autograd, the step
by hand, a second forward pass), and untrained against trained for a checkpoint (the untrained
side recomputed from the checkpoint's config and seed); the shapes along the way."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import handformer
from handformer.cli import main
from handformer.families.transformer.config import Config
from handformer.narrate import build

torch = pytest.importorskip("torch")


def recap(tape, lang="en"):
    return next(s for s in build(tape, lang) if s.id == "recap")


def table_of(section):
    return next(m for m in section.equation if m.name == "recap.p_target")


def test_the_update_table_is_the_second_forward_pass_in_torch():
    from handformer.families.transformer.torch_ref import TorchReference

    lr = 0.05
    tape = handformer.walk(preset="small", backward=True, lr=lr)
    cfg = Config.from_dict(tape.meta["config"])
    src, tgt = np.asarray(tape.meta["src"]["ids"]), np.asarray(tape.meta["tgt"]["ids"])
    target = np.asarray(tape.meta["target"]["ids"])
    params = {k: np.array(v) for k, v in tape.params.items()}
    before = TorchReference(params, cfg)
    loss, grads = before.loss_grads(src, tgt, target, np.ones(target.shape))
    stepped = {k: v - lr * grads[k] if k in grads else v for k, v in params.items()}

    def probs(ref):
        logits = ref.stages(src, tgt)["generator.logits"]
        e = np.exp(logits - logits.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)

    p0, p1 = probs(before), probs(TorchReference(stepped, cfg))
    section = recap(tape)
    table = table_of(section)
    rows = np.arange(len(target))
    np.testing.assert_allclose(table.value[:, 0], p0[rows, target], rtol=1e-9)
    np.testing.assert_allclose(table.value[:, 1], p1[rows, target], rtol=1e-9)
    vocab = tape.meta["vocab"]
    words = [" ".join(vocab[i] for i in np.argmax(p, -1)) for p in (p0, p1)]
    told = next(t for t in section.paragraphs if t.startswith("Predicted words"))
    assert f"“{words[0]}”" in told and f"“{words[1]}”" in told
    assert [r.split(" → ")[1] for r in table.rows] == [vocab[i] for i in target]
    # the loss after the step, from the same torch pass
    logp = np.log(p1[rows, target])
    assert tape.meta["update"]["loss_after"] == pytest.approx(-logp.mean(), rel=1e-9)


def test_the_trained_table_sets_the_untrained_walk_beside_the_trained_one(tmp_path):
    path = tmp_path / "t.ckpt"
    done = CliRunner().invoke(main, ["train", "--quiet", "--epochs", "20", "--save", str(path)])
    assert done.exit_code == 0, done.output
    from handformer.engine.tape import Tape
    from handformer.families.transformer.model import forward, init_params

    trained = handformer.walk(checkpoint=str(path))
    # the untrained model: the checkpoint's config and seed, freshly drawn, one forward pass
    cfg = Config.from_dict(trained.meta["config"])
    untrained = Tape(init_params(cfg, len(trained.meta["vocab"])), record=False)
    forward(untrained, cfg, np.asarray(trained.meta["src"]["ids"]),
            np.asarray(trained.meta["tgt"]["ids"]))
    target = np.asarray(trained.meta["target"]["ids"])
    rows = np.arange(len(target))
    p_then = np.asarray(untrained["generator.probs"])[rows, target]
    p_now = np.asarray(trained.index["generator.probs"].value)[rows, target]
    for lang in ("en", "zh"):
        section = recap(trained, lang)
        table = table_of(section)
        np.testing.assert_allclose(table.value[:, 0], p_then, rtol=1e-9)
        np.testing.assert_allclose(table.value[:, 1], p_now, rtol=1e-9)
    section = recap(trained)
    loss_then = -np.log(p_then).mean()
    loss_now = -np.log(p_now).mean()
    assert any(f"{loss_then:.3f} untrained, {loss_now:.3f} trained" in t for t in section.paragraphs)
    assert table_of(section).cols == ["θ₀", "θ"]  # the same in every language
    assert any("untrained (weights θ₀) and trained (weights θ)" in t for t in section.paragraphs)


def test_the_recap_tells_the_shapes_along_the_way():
    tape = handformer.walk()
    src, tgt = len(tape.meta["src"]["ids"]), len(tape.meta["tgt"]["ids"])
    d, v = tape.meta["config"]["d_model"], len(tape.meta["vocab"])
    told = " ".join(recap(tape).paragraphs)
    assert f"{src}×{d} matrix" in told and f"M, {src}×{d}" in told
    assert f"{tgt}×{v} logits" in told
    zh = " ".join(recap(tape, "zh").paragraphs)
    assert f"{tgt}×{v} 的对数几率" in zh
    assert table_of_or_none(recap(tape)) is None  # a forward walk has no second pass to show


def table_of_or_none(section):
    return next((m for m in section.equation if m.name == "recap.p_target"), None)
