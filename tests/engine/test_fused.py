"""The fused tape's ops (whole sublayers as one step, ops/fused.py) against torch autograd, and
the fused tape against the step-by-step one.

torch computes each sublayer from its own primitives (F.linear, masked_fill, softmax,
F.layer_norm, F.embedding); our backward gets the same upstream gradient G.
"""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from handformer.engine.ops import OPS
from handformer.engine.tape import Tape
from handformer.families.transformer.config import preset
from handformer.families.transformer.model import forward, init_params
from support.torch_check import RNG, check_op, randn


def torch_mha(x, kv, wq, wk, wv, wo, *b, heads, scale, allowed=None, keep=None, p=0.0):
    """Multi-head attention from torch primitives: project, split heads, mask, softmax,
    dropout by the given mask, weighted sum, concatenate, W^O."""
    bq, bk, bv, bo = b if b else (None,) * 4

    def split(t, w, bias):
        return F.linear(t, w.T, bias).unflatten(-1, (heads, -1)).transpose(-2, -3)

    s = split(x, wq, bq) @ split(kv, wk, bk).transpose(-1, -2) * scale
    if allowed is not None:
        s = s.masked_fill(~torch.as_tensor(allowed), float("-inf"))
    a = torch.softmax(s, dim=-1)
    if keep is not None:
        a = a * torch.as_tensor(keep) / (1.0 - p)
    z = (a @ split(kv, wv, bv)).transpose(-2, -3).flatten(-2)
    return F.linear(z, wo.T, bo)


def mha_args(batch, n, m, d=6, heads=2, d_k=3, bias=True, d_v=None):
    d_v = d_k if d_v is None else d_v  # values of another width: W^V and W^O have their own
    widths = [heads * d_k, heads * d_k, heads * d_v]
    weights = [randn(d, w) for w in widths] + [randn(heads * d_v, d)]
    biases = [randn(w) for w in widths] + [randn(d)] if bias else []
    return [randn(*batch, n, d), randn(*batch, m, d), *weights, *biases]


