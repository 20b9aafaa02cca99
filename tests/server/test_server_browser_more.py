"""The page's compare changes (one weight, training steps), corpus upload, localised errors."""

from __future__ import annotations

import numpy as np

from handformer.config import preset
from handformer.families.transformer.run import run_forward, setup

from . import test_server_browser as browser_page
from .test_server_browser import matrix, open_app, reveal

pytestmark = browser_page.pytestmark  # Chromium only, as the page's other tests


# The comparison's first changed part, once there is one: the box is emptied while a new
# comparison is on its way, so an absent summary means "not yet", not an error.
SUMMARY_STEP_IS = """step => {
  const summary = document.querySelector('#compare .cmp-summary');
  return summary !== null && summary.dataset.step === step;
}"""

def test_pin_then_edit_one_weight_then_train_one_step(browser, app):
    page = open_app(browser, app)
    page.click("#pin")
    summary = page.locator("#compare .cmp-summary")
    summary.wait_for(state="visible")
    page.wait_for_selector('#param-names option[value="decoder.0.cross_attn.w_k"]', state="attached")
    page.fill("#f-edit\\.param", "decoder.0.cross_attn.w_k")
    page.fill("#f-edit\\.index", "1, 2")
    page.fill("#f-edit\\.value", "0.75")
    page.dispatch_event("#f-edit\\.value", "change")
    page.wait_for_function(SUMMARY_STEP_IS, arg="decoder.0.cross_attn.k")
    page.fill("#f-edit\\.param", "")
    page.fill("#f-train_steps", "1")
    page.dispatch_event("#f-train_steps", "change")
    page.wait_for_function(SUMMARY_STEP_IS, arg="src_embed.tok")
    page.fill("#f-train_steps", "999")
    page.dispatch_event("#f-train_steps", "change")
    error = page.locator('.field-error[data-for="train_steps"]')
    error.wait_for(state="visible")
    assert "train_steps" in error.inner_text()
    assert page.errors == []
    page.context.close()


CORPUS = "the dragon flies\nthe dragon sleeps\nwinter comes\n"


def test_upload_a_corpus_file_and_the_walk_uses_it(browser, app):
    page = open_app(browser, app)
    page.set_input_files("#f-corpus-file", files=[
        {"name": "dragons.txt", "mimeType": "text/plain", "buffer": CORPUS.encode()}])
    page.wait_for_function("document.querySelector('#f-corpus').value.includes('dragon')")
    reveal(page, "encoder.0.self_attn.head.0.scores")  # in view: updated with each edit
    page.fill("#f-src", "the dragon sleeps")
    page.fill("#f-tgt", "winter comes")
    scores = '#panels figure.mx[data-name="encoder.0.self_attn.head.0.scores"] tbody'
    page.wait_for_function(f"document.querySelector('{scores}').rows.length === 3")
    s = setup(preset("tutorial"), dataset=CORPUS.splitlines())
    tape = run_forward(s, "the dragon sleeps", "winter comes")
    name = "encoder.0.self_attn.head.0.scores"
    np.testing.assert_allclose(matrix(page, name), tape[name], atol=5e-4 + 1e-12)
    assert page.locator('.field-error[data-for="corpus"]').is_hidden()
    assert page.errors == []
    page.context.close()


def test_a_file_over_the_corpus_limit_is_refused_in_the_chosen_language(browser, app):
    page = open_app(browser, app)
    page.click('[data-set-lang="zh"]')
    before = page.input_value("#f-corpus")
    big = ("word " * 20_000).encode()  # 100 000 characters, over the 64 KiB-character limit
    page.set_input_files("#f-corpus-file", files=[
        {"name": "big.txt", "mimeType": "text/plain", "buffer": big}])
    error = page.locator('.field-error[data-for="corpus"]')
    error.wait_for(state="visible")
    assert error.inner_text() == f"文件 big.txt 太大（{len(big)}）；语料最多 65536 个字符。"
    assert page.input_value("#f-corpus") == before
    page.context.close()


def test_in_chinese_an_odd_d_model_is_explained_in_chinese_by_its_field(browser, app):
    page = open_app(browser, app)
    page.click('[data-set-lang="zh"]')
    page.fill("#f-d_model", "7")
    error = page.locator('.field-error[data-for="config.d_model"]')
    error.wait_for(state="visible")
    said = error.inner_text()
    assert said.startswith("d_model 7 是奇数：位置编码按 sin/cos 成对填列")
    assert "例如 8" in said
    assert error.locator("small.detail").count() == 0  # said once, the English on hover
    assert "d_model 7 is odd" in error.get_attribute("title")
    assert page.get_attribute("#f-d_model", "aria-invalid") == "true"
    page.click('[data-set-lang="en"]')  # the same refusal, said again in English
    page.wait_for_function("document.querySelector('.field-error[data-for=\"config.d_model\"]')"
                           ".textContent.startsWith('d_model 7 is odd: the positional')")
    assert page.errors == []
    page.context.close()


def test_choose_the_decoder_only_family_and_the_papers_switches(browser, app):
    """The family select walks the GPT-style model (its numbers the engine's), says what the
    training below is, and pre-norm is one select away."""
    import handformer

    page = open_app(browser, app)
    page.select_option("#f-family", "gpt")
    scores = '#panels figure.mx[data-name="decoder.0.self_attn.head.0.scores"] tbody'
    reveal(page, "decoder.0.self_attn.head.0.scores")  # a new panel: a stub till it comes near
    page.wait_for_function(f"document.querySelector('{scores}') && "
                           f"document.querySelector('{scores}').rows.length === 13")
    assert page.locator("#family-note").is_visible() and page.locator("#train").is_disabled()
    tape = handformer.walk(family="gpt")
    name = "decoder.0.self_attn.head.0.scores"
    np.testing.assert_allclose(matrix(page, name), tape[name], atol=5e-4 + 1e-12)
    page.select_option("#f-norm", "post")
    post = handformer.walk(family="gpt", norm="post")
    reveal(page, "decoder.0.ln1.resid")
    np.testing.assert_allclose(matrix(page, "decoder.0.ln1.resid"), post["decoder.0.ln1.resid"],
                               atol=5e-4 + 1e-12)
    page.select_option("#f-family", "transformer")
    reveal(page, "encoder.0.ln1.resid")
    assert page.locator("#family-note").is_hidden() and page.locator("#train").is_enabled()
    assert page.errors == []
    page.context.close()
