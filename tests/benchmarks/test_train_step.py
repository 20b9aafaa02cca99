"""benchmarks/train_step.py: issue 24's targets and the matmul/rest split of each side."""

import importlib.util
import sys

import pytest

from support.paths import ROOT

pytest.importorskip("torch")
pytest.importorskip("threadpoolctl")

BENCH = (ROOT / "benchmarks").resolve()


def load(name):
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:  # train_step.py puts its folder first too; its html.py would shadow the stdlib's
        sys.path[:] = [p for p in sys.path if p != str(BENCH)]
    return module


def row(config, ratio, gemm_ratio=0.81):
    return {"config": config, "dtype": "float64", "steps": 3, "ours": ratio * 1e-3,
            "torch": 1e-3, "ratio": ratio, "ratio_low": ratio - 0.02, "ratio_high": ratio + 0.03,
            "faults_ours": 0, "faults_torch": 0, "mirror": False,
            "matmul_ours": 0.5e-3, "matmul_torch": 0.5e-3, "gemm_ratio": gemm_ratio}


def test_targets_are_the_issues_and_say_ok_or_over(capsys):
    bench = load("train_step")
    assert bench.target_of(row("tutorial", 0.3)) == 0.30
    assert bench.target_of(row("small", 0.3)) == 0.85
    assert bench.target_of(row("base", 0.3, gemm_ratio=0.81)) == pytest.approx(0.86)
    bench.print_table([row("tutorial", 0.31), row("small", 0.85), row("base", 0.87),
                       row("base", 0.85)])
    lines = [line.split() for line in capsys.readouterr().out.splitlines()[2:6]]
    assert [(r[0], r[6], r[7], r[8]) for r in lines] == [
        ("tutorial", "0.29–0.34", "0.30", "over"), ("small", "0.83–0.88", "0.85", "ok"),
        ("base", "0.85–0.90", "0.86", "over"), ("base", "0.83–0.88", "0.86", "ok")]


def test_each_sides_matmul_share_is_a_fraction_of_its_step():
    # the old split took torch's profiler seconds as they came: at small they exceeded the step
    bench = load("train_step")
    profile = load("step_profile")
    cfg = bench.preset("small", d_model=16, heads=2, d_ff=32, layers=1)
    params = bench.init_params(cfg, 50, "float64")
    data = bench.batch(4, 6, 50)
    ours = bench.HandformerStep(cfg, {k: v.copy() for k, v in params.items()}, data)
    theirs = bench.TorchStep(cfg, params, data, "float64", bench.LR)
    products = profile.handformer_products(ours, steps=2)
    assert 0.0 < products.share < 1.0 and products.shapes
    assert 0.0 < profile.torch_matmul_share(theirs, steps=2) < 1.0


def test_every_matrix_product_of_a_fused_step_is_timed():
    # one layer each side, the paper's two-linear FFN. By hand: an attention makes 4 GEMMs
    # forward (Q, K, V, W^O) and 2 stacked products (Q Kᵀ, A V); backward 4 GEMMs for the
    # inputs' gradients, 4 for the weights' and 4 stacked; 3 attentions make 54. Each FFN
    # linear makes 3 (forward, ∂x, ∂W), 2 per FFN, 2 FFNs: 12; the generator 3. In all 69.
    bench = load("train_step")
    profile = load("step_profile")
    cfg = bench.preset("small", d_model=16, heads=2, d_ff=32, layers=1)
    params = bench.init_params(cfg, 50, "float64")
    ours = bench.HandformerStep(cfg, params, bench.batch(4, 6, 50))
    products = profile.handformer_products(ours, steps=2)
    assert sum(products.shapes.values()) == 3 * (6 + 12) + 2 * 2 * 3 + 3
    assert (4 * 2, 6, 8, 6, False, True, "<f8") in products.shapes  # Q Kᵀ: 4 rows × 2 heads


def test_the_ratio_of_medians_lies_within_the_blocks_range():
    # each block ours_i ≥ low · torch_i, so median(ours) ≥ low · median(torch) (and likewise
    # for high): the ratio of medians cannot leave the range of the paired ratios. A range of
    # inverted ratios (torch / ours) or with its ends swapped misses it
    bench = load("train_step")
    row = bench.measure("tiny", "small", dict(d_model=16, heads=2, d_ff=32, layers=1), 2, 5, 30,
                        "float64", blocks=3, budget=0.3)
    assert 0.0 < row["ratio_low"] <= row["ratio"] <= row["ratio_high"]
    assert row["ratio_low"] < row["ratio_high"]  # three blocks a side never time alike
