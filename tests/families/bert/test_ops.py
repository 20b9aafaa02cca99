"""The BERT ops (gelu, add3, mean_pool, l2_normalize, gram) and erf, against torch and by hand."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from handformer.engine.ops import OPS
from handformer.families.bert import ops as ops_bert
from support.torch_check import check_op

RNG = np.random.default_rng(55)


def test_erf_equals_math_erf_to_round_off():
    x = np.concatenate([np.linspace(-7, 7, 20001), [0.0, -0.0, 1e-300, 5.9999, 6.0, 6.01, 40.0,
                                                     -40.0, 0.015625, 0.0078125]])
    expected = np.array([math.erf(v) for v in x])
    np.testing.assert_allclose(ops_bert.erf(x), expected, rtol=0, atol=2.3e-16)


def test_erf_float32_matches_torch_float32():
    x = np.linspace(-8, 8, 4001, dtype=np.float32)
    ours = ops_bert.erf(x)
    assert ours.dtype == np.float32
    np.testing.assert_allclose(ours, torch.erf(torch.from_numpy(x)).numpy(), rtol=0, atol=2e-7)


def test_gelu_by_hand():
    """GELU(1) = Φ(1) = 0.841344746068543 (normal table); GELU(−1) = −(1 − Φ(1)); GELU(0) = 0."""
    out, _ = OPS["gelu"].forward(np.array([1.0, -1.0, 0.0]))
    np.testing.assert_allclose(out, [0.841344746068543, -0.158655253931457, 0.0], atol=1e-15)


@pytest.mark.parametrize("shape", [(7,), (3, 5), (2, 4, 6)])
def test_gelu_against_torch(shape):
    x = RNG.standard_normal(shape) * 3
    x.flat[0], x.flat[-1] = 9.0, -9.0  # the flat tails, where erf is ±1 in float64
    check_op("gelu", [x], lambda t: F.gelu(t, approximate="none"))


def test_add3_with_broadcasting():
    a, b, c = RNG.standard_normal((2, 5, 4)), RNG.standard_normal((5, 4)), RNG.standard_normal(4)
    check_op("add3", [a, b, c], lambda x, y, z: x + y + z)


def st_mean_pool(x, mask):
    """sentence-transformers' mean pooling: Σ m x / clamp(Σ m, 1e-9)."""
    m = mask.unsqueeze(-1).to(x.dtype)
    return (x * m).sum(-2) / torch.clamp(m.sum(-2), min=1e-9)


@pytest.mark.parametrize("batched", [False, True])
def test_mean_pool_with_padding_against_torch(batched):
    x = RNG.standard_normal((3, 6, 5) if batched else (6, 5))
    mask = np.array([[1, 1, 1, 1, 1, 1], [1, 1, 1, 0, 0, 0], [1, 1, 1, 1, 0, 0]], dtype=np.int8)
    mask = mask if batched else mask[1]
    check_op("mean_pool", [x], lambda t: st_mean_pool(t, torch.from_numpy(mask)),
             attrs={"weights": mask})


def test_mean_pool_by_hand_ignores_pad_rows():
    x = np.array([[1.0, 2.0], [3.0, 6.0], [100.0, -100.0]])
    out, _ = OPS["mean_pool"].forward(x, weights=np.array([1, 1, 0]))
    np.testing.assert_array_equal(out, [2.0, 4.0])


@pytest.mark.parametrize("shape", [(5,), (4, 7)])
def test_l2_normalize_against_torch(shape):
    x = RNG.standard_normal(shape)
    check_op("l2_normalize", [x], lambda t: F.normalize(t, p=2.0, dim=-1, eps=1e-12),
             attrs={"eps": 1e-12})


def test_l2_normalize_of_a_zero_vector_is_zero_like_torch():
    x = np.zeros((2, 3))
    x[1] = [3.0, 4.0, 0.0]
    out = check_op("l2_normalize", [x], lambda t: F.normalize(t, dim=-1, eps=1e-12),
                   attrs={"eps": 1e-12})
    np.testing.assert_allclose(out[1], [0.6, 0.8, 0.0], atol=1e-16)


def test_gram_against_torch():
    x = RNG.standard_normal((4, 6))
    check_op("gram", [x], lambda t: t @ t.T)


def test_gelu_gradient_equals_central_differences():
    x = RNG.standard_normal(40) * 2
    _, cdf = OPS["gelu"].forward(x)
    (grad,) = OPS["gelu"].backward(np.ones_like(x), None, (x,), cdf, {})
    h = 1e-6
    numeric = (OPS["gelu"].forward(x + h)[0] - OPS["gelu"].forward(x - h)[0]) / (2 * h)
    np.testing.assert_allclose(grad, numeric, rtol=0, atol=1e-9)


def test_formulas_fill_their_symbols():
    for name in ("gelu", "add3", "mean_pool", "l2_normalize", "gram"):
        assert "$" not in OPS[name].latex(), name
        assert "$" not in OPS[name].latex(grad=True), name
