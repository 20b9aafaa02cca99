"""Chinese with no English UI words, and web prose with no CLI flags (issue 19): the Chinese
walk (with the backward pass), translate --explain, train and the page carry no English word
outside formulas, identifiers, the sentences' own words and a short list of terms a Chinese
text keeps in Latin letters (softmax, ReLU, …); the page names no command-line flag."""

from __future__ import annotations

import html
import re
from functools import lru_cache

from click.testing import CliRunner

import handformer
from handformer.cli import main
from handformer.narrate import build
from handformer.render.html import page
from handformer.render.terminal.screen import render_text

# Terms Chinese technical writing keeps in Latin letters, and the glosses the Chinese text
# gives in brackets after its own word (嵌入（Embedding）, 查询 Query).
KEPT = {"softmax", "relu", "mha", "ffn", "logits", "logit", "concat", "log", "cos", "sin", "max",
        "argmax", "rowsum", "llama", "transformer", "xavier", "chatgpt", "gpt", "torch",
        "pytorch", "embedding", "memory", "query", "key", "value", "padding", "handformer",
        "annotated", "adam", "bleu", "layernorm", "distributeddataparallel", "json", "ckpt",
        "safetensors", "mask", "token", "ids", "pos", "float", "english", "gelu"}
# The seed tutorial's title, author and publisher, and its Chinese comic's title (which spells
# "Transform"), as the walk's first lines credit them.
KEPT |= {"solving", "hand", "step", "math", "example", "fareed", "khan", "level", "coding",
         "transform"}
BANNED = ("p(target)", "p(chosen)", "the tutorial's value", "epoch", "input =", "target =",
          "计算图")
WORD = re.compile(r"[A-Za-z][A-Za-z']{2,}")
IDENTIFIER = re.compile(r"[\w.]*[_/.][\w./]*|<\w+>")  # d_model, W_out, file.ckpt, <start>


@lru_cache(maxsize=1)
def tape():
    return handformer.walk(backward=True)


def english_words(text: str, allowed: set[str]) -> set[str]:
    """Latin words of ``text`` that are neither kept terms nor the sentences' own words."""
    words = set()
    for line in text.splitlines():
        if line.startswith("   "):  # a formula line of the terminal
            continue
        line = IDENTIFIER.sub(" ", line)
        words |= {w for w in WORD.findall(line) if w.lower() not in KEPT | allowed}
    return words


def sentence_words(t) -> set[str]:
    words = set(t.meta.get("vocab") or [])
    for line in t.meta.get("dataset") or []:
        words |= set(re.findall(r"[A-Za-z']+", line.lower()))
    return {w.lower() for w in words}


def test_the_chinese_walk_with_its_backward_pass_has_no_english_words():
    text = render_text(build(tape(), "zh"), 3, 100)
    assert not english_words(text, sentence_words(tape()))
    assert not [b for b in BANNED if b in text]


def test_chinese_training_and_an_explained_translation_have_no_english_words(tmp_path):
    ckpt = tmp_path / "m.ckpt"
    run = CliRunner().invoke(main, ["train", "--quiet", "--save", str(ckpt)])
    assert run.exit_code == 0, run.output
    trained = CliRunner().invoke(main, ["train", "--lang", "zh", "--epochs", "3", "--save",
                                        str(tmp_path / "z.ckpt")])
    out = CliRunner().invoke(main, ["translate", "--checkpoint", str(ckpt), "--lang", "zh",
                                    "--explain", "when you play the game of thrones"])
    assert trained.exit_code == 0 and out.exit_code == 0, (trained.output, out.output)
    # the command it suggests, and the names of the preset and initialization it trains
    allowed = sentence_words(tape()) | {"translate", "checkpoint", "tutorial", "uniform"}
    for text in (trained.output, out.output):
        assert re.search(r"[\u4e00-\u9fff]{4}", text)
        assert not english_words(text, allowed), text
        assert not [b for b in BANNED if b in text]


def page_words(lang: str) -> str:
    """The page's visible text in ``lang``: its spans and blocks in that language, no MathML,
    no script or style."""
    text = page.render_sections({code: build(tape(), code) for code in ("en", "zh")}, 3, "t",
                                lang)
    for tag in ("script", "style", "math", "svg"):
        text = re.sub(rf"<{tag}\b.*?</{tag}>", " ", text, flags=re.S)
    other = "en" if lang == "zh" else "zh"
    text = re.sub(rf'<(\w+) class="l-{other}[^"]*"[^>]*>.*?</\1>', " ", text, flags=re.S)
    text = text.replace("<wbr>", "")
    return html.unescape(re.sub(r"<[^>]+>", "\n", text))


def test_the_chinese_page_has_no_english_words_and_no_page_names_a_flag():
    zh = page_words("zh")
    assert not english_words(zh, sentence_words(tape()) | {"handformer"})
    assert not [b for b in BANNED if b in zh]
    for lang in ("en", "zh"):
        flags = re.findall(r"(?<![\w-])--[a-z][a-z-]+", page_words(lang))
        assert not flags, flags


def test_the_chinese_decoder_only_walk_has_no_english_words_even_in_formulas():
    """The decoder-only family, backward too; and the formulas' words (input, target, the
    vocabulary's set of words) in Chinese for both families."""
    gpt = handformer.walk(family="gpt", backward=True)
    text = render_text(build(gpt, "zh"), 3, 100)
    assert not english_words(text, sentence_words(gpt))
    assert not [b for b in BANNED if b in text]
    for t in (gpt, tape()):
        formulas = [line for line in render_text(build(t, "zh"), 3, 100).splitlines()
                    if line.startswith("   ")]
        assert not [w for line in formulas for w in ("input", "target", "words") if w in line]
