"""Class "numbers": NaN and infinity in weights and options, and training that diverges.

A NaN weight is refused naming its tensor (it would otherwise be narrated as "nan" in every
later step); NaN/inf options are refused; a run whose loss stops being finite stops with a
non-zero exit, keeps the last good checkpoint and says which epoch that is.

Every case calls ``main(argv)`` in-process (support.clirun.run_here): the process boundary is
not what these cases test.
"""

import json

import numpy as np
import pytest

from support.clirun import bert_folder, edit_checkpoint, read_safetensors, refused, safetensors_with
from support.clirun import refused_unchanged_here as refused_unchanged
from support.clirun import run_here as run


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_weights_file_names_the_tensor(made, tmp_path, bad):
    tensors, meta = read_safetensors(made / "w.safetensors")
    tensors = dict(tensors)
    tensors["generator.bias"] = tensors["generator.bias"].copy()
    tensors["generator.bias"][3] = bad
    safetensors_with(tmp_path / "w.safetensors", tensors, meta)
    refused_unchanged(tmp_path, "walk", "--weights", "w.safetensors", "--steps", "1",
                      words=["generator.bias", "non-finite"])


def test_non_finite_checkpoint_names_the_tensor(made, tmp_path):
    def poison(tensors):
        tensors["param.generator.b"] = np.full_like(tensors["param.generator.b"], np.nan)
    edit_checkpoint(made / "c.ckpt", tmp_path / "c.ckpt", edit_tensors=poison)
    refused_unchanged(tmp_path, "translate", "--checkpoint", "c.ckpt", "you win",
                      words=["param.generator.b"])


def test_non_finite_model_folder_names_the_tensor(tmp_path):
    bert_folder(tmp_path / "m", nan_in="encoder.layer.0.output.dense.bias")
    refused_unchanged(tmp_path, "embed", "--pretrained", "m", "hello",
                      words=["encoder.layer.0.output.dense.bias"])


@pytest.mark.parametrize("args,word", [
    (["walk", "--backward", "--lr", "nan"], "--lr"),
    (["walk", "--backward", "--lr", "inf"], "--lr"),
    (["train", "--lr", "nan"], "--lr"),
    (["train", "--lr", "inf"], "--lr"),
    (["train", "--lr", "1e30"], "lr must be"),  # the library names values, not flags
    (["train", "--lr", "-0.1"], "--lr"),
    (["train", "--optimizer", "sgd", "--momentum", "nan"], "--momentum"),
    (["train", "--clip", "nan"], "--clip"),
    (["walk", "--ln-eps", "inf"], "ln_eps"),
    (["walk", "--ln-eps", "nan"], "ln_eps"),
    (["walk", "--dropout", "nan"], "dropout"),
    (["walk", "--label-smoothing", "nan"], "label_smoothing"),
    (["verify", "--preset", "small", "--tol", "-1"], "--tol"),
    (["verify", "--preset", "small", "--tol", "nan"], "--tol"),
    (["verify", "--preset", "small", "--tol", "inf"], "--tol"),
    (["translate", "--checkpoint", "c.ckpt", "--length-penalty", "nan", "you"],
     "--length-penalty"),
])
def test_not_a_number_options(made, tmp_path, args, word):
    (tmp_path / "c.ckpt").write_bytes((made / "c.ckpt").read_bytes())
    refused_unchanged(tmp_path, *args, words=[word])


def test_a_diverging_run_stops_and_keeps_the_last_good_checkpoint(tmp_path):
    """SGD at lr 100 overflows within ten epochs on the tutorial's pairs."""
    result = run("train", "--optimizer", "sgd", "--lr", "100", "--epochs", "100", "--quiet",
                 "--save", "c.ckpt", cwd=tmp_path)
    err = refused(result, "the last good one", lines=2)  # + "training …"
    # which number overflows first (the loss, or a gradient while the loss is still finite)
    # depends on the round-off of a run that has diverged
    assert "the loss is nan" in err or "is not finite (the loss is" in err, err
    assert "Warning" not in err, err  # numpy's overflow warnings are not shown
    epoch = int(err.split(" holds epoch ")[1].split(",")[0])
    tensors, meta = read_safetensors(tmp_path / "c.ckpt")
    assert all(np.isfinite(t).all() for t in tensors.values())
    assert 0 < epoch < 100 and json.loads(meta["handformer"])["epoch"] == epoch
    again = run("translate", "--checkpoint", "c.ckpt", "when you play", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
