"""Training in the page, as a learner uses it: the pairs listed and editable, the tokenizer
chosen by name, one epoch at a time with that epoch's update, random weights beside trained
ones, the quiz on the trained model; and a comparison that survives a copied link."""

from __future__ import annotations

import json
import math

from . import test_server_browser as browser_page
from .test_server_browser import matrix, open_app, reveal

pytestmark = browser_page.pytestmark  # Chromium only, as the page's other tests


# The comparison's first changed part, once there is one: the box is emptied while a new
# comparison is on its way, so an absent summary means "not yet", not an error.
SUMMARY_STEP_IS = """step => {
  const summary = document.querySelector('#compare .cmp-summary');
  return summary !== null && summary.dataset.step === step;
}"""

def _train_body(page, click: str = "#train") -> dict:
    with page.expect_request(lambda r: r.url.endswith("/api/train") and r.method == "POST") as req:
        page.click(click)
    return req.value.post_data_json


def test_the_pairs_are_listed_editable_and_a_line_without_a_separator_is_named(browser, app):
    page = open_app(browser, app)
    page.wait_for_function("document.querySelectorAll('#pairs-list li').length === 3")
    assert page.input_value("#pairs-list li:nth-child(2) .pair-tgt") == "you win or you die."
    page.fill("#f-corpus", "我爱你，i love you\nwinter is coming")
    error = page.locator('.field-error[data-for="pairs"]')
    error.wait_for(state="visible")
    assert "2" in error.inner_text() and "winter is coming" in error.inner_text()
    page.fill("#f-corpus", "a b, c d\ne f\tg h\ni j，k l")
    page.wait_for_function("document.querySelector('#pairs-list .pair-src').value === 'a b'")
    assert error.is_hidden()
    page.fill("#pairs-list li:nth-child(1) .pair-tgt", "c d e")  # edit
    page.click("#pairs-list li:nth-child(2) .pair-remove")  # remove
    page.click("#pair-add")  # add
    page.fill("#pairs-list li:nth-child(3) .pair-src", "m n")
    page.fill("#pairs-list li:nth-child(3) .pair-tgt", "o p")
    page.fill("#f-epochs", "1")
    assert _train_body(page)["pairs"] == "a b\tc d e\ni j\tk l\nm n\to p"
    page.click("#pair-add")
    page.fill("#pairs-list li:nth-child(4) .pair-src", "only a source")
    page.click("#train")
    error.wait_for(state="visible")
    assert "4" in error.inner_text()  # the incomplete pair, by its number
    assert page.errors == []
    page.context.close()


def test_the_characters_tokenizer_cuts_unspaced_chinese(browser, app):
    page = open_app(browser, app)
    reveal(page, "src_embed.tok")  # watched while the form changes: in view, updated first
    page.fill("#f-corpus", "我爱你, I love you")
    page.fill("#f-tgt", "i love you")
    page.fill("#f-src", "我爱你")
    page.wait_for_function("document.querySelector('#panels figure.mx[data-name=\"src_embed.tok\"] tbody')"
                           ".rows.length === 1")  # the tutorial's rule: one word
    page.select_option("#f-tokenizer", "char")
    page.wait_for_function("document.querySelector('#panels figure.mx[data-name=\"src_embed.tok\"] tbody')"
                           ".rows.length === 3")
    assert matrix(page, "src_embed.tok").shape[0] == 3  # 我 · 爱 · 你
    assert "tokenizer=char" in page.url
    page.wait_for_function("document.querySelectorAll('#pairs-list li').length === 1")
    assert _train_body(page)["tokenizer"] == "char"
    assert page.errors == []
    page.context.close()


def test_without_jieba_the_form_says_so(browser, app):
    context = browser.new_context(viewport={"width": 1280, "height": 900})

    def no_jieba(route):
        bundle = json.loads(route.fetch().text())
        bundle["tokenizers"] = {"jieba": False}  # as the server says when it is not installed
        route.fulfill(json=bundle)

    context.route("**/static/ui_text.json", no_jieba)
    page = context.new_page()
    page.goto(app.url + "/")
    page.locator("#no-jieba").wait_for(state="visible")
    assert "pip install -e '.[corpus]'" in page.inner_text("#no-jieba")
    assert page.locator('#f-tokenizer option[value="jieba"]').is_disabled()
    context.close()


