"""`train --engine torch`, alone and under torchrun (2 processes, gloo on loopback): the same
checkpoint as the NumPy engine on the same steps, and a normal handformer checkpoint."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.train import checkpoint
from support.paths import ROOT

pytest.importorskip("torch")

PAIRS = [("the storm comes", "he brings the storm"), ("winter is here", "we know things"),
         ("night falls", "the night is dark"), ("he knows", "he knows things"),
         ("a sword", "the sword comes"), ("we drink", "we drink and we know"),
         ("the true enemy", "he waits"), ("it is coming", "winter is coming"),
         ("the storm is dark", "night"), ("he brings a sword", "he brings"),
         ("things fall", "winter falls"), ("we wait out the storm", "the storm waits")]
# 12 pairs in batches of 5: shares of 3 and 2 rows, then of 1 and 1; 2 epochs = 6 Adam steps
ARGS = ["train", "--preset", "small", "--d-model", "16", "--heads", "2", "--epochs", "2",
        "--batch-size", "5", "--dtype", "float64", "--clip", "1.0", "--quiet"]
SRC = ROOT / "src"


def same(a, b, tol=1e-9):
    assert a.keys() == b.keys()
    for name in a:
        np.testing.assert_allclose(a[name], b[name], rtol=0, atol=tol, err_msg=name)


@pytest.mark.process
@pytest.mark.slow
def test_torchrun_two_processes_equal_one_process_and_numpy(tmp_path):
    pairs = tmp_path / "p.tsv"
    pairs.write_text("".join(f"{s}\t{t}\n" for s, t in PAIRS), encoding="utf-8")
    runner = CliRunner()
    for engine, name in (("numpy", "np.ckpt"), ("torch", "one.ckpt")):
        result = runner.invoke(main, [*ARGS, "--pairs", str(pairs), "--engine", engine,
                                      "--save", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
    env = os.environ | {"PYTHONPATH": str(SRC), "MASTER_ADDR": "127.0.0.1",
                        "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2",
         "-m", "handformer", *ARGS, "--pairs", str(pairs), "--engine", "torch",
         "--save", str(tmp_path / "two.ckpt")],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    numpy_run, one, two = (checkpoint.load(tmp_path / n) for n in ("np.ckpt", "one.ckpt",
                                                                    "two.ckpt"))
    assert one.optimizer["step"] == two.optimizer["step"] == numpy_run.optimizer["step"] == 6
    same(two.params, one.params)
    same(two.optimizer_state, one.optimizer_state)
    same(one.params, numpy_run.params)
    same(one.optimizer_state, numpy_run.optimizer_state)
    for a, b in zip(two.history, numpy_run.history, strict=True):
        assert a["loss"] == pytest.approx(b["loss"], abs=1e-12)
    assert two.params["generator.w"].dtype == np.float64
    # a normal checkpoint: walked, translated and evaluated like any other
    walked = runner.invoke(main, ["walk", "--checkpoint", str(tmp_path / "two.ckpt"),
                                  "--src", "the storm comes", "--tgt", "he brings",
                                  "--steps", "13"])
    assert walked.exit_code == 0, walked.output
    evaluated = runner.invoke(main, ["evaluate", "--checkpoint", str(tmp_path / "two.ckpt"),
                                     "--pairs", str(pairs)])
    assert evaluated.exit_code == 0 and "perplexity" in evaluated.output


@pytest.mark.process
def test_python_dash_m_is_the_command():
    env = os.environ | {"PYTHONPATH": str(SRC), "COLUMNS": "100"}
    script = Path(sys.executable).with_name("handformer")
    if not script.exists():
        pytest.skip("no handformer console script beside this Python")
    outputs = [subprocess.run([*cmd, "train", "--help"], env=env, capture_output=True,
                              text=True, timeout=60)
               for cmd in ([sys.executable, "-m", "handformer"], [str(script)])]
    assert [o.returncode for o in outputs] == [0, 0]
    assert outputs[0].stdout.startswith("Usage: handformer train ")
    assert outputs[0].stdout == outputs[1].stdout


def test_device_and_backend_follow_cuda_and_local_rank(monkeypatch):
    import torch

    from handformer.train.torch_device import device_and_backend

    monkeypatch.setenv("LOCAL_RANK", "1")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    assert device_and_backend(torch) == ("cuda:1", "nccl")
    assert device_and_backend(torch, "cpu") == ("cpu", "gloo")
    monkeypatch.delenv("LOCAL_RANK")
    assert device_and_backend(torch) == ("cuda:0", "nccl")  # a plain run: the first GPU
    monkeypatch.setenv("LOCAL_RANK", "1")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert device_and_backend(torch) == ("cpu", "gloo")
