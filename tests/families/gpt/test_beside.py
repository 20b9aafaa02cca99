"""`walk --family gpt --beside-trained`: the copy's attention pattern and p(target) are those of
torch's layers (TorchGpt) on the copy's weights, the copy learns the lines, the walk keeps its
random weights, and the section says it in the decoder-only model's words, in every format."""

import json

import numpy as np
import pytest
import torch

from handformer import narrate, pipeline
from handformer.errors import HandformerError
from handformer.families.gpt.beside import EPOCHS, LR, PATTERN
from handformer.families.gpt.config import GptConfig
from handformer.families.gpt.run import prepare
from handformer.families.gpt.torch_ref import TorchGpt
from handformer.families.gpt.train import fit
from support.clirun import run_here


@pytest.fixture(scope="module")
def walked():
    return pipeline.run({"family": "gpt", "beside_trained": True}).tape


def torch_view(cfg, params, ids):
    """Head 0's masked self-attention pattern of layer 0 and p, from torch's modules."""
    ref = TorchGpt(cfg, params)
    stages = ref(ids)
    layer = ref.layers[0]
    x = stages["embed.out"][None]
    h = layer.norm1(x) if cfg.norm == "pre" else x
    causal = torch.nn.Transformer.generate_square_subsequent_mask(len(ids), dtype=torch.float64)
    _, weights = layer.self_attn(h, h, h, attn_mask=causal, need_weights=True,
                                 average_attn_weights=False)
    p = torch.softmax(stages["generator.logits"], dim=-1)
    return weights[0, 0].detach().numpy(), p.detach().numpy()


def test_the_copys_numbers_are_torchs_on_the_copys_weights(walked):
    copy = prepare({})
    losses = fit(copy, EPOCHS, LR)
    beside, meta = walked.meta["beside"], walked.meta
    pattern, p = torch_view(copy.config, copy.params, meta["tgt"]["ids"])
    np.testing.assert_allclose(beside["pattern"], pattern, rtol=0, atol=1e-12)
    targets = meta["target"]["ids"]
    np.testing.assert_allclose(beside["p_target"], [p[t, i] for t, i in enumerate(targets)],
                               rtol=0, atol=1e-12)
    assert beside["picked"] == [int(i) for i in p.argmax(axis=-1)]
    assert beside["loss"] == [losses[0], losses[-1]] and len(losses) == EPOCHS
    assert beside["pairs"] == 3 and beside["seen"] is True
    assert beside["step"] == PATTERN and beside["over"] == "tgt"


def test_the_copy_learns_the_lines_and_the_walk_keeps_its_random_weights(walked):
    beside = walked.meta["beside"]
    first, last = beside["loss"]
    assert last < first / 10
    assert np.mean(beside["p_target"]) > 0.9
    for name, value in prepare({}).params.items():
        assert np.array_equal(walked.params[name], value), name
    random = np.array(walked[PATTERN])
    assert np.mean([walked["generator.probs"][t, i]
                    for t, i in enumerate(walked.meta["target"]["ids"])]) < 0.2
    for pattern in (random, np.array(beside["pattern"])):  # what the text says of the mask
        assert np.all(np.triu(pattern, k=1) == 0)


def test_the_section_shows_both_columns_over_the_input_tokens(walked):
    (section,) = [s for s in narrate.build(walked) if s.id == "beside"]
    random, _, trained, p = section.equation
    np.testing.assert_array_equal(random.value, walked[PATTERN])
    np.testing.assert_array_equal(trained.value, walked.meta["beside"]["pattern"])
    assert random.rows == walked.meta["tgt"]["tokens"] == random.cols
    targets = walked.meta["target"]["ids"]
    np.testing.assert_array_equal(p.value[1], walked.meta["beside"]["p_target"])
    assert p.rows == ["θ₀", "θ"] and len(p.cols) == len(targets)
    text = " ".join(section.paragraphs)
    assert "3 lines for 400 Adam steps" in text and "continue a text" in text
    assert "sentence pair" not in text and "translate" not in text


def test_another_text_is_not_one_the_copy_saw():
    tape = pipeline.run({"family": "gpt", "beside_trained": True, "src": "the storm",
                         "tgt": "you die"}).tape
    assert tape.meta["beside"]["seen"] is False
    (section,) = [s for s in narrate.build(tape) if s.id == "beside"]
    assert not any("one of the lines" in p for p in section.paragraphs)


def test_the_comparison_survives_a_json_tape_and_a_damaged_one_is_refused(walked):
    from handformer.files.tape_json import TapeFormatError, dumps, loads

    data = json.loads(dumps(walked))
    assert loads(json.dumps(data)).meta["beside"] == walked.meta["beside"]
    data["beside"]["pattern"] = data["beside"]["pattern"][:-1]
    with pytest.raises(TapeFormatError, match="one row per input token"):
        loads(json.dumps(data))


@pytest.mark.parametrize("lang, title, words", [
    ("en", "Random weights beside trained weights", "masked self-attention pattern of head 1"),
    ("zh", "随机权重与训练后的权重并排", "带掩码自注意力模式")])
def test_the_cli_draws_it_in_the_terminal_in_each_language(tmp_path, lang, title, words):
    out = run_here("walk", "--family", "gpt", "--beside-trained", "--lang", lang, "--no-pager",
                   "--width", "100", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    text = out.stdout.decode()
    flowed = text.replace("\n ", "") if lang == "zh" else " ".join(text.split())
    assert title in text and words in flowed


def test_the_page_holds_the_section_in_both_languages(tmp_path):
    out = run_here("walk", "--family", "gpt", "--beside-trained", "--format", "html", "-o",
                   "p.html", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    page = (tmp_path / "p.html").read_text(encoding="utf-8").replace("<wbr>", "")
    for words in ("Random weights beside trained weights", "随机权重与训练后的权重并排",
                  "continue a text it has never seen", "模型能续写它从没见过的文本"):
        assert words in page, words


def test_a_checkpoints_walk_shows_its_untrained_weights_beside_and_refuses_the_flag(tmp_path):
    out = run_here("train", "--family", "gpt", "--epochs", "30", "--quiet", "--save", "g.ckpt",
                   cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    tape = pipeline.run({"family": "gpt", "checkpoint": str(tmp_path / "g.ckpt")}).tape
    beside, meta = tape.meta["beside"], tape.meta
    assert beside["label"] == "untrained" and beside["epochs"] == 30
    cfg = GptConfig.from_dict(meta["config"])
    pattern, p = torch_view(cfg, prepare({"config": cfg}).params, meta["tgt"]["ids"])
    np.testing.assert_allclose(beside["pattern"], pattern, rtol=0, atol=1e-12)
    np.testing.assert_allclose(beside["p_target"], meta["trained"]["untrained_p_target"],
                               rtol=0, atol=1e-15)
    (section,) = [s for s in narrate.build(tape) if s.id == "beside"]
    assert "(30 Adam steps over its lines)" in section.paragraphs[0]
    np.testing.assert_array_equal(section.equation[2].value, tape[PATTERN])  # A′: the walk's
    with pytest.raises(HandformerError, match="drop --beside-trained"):
        pipeline.run({"family": "gpt", "checkpoint": str(tmp_path / "g.ckpt"),
                      "beside_trained": True})