CASES = {  # batch, queries, keys, mask (True = seen)
    "unbatched, no mask": ((), 5, 7, None),
    "causal": ((), 5, 5, np.tril(np.ones((5, 5), bool))),
    "padding keys": ((3,), 4, 6, np.arange(6)[None, None, None, :] < np.array([6, 3, 1])[:, None, None, None]),
    # 40·2·5·7 scores, above ops.basic.SMALL: the products write their heads side by side
    "many sentences": ((40,), 5, 7, None),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("bias", [True, False])
def test_cross_attention_as_one_op(case, bias):
    batch, n, m, allowed = CASES[case]
    attrs = {"heads": 2, "scale": 1 / math.sqrt(3), "allowed": allowed}
    check_op("mha", mha_args(batch, n, m, bias=bias), lambda *a: torch_mha(*a, **attrs), attrs)


@pytest.mark.parametrize("d_v", [None, 2])
def test_self_attention_sums_the_three_uses_of_its_input(d_v):
    args = mha_args((2,), 5, 5, d_v=d_v)
    args[1] = args[0]  # one array read as queries, keys and values, as the tape passes it
    allowed = np.tril(np.ones((5, 5), bool))
    attrs = {"heads": 2, "scale": 0.5, "allowed": allowed}
    out, cache = OPS["mha"].forward(*args, **attrs)
    t = [torch.tensor(a, requires_grad=True) for a in args]
    t[1] = t[0]
    expected = torch_mha(*t, **attrs)
    np.testing.assert_allclose(out, expected.detach().numpy(), rtol=0, atol=1e-12)
    g = randn(*out.shape)
    (expected * torch.tensor(g)).sum().backward()
    grads = OPS["mha"].backward(g, out, args, cache, attrs)
    assert grads[1] is None  # the whole gradient is the first argument's
    for i, grad in enumerate(grads):
        if i != 1:
            np.testing.assert_allclose(grad, t[i].grad.numpy(), rtol=0, atol=1e-12, err_msg=i)


def test_cross_attention_with_values_of_another_width():
    attrs = {"heads": 2, "scale": 0.5, "allowed": np.tril(np.ones((5, 7), bool))}
    check_op("mha", mha_args((3,), 5, 7, d_v=4), lambda *a: torch_mha(*a, **attrs), attrs)


def test_attention_dropout_by_its_mask():
    p = 0.3
    keep = RNG.random((2, 2, 4, 6)) >= p
    attrs = {"heads": 2, "scale": 0.5, "allowed": None, "keep": keep, "p": p}
    check_op("mha", mha_args((2,), 4, 6), lambda *a: torch_mha(*a, **attrs), attrs)


@pytest.mark.parametrize("shape", [(7, 6), (3, 5, 8)])
def test_add_norm(shape):
    d = shape[-1]
    args = [randn(*shape), randn(*shape), 1 + 0.1 * randn(d), randn(d)]
    check_op("add_norm", args,
             lambda x, s, gamma, beta: F.layer_norm(x + s, (d,), gamma, beta, eps=1e-5),
             {"eps": 1e-5})


@pytest.mark.parametrize("factor", [None, math.sqrt(4)])
def test_embed_positions(factor):
    table, ids = randn(9, 4), RNG.integers(0, 9, (3, 5))
    pe = OPS["positional"].forward(n=5, d=4)[0]  # itself checked against torch and by hand

    def expected(i, t):
        return F.embedding(i, t) * (1.0 if factor is None else factor) + torch.tensor(pe)

    check_op("embed_positions", [ids, table], expected, {"factor": factor}, diff=[1])


@pytest.mark.parametrize("x_shape", [(5, 6), (3, 5, 6)])
def test_linear_relu(x_shape):
    check_op("linear_relu", [randn(*x_shape), randn(6, 10), randn(10)],
             lambda x, w, b: torch.relu(F.linear(x, w.T, b)))


def test_a_fused_tape_cannot_record():
    with pytest.raises(ValueError, match="cannot record"):
        Tape({}, record=True, fused=True)


def loss_and_grads(cfg, params, batch, fused, seed):
    src, tgt, out, src_pad, tgt_pad = batch
    rng = None if seed is None else np.random.default_rng(seed)
    tape = Tape(params, record=False, fused=fused, dropout_rng=rng)
    logits = forward(tape, cfg, src, tgt, src_pad, tgt_pad, probs=False)
    tape.run("loss", "cross_entropy", [logits],
             {"targets": out, "weights": (~tgt_pad).astype(float), "smoothing": 0.1})
    grads = tape.backward("loss")
    return float(tape["loss"]), {name: grads[name] for name in params}, len(tape.steps)


SWITCHES = [dict(attn_bias=True), dict(dropout=0.2, tie_embeddings=True),
            dict(norm="pre", final_norm=True, ffn="single", d_ff=16), dict(scale_embeddings=False)]


@pytest.mark.parametrize("switches", SWITCHES, ids=lambda s: ",".join(s))
def test_the_fused_tape_computes_what_the_step_by_step_tape_does(switches):
    """Same loss and gradients (dropout: the same random masks, drawn in the same order) in
    fewer steps; each path is checked against torch on its own (test_model_grad_torch.py,
    `handformer verify`)."""
    cfg = preset("small", **{"d_model": 16, "heads": 2, "d_ff": 24, "layers": 2} | switches)
    params = init_params(cfg, 30)
    src, tgt, out = (RNG.integers(0, 30, (3, 6)) for _ in range(3))
    src_pad, tgt_pad = np.zeros((3, 6), bool), np.zeros((3, 6), bool)
    src_pad[0, 4:], tgt_pad[2, 5:] = True, True
    seed = 5 if cfg.dropout else None
    batch = (src, tgt, out, src_pad, tgt_pad)
    loss, grads, steps = loss_and_grads(cfg, params, batch, False, seed)
    fused_loss, fused_grads, fused_steps = loss_and_grads(cfg, params, batch, True, seed)
    assert fused_steps < steps / 2
    assert fused_loss == pytest.approx(loss, rel=1e-13)
    for name, g in grads.items():
        np.testing.assert_allclose(fused_grads[name], g, rtol=0, atol=1e-13, err_msg=name)
