"""Weights whose header says something other than float64: bfloat16 and float16 read exactly
(compared with torch's own conversion), an integer or bool tensor refused from the header,
unread.

Every case calls ``main(argv)`` in-process (support.clirun.run_here): the process boundary is
not what these cases test.
"""

from __future__ import annotations

import numpy as np
import pytest

from support.clirun import refused
from support.clirun import run_here as run

torch = pytest.importorskip("torch")


def tensors_of(path):
    from safetensors import safe_open

    with safe_open(str(path), "pt") as f:
        return {k: f.get_tensor(k) for k in f.keys()}, f.metadata()


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_half_precision_weights_are_read_as_torch_reads_them(made, tmp_path, dtype):
    from safetensors.torch import save_file

    from handformer.interop.weights import read_weights

    tensors, meta = tensors_of(made / "w.safetensors")
    half = {k: v.to(getattr(torch, dtype)) for k, v in tensors.items()}
    save_file(half, str(tmp_path / "half.safetensors"), metadata=meta)
    ours, _ = read_weights(tmp_path / "half.safetensors")
    for name, value in half.items():
        assert np.array_equal(ours[name], value.float().numpy()), name
    done = run("walk", "--steps", "1", "--weights", "half.safetensors", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("dtype", [torch.int8, torch.bool])
def test_an_unused_integer_or_bool_tensor_is_refused_unread(made, tmp_path, dtype):
    from safetensors.torch import save_file

    tensors, meta = tensors_of(made / "w.safetensors")
    junk = torch.zeros(64 * 2**20, dtype=dtype)  # 64 MiB that float64 would make 512 MiB
    save_file({**tensors, "junk": junk}, str(tmp_path / "w.safetensors"), metadata=meta)
    refused(run("walk", "--steps", "1", "--weights", "w.safetensors", cwd=tmp_path),
            "'junk'", "floating point")
