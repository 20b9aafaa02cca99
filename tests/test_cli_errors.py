"""Bad input through `main([...])`: exit status 2, a message naming the problem, no traceback."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from handformer.cli import main


def fails(*args, command="walk"):
    """Run a command that must be refused; returns its output (stdout + stderr)."""
    result = CliRunner().invoke(main, [command, *args, "--format", "json"]
                                if command == "walk" else [command, *args])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception,
                                                                      SystemExit)
    return result.output


@pytest.mark.parametrize("command", ["walk", "verify"])
def test_unknown_word_is_named_and_the_corpus_blamed(command):
    out = fails("--preset", "small", "--src", "when you play dragons", command=command)
    assert "'dragons'" in out
    assert "vocabulary comes from the corpus" in out and "to the corpus" in out


def test_unknown_words_in_the_target():
    out = fails("--tgt", "you win or you fly away")
    assert "'fly', 'away'" in out and "target sentence" in out


@pytest.mark.parametrize("sentence", ["", "   ", ". , ."])
@pytest.mark.parametrize("which", ["--src", "--tgt"])
def test_empty_sentence(which, sentence):
    out = fails(which, sentence)
    role = {"--src": "source sentence", "--tgt": "target sentence"}[which]
    assert "empty" in out and role in out


def test_too_long_sentence_names_both_lengths():
    out = fails("--max-len", "5")
    assert "7 words" in out and "maximum length 5" in out and "max_len" in out
    out = fails("--max-len", "7", "--tgt", "you win or you die you win")  # 7 + <start>
    assert "7 words (+1 for <start>)" in out and "maximum length 7" in out


def test_missing_corpus(tmp_path):
    out = fails("--corpus", str(tmp_path / "nope.txt"))
    assert "nope.txt" in out and "does not exist" in out


def test_non_utf8_corpus(tmp_path):
    corpus = tmp_path / "latin1.txt"
    corpus.write_bytes("café au lait\n".encode("latin-1"))
    out = fails("--corpus", str(corpus), "--src", "au", "--tgt", "lait")
    assert "not UTF-8" in out and "latin1.txt" in out


def test_corpus_without_words(tmp_path):
    corpus = tmp_path / "blank.txt"
    corpus.write_text("\n  \n.,\n", encoding="utf-8")
    assert "has no words" in fails("--corpus", str(corpus))


@pytest.mark.parametrize("args,numbers", [
    (["--preset", "small", "--d-model", "30", "--heads", "4"], ["d_model 30", "heads 4"]),
    (["--preset", "small", "--d-model", "31", "--heads", "1"], ["d_model 31", "32"]),
    (["--heads", "0"], ["heads", "0"]),
    (["--d-k", "0"], ["d_k", "0"]),
    (["--layers", "0"], ["0 encoder and 0 decoder"]),
    (["--ffn", "triple"], ["'triple'"]),
    (["--init", "normal"], ["'normal'"]),
    (["--dropout", "1.5"], ["dropout", "1.5"]),
    (["--label-smoothing", "-0.1"], ["label_smoothing", "-0.1"]),
    (["--ln-eps", "0"], ["ln_eps"]),
    (["--seed", "-1"], ["seed", "-1"]),
    (["--preset", "paper", "--d-ff", "100000"], ["d_ff 100000", "GiB"]),
    (["--preset", "small", "--ffn", "single", "--d-ff", "100"],
     ["d_ff must equal d_model 32", "got d_ff 100"]),
])
def test_invalid_option_combinations_name_the_clashing_numbers(args, numbers):
    out = fails(*args)
    assert out.startswith("error: ")
    for n in numbers:
        assert n in out


def test_divisibility_error_suggests_a_fix():
    out = fails("--preset", "small", "--d-model", "30", "--heads", "4")
    assert "[1, 2, 3, 5, 6, 10, 15, 30]" in out and "give d_k" in out


def test_d_k_given_explicitly_lifts_the_divisibility_rule():
    """30 / 4 is no whole number; with --d-k 5 each of the 4 heads is 5 wide, scaled by 1/√5."""
    result = CliRunner().invoke(main, ["walk", "--preset", "small", "--d-model", "30",
                                       "--heads", "4", "--d-k", "5", "--format", "json"])
    assert result.exit_code == 0, result.output
    tape = json.loads(result.stdout)
    assert (tape["config"]["d_k"], tape["config"]["d_v"], tape["config"]["heads"]) == (5, 5, 4)
    assert np.shape(tape["params"]["encoder.0.self_attn.w_q"]) == (30, 4 * 5)
    steps = {s["name"]: np.array(s["value"]) for s in tape["steps"]}
    q, k = steps["encoder.0.self_attn.q"], steps["encoder.0.self_attn.k"]
    assert q.shape == k.shape == (4, 7, 5)
    expected = np.einsum("hic,hjc->hij", q, k) / math.sqrt(5)
    np.testing.assert_allclose(steps["encoder.0.self_attn.scores"], expected, rtol=1e-12)


def test_unreadable_weights_file(tmp_path):
    bad = tmp_path / "w.safetensors"
    bad.write_bytes(b"\x00" * 3)
    out = fails("--weights", str(bad))
    assert "not a readable safetensors file" in out


def test_saved_tape_that_is_not_a_tape(tmp_path):
    bad = tmp_path / "tape.json"
    bad.write_text('{"format": "something else"}', encoding="utf-8")
    out = fails(str(bad), "--format", "json", command="render")
    assert "not a handformer tape" in out


def test_click_usage_errors_also_exit_2():
    out = fails("--preset", "huge")
    assert "'huge'" in out and "tutorial" in out
