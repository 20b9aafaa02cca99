"""Class "limits": a small file or option that claims a huge size is refused by name, up front.

Each refusal must name the quantity, its value and the limit, and happen before the
allocation: the process runs under a 3 GiB address-space bound (clirun.MEMORY_BOUND), so an
attempt to allocate first fails the test with a MemoryError instead of being refused.
"""

import json

import pytest

from support.clirun import (
    bert_folder,
    edit_checkpoint,
    read_safetensors,
    refused_unchanged,
    run,
    safetensors_with,
)

pytestmark = pytest.mark.process  # allocations bounded by prlimit --as

SPECIALS = ["<start>", "<end>"]
HUGE_VOCAB = [f"w{i}" for i in range(10**6)]


def _sparse(path, size=5 * 10**9):
    with open(path, "wb") as f:
        f.truncate(size)  # 5 GB on paper, no blocks on disk
    return path


def test_weights_metadata_claiming_a_million_words_at_4096(made, tmp_path):
    tensors, meta = read_safetensors(made / "w.safetensors")
    config = json.loads(meta["config"]) | {"d_model": 4096, "d_ff": 4096}  # ffn 'single'
    meta = meta | {"config": json.dumps(config), "vocab": json.dumps(HUGE_VOCAB + SPECIALS)}
    meta.pop("specials", None)
    safetensors_with(tmp_path / "w.safetensors", tensors, meta)
    err = refused_unchanged(tmp_path, "walk", "--weights", "w.safetensors", "--steps", "1")
    assert "1,000,002" in err and "limit" in err


def test_checkpoint_metadata_claiming_a_million_words_at_4096(made, tmp_path):
    def claim(meta):
        meta["config"]["d_model"] = meta["config"]["d_ff"] = 4096  # ffn 'single'
        meta["vocab"]["words"] = HUGE_VOCAB
    edit_checkpoint(made / "c.ckpt", tmp_path / "c.ckpt", edit_meta=claim)
    err = refused_unchanged(tmp_path, "translate", "--checkpoint", "c.ckpt", "you win")
    assert "limit" in err


def test_tape_config_claiming_d_model_a_billion(tape, tmp_path):
    tape["config"]["d_model"] = 10**9
    (tmp_path / "t.json").write_text(json.dumps(tape), encoding="utf-8")
    err = refused_unchanged(tmp_path, "render", "t.json")
    assert "d_model" in err and "1,000,000,000" in err and "65,536" in err


@pytest.mark.parametrize("field,value", [("num_hidden_layers", 10**9), ("vocab_size", 10**9),
                                         ("hidden_size", 2**20), ("intermediate_size", 10**9)])
def test_model_folder_config_claiming_a_huge_model(tmp_path, field, value):
    bert_folder(tmp_path / "m", {field: value})
    err = refused_unchanged(tmp_path, "walk", "--pretrained", "m", "--src", "hello")
    assert field in err and f"{value:,}" in err and "limit" in err


@pytest.mark.parametrize("name,args", [("big.txt", ["walk", "--corpus", "big.txt"]),
                                       ("big.tsv", ["train", "--pairs", "big.tsv"]),
                                       ("big.json", ["render", "big.json"])])
def test_five_gigabyte_text_file_refused_by_its_size(tmp_path, name, args):
    _sparse(tmp_path / name)
    err = refused_unchanged(tmp_path, *args)
    assert "MiB" in err and "limit" in err and name in err


@pytest.mark.parametrize("args", [["walk", "--corpus", "/dev/zero"],
                                  ["train", "--pairs", "/dev/zero"],
                                  ["render", "/dev/zero"],
                                  ["walk", "--weights", "/dev/zero"],
                                  ["translate", "--checkpoint", "/dev/zero", "you"]])
def test_an_endless_file_is_read_no_further_than_the_limit(tmp_path, args):
    err = refused_unchanged(tmp_path, *args)
    assert "/dev/zero" in err and ("limit" in err or "not a regular file" in err)


def test_300000_word_vocabulary_at_paper_size(tmp_path):
    words = " ".join(f"word{i}" for i in range(300_000))
    (tmp_path / "corpus.txt").write_text(f"when you play\n{words}\n", encoding="utf-8")
    err = refused_unchanged(tmp_path, "walk", "--preset", "paper", "--corpus", "corpus.txt",
                            "--src", "when you", "--tgt", "play")
    assert "300,00" in err and "limit" in err


@pytest.mark.parametrize("args,words", [
    (["walk", "--width", "1000000000"], ["--width", "1,000,000,000", "10,000"]),
    (["walk", "--max-len", "1000000000"], ["max_len", "1,000,000,000"]),
    (["walk", "--layers", "1000000"], ["layers", "1,000,000"]),
    (["walk", "--d-model", "1000000000"], ["d_model", "1,000,000,000"]),
    (["walk", "--preset", "small", "--heads", "1000000", "--d-k", "1"], ["heads", "1,000,000"]),
    (["walk", "--preset", "small", "--d-ff", "1000000000"], ["d_ff", "1,000,000,000"]),
    (["translate", "--checkpoint", "c.ckpt", "--beam", "1000000000", "you"],
     ["--beam", "1,000,000,000"]),
    (["similarity", "a", "b", "--width", "1000000000"], ["--width"]),
])
def test_options_without_upper_bounds(made, tmp_path, args, words):
    (tmp_path / "c.ckpt").write_bytes((made / "c.ckpt").read_bytes())
    err = refused_unchanged(tmp_path, *args, words=words)
    assert "HANDFORMER_LIMITS=" in err


def test_a_long_sentence_at_paper_size_is_refused_by_its_attention_cost(tmp_path):
    sentence = " ".join(["the"] * 5000)
    (tmp_path / "corpus.txt").write_text("the storm\n", encoding="utf-8")
    err = refused_unchanged(tmp_path, "walk", "--preset", "paper", "--max-len", "6000",
                            "--corpus", "corpus.txt", "--src", sentence, "--tgt", "storm")
    assert "5000 source" in err and "limit" in err


def test_wide_beam_with_explain_is_refused_by_its_cost(made, tmp_path):
    (tmp_path / "c.ckpt").write_bytes((made / "c.ckpt").read_bytes())
    err = refused_unchanged(tmp_path, "translate", "--checkpoint", "c.ckpt", "--beam", "1000",
                            "--explain", "--max-length", "60", "when you play")
    assert "limit" in err


def test_paper_backward_json_is_refused_and_writes_nothing(tmp_path):
    err = refused_unchanged(tmp_path, "walk", "--preset", "paper", "--backward", "--format",
                            "json", "-o", "out.json")
    assert not (tmp_path / "out.json").exists()
    assert "JSON tape" in err and "limit" in err


@pytest.mark.parametrize("value,word", [("bogus=1", "unknown limit"), ("width=x", "width")])
def test_a_malformed_limits_variable_is_refused(tmp_path, value, word):
    refused_unchanged(tmp_path, "walk", "--steps", "1", env={"HANDFORMER_LIMITS": value},
                      words=[word, "HANDFORMER_LIMITS"])


def test_raising_a_limit_on_purpose_lets_the_run_through(tmp_path):
    result = run("walk", "--steps", "1", "--width", "12000", cwd=tmp_path,
                 env={"HANDFORMER_LIMITS": "width=20000"})
    assert result.returncode == 0, result.stderr
    assert max(len(line) for line in result.stdout.decode().splitlines()) == 12000

