"""benchmarks/optimizer_step.py: its three columns are the flat update, the update array by array
and torch.optim, and all three make the same update."""

import numpy as np
import pytest

from benchmarks.test_train_step import load

torch = pytest.importorskip("torch")


def tutorial_params_and_grads():
    from handformer.families.transformer.config import preset
    from handformer.families.transformer.model import init_params

    params = init_params(preset("tutorial"), 25, "float64")
    rng = np.random.default_rng(3)
    return params, {k: rng.normal(size=v.shape) for k, v in params.items()}


@pytest.mark.parametrize("kind", ["sgd", "adam"])
def test_the_three_sides_update_alike_and_only_the_first_is_flat(kind):
    bench = load("optimizer_step")
    params, grads = tutorial_params_and_grads()
    flat_opt = bench.ours(kind, params, bench.flat.FLAT_LIMIT, lr=0.01)
    per_array = bench.ours(kind, params, 0, lr=0.01)
    torch_opt = bench.theirs(kind, params, grads, lr=0.01)
    assert flat_opt.flat is not None and per_array.flat is None
    for _ in range(3):
        flat_opt.step(grads)
        per_array.step(grads)
        torch_opt.step()
    tensors = [p for group in torch_opt.param_groups for p in group["params"]]
    for (name, start), tensor in zip(params.items(), tensors, strict=True):
        moved = flat_opt.params[name]
        assert not np.array_equal(moved, start)
        np.testing.assert_array_equal(moved, per_array.params[name])
        np.testing.assert_allclose(moved, tensor.detach().numpy(), rtol=0, atol=1e-14)
