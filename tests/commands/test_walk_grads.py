"""`walk --backward --save-grads FILE`: every parameter's gradient under the name --save-weights
gives it, equal to torch autograd's gradient of the same loss on a torch model loaded from the
weights file (GPT: verify's TorchGpt; the encoder-decoder: nn.Transformer built here)."""

import json
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from safetensors import safe_open
from safetensors.torch import load_file

from handformer.families.gpt.config import GptConfig
from handformer.families.gpt.run import prepare
from handformer.families.gpt.torch_ref import TorchGpt
from support.clirun import run_here


def walk_saving(tmp_path, *options):
    out = run_here("walk", *options, "--backward", "--save-weights", "w.safetensors",
                   "--save-grads", "g.safetensors", "--format", "json", "-o", "t.json",
                   cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    tape = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    return load_file(str(tmp_path / "w.safetensors")), load_file(str(tmp_path / "g.safetensors")), tape


@pytest.mark.parametrize("options", [(), ("--attn-bias", "--no-tie-embeddings", "--norm", "post"),
                                     ("--preset", "small", "--attn-bias")])
def test_gpt_gradients_are_torch_autograds(tmp_path, options):
    weights, grads, tape = walk_saving(tmp_path, "--family", "gpt", *options)
    cfg = GptConfig.from_dict(tape["config"])
    module = TorchGpt(cfg, prepare({"config": cfg}).params)
    module.load_state_dict(weights, strict=True)
    logits = module(tape["tgt"]["ids"])["generator.logits"]
    F.cross_entropy(logits, torch.tensor(tape["target"]["ids"])).backward()
    theirs = {n: p.grad for n, p in module.named_parameters()}
    if not cfg.attn_bias:  # our model has none: torch's zero biases have gradients, ours no name
        theirs = {n: g for n, g in theirs.items() if not n.endswith(("in_proj_bias", "out_proj.bias"))}
    assert set(grads) == set(theirs)
    for name, g in theirs.items():
        np.testing.assert_allclose(grads[name].numpy(), g.numpy(), rtol=0, atol=1e-12,
                                   err_msg=name)


def transformer_loss(weights, path, tape):
    """nn.Transformer from the file's tensors (leaves that autograd differentiates) and the
    walk's cross-entropy; the tied table is one tensor in its three places."""
    with safe_open(str(path), "pt") as f:
        cfg = json.loads(f.metadata()["config"])
    d = cfg["d_model"]
    leaves = {k: v.clone().requires_grad_() for k, v in weights.items()}
    if cfg["tie_embeddings"]:
        leaves["tgt_embed.weight"] = leaves["generator.weight"] = leaves["src_embed.weight"]
    model = torch.nn.Transformer(d, cfg["heads"], cfg["encoder_layers"], cfg["decoder_layers"],
                                 cfg["d_ff"], dropout=0.0, layer_norm_eps=cfg["ln_eps"],
                                 batch_first=True, dtype=torch.float64)
    stack = {k: v for k, v in leaves.items() if k.startswith(("encoder.", "decoder."))}

    def embed(table, ids):
        n = len(ids)
        pos = torch.arange(n, dtype=torch.float64)[:, None]
        div = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * -(math.log(10000.0) / d))
        pe = torch.zeros(n, d, dtype=torch.float64)
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        return (table[torch.tensor(ids)] * (math.sqrt(d) if cfg["scale_embeddings"] else 1) + pe)[None]

    src, tgt = tape["src"]["ids"], tape["tgt"]["ids"]
    causal = model.generate_square_subsequent_mask(len(tgt), dtype=torch.float64)
    y = torch.func.functional_call(model, stack, (embed(leaves["src_embed.weight"], src),
                                                  embed(leaves["tgt_embed.weight"], tgt)),
                                   {"tgt_mask": causal})
    logits = y[0] @ leaves["generator.weight"].T + leaves["generator.bias"]
    F.cross_entropy(logits, torch.tensor(tape["target"]["ids"])).backward()
    return {k: v.grad for k, v in leaves.items()}


@pytest.mark.parametrize("options", [("--preset", "small"),
                                     ("--preset", "small", "--tie-embeddings", "--layers", "1")])
def test_encoder_decoder_gradients_are_torch_autograds(tmp_path, options):
    weights, grads, tape = walk_saving(tmp_path, *options)
    theirs = transformer_loss(weights, tmp_path / "w.safetensors", tape)
    assert set(grads) == set(theirs)
    for name, g in theirs.items():
        np.testing.assert_allclose(grads[name].numpy(), g.numpy(), rtol=0, atol=1e-11,
                                   err_msg=name)


def test_the_gradients_file_says_what_it_holds_and_needs_backward(tmp_path):
    walk_saving(tmp_path, "--family", "gpt")
    with safe_open(str(tmp_path / "g.safetensors"), "np") as f:
        meta = f.metadata()
    tape = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    loss = next(s for s in tape["steps"] if s["name"] == "loss")["value"]
    assert meta["format"] == "handformer.grads/1" and meta["family"] == "gpt"
    assert float(meta["loss"]) == pytest.approx(np.ravel(loss)[0], abs=1e-15)
    out = run_here("walk", "--save-grads", "x.safetensors", cwd=tmp_path)
    assert out.returncode == 2 and b"add --backward" in out.stderr
    assert not (tmp_path / "x.safetensors").exists()


def test_bert_gradients_carry_the_checkpoints_own_names_and_shapes(tmp_path):
    from support.clirun import bert_folder

    folder = bert_folder(tmp_path / "tiny")
    out = run_here("walk", "--pretrained", str(folder), "--src", "hello world", "--tgt",
                   "the storm", "--backward", "--save-grads", "g.safetensors", "--steps", "1",
                   cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    grads = load_file(str(tmp_path / "g.safetensors"))
    stored = load_file(str(folder / "model.safetensors"))
    assert {k: tuple(v.shape) for k, v in grads.items()} == \
        {k: tuple(v.shape) for k, v in stored.items()}
    assert all(torch.count_nonzero(g) for g in grads.values())


def test_a_family_without_a_weights_file_refuses_save_weights_by_name(tmp_path):
    out = run_here("walk", "--family", "bert", "--save-weights", "w.safetensors", cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr.decode().strip() == ("error: the bert family writes no weights file; "
                                           "drop --save-weights")
    assert not (tmp_path / "w.safetensors").exists()
