"""Every op's forward and backward against its torch counterpart, through one helper.

torch runs the same computation in float64 with autograd; our backward gets the same upstream
gradient G, so ∂⟨out, G⟩/∂arg is compared for every differentiable argument.
"""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from handformer.engine.ops import OPS
from handformer.engine.ops import basic as ops_basic
from handformer.engine.ops.attention import heads_side_by_side
from handformer.families.transformer import errata
from support.torch_check import RNG, check_op, randn


def test_embed_with_repeated_ids_and_a_batch():
    table = randn(7, 4)
    for ids in (np.array([3, 1, 3, 3, 0]), np.array([[2, 2, 6], [6, 0, 2]])):
        check_op("embed", [ids, table], lambda i, t: F.embedding(i, t), diff=[1])


def test_embed_gradient_of_many_ids_summed_in_sorted_runs():
    # 64 ids and more take the sorted np.add.reduceat path (ops.basic.scatter_rows): every row
    # repeated, some rows never looked up (their gradient stays 0)
    table = randn(9, 4)
    ids = RNG.integers(0, 7, (4, 50))
    check_op("embed", [ids, table], lambda i, t: F.embedding(i, t), diff=[1])


def _scatter_by_runs_only(ids, rows, table):
    # scatter_rows before ids seen once were copied: every run summed by np.add.reduceat
    grad = np.zeros_like(table)
    order = np.argsort(ids, kind="stable")
    ids = ids[order]
    starts = np.flatnonzero(np.concatenate(([True], ids[1:] != ids[:-1])))
    grad[ids[starts]] = np.add.reduceat(rows[order], starts, axis=0)
    return grad


SCATTER_IDS = {  # 200 ids: each kind of run scatter_rows meets
    "mostly once, a padding id repeated": np.concatenate([np.zeros(30, int),
                                                          RNG.integers(1, 5000, 170)]),
    "once and repeated": RNG.integers(0, 300, 200),
    "always repeated": RNG.integers(0, 40, 200),
    "all once": RNG.permutation(5000)[:200],
}


@pytest.mark.parametrize("case", SCATTER_IDS)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_embed_gradient_copies_ids_seen_once_and_sums_the_runs_as_before(case, dtype):
    ids = SCATTER_IDS[case]
    rows, table = randn(200, 16).astype(dtype), np.zeros((5000, 16), dtype)
    grad = ops_basic.scatter_rows(ids, rows, table)
    assert grad.dtype == dtype
    np.testing.assert_array_equal(grad, _scatter_by_runs_only(ids, rows, table))


def test_embed_gradient_of_ids_seen_once_and_repeated_against_torch():
    table = randn(300, 4)
    check_op("embed", [SCATTER_IDS["once and repeated"].reshape(4, 50), table],
             lambda i, t: F.embedding(i, t), diff=[1])


@pytest.mark.parametrize("shape", [(5, 6), (2, 5, 6)])
def test_scale(shape):
    check_op("scale", [randn(*shape)], lambda x: x * math.sqrt(6), {"factor": math.sqrt(6)})


@pytest.mark.parametrize("a_shape,b_shape", [((5, 6), (5, 6)), ((3, 5, 6), (5, 6)),
                                             ((3, 5, 6), (6,)), ((3, 1, 6), (3, 5, 6))])
def test_add_with_broadcasting(a_shape, b_shape):
    check_op("add", [randn(*a_shape), randn(*b_shape)], lambda a, b: a + b)


