"""A small model's initial weights kept between runs: the numbers numpy's generator draws, read
back only from a file the user alone may write and only under their own key."""

import os
import stat

import numpy as np
import pytest

from handformer.engine import initial_cache
from handformer.engine.initial import _drawn, init_weights

SHAPES = {"w": ((3, 4), "weight"), "b": ((4,), "bias"), "ln.gamma": ((4,), "gamma"),
          "ln.beta": ((4,), "beta"), "v": ((2,), "weight")}


@pytest.fixture(autouse=True)
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path


def expected(seed, uniform):
    """What the docstring promises, drawn here from numpy in the shapes' order."""
    rng = np.random.default_rng(seed)
    if uniform:
        return {"w": rng.random((3, 4)), "b": rng.random(4), "ln.gamma": np.ones(4),
                "ln.beta": np.zeros(4), "v": rng.random(2)}
    w = rng.uniform(-np.sqrt(6 / 7), np.sqrt(6 / 7), (3, 4))
    v = rng.uniform(-np.sqrt(6 / 4), np.sqrt(6 / 4), (2,))
    return {"w": w, "b": np.zeros(4), "ln.gamma": np.ones(4), "ln.beta": np.zeros(4), "v": v}


def files(home):
    return sorted(p.name for p in (home / "handformer").glob("weights-*"))


def assert_same(got, want, dtype="float64"):
    assert list(got) == list(want)
    for name in want:
        assert got[name].dtype == np.dtype(dtype)
        assert got[name].flags.writeable and got[name].flags.c_contiguous
        assert np.array_equal(got[name], want[name].astype(dtype)), name


@pytest.mark.parametrize("uniform", [True, False])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_drawn_then_read_back_the_same_numbers(cache_home, uniform, dtype):
    first = init_weights(SHAPES, 7, dtype, uniform)
    assert len(files(cache_home)) == 1
    assert initial_cache.lookup(_drawn, SHAPES, 7, dtype, uniform) is not None
    second = init_weights(SHAPES, 7, dtype, uniform)
    assert_same(first, expected(7, uniform), dtype)
    assert_same(second, expected(7, uniform), dtype)


def test_arrays_read_back_are_the_callers_own():
    init_weights(SHAPES, 1)
    mine = init_weights(SHAPES, 1)
    mine["w"] += 100.0  # training updates the weights in place
    assert_same(init_weights(SHAPES, 1), expected(1, False))


def test_another_key_in_the_slot_is_never_read_as_this_one(cache_home):
    init_weights(SHAPES, 3)
    (path,) = (cache_home / "handformer").glob("weights-*")
    other = initial_cache.key(_drawn, SHAPES, 4, "float64", False)
    path.write_bytes(other.encode() + path.read_bytes().partition(b"\n")[2])
    assert initial_cache.lookup(_drawn, SHAPES, 3, "float64", False) is None
    assert_same(init_weights(SHAPES, 3), expected(3, False))


def test_a_cut_file_is_not_read(cache_home):
    init_weights(SHAPES, 3)
    (path,) = (cache_home / "handformer").glob("weights-*")
    path.write_bytes(path.read_bytes()[:-8])
    assert initial_cache.lookup(_drawn, SHAPES, 3, "float64", False) is None


def test_a_file_others_may_write_is_not_trusted(cache_home):
    init_weights(SHAPES, 3)
    (path,) = (cache_home / "handformer").glob("weights-*")
    os.chmod(path, 0o666)
    assert initial_cache.lookup(_drawn, SHAPES, 3, "float64", False) is None
    os.chmod(path, 0o600)
    assert initial_cache.lookup(_drawn, SHAPES, 3, "float64", False) is not None


def test_files_are_private_and_slots_bounded(cache_home):
    for seed in range(3 * initial_cache.SLOTS):
        init_weights(SHAPES, seed)
    names = files(cache_home)
    assert 1 < len(names) <= initial_cache.SLOTS
    assert all(stat.S_IMODE((cache_home / "handformer" / n).stat().st_mode) == 0o600
               for n in names)


def test_large_models_and_unseeded_draws_are_not_kept(cache_home):
    big = {"w": ((300, 300), "weight")}
    assert init_weights(big, 0)["w"].shape == (300, 300)
    assert initial_cache.kept_here({"w": ((2, 2), "weight")}, None) is False
    assert files(cache_home) == []


def test_a_cache_folder_that_cannot_be_written_is_no_error(cache_home):
    (cache_home / "handformer").write_text("a file where the folder should be")
    assert_same(init_weights(SHAPES, 5, "float64", True), expected(5, True))


def test_weights_drawn_by_other_code_are_not_read(cache_home):
    init_weights(SHAPES, 2)

    def _drawn(shapes, seed, dtype, uniform):  # the same name, drawing another way
        return {name: np.full(shape, 0.5) for name, (shape, _) in shapes.items()}

    assert initial_cache.lookup(_drawn, SHAPES, 2, "float64", False) is None
