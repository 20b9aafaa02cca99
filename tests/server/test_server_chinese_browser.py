"""The 中文 app says everything in Chinese, in Chromium: the header, the form (its options, the
pinned run), the status and the errors of an empty sentence and of a d_ff of 0, each said once.
No ASCII word of 3+ letters is left but the names below and the words of the typed sentences."""

from __future__ import annotations

import re

import pytest

from support.browser import CHROMIUM

from .test_server_browser import open_app

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]

# proper names and the paper's symbols, which the Chinese tutorial writes in Latin letters too:
# the program, the model and its parts' names, the optimizers, the Chinese word splitter, the
# English language button (each language in its own name), the formula symbols, and the
# modern parts' own names (the Llama preset, SwiGLU, byte-level BPE).
ALLOWED = {"handformer", "Transformer", "GPT", "ReLU", "Adam", "SGD", "jieba", "English",
           "d_model", "d_k", "d_ff", "W_out", "Llama", "llama", "SwiGLU", "BPE",
           "smollm"}  # a pretrained model's name (smollm2-135m, a choice of the model family)

VISIBLE = """() => ['header.top', 'aside.side'].map(s => document.querySelector(s).innerText).join('\\n')"""


def english_words(text: str, typed: str) -> set[str]:
    own = set(re.findall(r"[A-Za-z]+", typed))  # the sentences the user typed stay as typed
    return {w for w in re.findall(r"[A-Za-z_]{3,}", text) if w not in ALLOWED and w not in own}


def test_every_visible_string_of_the_chinese_app_is_chinese(browser, app):
    page = open_app(browser, app)
    page.click('[data-set-lang="zh"]')
    page.wait_for_function("document.getElementById('status').textContent === '就绪'")
    page.click("#pin")  # "已固定：…" (was "Pinned: …")
    typed = page.input_value("#f-src") + " " + page.input_value("#f-tgt") + " <start>"
    assert english_words(page.evaluate(VISIBLE), typed) == set()
    assert "已固定" in page.inner_text("#pinned-what") and "教程" in page.inner_text("#pinned-what")

    page.fill("#f-src", "")
    page.press("#f-src", "Enter")
    empty = page.locator('.field-error[data-for="src"]')
    empty.wait_for(state="visible")
    assert empty.inner_text() == "源句为空：请至少输入一个词。"  # once, no English after it
    assert english_words(page.evaluate(VISIBLE), typed) == set()

    page.fill("#f-src", "you win")
    page.fill("#f-d_ff", "0")
    page.press("#f-d_ff", "Enter")
    d_ff = page.locator('.field-error[data-for="config.d_ff"]')
    d_ff.wait_for(state="visible")
    assert d_ff.inner_text() == "d_ff（前馈层宽度）至少为 1（现在是 0）。"
    assert english_words(page.evaluate(VISIBLE), typed) == set()
    page.set_viewport_size({"width": 375, "height": 800})  # the phone's summary bar shows
    page.fill("#f-d_ff", "")
    page.press("#f-d_ff", "Enter")
    page.wait_for_function("document.getElementById('status').textContent === '就绪'")
    assert "教程" in page.inner_text("#form-summary")
    assert english_words(page.evaluate(VISIBLE), typed) == set()
    page.screenshot(path="/tmp/shots44/zh-375.png")
    assert page.errors == []


@pytest.mark.parametrize("lang, empty", [("en", "Source sentence is empty: type at least one word."),
                                          ("zh", "源句为空：请至少输入一个词。")])
def test_a_refusal_is_said_once_with_the_english_as_its_tooltip(browser, app, lang, empty):
    page = open_app(browser, app)
    page.click(f'[data-set-lang="{lang}"]')
    page.fill("#f-src", "")
    page.press("#f-src", "Enter")
    slot = page.locator('.field-error[data-for="src"]')
    slot.wait_for(state="visible")
    assert slot.inner_text() == empty
    assert slot.get_attribute("title") == "the source sentence is empty: give at least one word"
