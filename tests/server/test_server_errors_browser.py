"""Errors where the eye is: under the setting that caused them and inside the window, said with
the field's label in the page's language; the stale walkthrough dimmed; presets the server
refuses not offered; a file that is not UTF-8 refused."""

from __future__ import annotations

import pytest

from support.browser import CHROMIUM

from .test_server_browser import open_app

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


def _in_window(page, selector: str) -> bool:
    return page.eval_on_selector(selector, """e => { const r = e.getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }""")


@pytest.mark.parametrize("width", [1280, 375])
def test_a_setting_refused_is_outlined_and_explained_under_it_in_the_window(browser, app, width):
    page = open_app(browser, app, width=width)
    page.set_viewport_size({"width": width, "height": 800})
    if width < 820:  # on a phone the form is a summary bar above the first panel: open it
        assert page.locator("#f-d_ff").is_hidden()
        page.click("#form-bar")
    page.fill("#f-d_ff", "12")  # the tutorial's single-linear ffn needs d_ff = d_model
    slot = '.field-error[data-for="config.d_ff"]'
    page.locator(slot).wait_for(state="visible")
    assert page.get_attribute("#f-d_ff", "aria-invalid") == "true"
    assert page.get_attribute("#f-d_model", "aria-invalid") is None
    assert page.evaluate(f"document.querySelector('{slot}').previousElementSibling.id") == "f-d_ff"
    assert _in_window(page, slot)
    assert page.inner_text(slot).startswith("d_ff (feed-forward width): ")
    assert "stale" in page.get_attribute("#panels", "class")  # the old walk, dimmed
    page.fill("#f-d_ff", "")
    page.locator(slot).wait_for(state="hidden")
    page.wait_for_function("!document.getElementById('panels').classList.contains('stale')")
    page.context.close()


def test_a_long_sentence_is_named_by_its_label_in_chinese(browser, app):
    page = open_app(browser, app)
    page.click('[data-set-lang="zh"]')
    page.fill("#f-src", " ".join(["you"] * 49))
    slot = page.locator('.field-error[data-for="src"]')
    slot.wait_for(state="visible")
    said = slot.inner_text()
    assert "源句" in said and "src" not in said.split("\n")[0]
    page.context.close()


def test_refused_presets_are_not_offered_and_a_latin1_file_is_refused(browser, app, tmp_path):
    page = open_app(browser, app)
    offered = page.eval_on_selector_all("#f-preset option",
                                        "os => os.filter(o => !o.hidden).map(o => o.value)")
    assert offered == ["tutorial", "small"]  # this server's limits refuse `paper`; llama is gpt's
    assert page.eval_on_selector_all("#f-preset option", "os => os.map(o => o.value)") == [
        "tutorial", "small", "llama"]  # the other family's, hidden until it is chosen
    f = tmp_path / "corpus.txt"
    f.write_bytes("you win or you die\ncafé crème\n".encode("latin-1"))
    before = page.input_value("#f-corpus")
    page.set_input_files("#f-corpus-file", str(f))
    slot = page.locator('.field-error[data-for="corpus"]')
    slot.wait_for(state="visible")
    assert slot.inner_text() == "The file corpus.txt is not UTF-8 text; save it as UTF-8 and choose it again."
    assert page.input_value("#f-corpus") == before
    page.context.close()


def test_train_with_the_chosen_lr_and_optimizer_see_both_curves_and_the_prediction(browser, app):
    page = open_app(browser, app)
    sent = []
    page.on("request", lambda r: sent.append(r.post_data_json) if r.url.endswith("/api/train") and r.method == "POST" else None)
    page.fill("#f-epochs", "4")
    page.fill("#f-lr", "0.05")
    page.select_option("#f-optimizer", "sgd")
    page.click("#train")
    page.locator("#trained").wait_for(state="visible", timeout=60_000)
    assert sent and sent[0]["lr"] == 0.05 and sent[0]["optimizer"] == "sgd" and sent[0]["epochs"] == 4
    assert page.inner_text("#trained-text").strip() != ""
    points = page.get_attribute("#loss-curve polyline.acc", "points").split()
    assert len(points) == 4 and all(6 <= float(p.split(",")[1]) <= 98 for p in points)
    assert page.errors == []
    page.context.close()