@pytest.mark.parametrize("x_shape", [(5, 6), (3, 5, 6)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear(x_shape, bias):
    args = [randn(*x_shape), randn(6, 4)] + ([randn(4)] if bias else [])
    check_op("linear", args, lambda x, w, *b: F.linear(x, w.T, *b))


def torch_heads(x, w, *b, heads):
    """torch's multi_head_attention_forward: project, view (…, n, h, d_k), heads before rows."""
    y = F.linear(x, w.T, *b)
    return y.unflatten(-1, (heads, -1)).transpose(-2, -3)


@pytest.mark.parametrize("x_shape", [(5, 6), (2, 5, 6)])
@pytest.mark.parametrize("bias", [True, False])
def test_head_proj(x_shape, bias):
    args = [randn(*x_shape), randn(6, 3 * 4)] + ([randn(12)] if bias else [])
    out = check_op("head_proj", args, lambda *a: torch_heads(*a, heads=3), {"heads": 3})
    assert out.shape == (*x_shape[:-1][:-1], 3, x_shape[-2], 4)


# (24,): 24·3·5·7 scores, above ops.basic.SMALL: the products write their heads side by side
@pytest.mark.parametrize("batch", [(), (2,), (24,)])
def test_scores_and_attend(batch):
    q, k, v = randn(*batch, 3, 5, 4), randn(*batch, 3, 7, 4), randn(*batch, 3, 7, 2)
    check_op("scores", [q, k], lambda q, k: q @ k.transpose(-1, -2) / 2.0, {"scale": 0.5})
    a = torch.softmax(torch.tensor(randn(*batch, 3, 5, 7)), -1).numpy()
    check_op("attend", [a, v], lambda a, v: a @ v)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_products_laid_out_heads_side_by_side_are_the_plain_products(dtype):
    # attention.heads_side_by_side: the same numbers to the bit, and Concat then a view
    a = randn(4, 8, 32, 32).astype(dtype)
    v = randn(4, 32, 8 * 16).astype(dtype).reshape(4, 32, 8, 16).swapaxes(1, 2)
    z = heads_side_by_side(a, v)
    np.testing.assert_array_equal(z, a @ v)
    concat = OPS["merge_heads"].forward(z)[0]
    assert concat.dtype == dtype and np.shares_memory(concat, z)
    np.testing.assert_array_equal(concat, (a @ v).swapaxes(1, 2).reshape(4, 32, 128))
    # stacks that do not match (broadcast) keep the plain product
    np.testing.assert_array_equal(heads_side_by_side(a, v[0]), a @ v[0])


def test_mask_causal_and_padding_broadcast():
    s = randn(2, 3, 4, 4)
    causal = np.tril(np.ones((4, 4), dtype=bool))
    pad = np.array([[False, False, False, True], [False, False, True, True]])
    for allowed in (causal, causal & ~pad[:, None, None, :]):
        out = check_op("mask", [s], lambda s, m=allowed: s.masked_fill(~torch.tensor(m),
                                                                        float("-inf")),
                       {"allowed": allowed})
        assert np.isneginf(out[0, 0, 0, 1:]).all()


def check_in_place(name, x, torch_fn, attrs):
    """The training tape's in-place variant of an op: its forward overwrites x with torch's
    output, its backward overwrites g with torch autograd's gradient."""
    tx = torch.tensor(x, requires_grad=True)
    expected = torch_fn(tx)
    g = randn(*x.shape)
    (expected * torch.tensor(g)).sum().backward()
    attrs = attrs | {"in_place": True}
    out, cache = OPS[name].forward(x, **attrs)
    assert out is x
    np.testing.assert_array_equal(out, expected.detach().numpy())
    (grad,) = OPS[name].backward(g, out, [x], cache, attrs)
    np.testing.assert_array_equal(grad, tx.grad.numpy())


def test_mask_and_relu_in_place_on_the_training_tape():
    causal = np.tril(np.ones((4, 4), dtype=bool))
    pad = np.array([[False, False, False, True], [False, False, True, True]])
    for allowed in (causal, causal & ~pad[:, None, None, :]):
        check_in_place("mask", randn(2, 3, 4, 4), lambda s, m=allowed: s.masked_fill(
            ~torch.tensor(m), float("-inf")), {"allowed": allowed})
    x = randn(2, 5, 6)
    expected = F.relu(torch.tensor(x)).numpy()
    out, _ = OPS["relu"].forward(x, in_place=True)  # its backward reads out: unchanged
    assert out is x
    np.testing.assert_array_equal(out, expected)


def test_softmax_with_minus_infinity():
    s = randn(2, 3, 4, 4)
    s[..., np.triu_indices(4, 1)[0], np.triu_indices(4, 1)[1]] = -np.inf
    out = check_op("softmax", [s], lambda s: torch.softmax(s, dim=-1))
    np.testing.assert_allclose(out.sum(-1), 1.0, atol=1e-15)
    assert (out[..., 0, 1:] == 0).all()


def test_softmax_over_many_short_rows():
    # 16·4·16 rows of 16 keys (the small config's scores) take ops.basic.row_max's column path;
    # large values and a causal mask check the shift by each row's own maximum
    s = randn(16, 4, 16, 16) * 300.0
    s[..., np.triu_indices(16, 1)[0], np.triu_indices(16, 1)[1]] = -np.inf
    check_op("softmax", [s], lambda s: torch.softmax(s, dim=-1))
    np.testing.assert_array_equal(ops_basic.row_max(s), torch.tensor(s).amax(-1, True).numpy())


def test_softmax_large_values_do_not_overflow():
    check_op("softmax", [randn(3, 5) * 1000.0], lambda s: torch.softmax(s, dim=-1))


@pytest.mark.parametrize("batch", [(), (2,)])
def test_merge_heads_and_select_head(batch):
    z = randn(*batch, 3, 5, 4)
    check_op("merge_heads", [z], lambda z: z.transpose(-2, -3).flatten(-2))
    check_op("select_head", [z], lambda z: z[..., 1, :, :], {"index": 1})


@pytest.mark.parametrize("x_shape", [(5, 6), (2, 5, 6), (3, 40, 64)])
@pytest.mark.parametrize("blas_means", [False, True])
def test_layer_norm(x_shape, blas_means):
    # blas_means: the training tape's row means, as BLAS products; (3, 40, 64) is past the size
    # where row_sum turns to BLAS too
    d = x_shape[-1]
    args = [randn(*x_shape) * 3 + 1, randn(d), randn(d)]
    attrs = {"eps": 1e-5} | ({"blas_means": True} if blas_means else {})
    check_op("layer_norm", args, lambda x, g, b: F.layer_norm(x, (d,), g, b, eps=1e-5), attrs)


def test_relu_identity_dropout():
    x = randn(2, 5, 6)
    check_op("relu", [x], F.relu)
    check_op("identity", [x], lambda x: x * 1)
    keep = RNG.random(x.shape) >= 0.3
    check_op("dropout", [x], lambda x: x * torch.tensor(keep) / 0.7, {"keep": keep, "p": 0.3})


@pytest.mark.parametrize("smoothing", [0.0, 0.1])
def test_cross_entropy_with_label_smoothing_and_pad_weights(smoothing):
    pad = 7
    logits = randn(3, 5, 9) * 2
    targets = RNG.integers(0, 9, (3, 5))
    targets[0, 3:] = pad
    targets[2, 1:] = pad
    weights = (targets != pad).astype(np.float64)

    def reference(z):  # torch's own pad handling: ignore_index, mean over the others
        return F.cross_entropy(z.reshape(-1, 9), torch.tensor(targets.reshape(-1)),
                               ignore_index=pad, label_smoothing=smoothing)

    check_op("cross_entropy", [logits], reference,
             {"targets": targets, "weights": weights, "smoothing": smoothing})


def test_cross_entropy_unbatched():
    targets = np.array([1, 0, 4])
    check_op("cross_entropy", [randn(3, 5)],
             lambda z: F.cross_entropy(z, torch.tensor(targets)),
             {"targets": targets, "weights": np.ones(3), "smoothing": 0.0})


def test_positional_encoding_against_torch_and_by_hand():
    n, d = 7, 6
    out, _ = OPS["positional"].forward(n=n, d=d)
    # The Annotated Transformer's torch formula, with div_term = exp(−2i·ln(10000)/d).
    pos = torch.arange(n, dtype=torch.float64)[:, None]
    div = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * -(math.log(10000.0) / d))
    pe = torch.zeros(n, d, dtype=torch.float64)
    pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
    np.testing.assert_allclose(out, pe.numpy(), rtol=0, atol=1e-15)
    # D6 (docs/errata.md) by hand: at pos 1, the second column is cos(1) = 0.540; the tutorial's column
    # index gives cos(1 / 10000^(2/6)) = 0.999.
    assert out[1, 1] == pytest.approx(0.5403023058681398, abs=1e-15)
    assert errata.tutorial_positional(n, d)[1, 1] == pytest.approx(0.99892, abs=1e-5)
    assert OPS["positional"].backward(None, out, (), None, {}) == ()


def test_append_rows_is_torch_cat_along_the_rows():
    """The key/value cache's new row (walk --generate): K = [K_cache; k], per head."""
    check_op("append_rows", [randn(2, 5, 3), randn(2, 1, 3)],
             lambda past, new: torch.cat([past, new], dim=-2))