def test_one_epoch_shows_the_update_that_ended_it(browser, app):
    page = open_app(browser, app)
    page.fill("#f-epochs", "2000")
    page.select_option("#f-speed", "5")
    page.click("#train")
    page.wait_for_function("document.getElementById('train-progress').value >= 1")
    page.click("#pause")
    page.wait_for_selector("#step:not([disabled])")
    done = page.evaluate("document.getElementById('train-progress').value")
    page.click("#step")
    page.wait_for_function(f"document.getElementById('step-update').dataset.epoch === '{done + 1}'")
    value = {k: float(page.get_attribute(f'#step-update [data-v="{k}"]', "data-value"))
             for k in ("theta", "g", "lr", "m_hat", "v_hat", "theta_new")}
    assert value["lr"] == 0.01  # train's default
    by_hand = value["theta"] - value["lr"] * value["m_hat"] / (math.sqrt(value["v_hat"]) + 1e-9)
    assert math.isclose(value["theta_new"], by_hand, rel_tol=1e-9)
    text = page.inner_text("#step-update")
    assert f"Epoch {done + 1}" in text and "θ′ = θ − η · m̂ / (√v̂ + ε)" in text
    page.click('[data-set-lang="zh"]')
    assert f"第 {done + 1} 轮" in page.inner_text("#step-update")
    # η changed while the job is held: the next epoch's update uses it
    page.fill("#f-lr", "0.5")
    page.dispatch_event("#f-lr", "change")
    page.wait_for_function("document.getElementById('step').disabled === false")
    page.click("#step")
    page.wait_for_function(f"document.getElementById('step-update').dataset.epoch === '{done + 2}'")
    value = {k: float(page.get_attribute(f'#step-update [data-v="{k}"]', "data-value"))
             for k in ("theta", "lr", "m_hat", "v_hat", "theta_new")}
    assert value["lr"] == 0.5
    by_hand = value["theta"] - 0.5 * value["m_hat"] / (math.sqrt(value["v_hat"]) + 1e-9)
    assert math.isclose(value["theta_new"], by_hand, rel_tol=1e-9)
    # the curve's x-axis spans the epochs done, not the 2000 asked: its last point at the right end
    last_x = page.evaluate("Number(document.querySelector('#loss-curve polyline.loss')"
                           ".getAttribute('points').split(' ').pop().split(',')[0])")
    assert last_x == 294.0 and done + 2 < 2000
    page.click("#stop")
    page.locator("#step-update").wait_for(state="hidden")
    assert page.errors == []
    page.context.close()


def test_after_training_random_beside_trained_and_a_quiz_on_the_trained_model(browser, app):
    page = open_app(browser, app)
    page.fill("#f-epochs", "200")
    page.click("#train")
    page.locator("#beside").wait_for(state="visible", timeout=60_000)
    rows = page.eval_on_selector("#beside tbody", "b => Array.from(b.rows).map(r => "
                                 "Array.from(r.cells).map(c => c.textContent))")
    assert [r[0] for r in rows] == ["you", "win", "or", "you", "die", "<end>"]
    assert [r[4] for r in rows] == [r[0] for r in rows]  # trained: every position right
    assert any(r[2] != r[0] for r in rows)  # random weights: not
    assert all(float(r[3]) > float(r[1]) for r in rows)  # p(target) grew at every position
    # the walkthrough of the trained model: its prediction panel picks the target's words
    page.click("#walk-trained")
    page.wait_for_function("document.getElementById('panels').getAttribute('aria-busy') === 'false'")
    reveal(page, "prediction")
    said = page.inner_text('#panels section.panel[data-id="prediction"] .l-en.narration')
    assert "the model says “you win or you die <end>”" in said, said
    page.click("#walk-trained")  # and back to the form's (random) model
    page.wait_for_function("document.getElementById('panels').getAttribute('aria-busy') === 'false'")
    reveal(page, "prediction")
    assert "you win or you die <end>”" not in page.inner_text(
        '#panels section.panel[data-id="prediction"] .l-en.narration')
    page.select_option("#f-quiz-model", "job")
    with page.expect_request(lambda r: r.url.endswith("/api/quiz")) as req:
        page.click("#quiz-start")
    body = req.value.post_data_json
    assert body["job"] and body["src"] == "when you play the game of thrones" and "walk" not in body
    page.wait_for_selector("#quiz-list .quiz-q")
    assert page.errors == []
    page.context.close()


def test_the_comparison_is_in_the_link_with_its_loss_change_in_lesson_words(browser, app):
    page = open_app(browser, app)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("#pin")
    page.fill("#f-train_steps", "1")
    page.dispatch_event("#f-train_steps", "change")
    page.wait_for_function(SUMMARY_STEP_IS, arg="src_embed.tok")
    loss = page.locator("#compare .cmp-loss")
    a, b = float(loss.get_attribute("data-a")), float(loss.get_attribute("data-b"))
    assert b < a and "→" in loss.inner_text() and "Δ −" in loss.inner_text()
    page.click('[data-show-run="b"]')
    page.click('[data-set-lang="zh"]')
    summary = page.inner_text("#compare .cmp-summary")
    assert "第 5 步 · 计算嵌入" in summary and "src_embed" not in summary
    page.click("#copy-link")
    page.wait_for_function("document.getElementById('status').textContent === '链接已复制'")
    link = page.evaluate("navigator.clipboard.readText()")
    assert "pin=" in link and "steps=1" in link and "run=b" in link
    page.context.close()

    fresh = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    other = fresh.new_page()  # no storage, no cookie (bypass_csp: Playwright's waits evaluate)
    other.goto(link)
    other.wait_for_function("document.querySelector('#compare .cmp-summary') && "
                            "document.querySelector('#compare .cmp-summary').dataset.step === 'src_embed.tok'",
                            timeout=30_000)
    assert other.input_value("#f-train_steps") == "1"
    assert other.get_attribute('[data-show-run="b"]', "aria-pressed") == "true"
    assert float(other.get_attribute("#compare .cmp-loss", "data-b")) == b
    assert other.get_attribute("#pin", "data-t") == "unpin"
    fresh.close()
