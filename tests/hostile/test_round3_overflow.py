"""Weights of ±1e308 overflow inside the run (issue 45, item 3): every command and format says
so in one line naming the first step that holds inf or NaN (exit 2), instead of NaN pages,
`ValueError: Out of range float values are not JSON compliant`, or numpy's warnings."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from handformer.cli import main
from support.clirun import read_safetensors, refused, refused_by_main, run, safetensors_with

# With the tutorial's weights all ±1e308 (signs alternating), the source embedding row is
# ±1e308 (+ a position encoding below 1, lost in rounding: 1e308 + 1 == 1e308), still finite;
# the first product of two weights is the query projection x·W^Q, whose terms are ±1e616:
# the first step past float64's largest (1.8e308) is encoder.0.self_attn.q.
FIRST = "encoder.0.self_attn.q"
assert 1e308 + 1 == 1e308 and 1e308 * 1e308 == math.inf  # Python floats: no warning


@pytest.fixture(scope="module")
def huge(tmp_path_factory) -> Path:
    """The tutorial's weights, every number ±1e308."""
    folder = tmp_path_factory.mktemp("huge")
    with pytest.raises(SystemExit) as done:
        main(["walk", "--steps", "1", "--save-weights", str(folder / "w.safetensors"),
              "-o", str(folder / "out.txt")])
    assert done.value.code in (0, None)
    tensors, meta = read_safetensors(folder / "w.safetensors")
    signs = {k: np.where(np.arange(v.size).reshape(v.shape) % 2 == 0, 1e308, -1e308)
             for k, v in tensors.items()}
    safetensors_with(folder / "huge.safetensors", signs, meta)
    return folder / "huge.safetensors"


def refused_in_process(capsys, argv) -> str:
    return refused_by_main(capsys, argv, "JSON compliant")


RUNS = [["walk", "--format", fmt] for fmt in ("terminal", "json", "markdown", "html")]
RUNS += [["walk", "--backward", "--format", "json"]]
RUNS += [["exercises", "--format", fmt] for fmt in ("json", "markdown", "html")]


@pytest.mark.parametrize("argv", RUNS, ids=" ".join)
def test_an_overflowing_run_names_its_first_non_finite_step(capsys, huge, tmp_path, argv):
    out = tmp_path / "out"
    line = refused_in_process(capsys, [*argv, "--weights", str(huge), "-o", str(out)])
    assert f"step {FIRST} is the first to hold a number that is not finite" in line
    assert "1e+308" in line  # the weights it blames, by their size
    assert not out.exists()  # nothing written


@pytest.mark.process  # numpy's warnings as a fresh interpreter prints them
def test_verify_says_it_in_one_line_with_no_numpy_warning(huge):
    pytest.importorskip("torch")
    result = run("verify", "--weights", str(huge), cwd=huge.parent)
    err = refused(result, f"step {FIRST} is the first")
    assert "RuntimeWarning" not in err and "overflow" not in err
    assert result.stdout == b""


def test_ordinary_weights_still_walk_and_verify_with_the_masks_minus_infinity(capsys):
    """The decoder's mask puts −∞ on purpose (positions not yet seen): not an overflow."""
    with pytest.raises(SystemExit) as done:
        main(["walk", "--format", "json", "--backward"])
    assert done.value.code in (0, None)
    assert '"-inf"' in capsys.readouterr().out  # the masked scores, written as the tape does


def test_the_server_refuses_a_weight_that_overflows(tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from handformer.server.app import create_app

    c = TestClient(create_app(), base_url="http://127.0.0.1")
    # one embedding number of 1e308: its query and key are near 1e308, their product is inf
    body = {"a": {}, "edit": {"param": "src_embed.weight", "index": [5, 0], "value": 1e308}}
    answer = c.post("/api/compare", json=body)
    assert answer.status_code == 422, answer.text
    assert "is the first to hold a number that is not finite" in answer.json()["error"]
