"""On the tutorial preset (which torch cannot express), every parameter's gradient equals
central finite differences (L(θ + h) − L(θ − h)) / 2h to 1e-6 relative."""

import numpy as np
import pytest

from handformer.families.transformer.config import preset
from handformer.families.transformer.loss import batch_loss
from handformer.families.transformer.model import init_params
from handformer.train.data import default_pairs, encode_pairs, make_batch, pairs_vocab

H = 1e-5


def finite_difference(params, cfg, batch, name):
    value = params[name]
    grad = np.zeros_like(value)
    for index in np.ndindex(value.shape):
        keep = value[index]
        value[index] = keep + H
        up = batch_loss(params, cfg, batch, backward=False).loss
        value[index] = keep - H
        down = batch_loss(params, cfg, batch, backward=False).loss
        value[index] = keep
        grad[index] = (up - down) / (2 * H)
    return grad


@pytest.mark.slow
def test_tutorial_gradients_equal_central_differences():
    # label smoothing on: both terms of the loss are checked (without it: test_grad_torch)
    cfg = preset("tutorial", label_smoothing=0.1)
    pairs = default_pairs()
    vocab = pairs_vocab(pairs)
    batch = make_batch(vocab, encode_pairs(vocab, pairs, cfg.max_len))  # padded: 3 lengths
    params = init_params(cfg, len(vocab))
    analytic = batch_loss(params, cfg, batch).grads
    assert set(analytic) == set(params)
    for name in params:
        numeric = finite_difference(params, cfg, batch, name)
        scale = np.linalg.norm(numeric)
        assert scale > 1e-8, f"{name}: zero gradient, nothing checked"
        error = np.linalg.norm(analytic[name] - numeric) / scale
        assert error < 1e-6, f"{name}: relative error {error:.2e}"
