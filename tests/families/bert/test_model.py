"""A small random BERT saved by transformers, loaded from its folder: every hidden state and every
parameter gradient equal transformers' BertModel (float64, autograd); bad folders are refused."""

import json
import os
import shutil

import numpy as np
import pytest

from handformer.errors import HandformerError
from handformer.families.bert.load import PretrainedError, hf_name, load, run

# Offline: huggingface_hub reads these once, when it is first imported.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
pytestmark = pytest.mark.slow  # the module's fixture saves a BERT with transformers (~12 s)
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

PIECES = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "the", "storm", "he", "brings", "win", "##s", "die",
          "you", "or", ",", "."]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A 2-layer, 4-head, d_model 16 BERT with random weights (layer norms perturbed too)."""
    torch.manual_seed(7)
    cfg = transformers.BertConfig(vocab_size=len(PIECES), hidden_size=16, num_attention_heads=4,
                                  num_hidden_layers=2, intermediate_size=24,
                                  max_position_embeddings=12, layer_norm_eps=1e-12)
    model = transformers.BertModel(cfg, add_pooling_layer=False)
    with torch.no_grad():
        for name, p in model.named_parameters():
            p.add_(torch.randn_like(p) * (0.3 if "LayerNorm" in name else 0.05))
    path = tmp_path_factory.mktemp("tiny_bert")
    model.save_pretrained(str(path))
    (path / "vocab.txt").write_text("\n".join(PIECES) + "\n", encoding="utf-8")
    return path


SENTENCES = ["he brings the storm.", "you win, or you die", "storms"]


def reference(folder, ids, pad):
    model = transformers.BertModel.from_pretrained(str(folder)).double().eval()
    out = model(input_ids=torch.tensor(ids), attention_mask=torch.tensor(~pad).long(),
                output_hidden_states=True)
    mask = torch.tensor(~pad).double().unsqueeze(-1)
    pooled = (out.last_hidden_state * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
    return model, out.hidden_states, torch.nn.functional.normalize(pooled, dim=-1)


def test_every_hidden_state_and_every_gradient_equal_bertmodel(folder):
    tape = run(load(str(folder)), SENTENCES)
    ids, pad = tape["src.ids"], tape["src.ids"] == 0
    assert pad.any(), "the batch should need padding"
    model, hidden, embedding = reference(folder, ids, pad)
    np.testing.assert_allclose(tape["embeddings.ln.out"], hidden[0].detach().numpy(), atol=1e-12)
    for i in range(2):
        np.testing.assert_allclose(tape[f"layer.{i}.out"], hidden[i + 1].detach().numpy(),
                                   atol=1e-12, err_msg=f"layer {i}")
    np.testing.assert_allclose(tape["pooling.normalized"], embedding.detach().numpy(), atol=1e-13)

    embedding.sum().backward()
    grads = tape.backward("pooling.normalized")
    theirs = dict(model.named_parameters())
    for name in tape.params:
        hf, transposed = hf_name(name)
        expected = theirs[hf].grad.numpy()
        np.testing.assert_allclose(grads[name], expected.T if transposed else expected,
                                   rtol=0, atol=1e-11, err_msg=name)
    assert np.abs(grads["layer.0.ffn.w_1"]).max() > 1e-3  # the check is not trivially zero


def test_padding_does_not_change_a_sentence(folder):
    model = load(str(folder))
    alone = run(model, [SENTENCES[2]])["pooling.normalized"]
    batched = run(model, SENTENCES)["pooling.normalized"][2]
    np.testing.assert_allclose(batched, alone, atol=1e-15)


def copy_with(folder, tmp_path, config_changes=None, drop=None, pooling=None):
    target = tmp_path / "model"
    shutil.copytree(folder, target)
    if config_changes:
        cfg = json.loads((target / "config.json").read_text())
        cfg.update(config_changes)
        (target / "config.json").write_text(json.dumps(cfg))
    if drop:
        (target / drop).unlink()
    if pooling:
        (target / "1_Pooling").mkdir()
        (target / "1_Pooling" / "config.json").write_text(json.dumps(pooling))
    return str(target)


@pytest.mark.parametrize("changes, message", [
    ({"hidden_act": "relu"}, r"hidden_act = 'relu' \(handformer computes 'gelu'\)"),
    ({"position_embedding_type": "relative_key"}, "position_embedding_type"),
    ({"model_type": "roberta"}, "model_type"),
    ({"rope_theta": 10000}, r"unknown field\(s\): rope_theta"),
    ({"num_attention_heads": 5}, "not divisible"),
    ({"intermediate_size": 30}, "shape"),
    ({"vocab_size": 99}, "vocab.txt has 15 pieces"),
])
def test_unsupported_configs_are_refused_by_name(folder, tmp_path, changes, message):
    with pytest.raises(HandformerError, match=message):
        load(copy_with(folder, tmp_path, changes))


def test_missing_files_and_other_poolings_are_refused(folder, tmp_path):
    with pytest.raises(PretrainedError, match="lacks vocab.txt"):
        load(copy_with(folder, tmp_path, drop="vocab.txt"))
    with pytest.raises(PretrainedError, match="pooling_mode_cls_token"):
        load(copy_with(folder, tmp_path / "b", pooling={"pooling_mode_cls_token": True}))
    with pytest.raises(PretrainedError, match="neither a folder nor a known model"):
        load(str(tmp_path / "nowhere"))


def test_too_long_a_sentence_is_refused(folder):
    with pytest.raises(PretrainedError, match="at most 12"):
        run(load(str(folder)), ["the storm " * 10])


def test_golden_step_names_of_one_layer(folder):
    """The tape's names (views aside) for a 2-layer model, written out by hand."""
    tape = run(load(str(folder)), ["the storm"])
    layer = ["self_attn.q", "self_attn.k", "self_attn.v", "self_attn.scores", "self_attn.masked",
             "self_attn.pattern", "self_attn.z", "self_attn.concat", "self_attn.out", "ln1.resid",
             "ln1.out", "ffn.pre", "ffn.act", "ffn.out", "ln2.resid", "ln2.out", "out"]
    expected = ["src.ids", "src.positions", "src.token_types", "embeddings.word",
                "embeddings.position", "embeddings.token_type", "embeddings.sum",
                "embeddings.ln.out", *(f"layer.{i}.{n}" for i in range(2) for n in layer),
                "pooling.mean", "pooling.normalized"]
    assert [s.name for s in tape.steps if not s.view] == expected
    views = [s.name for s in tape.steps if s.view and s.name.startswith("layer.0.self_attn.head.3")]
    assert views == [f"layer.0.self_attn.head.3.{n}" for n in ("q", "k", "v", "scores", "masked",
                                                               "pattern", "z")]


