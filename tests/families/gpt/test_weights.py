"""`walk --family gpt --save-weights` and `--weights`: the names of the torch model that
`verify --family gpt` builds (TorchGpt's state_dict, loaded strictly), read back byte-equal."""

import json

import numpy as np
import pytest
import torch
from safetensors import safe_open
from safetensors.numpy import save_file
from safetensors.torch import load_file

from handformer.families.gpt.config import GptConfig
from handformer.families.gpt.run import prepare
from handformer.families.gpt.torch_ref import TorchGpt
from support.clirun import run_here

OPTIONS = [(), ("--norm", "post", "--no-tie-embeddings"),
           ("--preset", "small", "--attn-bias", "--seed", "3"),
           ("--norm", "post", "--final-norm", "--layers", "2")]


def save(tmp_path, *options):
    """walk --save-weights and its JSON tape, then the walk of the file alone."""
    first = run_here("walk", "--family", "gpt", *options, "--save-weights", "w.safetensors",
                     "--format", "json", "-o", "a.json", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    again = run_here("walk", "--family", "gpt", "--weights", "w.safetensors", "--format",
                     "json", "-o", "b.json", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    return tmp_path / "w.safetensors"


def config_of(path) -> GptConfig:
    with safe_open(str(path), "np") as f:
        return GptConfig.from_dict(json.loads(f.metadata()["config"]))


@pytest.mark.parametrize("options", OPTIONS)
def test_the_walk_of_the_saved_weights_is_byte_equal(tmp_path, options):
    save(tmp_path, *options)
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


@pytest.mark.parametrize("options", OPTIONS)
def test_torch_loads_the_file_strictly_with_the_walks_numbers(tmp_path, options):
    """A TorchGpt of other random weights takes the file with strict=True, and then holds what
    a TorchGpt built from the walk's own parameters holds, and computes the walk's logits."""
    path = save(tmp_path, *options)
    cfg, tape = config_of(path), json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    walked = prepare({"config": cfg})
    other = prepare({"config": GptConfig.from_dict(cfg.to_dict() | {"seed": cfg.seed + 1})})
    module = TorchGpt(cfg, other.params)
    module.load_state_dict(load_file(str(path)), strict=True)
    expected = TorchGpt(cfg, walked.params).state_dict()
    assert list(module.state_dict()) == list(expected)
    for name, value in expected.items():
        torch.testing.assert_close(module.state_dict()[name], value, rtol=0, atol=0, msg=name)
    logits = next(s for s in tape["steps"] if s["name"] == "generator.logits")["value"]
    theirs = module(tape["tgt"]["ids"])["generator.logits"].detach().numpy()
    np.testing.assert_allclose(np.array(logits), theirs, rtol=0, atol=1e-12)


def test_the_options_change_which_names_exist(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain = set(load_file(str(save(tmp_path / "a"))))
    post = set(load_file(str(save(tmp_path / "b", "--norm", "post", "--no-tie-embeddings"))))
    assert {"embed", "final.weight", "final.bias"} <= plain and "w_out" not in plain
    assert "w_out" in post and "final.weight" not in post
    assert "layers.0.self_attn.in_proj_bias" in plain  # torch's, zeros without --attn-bias


def test_nonzero_biases_are_refused_for_a_model_without_them(tmp_path):
    path = save(tmp_path)
    state = {k: v.numpy() for k, v in load_file(str(path)).items()}
    with safe_open(str(path), "np") as f:
        meta = f.metadata()
    state["layers.0.self_attn.out_proj.bias"] = np.ones(6)
    save_file(state, str(tmp_path / "bias.safetensors"), metadata=meta)
    out = run_here("walk", "--family", "gpt", "--weights", "bias.safetensors", cwd=tmp_path)
    assert out.returncode == 2
    assert b"'layers.0.self_attn.out_proj.bias' is not zero" in out.stderr


def test_a_file_of_another_family_is_refused_by_name(tmp_path):
    save(tmp_path)
    out = run_here("walk", "--weights", "w.safetensors", cwd=tmp_path)
    assert out.returncode == 2 and b"weights of the gpt family" in out.stderr
    done = run_here("walk", "--save-weights", "ed.safetensors", "--steps", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = run_here("walk", "--family", "gpt", "--weights", "ed.safetensors", cwd=tmp_path)
    assert out.returncode == 2
    assert b"weights of the transformer family, not the gpt family" in out.stderr


def test_a_state_dict_saved_from_torch_is_read_with_the_options_sizes(tmp_path):
    """No handformer metadata: the config comes from the options, the vocabulary from the
    dataset (the tutorial's)."""
    cfg = GptConfig(preset="tutorial", d_model=6, heads=2, d_ff=24, seed=5)
    module = TorchGpt(cfg, prepare({"config": cfg}).params)
    state = {k: v.detach().contiguous() for k, v in module.state_dict().items()}
    from safetensors.torch import save_file as torch_save

    torch_save(state, str(tmp_path / "t.safetensors"))
    out = run_here("walk", "--family", "gpt", "--weights", "t.safetensors", "--format", "json",
                   "-o", "t.json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    tape = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    logits = next(s for s in tape["steps"] if s["name"] == "generator.logits")["value"]
    theirs = module(tape["tgt"]["ids"])["generator.logits"].detach().numpy()
    np.testing.assert_allclose(np.array(logits), theirs, rtol=0, atol=1e-12)


def test_verify_checks_the_files_model_against_torch(tmp_path):
    save(tmp_path, "--norm", "post", "--attn-bias")
    out = run_here("verify", "--family", "gpt", "--weights", "w.safetensors", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.decode().split())  # the table's title wraps
    assert "norm post" in text and "∂L/∂decoder.0.self_attn.b_o" in text and "PASS" in text
