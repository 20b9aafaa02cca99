"""Where torch computes and how torchrun's processes talk (`train --engine torch --device`,
--deterministic): chosen and refused before any data is read or any GPU touched, whichever
family's torch engine then trains (its registry entry's ``pairs.attach_torch``)."""

from __future__ import annotations

import os

from ..errors import DeviceError

# cuBLAS's setting for reproducible results (CUDA's documentation, "Results reproducibility");
# read when cuBLAS starts, so it is set before anything touches CUDA.
CUBLAS_WORKSPACE = ":4096:8"


def distributed() -> tuple[int, int]:
    """(rank, world size) from torchrun's environment; (0, 1) for a plain run."""
    return int(os.environ.get("RANK", 0)), int(os.environ.get("WORLD_SIZE", 1))


def make_deterministic(torch) -> None:
    """torch's deterministic algorithms (an error where an operation has none), and the
    cuBLAS workspace they need on CUDA; a workspace setting the user gave is kept."""
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", CUBLAS_WORKSPACE)
    torch.use_deterministic_algorithms(True)


def device_and_backend(torch, wanted: str = "auto") -> tuple[str, str]:
    """Where this process computes and how the processes talk: cuda:LOCAL_RANK and nccl
    where CUDA is wanted (or, with "auto", available; torchrun sets LOCAL_RANK, the process's
    index on its node), else the CPU and gloo. Refused before any GPU is touched: CUDA asked
    for where there is none, or more processes on this node than GPUs."""
    if wanted == "cpu" or (wanted == "auto" and not torch.cuda.is_available()):
        return "cpu", "gloo"
    if not torch.cuda.is_available():
        raise DeviceError("--device cuda: torch finds no CUDA device on this machine "
                              "(torch.cuda.is_available() is False); use --device cpu or auto")
    _check_one_gpu_each(torch.cuda.device_count())
    return f"cuda:{int(os.environ.get('LOCAL_RANK', 0))}", "nccl"


def _check_one_gpu_each(gpus: int) -> None:
    """torchrun's processes on this node (LOCAL_WORLD_SIZE; WORLD_SIZE on one node) each
    need a GPU of their own."""
    processes = int(os.environ.get("LOCAL_WORLD_SIZE", os.environ.get("WORLD_SIZE", 1)))
    if processes > gpus:
        raise DeviceError(f"{processes} processes on this node but {gpus} GPU(s): each "
                              f"process needs a GPU of its own; start torchrun with "
                              f"--nproc_per_node {gpus} or fewer, or use --device cpu")