def test_a_fine_tuning_step_equals_bertmodel(folder):
    """walk --backward's loss 1 − cos(u_A, u_B): every parameter's gradient as torch's."""
    from handformer.families.bert import finetune

    tape = finetune.pair_tape(load(str(folder)), SENTENCES[0], SENTENCES[1])
    finetune.backward(tape, 0.1)
    pad = finetune.padding(tape)
    model = transformers.BertModel.from_pretrained(str(folder)).double().eval()
    out = model(input_ids=torch.tensor(tape["src.ids"]), attention_mask=torch.tensor(~pad).long())
    keep = torch.tensor(~pad).double().unsqueeze(-1)
    u = (out.last_hidden_state * keep).sum(1) / keep.sum(1)
    loss = 1 - torch.nn.functional.cosine_similarity(u[0], u[1], dim=0)
    loss.backward()
    assert abs(float(tape["loss"]) - loss.item()) < 1e-13
    theirs = dict(model.named_parameters())
    for name in tape.params:
        hf, transposed = hf_name(name)
        expected = theirs[hf].grad.numpy()
        np.testing.assert_allclose(tape.grads[name], expected.T if transposed else expected,
                                   rtol=0, atol=1e-12, err_msg=name)
    assert tape.meta["update"]["loss_after"] < float(tape["loss"])


@pytest.mark.process
def test_a_fine_tuning_step_survives_json_then_render(folder, tmp_path):
    """walk --backward --format json, then `render` in a fresh process: the same terminal
    walkthrough and the same page as the walk itself (a tiny model: MiniLM's gradients do not
    fit a JSON tape)."""
    import subprocess
    import sys

    from click.testing import CliRunner

    from handformer.cli import main

    walk = ["walk", "--pretrained", str(folder), "--backward", "--src", SENTENCES[0],
            "--tgt", SENTENCES[1]]
    saved = tmp_path / "t.json"
    assert CliRunner().invoke(main, [*walk, "--format", "json", "-o", str(saved)]).exit_code == 0
    for fmt in ("terminal", "html"):
        direct, again = tmp_path / f"direct.{fmt}", tmp_path / f"again.{fmt}"
        done = CliRunner().invoke(main, [*walk, "--format", fmt, "--width", "90",
                                         "-o", str(direct)])
        assert done.exit_code == 0, done.output
        result = subprocess.run([sys.executable, "-m", "handformer", "render", str(saved),
                                 "--format", fmt, "--width", "90", "-o", str(again)],
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        assert again.read_text(encoding="utf-8") == direct.read_text(encoding="utf-8"), fmt
    assert "Update: every parameter, one step" in again.read_text(encoding="utf-8")
