"""Weights out (--save-weights) and in (--weights): torch.nn.Transformer names, bad files refused.

The torch model here is built ONLY from the saved file and the names in docs/weights.md: it
does not use handformer's own torch reference.
"""

import json
import math
import pickle

import numpy as np
import pytest
import torch
from click.testing import CliRunner
from safetensors import safe_open
from safetensors.numpy import save_file
from safetensors.torch import load_file

from handformer.cli import main


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def save(tmp_path, *options):
    """walk --save-weights plus its JSON tape; returns (weights path, tape dict)."""
    weights, tape = tmp_path / "w.safetensors", tmp_path / "tape.json"
    result = run("walk", *options, "--save-weights", str(weights), "--format", "json",
                 "-o", str(tape))
    assert result.exit_code == 0, result.output
    return weights, json.loads(tape.read_text(encoding="utf-8"))


def torch_logits_from_file(path, src_ids, tgt_ids):
    """nn.Transformer(batch_first=True, dropout=0) + embeddings + generator, from the file."""
    state = load_file(str(path))
    with safe_open(str(path), "pt") as f:
        cfg = json.loads(f.metadata()["config"])
    d = cfg["d_model"]
    model = torch.nn.Transformer(
        d_model=d, nhead=cfg["heads"], num_encoder_layers=cfg["encoder_layers"],
        num_decoder_layers=cfg["decoder_layers"], dim_feedforward=cfg["d_ff"], dropout=0.0,
        layer_norm_eps=cfg["ln_eps"], batch_first=True, dtype=torch.float64)
    model.load_state_dict({k: v for k, v in state.items() if k.startswith(("encoder.", "decoder."))})
    model.eval()

    def embed(table, ids):
        n = len(ids)
        pos = torch.arange(n, dtype=torch.float64)[:, None]
        div = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * -(math.log(10000.0) / d))
        pe = torch.zeros(n, d, dtype=torch.float64)
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        scale = math.sqrt(d) if cfg["scale_embeddings"] else 1.0
        return (table[torch.tensor(ids)] * scale + pe)[None]

    with torch.no_grad():
        memory = model.encoder(embed(state["src_embed.weight"], src_ids))
        causal = model.generate_square_subsequent_mask(len(tgt_ids), dtype=torch.float64)
        y = model.decoder(embed(state["tgt_embed.weight"], tgt_ids), memory, tgt_mask=causal)
        return (y[0] @ state["generator.weight"].T + state["generator.bias"]).numpy()


@pytest.mark.parametrize("options", [
    ("--preset", "small"),
    ("--preset", "small", "--d-model", "16", "--heads", "2", "--layers", "3", "--d-ff", "20",
     "--no-scale-embeddings", "--seed", "7", "--src", "he brings the storm",
     "--tgt", "the true enemy won't wait"),
])
def test_torch_from_the_file_alone_reproduces_the_logits(tmp_path, options):
    weights, tape = save(tmp_path, *options)
    logits = next(s for s in tape["steps"] if s["name"] == "generator.logits")["value"]
    expected = torch_logits_from_file(weights, tape["src"]["ids"], tape["tgt"]["ids"])
    np.testing.assert_allclose(np.array(logits), expected, rtol=0, atol=1e-10)


def test_saved_names_and_metadata(tmp_path):
    weights, _ = save(tmp_path, "--preset", "small")
    with safe_open(str(weights), "np") as f:
        meta, names = f.metadata(), set(f.keys())
        in_proj = f.get_tensor("decoder.layers.1.multihead_attn.in_proj_weight")
    assert meta["format"] == "handformer.weights/1"
    assert json.loads(meta["config"])["d_model"] == 32
    assert json.loads(meta["vocab"])[23:] == ["<start>", "<end>"]
    reference = set(torch.nn.Transformer(d_model=32, nhead=4, num_encoder_layers=2,
                                         num_decoder_layers=2, dim_feedforward=64,
                                         batch_first=True).state_dict())
    assert names == reference | {"src_embed.weight", "tgt_embed.weight", "generator.weight",
                                 "generator.bias"}
    assert in_proj.shape == (3 * 32, 32) and in_proj.dtype == np.float64
    assert not [p for p in tmp_path.iterdir() if ".tmp" in p.name]  # atomic save cleaned up


def test_tutorial_names_follow_the_torch_pattern(tmp_path):
    """No torch counterpart: single FFN, no attention biases, d_k·h ≠ d_model (docs/weights.md)."""
    weights, _ = save(tmp_path)
    with safe_open(str(weights), "np") as f:
        shapes = {k: f.get_slice(k).get_shape() for k in f.keys()}
    assert shapes["encoder.layers.0.self_attn.in_proj_weight"] == [3 * 4, 6]   # h 1, d_k 4
    assert shapes["decoder.layers.0.self_attn.in_proj_weight"] == [3 * 8, 6]   # h 2, d_k 4
    assert shapes["decoder.layers.0.multihead_attn.out_proj.weight"] == [6, 8]
    assert shapes["encoder.layers.0.linear1.weight"] == [6, 6]
    assert "encoder.layers.0.linear2.weight" not in shapes
    assert not [k for k in shapes if "in_proj_bias" in k or "out_proj.bias" in k]
    assert "encoder.norm.weight" not in shapes  # tutorial: no final norm


