"""Optimizers against torch.optim on the same gradients; the warm-up schedule by hand; clipping."""

import math

import numpy as np
import pytest
import torch

from handformer.errors import HandformerError
from handformer.train.optim import SGD, Adam, clip_grad_norm, make_optimizer, warmup_lr

SHAPES = {"w": (3, 4), "b": (4,)}


def gradient_sequence(steps, seed=0):
    rng = np.random.default_rng(seed)
    return [{k: rng.normal(size=s) for k, s in SHAPES.items()} for _ in range(steps)]


def run_both(ours_factory, torch_factory, steps=7):
    rng = np.random.default_rng(1)
    start = {k: rng.normal(size=s) for k, s in SHAPES.items()}
    ours = {k: v.copy() for k, v in start.items()}
    theirs = {k: torch.tensor(v, requires_grad=True) for k, v in start.items()}
    opt, topt = ours_factory(ours), torch_factory(list(theirs.values()))
    for grads in gradient_sequence(steps):
        opt.step({k: g.copy() for k, g in grads.items()})
        for k, t in theirs.items():
            t.grad = torch.tensor(grads[k])
        topt.step()
    return ours, {k: t.detach().numpy() for k, t in theirs.items()}


@pytest.fixture(params=["flat", "per array"])
def update_path(request, monkeypatch):
    """Both ways an optimizer updates: these small models' parameters as one flat array
    (train/flat.py), and array by array, as for a model above the flat limit."""
    if request.param == "per array":
        monkeypatch.setattr("handformer.train.flat.FLAT_LIMIT", 0)
    return request.param


@pytest.mark.parametrize("momentum", [0.0, 0.9])
def test_sgd_matches_torch(momentum, update_path):
    ours, theirs = run_both(lambda p: SGD(p, 0.05, momentum),
                            lambda p: torch.optim.SGD(p, lr=0.05, momentum=momentum))
    for k in ours:
        np.testing.assert_allclose(ours[k], theirs[k], rtol=0, atol=1e-14)


def test_adam_matches_torch_with_the_papers_betas(update_path):
    ours, theirs = run_both(lambda p: Adam(p, 0.01, (0.9, 0.98), 1e-9),
                            lambda p: torch.optim.Adam(p, lr=0.01, betas=(0.9, 0.98), eps=1e-9))
    for k in ours:
        np.testing.assert_allclose(ours[k], theirs[k], rtol=0, atol=1e-14)


def test_adam_first_step_by_hand():
    # step 1: m̂ = g, v̂ = g², so θ moves by lr · g / (|g| + ε) = lr · sign(g), nearly
    p = {"w": np.array([1.0, -2.0])}
    Adam(p, 0.1, (0.9, 0.98), 1e-9).step({"w": np.array([0.5, -3.0])})
    np.testing.assert_allclose(p["w"], [1.0 - 0.1 * 0.5 / (0.5 + 1e-9),
                                        -2.0 + 0.1 * 3.0 / (3.0 + 1e-9)], rtol=1e-15)


def test_warmup_schedule_by_hand():
    # d_model 512, warmup 4000 (the paper): rises linearly, peaks at step 4000, then 1/√step
    assert warmup_lr(1, 512, 4000) == pytest.approx(1 / math.sqrt(512) * 1 / 4000 ** 1.5)
    assert warmup_lr(4000, 512, 4000) == pytest.approx(1 / math.sqrt(512 * 4000))
    assert warmup_lr(4000, 512, 4000) == pytest.approx(6.98771242e-4, rel=1e-8)
    assert warmup_lr(16000, 512, 4000) == pytest.approx(1 / math.sqrt(512) / 126.49110640673518)
    assert warmup_lr(2000, 512, 4000) == pytest.approx(warmup_lr(4000, 512, 4000) / 2)
    assert warmup_lr(100, 6, 10, factor=2.0) == pytest.approx(2 / math.sqrt(6) / 10)


def test_clipping_matches_torch():
    grads = gradient_sequence(1)[0]
    tensors = [torch.tensor(g, requires_grad=True) for g in grads.values()]
    for t, g in zip(tensors, grads.values(), strict=True):
        t.grad = torch.tensor(g)
    expected = torch.nn.utils.clip_grad_norm_(tensors, 0.5)
    total = clip_grad_norm(grads, 0.5)
    assert total == pytest.approx(float(expected), rel=1e-14)
    for t, g in zip(tensors, grads.values(), strict=True):
        np.testing.assert_allclose(g, t.grad.numpy(), rtol=1e-14)
    assert math.sqrt(sum((g * g).sum() for g in grads.values())) == pytest.approx(0.5, rel=1e-5)


def test_float32_parameters_stay_float32(update_path):
    p = {"w": np.ones(3, dtype=np.float32)}
    opt = Adam(p, 0.1)
    opt.step({"w": np.ones(3, dtype=np.float32)})
    assert p["w"].dtype == np.float32 and opt.state["m.w"].dtype == np.float32


def test_bad_optimizer_settings_are_refused():
    with pytest.raises(HandformerError, match="positive"):
        make_optimizer("adam", {}, 0.0)
    with pytest.raises(HandformerError, match="unknown optimizer"):
        make_optimizer("rmsprop", {}, 0.1)
