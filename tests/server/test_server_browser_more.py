"""The page's compare changes (one weight, training steps), corpus upload, localised errors."""

from __future__ import annotations

import pytest

from test_html_browser import CHROMIUM  # the project's Chromium; its `browser` fixture: conftest

from .conftest import Server
from .test_server_browser import open_app

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


@pytest.fixture(scope="module")
def app():
    s = Server()
    yield s
    s.stop()


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
    page.wait_for_function("document.querySelector('#compare .cmp-summary').textContent"
                           ".includes('decoder.0.cross_attn.k')")
    page.fill("#f-edit\\.param", "")
    page.fill("#f-train_steps", "1")
    page.dispatch_event("#f-train_steps", "change")
    page.wait_for_function("document.querySelector('#compare .cmp-summary').textContent"
                           ".includes('src_embed.tok')")
    page.fill("#f-train_steps", "999")
    page.dispatch_event("#f-train_steps", "change")
    error = page.locator('.field-error[data-for="train_steps"]')
    error.wait_for(state="visible")
    assert "train_steps" in error.inner_text()
    assert page.errors == []
    page.context.close()
