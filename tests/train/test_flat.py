"""A small model's parameters as views into one array (train/flat.py): the optimizers update
the same numbers as array by array, and fall back to that whenever the flat layout cannot hold."""

import numpy as np
import pytest

from handformer.train import flat
from handformer.train.flat import FlatParams
from handformer.train.optim import SGD, Adam

SHAPES = {"w": (3, 4), "b": (4,), "gamma": (2, 2, 3)}


def params(seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return {k: rng.normal(size=s).astype(dtype) for k, s in SHAPES.items()}


def grads(step):
    return params(seed=100 + step)


def by_hand_sgd(p, steps, lr, momentum):
    """v ← μ v + g (v = g first), θ ← θ − η v, written out per array."""
    p = {k: v.copy() for k, v in p.items()}
    velocity = {}
    for t in range(steps):
        for k, g in grads(t).items():
            velocity[k] = g if t == 0 else momentum * velocity[k] + g
            p[k] = p[k] - lr * velocity[k]
    return p


def test_parameters_become_views_of_one_array_with_the_same_numbers():
    p = params()
    before = {k: v.copy() for k, v in p.items()}
    layout = FlatParams.of(p)
    assert layout.data.size == sum(v.size for v in before.values())
    for k, v in p.items():
        assert v.base is layout.data and v.shape == before[k].shape
        np.testing.assert_array_equal(v, before[k])
    layout.data[0] = 42.0  # the first number of the first parameter, "w"
    assert p["w"][0, 0] == 42.0


def test_large_models_mixed_dtypes_and_integers_stay_per_array(monkeypatch):
    assert FlatParams.of({}) is None
    assert FlatParams.of({"w": np.ones(3), "h": np.ones(3, np.float32)}) is None
    assert FlatParams.of({"ids": np.arange(3)}) is None
    monkeypatch.setattr(flat, "FLAT_LIMIT", 10)
    assert FlatParams.of(params()) is None  # 31 numbers


@pytest.mark.parametrize("momentum", [0.0, 0.9])
def test_sgd_flat_matches_the_update_by_hand(momentum):
    p = params()
    opt = SGD(p, 0.1, momentum)
    assert opt.flat is not None
    for t in range(4):
        opt.step(grads(t))
        kept = opt.flat.states.get("{}")
        if t == 0:
            first_state = kept
    assert kept is first_state  # gathered once, then updated where it lies
    expected = by_hand_sgd(params(), 4, 0.1, momentum)
    for k in SHAPES:
        np.testing.assert_allclose(p[k], expected[k], rtol=1e-14, atol=1e-15)
    if momentum:  # the state keeps its names, each a view of one flat array
        assert set(opt.state) == set(SHAPES)
        assert all(opt.state[k].base is opt.flat.states["{}"][0] for k in SHAPES)


def test_a_missing_gradient_falls_back_to_the_arrays_that_have_one():
    p = params()
    opt = SGD(p, 0.5)
    g = grads(0)
    del g["b"]
    start = params()
    opt.step(g)
    np.testing.assert_array_equal(p["b"], start["b"])
    np.testing.assert_allclose(p["w"], start["w"] - 0.5 * g["w"], rtol=1e-15)


def test_a_parameter_replaced_in_the_dict_is_updated_not_its_stale_view():
    p = params()
    opt = SGD(p, 0.5)
    p["w"] = np.zeros((3, 4))  # e.g. weights loaded after the optimizer was made
    opt.step(grads(0))
    np.testing.assert_allclose(p["w"], -0.5 * grads(0)["w"], rtol=1e-15)
    np.testing.assert_allclose(p["b"], params()["b"] - 0.5 * grads(0)["b"], rtol=1e-15)


def test_adam_resumed_from_saved_state_continues_as_if_never_stopped():
    """As `handformer train --resume`: a new optimizer given the saved state by name."""
    p = params()
    whole = Adam(p, 0.01)
    for t in range(5):
        whole.step(grads(t))

    q = params()
    first = Adam(q, 0.01)
    for t in range(3):
        first.step(grads(t))
    saved_params = {k: v.copy() for k, v in q.items()}
    saved_state = {k: v.copy() for k, v in first.state.items()}
    resumed = Adam(saved_params, 0.01)
    resumed.state, resumed.step_count = dict(saved_state), 3
    for t in range(3, 5):
        resumed.step(grads(t))
    for k in SHAPES:
        np.testing.assert_array_equal(saved_params[k], p[k])
    assert set(resumed.state) == {f"{m}.{k}" for m in "mv" for k in SHAPES}


def test_state_not_shaped_like_the_parameters_is_refused():
    p = params()
    opt = Adam(p, 0.01)
    opt.state = {"m.w": np.zeros(5)}
    with pytest.raises(ValueError, match="not shaped like the parameters"):
        opt.step(grads(0))
