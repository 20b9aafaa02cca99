"""`handformer verify`: per-stage table, PASS/FAIL and exit status, torch missing, unsupported."""

import sys

import numpy as np
import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.families.transformer.verify import padded_batch


def run(*args):
    result = CliRunner().invoke(main, ["verify", *args])
    assert "Traceback" not in result.output
    return result


def test_small_passes_with_every_stage_listed():
    result = run("--preset", "small")
    assert result.exit_code == 0, result.output
    for stage in ("src_embed.out", "encoder.0.out", "encoder.1.out", "encoder.norm.out",
                  "tgt_embed.out", "decoder.0.out", "decoder.1.out", "decoder.norm.out",
                  "generator.logits"):
        assert stage in result.output
    assert "PASS: 9 stages" in result.output
    assert "FAIL" not in result.output
    assert "padded batch" in result.output


def test_overrides_and_sentences():
    result = run("--preset", "small", "--d-model", "12", "--heads", "3", "--layers", "1",
                 "--no-final-norm", "--src", "the storm", "--tgt", "he brings the storm")
    assert result.exit_code == 0, result.output
    assert "encoder.norm.out" not in result.output and "PASS: 5 stages" in result.output
    assert "2×12" in result.output  # two source words, d_model 12


def test_a_tolerance_below_round_off_fails_with_exit_1():
    result = run("--preset", "small", "--tol", "1e-30")
    assert result.exit_code == 1
    assert "FAIL" in result.output


@pytest.mark.slow
def test_paper_preset_passes():
    result = run("--preset", "paper")
    assert result.exit_code == 0, result.output
    assert "decoder.5.out" in result.output and "PASS: 17 stages" in result.output


def test_tutorial_preset_against_nn_names_what_torch_cannot_express():
    result = run("--reference", "nn")
    assert result.exit_code == 2
    for clash in ("d_k 4 × heads 1 = 4 ≠ d_model 6", "decoder heads 2 ≠ encoder heads 1",
                  "--ffn single", "--no-attn-bias"):
        assert clash in result.output, clash
    assert "--preset small" in result.output


def test_each_unsupported_option_alone():
    for option, words in ((["--d-k", "4"], "d_k 4 × heads 4"),
                          (["--decoder-heads", "2"], "decoder heads 2"),
                          (["--ffn", "single"], "single-linear FFN"),
                          (["--no-attn-bias"], "attention without biases"),
                          (["--d-v", "4"], "d_v 4 ≠ d_k 8")):
        result = run("--preset", "small", "--reference", "nn", *option)
        assert result.exit_code == 2, (option, result.output)
        assert words in result.output, (option, result.output)


def test_without_torch_it_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` raises ImportError
    result = run("--preset", "small")
    assert result.exit_code == 2
    assert "pip install -e '.[torch]'" in result.output


def test_weights_file_is_verified(tmp_path):
    weights = tmp_path / "w.safetensors"
    saved = CliRunner().invoke(main, ["walk", "--preset", "small", "--seed", "3",
                                      "--save-weights", str(weights), "--format", "json"])
    assert saved.exit_code == 0
    result = run("--weights", str(weights))  # the file's config (small), not the default
    assert result.exit_code == 0, result.output
    assert "preset small" in result.output


def test_bad_sentences_exit_2():
    for args in (["--src", "dragons"], ["--tgt", "   "]):
        result = run("--preset", "small", *args)
        assert result.exit_code == 2, args


def test_padded_batch_shapes():
    src, src_pad, tgt, tgt_pad = padded_batch([5, 6, 7, 8, 9], [23, 6, 12], pad_id=0)
    np.testing.assert_array_equal(src, [[5, 6, 7, 8, 9], [5, 6, 0, 0, 0]])
    np.testing.assert_array_equal(src_pad, [[False] * 5, [False, False, True, True, True]])
    np.testing.assert_array_equal(tgt, [[23, 6, 12], [23, 0, 0]])
    assert tgt_pad.sum() == 2


def test_without_torch_train_engine_torch_names_itself(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "torch", None)
    result = CliRunner().invoke(main, ["train", "--engine", "torch", "--preset", "small",
                                       "--epochs", "1", "--save", str(tmp_path / "c.ckpt")])
    assert result.exit_code == 2, result.output
    assert "train --engine torch" in result.output
    assert "pip install -e '.[torch]'" in result.output
    assert "only for verification" not in result.output


@pytest.mark.parametrize("switches", [["--norm", "pre"], ["--tie-embeddings"],
                                      ["--norm", "pre", "--tie-embeddings"]])
def test_the_papers_switches_pass_against_torch(switches):
    """norm_first=True and one tied table in torch.nn.Transformer, stage by stage."""
    out = CliRunner().invoke(main, ["verify", "--preset", "small", *switches])
    assert out.exit_code == 0, out.output
    assert "PASS: 9 stages" in out.output
