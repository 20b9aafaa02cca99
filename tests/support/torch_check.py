"""One op of the engine against its torch counterpart: forward values and every gradient."""

import numpy as np
import torch

from handformer.engine.ops import OPS

RNG = np.random.default_rng(1234)


def randn(*shape):
    return RNG.standard_normal(shape)


def check_op(name, args, torch_fn, attrs=None, diff=None, atol=1e-12):
    """Forward of OPS[name] equals torch_fn(*args); backward equals torch autograd.

    ``diff``: indices of the arguments with a gradient (default: every float argument).
    """
    attrs = attrs or {}
    if diff is None:
        diff = [i for i, a in enumerate(args) if np.asarray(a).dtype.kind == "f"]
    out, cache = OPS[name].forward(*args, **attrs)
    targs = [torch.tensor(a, requires_grad=i in diff) for i, a in enumerate(args)]
    expected = torch_fn(*targs)
    np.testing.assert_allclose(out, expected.detach().numpy(), rtol=0, atol=atol)
    assert out.shape == tuple(expected.shape)
    g = randn(*out.shape) if out.ndim else np.float64(RNG.uniform(0.5, 2.0))
    (expected * torch.tensor(g)).sum().backward()
    grads = OPS[name].backward(g, out, args, cache, attrs)
    assert len(grads) == len(args)
    for i, grad in enumerate(grads):
        if i in diff:
            np.testing.assert_allclose(grad, targs[i].grad.numpy(), rtol=0, atol=atol,
                                       err_msg=f"{name}: gradient of argument {i}")
        else:
            assert grad is None, f"{name}: argument {i} should have no gradient"
    return out
