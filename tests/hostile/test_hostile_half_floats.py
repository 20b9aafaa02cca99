"""Class "files": bfloat16 and float16 in checkpoints and model folders (`translate
--checkpoint`, `embed --pretrained`, `train --resume`).

The half-precision files are written by torch's own safetensors writer (an independent source
for the bfloat16 bits); the expected answer is the same command on a file holding the same
values rounded by torch and stored as float32. float16 optimizer state is refused by name.

Every case calls ``main(argv)`` in-process (support.clirun.run_here): the process boundary is
not what these cases test.
"""

import hashlib
import json

import numpy as np
import pytest

from support.clirun import bert_folder, edit_checkpoint, read_safetensors
from support.clirun import refused_unchanged_here as refused_unchanged
from support.clirun import run_here as run

torch = pytest.importorskip("torch", reason="torch writes the bfloat16 files")


def _rounded(value: np.ndarray, dtype) -> np.ndarray:
    return torch.from_numpy(np.asarray(value, dtype=np.float32)).to(dtype).float().numpy()


def _ok(result):
    assert result.returncode == 0, result.stderr.decode()
    assert b"Warning" not in result.stderr
    return result.stdout


def _checkpoint_pair(made, tmp_path, dtype):
    """(c16.ckpt with every parameter stored in ``dtype``, c32.ckpt the same values as float32)."""
    tensors, meta = read_safetensors(made / "c.ckpt")
    inner = json.loads(meta["handformer"])
    rounded = {k: (_rounded(v, dtype) if k.startswith("param.") else v)
               for k, v in tensors.items()}
    edit_checkpoint(made / "c.ckpt", tmp_path / "c32.ckpt",
                    edit_tensors=lambda t: t.update(rounded))
    stored = {k: (torch.from_numpy(v).to(dtype) if k.startswith("param.")
                  else torch.from_numpy(np.ascontiguousarray(v))) for k, v in tensors.items()}
    inner["sha256"] = _digest(stored)
    from safetensors.torch import save_file

    save_file(stored, str(tmp_path / "c16.ckpt"), metadata={"handformer": json.dumps(inner)})


def _digest(stored: dict) -> str:
    """The checkpoint format's checksum (train/checkpoint.digest): name|dtype|shape|bytes in
    name order; NumPy's dtype string, and "bf16" for bfloat16, which NumPy lacks."""
    h = hashlib.sha256()
    for name in sorted(stored):
        t = stored[name]
        if t.dtype == torch.bfloat16:
            tag, data = "bf16", t.view(torch.int16).numpy().tobytes()
        else:
            tag, data = t.numpy().dtype.str, t.numpy().tobytes()
        h.update(f"{name}|{tag}|{tuple(t.shape)}|".encode() + data)
    return h.hexdigest()


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_a_half_precision_checkpoint_translates_like_its_float32_twin(made, tmp_path, dtype):
    _checkpoint_pair(made, tmp_path, getattr(torch, dtype))
    args = ["translate", "when you play", "--beam", "2"]
    want = _ok(run(*args, "--checkpoint", "c32.ckpt", cwd=tmp_path))
    assert _ok(run(*args, "--checkpoint", "c16.ckpt", cwd=tmp_path)) == want


def test_a_bfloat16_model_folder_embeds_like_its_float32_twin(tmp_path):
    from safetensors.torch import save_file

    for name, dtype in (("bf16", torch.bfloat16), ("f32", torch.float32)):
        folder = bert_folder(tmp_path / name)
        tensors, _ = read_safetensors(folder / "model.safetensors")
        rounded = {k: torch.from_numpy(_rounded(v, torch.bfloat16)).to(dtype)
                   for k, v in tensors.items()}
        save_file(rounded, str(folder / "model.safetensors"), metadata={"format": "pt"})
    want = _ok(run("embed", "--pretrained", "f32", "hello world", cwd=tmp_path))
    got = _ok(run("embed", "--pretrained", "bf16", "hello world", cwd=tmp_path))
    assert got.replace(b"bf16", b"f32") == want


def _half_state(tensors):
    for key in [k for k in tensors if k.startswith("optim.")]:
        tensors[key] = tensors[key].astype(np.float16)


@pytest.mark.parametrize("command", [["train", "--resume", "c.ckpt", "--epochs", "3"],
                                     ["translate", "--checkpoint", "c.ckpt", "you win"]])
def test_float16_optimizer_state_is_refused_by_name(made, tmp_path, command):
    edit_checkpoint(made / "c.ckpt", tmp_path / "c.ckpt", edit_tensors=_half_state)
    err = refused_unchanged(tmp_path, *command, words=["optim.", "float16"])
    assert "learning rate" not in err


def test_a_checkpoint_with_a_wrong_shape_is_refused_from_its_header(made, tmp_path):
    def grow(tensors):
        tensors["param.generator.b"] = np.zeros(tensors["param.generator.b"].size + 1)
    edit_checkpoint(made / "c.ckpt", tmp_path / "c.ckpt", edit_tensors=grow)
    refused_unchanged(tmp_path, "translate", "--checkpoint", "c.ckpt", "you win",
                      words=["generator.b", "shape"])
