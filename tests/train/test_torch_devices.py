"""`train --engine torch --device auto|cpu|cuda` and `--deterministic`: CUDA asked for where
there is none, or more processes than GPUs, refused in one line before any GPU is touched; the
deterministic settings made before CUDA could start; the process group's timeout."""

import os
import subprocess
import sys
from datetime import timedelta

import pytest

from support.clirun import run_here
from support.paths import ROOT

torch = pytest.importorskip("torch")

TINY = ["train", "--engine", "torch", "--preset", "small", "--d-model", "16", "--heads", "2",
        "--epochs", "1", "--quiet", "--pairs", "p.tsv"]


@pytest.fixture
def folder(tmp_path):
    pairs = [("the storm comes", "he brings the storm"), ("winter is here", "we know things"),
             ("night falls", "the night is dark"), ("he knows", "he knows things")] * 3
    (tmp_path / "p.tsv").write_text("".join(f"{s}\t{t}\n" for s, t in pairs), "utf-8")
    return tmp_path


@pytest.fixture
def no_gpu_touched(monkeypatch):
    """A GPU that a refused run must never reach: choosing it or joining a group fails loudly."""
    def touched(*args, **kwargs):
        raise AssertionError("a GPU or the process group was touched")

    monkeypatch.setattr(torch.cuda, "set_device", touched)
    monkeypatch.setattr(torch.distributed, "init_process_group", touched)


def one_error_line(out) -> str:
    lines = out.stderr.decode().splitlines()
    assert out.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), lines
    return lines[0]


@pytest.mark.parametrize("device", ["cuda", "auto"])
def test_more_processes_than_gpus_is_refused_naming_both(folder, monkeypatch, no_gpu_touched,
                                                          device):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    for name, value in (("RANK", "1"), ("LOCAL_RANK", "1"), ("WORLD_SIZE", "2"),
                        ("LOCAL_WORLD_SIZE", "2")):
        monkeypatch.setenv(name, value)
    line = one_error_line(run_here(*TINY, "--device", device, cwd=folder))
    assert "2 processes on this node but 1 GPU(s)" in line
    assert "--nproc_per_node 1" in line
    assert sorted(p.name for p in folder.iterdir()) == ["p.tsv"]  # no checkpoint, no lock


def test_several_nodes_count_this_nodes_processes_only(monkeypatch):
    from handformer.train.torch_device import device_and_backend

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    for name, value in (("LOCAL_RANK", "1"), ("WORLD_SIZE", "4"), ("LOCAL_WORLD_SIZE", "2")):
        monkeypatch.setenv(name, value)
    assert device_and_backend(torch, "cuda") == ("cuda:1", "nccl")  # 2 nodes of 2 GPUs


def test_cuda_where_there_is_none_is_refused(folder, monkeypatch, no_gpu_touched):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    line = one_error_line(run_here(*TINY, "--device", "cuda", cwd=folder))
    assert "--device cuda" in line and "is_available() is False" in line


def test_device_flags_need_the_torch_engine(folder):
    for flag in (["--device", "cpu"], ["--deterministic"]):
        out = run_here("train", "--epochs", "1", *flag, cwd=folder)
        assert "add --engine torch" in one_error_line(out)


@pytest.fixture
def restored_determinism(monkeypatch):
    monkeypatch.delenv("CUBLAS_WORKSPACE_CONFIG", raising=False)
    before = torch.are_deterministic_algorithms_enabled()
    yield
    torch.use_deterministic_algorithms(before)


def test_deterministic_is_set_before_cuda_is_asked(folder, monkeypatch, restored_determinism):
    seen = []

    def is_available():  # what CUDA would find set, had it started here
        seen.append((os.environ.get("CUBLAS_WORKSPACE_CONFIG"),
                     torch.are_deterministic_algorithms_enabled()))
        return False

    monkeypatch.setattr(torch.cuda, "is_available", is_available)
    out = run_here(*TINY, "--deterministic", cwd=folder)
    assert out.returncode == 0, out.stderr.decode()
    assert seen and set(seen) == {(":4096:8", True)}


def test_process_group_waits_a_validation_budget(folder, monkeypatch):
    """Rank 0 validates while the others wait: the group's timeout is an hour, not nccl's
    10 minutes."""
    asked = {}

    class Stop(Exception):
        pass

    def init_process_group(backend, **kwargs):
        asked.update(kwargs, backend=backend)
        raise Stop

    monkeypatch.setattr(torch.distributed, "init_process_group", init_process_group)
    monkeypatch.setenv("WORLD_SIZE", "2")
    run_here(*TINY, "--device", "cpu", cwd=folder)
    assert asked == {"backend": "gloo", "timeout": timedelta(minutes=60)}


@pytest.mark.process
def test_torchrun_asking_for_cuda_without_it_fails_in_one_line_per_rank(folder):
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA: the refusal is for one without")
    env = os.environ | {"PYTHONPATH": str(ROOT / "src"), "MASTER_ADDR": "127.0.0.1",
                        "OMP_NUM_THREADS": "1"}
    # torchrun stops the other workers once one has failed; looking every 20 s instead of every
    # 0.1 s lets both ranks reach their own refusal (a few seconds) before it looks
    done = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2",
         "--monitor-interval", "20", "--log-dir", str(folder / "logs"), "--redirects", "2",
         "-m", "handformer", *TINY, "--device", "cuda"],
        env=env, cwd=folder, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0 and done.stderr.count("exitcode  : 2 ") == 2, done.stderr
    errors = sorted(folder.glob("logs/*/attempt_0/*/stderr.log"))
    assert len(errors) == 2  # one per rank
    for log in errors:
        lines = log.read_text("utf-8").splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: --device cuda: torch finds no "
                                                       "CUDA device"), lines
    assert not (folder / "handformer.ckpt").exists()
