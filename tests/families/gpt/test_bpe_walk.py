"""`walk --family gpt --tokenizer bpe`: the BPE panels in every format and both languages, the
tape file's round trip, checkpoints that keep the merges, generate reading bytes back as text,
and the refusals (other families, --bpe-merges without bpe, a byte the corpus lacks)."""

import json
import re

import pytest

from support.clirun import refused, run_here

BPE = ("walk", "--family", "gpt", "--tokenizer", "bpe", "--no-pager")
CHINESE = "我爱你，你爱我。\n我们学习中文，我们喜欢中文。\nI love you and you love me.\n你好，世界！\n"


def ok(result) -> str:
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 0, err
    return result.stdout.decode("utf-8")


@pytest.fixture
def chinese(tmp_path):
    (tmp_path / "zh.txt").write_text(CHINESE, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("fmt", ["terminal", "markdown", "html", "json"])
def test_each_format_shows_the_merges(tmp_path, fmt):
    out = tmp_path / f"walk.{fmt}"
    ok(run_here(*BPE, "--bpe-merges", "12", "--format", fmt, "-o", out, cwd=tmp_path))
    text = out.read_text(encoding="utf-8")
    if fmt == "json":
        told = json.loads(text)["bpe"]
        assert len(told["merges"]) == 12 and told["text"]["tokens"]
        return
    assert "merge 1 of 12" in text and "all 12 merges" in text  # 8 panels, then the table
    assert "Ġ + t → Ġt" in text  # " t" (the, thrones, things, true, the) is the first merge
    assert "\\sum" not in re.sub(r"\$\$.*?\$\$", "", text, flags=re.S)  # TeX only in math


def test_chinese_shows_one_character_as_three_byte_symbols(chinese):
    # 我 = e6 88 91: the bytes 0x88 and 0x91 are among GPT-2's moved ones (U+012A, U+0133)
    out = ok(run_here(*BPE, "--corpus", "zh.txt", "--src", "我爱中文", "--tgt", "你爱我",
                      "--lang", "zh", "--width", "100", cwd=chinese))
    assert "我 = e6 88 91 = æ Ī ĳ" in out
    assert "“我爱你” ×1: æ Ī ĳ ç Ī ± ä ½ ł" in out
    assert "字节级 BPE：把文本切成词元" in out
    last = out.index("字节级 BPE：把文本切成词元")
    bpe_part = out[out.index("字节级 BPE：把语料"):out.index(" 步 · ", last)]  # up to the next
    # BPE, GPT-2 and UTF-8 as Chinese writes them; the corpus's words; <start>, <end>, ids
    kept = {"BPE", "GPT", "UTF", "love", "you", "and", "start", "end", "ids"}
    latin = set(re.findall(r"[A-Za-z][A-Za-z']{2,}", bpe_part)) - kept
    assert not latin, latin


def test_json_tape_renders_the_same_panels(tmp_path):
    ok(run_here(*BPE, "--format", "json", "-o", "t.json", cwd=tmp_path))
    for fmt in ("markdown", "html"):
        ok(run_here(*BPE, "--format", fmt, "-o", f"walk.{fmt}", cwd=tmp_path))
        ok(run_here("render", "t.json", "--format", fmt, "-o", f"again.{fmt}", cwd=tmp_path))
        assert (tmp_path / f"again.{fmt}").read_text() == (tmp_path / f"walk.{fmt}").read_text()


def test_a_checkpoint_keeps_its_merges_and_generates_text(tmp_path):
    ok(run_here(*BPE, "--bpe-merges", "15", "--format", "json", "-o", "fresh.json",
                cwd=tmp_path))
    ok(run_here("train", "--family", "gpt", "--tokenizer", "bpe", "--bpe-merges", "15",
                "--epochs", "40", "--quiet", "--save", "b.ckpt", cwd=tmp_path))
    ok(run_here("walk", "--family", "gpt", "--checkpoint", "b.ckpt", "--format", "json", "-o",
                "t.json", "--no-pager", cwd=tmp_path))
    fresh, saved = (json.loads((tmp_path / f).read_text()) for f in ("fresh.json", "t.json"))
    assert saved["bpe"]["merges"] == fresh["bpe"]["merges"]
    assert saved["vocab"] == fresh["vocab"] and saved["tokenizer"] == "bpe"
    out = ok(run_here("generate", "--checkpoint", "b.ckpt", "--max-new", "12",
                      "when you play", cwd=tmp_path)).strip()
    assert out and "Ġ" not in out  # bytes read back as text, spaces as spaces


def test_generate_trains_a_bpe_model_here(chinese):
    out = ok(run_here("generate", "--corpus", "zh.txt", "--tokenizer", "bpe", "--bpe-merges",
                      "10", "--train-steps", "30", "--max-new", "6", "我爱", cwd=chinese))
    assert not set(out) & set("ĠæĪĳ")


@pytest.mark.parametrize("args, words", [
    (("walk", "--tokenizer", "bpe"), ("transformer family",)),
    (("walk", "--family", "bert", "--tokenizer", "bpe", "--src", "hi"), ("bert family",)),
    (("train", "--tokenizer", "bpe", "--quiet"), ("transformer family",)),
    (("walk", "--family", "gpt", "--bpe-merges", "5"), ("--tokenizer bpe",)),
    (("walk", "--family", "gpt", "--tokenizer", "bpe", "--bpe-merges", "0"), ("--bpe-merges",)),
    (("walk", "--family", "gpt", "--tokenizer", "bpe", "--bpe-merges", "5000"),
     ("--bpe-merges",)),
    (("walk", "--family", "gpt", "--tokenizer", "bpe", "--src", "café"), ("'Ã'", "byte")),
    (("walk", "--family", "gpt", "--tokenizer", "bpe", "--save-weights", "b.safetensors"),
     ("merges", "--save FILE")),
])
def test_refusals_are_one_line(tmp_path, args, words):
    refused(run_here(*args, "--no-pager" if args[0] == "walk" else "--quiet", cwd=tmp_path)
            if args[0] == "walk" else run_here(*args, cwd=tmp_path), *words)
    assert not (tmp_path / "b.safetensors").exists()
