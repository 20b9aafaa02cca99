"""The `handformer walk` start-up path: no torch, jinja2, matplotlib or rich imported."""

import pytest

from conftest import walk_in_a_fresh_process


@pytest.mark.parametrize("args,first_title", [
    (["walk", "--lang", "zh"], "全局概览：这里计算的模型"),  # the overview opens the walk
    (["walk", "--steps", "1"], "Step 1 · Define the dataset"),
])
def test_walk_imports_no_heavy_module(args, first_title):
    out, heavy = walk_in_a_fresh_process(*args)
    assert heavy == []
    assert out.lstrip().startswith(first_title)