@pytest.mark.parametrize("options", [(), ("--preset", "small", "--backward")])
def test_weights_round_trip(tmp_path, options):
    weights, tape = save(tmp_path, *options)
    again = tmp_path / "again.json"
    result = run("walk", *options, "--weights", str(weights), "--format", "json",
                 "-o", str(again))
    assert result.exit_code == 0, result.output
    assert json.loads(again.read_text(encoding="utf-8")) == tape


def write_bad_files(tmp_path, good):
    raw = good.read_bytes()
    files = {
        "missing": (tmp_path / "nope.safetensors", "does not exist"),
        "truncated": (tmp_path / "cut.safetensors", "not a readable safetensors file"),
        "random": (tmp_path / "random.bin", "not a readable safetensors file"),
        "pickle": (tmp_path / "model.pkl", "never loads pickles"),
        "torch.save": (tmp_path / "model.pt", "never loads pickles"),
        "foreign": (tmp_path / "other.safetensors", "not written by handformer"),
        "empty": (tmp_path / "empty.safetensors", "not a readable safetensors file"),
    }
    files["truncated"][0].write_bytes(raw[: len(raw) // 2])
    files["random"][0].write_bytes(np.random.default_rng(0).bytes(4096))
    files["pickle"][0].write_bytes(pickle.dumps({"weight": [1.0, 2.0]}))
    torch.save({"weight": torch.zeros(3)}, files["torch.save"][0])
    save_file({"bert.embeddings.word_embeddings.weight": np.zeros((4, 6))},
              str(files["foreign"][0]))
    files["empty"][0].write_bytes(b"")
    return files


def test_bad_weights_files_are_refused(tmp_path):
    good, _ = save(tmp_path)
    for kind, (path, message) in write_bad_files(tmp_path, good).items():
        for command in ("walk", "verify"):
            result = run(command, "--preset", "small", "--weights", str(path))
            assert result.exit_code == 2, (kind, command, result.output)
            assert message in result.output, (kind, command, result.output)
            assert "error: " in result.output


def test_a_tensor_of_the_wrong_shape_is_named(tmp_path):
    good, _ = save(tmp_path, "--preset", "small")
    state = load_file(str(good))
    with safe_open(str(good), "pt") as f:
        meta = f.metadata()
    state["generator.bias"] = torch.zeros(7, dtype=torch.float64)
    bad = tmp_path / "bad.safetensors"
    from safetensors.torch import save_file as save_torch

    save_torch(state, str(bad), metadata=meta)
    result = run("walk", "--weights", str(bad), "--format", "json")
    assert result.exit_code == 2
    assert "generator.bias" in result.output and "(7,)" in result.output


def test_a_training_checkpoint_is_refused_as_weights_as_the_docs_say(tmp_path):
    """docs/python-api.md: walk(weights=) takes --save-weights files; a checkpoint is refused."""
    import handformer
    from handformer.families.transformer.config import preset
    from handformer.families.transformer.run import setup
    from handformer.interop.weights import WeightsError
    from handformer.train.checkpoint import Checkpoint, save

    s = setup(preset("tutorial"))
    ckpt = tmp_path / "run.ckpt"
    save(ckpt, Checkpoint(s.config, s.vocab, s.params))
    with pytest.raises(WeightsError, match="not written by handformer --save-weights"):
        handformer.walk(weights=str(ckpt))


def test_the_same_weights_give_the_same_file_bytes(tmp_path):
    """safetensors writes the metadata from a hash map, in an order that changes from one save
    to the next; write_state sorts it, so a file is reproducible, and safetensors still reads
    every tensor and every metadata value back."""
    from handformer.interop.weights import write_state

    state = {"w": np.arange(12.0).reshape(3, 4), "b": np.ones(4, dtype=np.float32)}
    meta = {key: f"{key} « 注意 » \"quoted\"" for key in "qwertyuiopasdfgh"}
    files = [tmp_path / f"{i}.safetensors" for i in range(8)]
    for path in files:
        write_state(path, state, meta)
    assert len({path.read_bytes() for path in files}) == 1
    with safe_open(files[0], "np") as f:
        assert f.metadata() == meta
        assert {k: f.get_tensor(k).tolist() for k in f.keys()} == {
            k: v.tolist() for k, v in state.items()}


def test_weights_read_back_and_saved_again_are_the_same_bytes(tmp_path):
    """`walk --save-weights`, then `walk --weights` of that file with --save-weights again:
    the two files are equal byte for byte, for the encoder-decoder and the decoder-only model."""
    from support.clirun import run_here

    for family in ("transformer", "gpt"):
        first, second = tmp_path / f"{family}1.safetensors", tmp_path / f"{family}2.safetensors"
        out = run_here("walk", "--family", family, "--steps", "1", "--save-weights", first,
                       cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        out = run_here("walk", "--family", family, "--steps", "1", "--weights", first,
                       "--save-weights", second, cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        assert first.read_bytes() == second.read_bytes(), family
